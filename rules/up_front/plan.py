"""Conditional turns (rules version 4 on; ours, CORE 11.2): a seat leaves its next turn ahead of
time, as correspondence chess's conditional moves, and the game plays it without waiting when the
other side's turn ended as the seat foresaw.

    {"type": "plan", "turns": [[{"type": "fire", "group": "A", "card": "UF017", "target": "B"}],
                               [{"type": "discard", "cards": ["UF120"]}]],
     "when": [["mine", "==", 0]]}

* `turns`: my next turn, and up to two more after it (a sequence of conditional moves): each one
  to six of the turn's own actions (CORE 4: each group acts at most once, or the nation's
  discards, UF C.3-C.4), played in order, then the end of the turn (the hand refilled, UF C.4).
  Every card they name is in the seat's hand when the plan is left, each once: the cards it will
  draw are not known yet.
* `when`: up to three conditions on the other side's turn, in the standing answers' language
  (rules/core/standing.py): `mine`, how many of my groups changed in it (men killed, pinned,
  routed or rallied, range, terrain, altitude, Movement cards, Wire, Minefield, entrenchment or
  position); `his`, how many of his did (a new group counts). "As I left the table" is
  `[["mine", "==", 0], ["his", "==", 0]]`; none: whatever his turn did.
* It is left in the seat's turn, any time before `end_turn`; the table it foresees is the one at
  the end of that turn. At the start of the seat's next turn the game tests the conditions: all
  true, it plays the turn's actions one by one, each only if it is legal then (a reaction window
  one opens is the other side's, asked or settled by its standing answers, and the turn goes on
  after it), and ends the turn; false, the plan is dropped and the seat is asked for its turn.
  An action no longer legal (a card it played as a reaction meanwhile, a group gone) stops the
  plan: the seat is asked for the rest of its turn. The next turn of the plan is tested the same
  way, against the table at the end of the turn it played. `"turns": []` takes a plan back.

Secrecy, as the standing answers': the plan is the seat's hidden move, and a face-down marker
with its conditions is public; whether it was played, or dropped, is public (the seat is asked or
not: as with correspondence chess's conditional moves, the other side learns whether its turn was
foreseen), and what it plays is public as any turn's cards are. Which action stopped a plan is
the seat's alone.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rules.core import standing
from rules.core.game import Action, Fact, IllegalAction
from rules.up_front import verbs as V
from rules.up_front.table import State, other

KIND = "turn"  # its key in state["standing"][seat]
RULE = "CORE 11.2"
MAX_ACTIONS = 6  # in a turn
MAX_TURNS = 3
# The turn's actions a plan may hold (not a standing answer, another plan or the end of the turn).
VERBS = ("move", "alt_step", "complete", "altitude", "remove", "fire", "ordnance", "rally", "entrench", "transfer",
         "shift", "infiltrate", "discard", "discard_onto", "reinforce")
CARD_KEYS = ("card", "altitude", "conceal", "terrain")
KINDS: dict[str, standing.Kind] = {KIND: standing.Kind(
    KIND, ("play",), {"mine": int, "his": int}, RULE,
    "my next turn, left ahead: played when the other side's turn ended as foreseen")}


def _cards(a: Action) -> list[str]:
    out = [a[k] for k in CARD_KEYS if isinstance(a.get(k), str)]
    return out + [c for c in a.get("cards", []) if isinstance(c, str)] if isinstance(a.get("cards"), list) else out


def check(s: State, seat: str, a: Action) -> None:
    """Refuse a malformed plan (IllegalAction, in words): its shape, its conditions, and that each
    card it names is in the seat's hand now, once."""
    if set(a) != {"type", "turns", "when"} or not isinstance(a["turns"], list):
        raise IllegalAction("a conditional turn is {type: plan, turns: [[actions], ...], when: [conditions]}", RULE)
    standing.check(KINDS, {"kind": KIND, "answer": "play", "when": a["when"]})
    if len(a["turns"]) > MAX_TURNS or not all(isinstance(x, list) and 0 < len(x) <= MAX_ACTIONS for x in a["turns"]):
        raise IllegalAction(f"a plan holds up to {MAX_TURNS} turns of 1 to {MAX_ACTIONS} actions each", RULE)
    shapes = V.VERBS.shapes()
    named: list[str] = []
    for x in [x for one in a["turns"] for x in one]:
        kind = x.get("type") if isinstance(x, dict) else None
        if kind not in VERBS:
            raise IllegalAction(f"a conditional turn holds the turn's actions ({', '.join(VERBS)}), "
                                f"not {kind!r}; its end is implied", RULE)
        if set(x) != {"type", *shapes[str(kind)]}:
            raise IllegalAction(f"a {kind} action has the fields {', '.join(shapes[str(kind)])}", RULE)
        named += _cards(x)
    if len(set(named)) != len(named):
        raise IllegalAction("a conditional turn plays each card once", RULE)
    held = s["hands"][seat]
    if any(c not in held for c in named):
        raise IllegalAction("a conditional turn plays cards you hold now (those you will draw are not known)",
                            RULE)


