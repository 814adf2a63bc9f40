"""The sequence of play as a table of named phases (AoB 21).

setup_belgium → setup_germany → german_land_move → belgian_reaction → german_air →
belgian_air → combat → over. With the option reaction_before_german_air = False the
reaction comes after the two air phases (AoB 21 ordering note, AoB 24.7). A phase whose
only possible action would be to end it is skipped, with a fact saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.assault_on_belgium import air, battle_flow, movement, placement
from rules.assault_on_belgium.board import ATTACKER, DEFENDER, battle_hexes, fact, land_units
from rules.assault_on_belgium.data import World
from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction, State, same_json


@dataclass(frozen=True)
class Phase:
    name: str
    label: str
    seat: Callable[[State], str | None]
    ask: Callable[[State, World], str]
    candidates: Callable[[State, World], list[Action]]
    check: Callable[[State, World, Action], None]
    perform: Callable[[State, World, Action, DiceSource, list[Fact]], None]
    ends_with: tuple[str, ...]  # the action types that close the phase
    # The candidates of one action type (`is_legal`); None: all of them, `candidates`.
    candidates_like: Callable[[State, World, Any], list[Action]] | None = None


def _fixed(side: str) -> Callable[[State], str | None]:
    return lambda s: side


def _setup(side: str, nxt: str) -> Phase:
    def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
        placement.perform(s, w, side, a, facts)
        if a["type"] == "done_setup":
            enter(s, w, nxt, dice, facts)

    def ask(s: State, w: World) -> str:
        left = len(placement.unplaced(s, w, side))
        sel = s["selected"]
        what = f"place {w.units[sel].name}" if sel else "select a unit to place"
        country = "Belgium" if side == DEFENDER else "Germany"
        return (f"Set up in {country}: {what} ({left} unit(s) unplaced), "
                "or use the standard set-up; then confirm" if left else f"All units are set up in {country}: confirm")

    return Phase(f"setup_{side}", f"{side.capitalize()} sets up", _fixed(side), ask,
                 lambda s, w: placement.candidates(s, w, side),
                 lambda s, w, a: placement.check(s, w, side, a), perform, ("done_setup",))


def _move(side: str) -> Phase:
    name_ = "german_land_move" if side == ATTACKER else "belgian_reaction"
    end = "end_movement" if side == ATTACKER else "end_reaction"

    def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
        movement.perform(s, w, side, a, facts)
        if a["type"] == end:
            enter(s, w, next_phase(s, name_), dice, facts)

    def ask(s: State, w: World) -> str:
        sel = s["selected"]
        if side == ATTACKER:
            if sel:
                return f"Move {w.units[sel].name} ({s['units'][sel]['mp']} MP left) or end its move"
            return "German land movement: select a unit to move, or end the movement"
        if sel:
            return f"React with {w.units[sel].name} ({s['units'][sel]['mp']} MP left): end next to a battle hex"
        return "Belgian reaction: move units next to battle hexes, or end the reaction"

    label = "German land movement" if side == ATTACKER else "Belgian reaction"
    return Phase(name_, label, _fixed(side), ask, lambda s, w: movement.candidates(s, w, side),
                 lambda s, w, a: movement.check(s, w, side, a), perform, (end,),
                 lambda s, w, kind: movement.candidates(s, w, side, kind))


def _air(side: str) -> Phase:
    name_ = "german_air" if side == ATTACKER else "belgian_air"

    def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
        air.perform(s, w, side, a, facts)
        if a["type"] == "end_air":
            enter(s, w, next_phase(s, name_), dice, facts)

    def ask(s: State, w: World) -> str:
        if side == ATTACKER:
            return "German air: send bombers (support) and fighters (escort) to battle hexes in range, then end"
        return "Belgian air: send fighters to intercept (and bombers to support) over battle hexes, then end"

    label = "German air missions" if side == ATTACKER else "Belgian interception"
    return Phase(name_, label, _fixed(side), ask, lambda s, w: air.candidates(s, w, side),
                 lambda s, w, a: air.check(s, w, side, a), perform, ("end_air",))


def _combat_perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    battle_flow.perform(s, w, a, dice, facts)
    if s["combat"]["step"] == "done":
        enter(s, w, "over", dice, facts)


def _combat_ask(s: State, w: World) -> str:
    c = s["combat"]
    _, what, _ = battle_flow.DECISIONS[c["step"]]
    if c["battle"] is None:
        return f"Combat: {what}"
    b = next(x for x in s["battles"] if x["n"] == c["battle"])
    return f"Battle {b['n']} at {w.hex_title(b['hex'])}, round {b['round']}: {what}"


def _no_check(s: State, w: World, a: Action) -> None:
    raise IllegalAction("the game is over", "AoB 17.2")


PHASES: dict[str, Phase] = {
    "setup_belgium": _setup(DEFENDER, "setup_germany"),
    "setup_germany": _setup(ATTACKER, "german_land_move"),
    "german_land_move": _move(ATTACKER),
    "belgian_reaction": _move(DEFENDER),
    "german_air": _air(ATTACKER),
    "belgian_air": _air(DEFENDER),
    "combat": Phase("combat", "Combat", battle_flow.seat, _combat_ask, battle_flow.candidates, battle_flow.check,
                    _combat_perform, ()),
    "over": Phase("over", "Game over", lambda s: None, lambda s, w: "The game is over", lambda s, w: [],
                  _no_check, lambda s, w, a, d, f: None, ()),
}


def next_phase(s: State, current: str) -> str:
    """AoB 21: after the German move come the reaction and the air phases, in the optioned order."""
    if current == "german_land_move" and not battle_hexes(s):
        return "over"
    if s["options"].get("reaction_before_german_air", True):
        order = ["german_land_move", "belgian_reaction", "german_air", "belgian_air", "combat"]
    else:
        order = ["german_land_move", "german_air", "belgian_air", "belgian_reaction", "combat"]
    return order[order.index(current) + 1]


def legal(s: State, w: World) -> list[Action]:
    ph = PHASES[s["phase"]]
    out = []
    for a in ph.candidates(s, w):
        try:
            ph.check(s, w, a)
        except IllegalAction:
            continue
        out.append(a)
    return out


def is_legal(s: State, w: World, a: Action) -> bool:
    """`a` is in `legal(s, w)` as JSON: the phase's check runs on the candidate equal to it alone, and
    a movement phase lists only the candidates of its type."""
    ph = PHASES[s["phase"]]
    if not isinstance(a, dict):
        return False
    cands = ph.candidates(s, w) if ph.candidates_like is None else ph.candidates_like(s, w, a.get("type"))
    return any(_passes(ph, s, w, c) for c in cands if same_json(c, a))


def _passes(ph: Phase, s: State, w: World, a: Action) -> bool:
    try:
        ph.check(s, w, a)
    except IllegalAction:
        return False
    return True


def enter(s: State, w: World, phase: str, dice: DiceSource, facts: list[Fact]) -> None:
    """Start a phase: its set-up work, then skip it if nothing could be done in it."""
    s["phase"] = phase
    s["selected"] = None
    ph = PHASES[phase]
    if phase in ("german_land_move", "belgian_reaction"):
        movement.start(s, w, ATTACKER if phase == "german_land_move" else DEFENDER)
    if phase == "combat":
        s["combat"] = battle_flow.new_combat()
        facts.append(fact("Combat phase: the battles are fought one at a time", "AoB 12.1", "phase"))
        battle_flow.run(s, w, dice, facts)
        if s["combat"]["step"] == "done":
            enter(s, w, "over", dice, facts)
        return
    if phase == "over":
        victory(s, w, facts)
        return
    if ph.ends_with and all(a["type"] in ph.ends_with for a in legal(s, w)):
        facts.append(fact(f"{ph.label}: nothing can be done, skipped", "AoB 21", "phase"))
        for a in legal(s, w):
            ph.perform(s, w, a, dice, facts)
            return


def victory(s: State, w: World, facts: list[Fact]) -> None:
    """AoB 3 (reading 3.3): Germany wins iff Brussels and Antwerp each hold a German land unit
    and no Belgian land unit once every battle is over (AoB 17)."""
    held = {}
    for key in ("brussels", "antwerp"):
        h = w.objectives[key]
        held[key] = bool(land_units(s, w, ATTACKER, h)) and not land_units(s, w, DEFENDER, h)
    if all(held.values()):
        winner, reason = ATTACKER, "Germany has conquered Brussels and Antwerp"
    else:
        missing = [k.capitalize() for k, v in held.items() if not v]
        winner, reason = DEFENDER, f"Germany has not conquered {' and '.join(missing)}"
    s["result"] = {"winner": winner, "reason": reason}
    facts.append(fact(f"Victory check: {reason}. {winner.capitalize()} wins.", "AoB 3", "victory",
                      winner=winner, hexes=[w.objectives["brussels"], w.objectives["antwerp"]]))
