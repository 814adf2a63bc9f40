"""Reaction windows for any card game: the seat whose turn it is not, asked mid-turn.

A window is plain JSON in `state["reaction"]`:

    {"kind": "concealment", "seat": "germans", "context": {"target": "B", "men": 2, "strength": 4},
     "resume": {...what the game needs to finish the interrupted action...}}

While it is open the game's `active_seats` is `[window["seat"]]` and that seat's legal actions
are the game's reactions to it (always including a refusal). The `context` is public: it must
say only what the table can see (the attack, the target), never what the reacting seat holds.

**A window must not depend on the reacting seat's hand.** Its opening is public (the active
seat changes), so a game that opened a concealment window only when the defender held
Concealment would tell the attacker so. The game opens the window whenever the rules *could*
let the seat react; a seat without a fitting card is asked all the same and declines.

**Standing answers** (secret, like standing orders) spare a mail round trip: a seat may record
for a kind of window

    {"answer": "play" | "decline" | "ask", "when": [["men", "<=", 2], ...]}

and when a window of that kind opens with every `when` condition true of its context, the game
applies the answer at once instead of asking: "play" plays a fitting card if the seat holds one
(else declines), "decline" declines. When a condition is false, or the answer is "ask", the
seat is asked. The answers live in `state["standing"][seat]` and only their owner sees them
(`standing_view`); the other seat can tell only *that* it was not asked.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from rules.core.game import IllegalAction

ANSWERS = ("play", "decline", "ask")
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, ">=": operator.ge, "==": operator.eq, "<": operator.lt, ">": operator.gt, "!=": operator.ne,
}


def open_window(state: dict[str, Any], kind: str, seat: str, context: dict[str, Any],
                resume: dict[str, Any] | None = None) -> None:
    if state.get("reaction"):
        raise RuntimeError(f"a {state['reaction']['kind']} window is already open")
    state["reaction"] = {"kind": kind, "seat": seat, "context": dict(context), "resume": dict(resume or {})}


def current(state: dict[str, Any]) -> dict[str, Any] | None:
    window = state.get("reaction")
    return window if window else None


def close(state: dict[str, Any]) -> dict[str, Any]:
    window = state.get("reaction")
    if not window:
        raise RuntimeError("no reaction window is open")
    state["reaction"] = None
    return dict(window)


def check_standing(kind: str, answer: str, when: list[Any], kinds: tuple[str, ...],
                   fields: dict[str, tuple[str, ...]] | None = None) -> None:
    """Refuse a malformed standing answer (IllegalAction). `fields[kind]` lists the context
    fields a condition may test."""
    if kind not in kinds:
        raise IllegalAction(f"no reaction window called {kind!r}; known: {', '.join(kinds)}")
    if answer not in ANSWERS:
        raise IllegalAction(f"a standing answer is one of {', '.join(ANSWERS)}")
    allowed = (fields or {}).get(kind)
    for cond in when:
        if not (isinstance(cond, (list, tuple)) and len(cond) == 3 and cond[1] in _OPS):
            raise IllegalAction(f"a condition is [field, one of {' '.join(_OPS)}, value]: {cond!r}")
        if allowed is not None and cond[0] not in allowed:
            raise IllegalAction(f"a {kind} window's context has no field {cond[0]!r}; "
                                f"it has: {', '.join(allowed)}")


def set_standing(state: dict[str, Any], seat: str, kind: str, answer: str, when: list[Any]) -> None:
    standing = state.setdefault("standing", {})
    mine = dict(standing.get(seat, {}))
    if answer == "ask" and not when:
        mine.pop(kind, None)  # "always ask me" is the default: forget the answer
    else:
        mine[kind] = {"answer": answer, "when": [list(c) for c in when]}
    standing[seat] = mine


def standing_answer(state: dict[str, Any], seat: str, kind: str, context: dict[str, Any]) -> str | None:
    """"play" or "decline" if the seat's standing answer settles this window, None to ask."""
    rule = state.get("standing", {}).get(seat, {}).get(kind)
    if not rule or rule["answer"] == "ask":
        return None
    for field, op, value in rule["when"]:
        if field not in context:
            return None
        try:
            if not _OPS[op](context[field], value):
                return None
        except TypeError:
            return None
    return str(rule["answer"])


def standing_view(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The viewer's own standing answers; nothing of anyone else's."""
    standing = state.get("standing", {})
    return {viewer: standing.get(viewer, {})} if viewer is not None else {}
