"""Standing answers at any decision point where the rules ask a seat to choose (ours: not in any
rulebook; a way to play by mail without a round trip per off-turn decision). It generalises Lock
'n Load's standing orders (rules/lock_n_load/orders.py) and UP FRONT's answers to reaction windows
(rules/core/reactions.py, rules/up_front/react.py) to a game without cards or windows.

A game names its kinds of decision (`Kind`: the answers it knows and the context fields a
condition may test). A seat records, for a kind, one answer and up to three conditions:

    {"type": "standing", "kind": "retreat", "answer": "hit", "when": [["hits", "==", 0]]}

When the game reaches a decision of that kind for that seat and every condition is true of the
decision's public context, the game applies the answer at once (`settle`) instead of waiting;
answer "ask" (the default) forgets the kind: the seat is asked.

Secrecy, as UP FRONT's rules version 3 and Lock 'n Load's version 3: whether the game waits for a
seat is public, so it may depend only on public things. A standing answer is a face-down marker:
its kind and its conditions are public (`view` shows them to every seat, recording one is a public
fact), its answer is its owner's alone until it is used (the action that records it is the seat's
hidden move, in a game with `hidden_information`). Using it is public (the table sees the game go
on without asking), and so is what it does.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.game import Action, Fact, IllegalAction

State = dict[str, Any]
RULE = "standing answers (ours)"
HIDDEN = "hidden"  # another seat's answer as its view shows it (a face-down marker)
ASK = "ask"
MAX_CONDITIONS = 3
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, ">=": operator.ge, "==": operator.eq, "<": operator.lt, ">": operator.gt, "!=": operator.ne,
}


@dataclass(frozen=True)
class Kind:
    """One kind of decision a standing answer may settle: its `answers` (besides "ask"), the
    `fields` of its context a condition may test (field -> int or str; a str field is tested with
    == and != only), `rule` (the rulebook section of the decision) and `text` (what it asks)."""

    name: str
    answers: tuple[str, ...]
    fields: Mapping[str, type]
    rule: str
    text: str


Kinds = Mapping[str, Kind]


def check(kinds: Kinds, a: Action) -> None:
    """Refuse a malformed standing answer (IllegalAction, in words); reads no state."""
    name = a.get("kind")
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalAction(f"no decision called {a.get('kind')!r} takes a standing answer; known: "
                            f"{', '.join(kinds)}", RULE)
    if a.get("answer") not in kind.answers + (ASK,):
        raise IllegalAction(f"a standing answer to {kind.name} is one of {', '.join(kind.answers + (ASK,))}", RULE)
    when = a.get("when")
    if not isinstance(when, list) or len(when) > MAX_CONDITIONS:
        raise IllegalAction(f"when is a list of at most {MAX_CONDITIONS} conditions", RULE)
    for cond in when:
        if not (isinstance(cond, list) and len(cond) == 3 and cond[1] in OPS):
            raise IllegalAction(f"a condition is [field, one of {' '.join(OPS)}, value]: {cond!r}", RULE)
        field, op, value = cond
        if field not in kind.fields:
            raise IllegalAction(f"a {kind.name} decision has no field {field!r}; it has: {', '.join(kind.fields)}", RULE)
        want = kind.fields[field]
        if not isinstance(value, want) or isinstance(value, bool):
            raise IllegalAction(f"{field} is compared with a {'number' if want is int else 'text'}", RULE)
        if want is str and op not in ("==", "!="):
            raise IllegalAction(f"{field} is text: compare it with == or !=", RULE)


def mine(s: State, seat: str) -> dict[str, Any]:
    return dict(s.get("standing", {}).get(seat, {}))


def record(s: State, kinds: Kinds, seat: str, a: Action, facts: list[Fact]) -> None:
    """Record (or, with "ask" and no condition, take back) a standing answer: the answer is the
    seat's fact; that a face-down marker for the kind lies, with its conditions, is public."""
    check(kinds, a)
    standing = s.setdefault("standing", {})
    own = dict(standing.get(seat, {}))
    had = a["kind"] in own
    when = [list(c) for c in a["when"]]
    if a["answer"] == ASK:
        own.pop(a["kind"], None)
    else:
        own[a["kind"]] = {"answer": a["answer"], "when": when}
    standing[seat] = own
    facts.append(Fact(f"{seat.upper()} records a standing answer to {a['kind']}: {words(a['answer'], when)}", RULE,
                      "standing", {"kind": a["kind"], "answer": a["answer"], "when": when}, visible_to=(seat,)))
    if a["answer"] == ASK:
        text = f"{seat.upper()} takes back its standing answer to {a['kind']}: it will be asked"
    else:
        text = (f"{seat.upper()} {'changes its' if had else 'puts a'} face-down standing answer to {a['kind']}"
                + (f" (when {conditions(when)})" if when else ""))
    facts.append(Fact(text, RULE, "standing_marker", {"kind": a["kind"], "when": when, "marker": a["answer"] != ASK}))


def answer_for(s: State, seat: str, kind: str, context: Mapping[str, Any]) -> str | None:
    """The seat's answer if its standing answer to `kind` settles this decision, None to ask."""
    rule = s.get("standing", {}).get(seat, {}).get(kind)
    if not rule or rule["answer"] == ASK:
        return None
    for field, op, value in rule["when"]:
        if field not in context:
            return None
        try:
            if not OPS[op](context[field], value):
                return None
        except TypeError:
            return None
    return str(rule["answer"])


def settle(s: State, point: Callable[[State], tuple[str, str, dict[str, Any]] | None],
           pick: Callable[[State, str, str], Action | None], do: Callable[[State, Action], None],
           facts: list[Fact], limit: int = 500) -> None:
    """Apply standing answers while the game waits at a decision one settles. `point(s)`: the
    waiting decision (seat, kind, public context) or None; `pick(s, kind, answer)`: the legal
    action the answer stands for; `do(s, action)`: apply it (its facts into `facts`)."""
    for _ in range(limit):
        p = point(s)
        if p is None:
            return
        seat, kind, context = p
        answer = answer_for(s, seat, kind, context)
        if answer is None:
            return
        action = pick(s, kind, answer)
        if action is None:
            return
        facts.append(Fact(f"{seat.upper()}'s standing answer settles the {kind} decision", RULE, "standing_used",
                          {"kind": kind, "seat": seat}))
        do(s, action)
    raise RuntimeError("standing answers did not settle")


def view(s: State, seat: str | None) -> dict[str, Any]:
    """The viewer's own standing answers; every other seat's as face-down markers (kind and
    conditions, the answer "hidden")."""
    out: dict[str, Any] = {}
    for who, answers in sorted(s.get("standing", {}).items()):
        out[who] = {k: {"answer": v["answer"] if who == seat else HIDDEN, "when": [list(c) for c in v["when"]]}
                    for k, v in sorted(answers.items())}
    return out


def conditions(when: list[Any]) -> str:
    return " and ".join(f"{f} {op} {v}" for f, op, v in when)


def words(answer: str, when: list[Any]) -> str:
    """"hit when hits == 0" (a standing answer in words, for pages and mail)."""
    return answer + (f" when {conditions(when)}" if when else " always")


def lines(s: State, seat: str) -> list[str]:
    """The seat's standing answers in words, one a line (its play page, its mail)."""
    return [f"{k}: {words(v['answer'], v['when'])}" for k, v in sorted(mine(s, seat).items())]
