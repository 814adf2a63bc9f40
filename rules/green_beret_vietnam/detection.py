"""Noise and detection (12.0-12.3, 12.5): the d10 noise check at the end of a move, and evasion."""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact, State
from rules.green_beret_vietnam.board import (
    camp_at,
    camps,
    fact,
    items_at,
    leaders_at,
    names,
    noise_total,
    teams_at,
)
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import eliminate_items, enemies_go_home

Task = dict[str, Any]


def is_detected(roll: int, total: int) -> bool:
    """12.0: heard if the d10 is at most the total noise; a 1 always detects, a 0 (=10) never."""
    return roll == 1 or (roll != 10 and roll <= total)


def noise(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """12.0: one d10 for the final hex of a move that ends with a GB team (AMBIG-28)."""
    h = task["hex"]
    tms = teams_at(s, w, h)
    if not tms:
        return
    if camp_at(s, h) is not None:
        facts.append(fact(f"{names(w, tms)} end the move in the base camp at {h}: no noise check", "12.10", "noise",
                          hex=h))
        return
    total, parts = noise_total(s, w, h, task["quiet"])
    r = dice.roll(10, "12.0 noise check")
    det = is_detected(r, total)
    why = " (a 1 always detects)" if r == 1 else " (a 0 never detects)" if r == 10 else ""
    quiet = "; quiet move: terrain noise at most 0 (12.2)" if task["quiet"] else ""
    facts.append(fact(f"Noise in {h}: {total}{quiet}; rolled {r if r != 10 else '0 (10)'} on d10: "
                      f"{'detected' if det else 'not detected'}{why}", "12.0", "noise", hex=h, noise=total,
                      parts=parts, die=r, detected=det, quiet=task["quiet"]))
    if det:
        s["agenda"].insert(0, {"t": "detected", "hex": h, "evade": None})


def detected(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """12.3: before any enemy is drawn the player may evade to a base camp, abandoning every
    weapon and piece of equipment in the hex; otherwise the stack is detected and enemies appear."""
    h = task["hex"]
    tms = teams_at(s, w, h)
    if not tms:
        return
    if task["evade"] is None and camps(s):
        s["decision"] = {"kind": "evade", "hex": h, "options": camps(s)}
        s["agenda"].insert(0, task)
        return
    if task["evade"] and task["evade"] in camps(s):
        evade(s, w, h, task["evade"], facts)
        return
    for t in tms:
        s["gb"][t]["detected"] = True
    facts.append(fact(f"{names(w, tms)} in {h} detected: every counter there stays detected until it enters a "
                      "base camp", "12.0", "detection", hex=h, teams=tms))
    s["agenda"].insert(0, {"t": "spawn", "hex": h, "why": "noise"})


def evade(s: State, w: World, h: str, camp: str, facts: list[Fact]) -> None:
    """12.3 (AMBIG-30a): every team and leader in the hex goes to the camp; every weapon and
    piece of equipment in the hex, plus counters included, is eliminated; no enemy appears."""
    to = s["camps"][camp]["hex"]
    people = teams_at(s, w, h) + leaders_at(s, w, h)
    eliminate_items(s, w, items_at(s, w, h), "abandoned to evade detection", "12.3", facts)
    for c in people:
        s["gb"][c].update(hex=to, moved=True, detected=False)
    facts.append(fact(f"{names(w, people)} evade detection: they go to the base camp in {to}; no enemy appears",
                      "12.3", "evade", hex=h, camp=camp, to=to, counters=people))
    enemies_go_home(s, w, facts)