def record(s: State, seat: str, a: Action, describe: Any, facts: list[Fact]) -> None:
    """Leave (or with an empty turn, take back) the seat's conditional turn: its words are the
    seat's fact; that a face-down plan lies, with its conditions, is public."""
    check(s, seat, a)
    own = s.setdefault("standing", {}).setdefault(seat, {})
    had = KIND in own
    when = [list(c) for c in a["when"]]
    if not a["turns"]:
        own.pop(KIND, None)
        if not own:
            s["standing"].pop(seat)
        facts.append(Fact(f"{seat.upper()} takes back its conditional turn", RULE, "plan_marker",
                          {"when": [], "marker": False}))
        return
    own[KIND] = {"answer": "play", "when": when, "turns": [[dict(x) for x in one] for one in a["turns"]],
                 "table": None}
    words = " | ".join("; ".join(describe(x) for x in one) for one in a["turns"])
    facts.append(Fact(f"{seat.upper()} leaves a conditional turn: {words}; "
                      f"{standing.words('play', when)}", RULE, "plan", {"turns": own[KIND]["turns"], "when": when},
                      visible_to=(seat,)))
    facts.append(Fact(f"{seat.upper()} {'changes its' if had else 'leaves a'} face-down conditional turn"
                      + (f" (when {standing.conditions(when)})" if when else ""), RULE, "plan_marker",
                      {"when": when, "marker": True}))


def _fingerprints(s: State, seat: str) -> dict[str, str]:
    """Each group of `seat` as the table shows it, hashed: its cards, range, level, moves and
    markers, and its men's states."""
    out = {}
    for letter, g in sorted(s["groups"][seat].items()):
        men = [[m, s["men"][m]["status"]] for m in g["men"]]
        out[letter] = hashlib.sha256(json.dumps([g, men], sort_keys=True).encode()).hexdigest()[:16]
    return out


def foresee(s: State, seat: str) -> None:
    """At the end of the seat's turn: the table its plan foresees (if it left one)."""
    entry = s.get("standing", {}).get(seat, {}).get(KIND)
    if entry is not None and entry["table"] is None:
        entry["table"] = {who: _fingerprints(s, who) for who in s["roles"]}


def _changed(before: dict[str, str], now: dict[str, str]) -> int:
    return sum(1 for k in set(before) | set(now) if before.get(k) != now.get(k))


def context(s: State, seat: str, table: dict[str, dict[str, str]]) -> dict[str, int]:
    foe = other(s, seat)
    return {"mine": _changed(table[seat], _fingerprints(s, seat)), "his": _changed(table[foe], _fingerprints(s, foe))}


def begin(s: State, seat: str, facts: list[Fact]) -> None:
    """At the start of the seat's turn: its plan is played if its conditions hold, else dropped."""
    entry = s.get("standing", {}).get(seat, {}).get(KIND)
    if entry is None or entry["table"] is None or entry.get("running"):
        return
    ctx = context(s, seat, entry["table"])
    if standing.answer_for({"standing": {seat: {KIND: entry}}}, seat, KIND, ctx) is None:
        drop(s, seat)
        facts.append(Fact(f"{seat.upper()}'s conditional turn is dropped (mine {ctx['mine']}, his {ctx['his']}): "
                          f"{seat.upper()} is asked", RULE, "plan_used", {"seat": seat, "played": False, **ctx}))
        return
    entry["running"] = True
    facts.append(Fact(f"{seat.upper()}'s conditional turn is played (mine {ctx['mine']}, his {ctx['his']})", RULE,
                      "plan_used", {"seat": seat, "played": True, **ctx}))


def running(s: State, seat: str) -> dict[str, Any] | None:
    entry = s.get("standing", {}).get(seat, {}).get(KIND)
    return entry if entry is not None and entry.get("running") else None


def next_action(entry: dict[str, Any]) -> Action:
    """The running turn's next action, or the end of the turn when its actions are played."""
    return dict(entry["turns"][0][0]) if entry["turns"][0] else {"type": "end_turn"}


def played(s: State, seat: str, entry: dict[str, Any]) -> None:
    """An action of the running turn is played: the next; after its end, the plan's next turn
    waits for the table at this turn's end (`foresee`), or the plan is done."""
    if entry["turns"][0]:
        entry["turns"][0].pop(0)
        return
    entry["turns"].pop(0)
    entry["running"], entry["table"] = False, None
    if not entry["turns"]:
        drop(s, seat)


def drop(s: State, seat: str) -> None:
    own = s.get("standing", {}).get(seat, {})
    own.pop(KIND, None)
    if not own:
        s["standing"].pop(seat, None)


def stop(s: State, seat: str, a: Action, describe: Any, facts: list[Fact]) -> None:
    """An action of the plan is not legal now: the rest is dropped and the seat asked."""
    drop(s, seat)
    facts.append(Fact(f"{seat.upper()}'s conditional turn stops: {seat.upper()} is asked for the rest of the turn",
                      RULE, "plan_stopped", {"seat": seat}))
    facts.append(Fact(f"{seat.upper()}'s conditional turn stops at {describe(a)}: not legal now", RULE, "plan_stop",
                      {"action": dict(a)}, visible_to=(seat,)))
