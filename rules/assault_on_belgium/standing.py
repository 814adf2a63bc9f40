"""Standing answers in Assault on Belgium (rules version 2 on; ours, not in the rulebook:
rules/core/standing.py). Each kind is a decision of the combat phase (AoB 10-17, the battle
sub-machine of AoB 21) where the game would wait for a seat:

* `defender_unit` (Belgium, AoB 11.10): fight with the `strongest` or `weakest` defender (defense
  strength, then fewest hits, then the unit's id);
* `bomber` (either side, AoB 8.5): `support` with the first bomber over the battle, or `none`;
* `assign_hits` (Belgium, AoB 11.8): give an excess hit to the `strongest` or `weakest` other
  defender;
* `retreat` (either side, AoB 11.6): `retreat` to the first hex listed, or take an extra `hit`;
* `withdraw` (either side, AoB 11.9): `continue` the battle;
* `pursuit` (Germany, AoB 15.6): `stop` (no pursuit);
* `air` (either side, AoB 8, 21): `stay`: fly no mission, keep every aircraft at its base (the
  side's air phase ends at once).

The conditions test the decision's public context: `hex` (the battle's hex, text), `round` (the
battle's round), `hits` (retreat: the retreating unit's hits so far), `defense` (retreat: its
defense strength), `pending` (assign_hits: excess hits left), `mine`/`theirs` (withdraw: land units
of each side left in the battle), `battles` (air: battles to be fought).
"""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium import battle_flow
from rules.assault_on_belgium.board import ATTACKER, DEFENDER, battle, land_units
from rules.assault_on_belgium.data import World
from rules.core import standing
from rules.core.game import Action

State = dict[str, Any]

KINDS: dict[str, standing.Kind] = {k.name: k for k in (
    standing.Kind("defender_unit", ("strongest", "weakest"), {"hex": str, "round": int}, "AoB 11.10",
                  "choose the defending unit for a round"),
    standing.Kind("bomber", ("support", "none"), {"hex": str, "round": int}, "AoB 8.5",
                  "support a round with a bomber, or not"),
    standing.Kind("assign_hits", ("strongest", "weakest"), {"hex": str, "pending": int}, "AoB 11.8",
                  "give an excess hit to another defender"),
    standing.Kind("retreat", ("retreat", "hit"), {"hex": str, "round": int, "hits": int, "defense": int}, "AoB 11.6",
                  "retreat the unit or take an extra hit"),
    standing.Kind("withdraw", ("continue",), {"hex": str, "round": int, "mine": int, "theirs": int}, "AoB 11.9",
                  "continue the battle or withdraw a unit"),
    standing.Kind("pursuit", ("stop",), {"hex": str}, "AoB 15.6", "pursue with the tanks, or stop"),
    standing.Kind("air", ("stay",), {"battles": int}, "AoB 8, 21", "fly air missions, or keep the aircraft at base"),
)}
AIR_PHASES = {"german_air": ATTACKER, "belgian_air": DEFENDER}
STEP_KIND = {"defender_unit": "defender_unit", "attacker_bomber": "bomber", "defender_bomber": "bomber",
             "assign_hits": "assign_hits", "attacker_retreat": "retreat", "defender_retreat": "retreat",
             "attacker_withdraw": "withdraw", "defender_withdraw": "withdraw", "pursuit": "pursuit"}


def point(s: State, w: World) -> tuple[str, str, dict[str, Any]] | None:
    """The combat decision the game waits at, as (seat, kind, public context), if a kind fits."""
    if s["phase"] in AIR_PHASES:
        return AIR_PHASES[s["phase"]], "air", {"battles": sum(1 for b in s["battles"] if b["status"] == "pending")}
    c = s.get("combat")
    if s["phase"] != "combat" or not c or c["step"] not in STEP_KIND or c["battle"] is None:
        return None
    step = c["step"]
    seat = battle_flow.DECISIONS[step][0]
    b = battle(s, c["battle"])
    ctx: dict[str, Any] = {"hex": b["hex"], "round": b["round"]}
    if step == "assign_hits":
        ctx = {"hex": b["hex"], "pending": c["pending_hits"]}
    elif step.endswith("_retreat"):
        uid = c["retreat_due"][seat]
        ctx.update(hits=s["units"][uid]["hits"], defense=w.units[uid].defense)
    elif step.endswith("_withdraw"):
        foe = DEFENDER if seat == ATTACKER else ATTACKER
        ctx.update(mine=len(land_units(s, w, seat, b["hex"])), theirs=len(land_units(s, w, foe, b["hex"])))
    elif step == "pursuit":
        ctx = {"hex": b["hex"]}
    return seat, STEP_KIND[step], ctx


def _rank(s: State, w: World, uid: str) -> tuple[int, int, str]:
    return (w.units[uid].defense, -int(s["units"][uid]["hits"]), uid)


def pick(s: State, w: World, kind: str, answer: str) -> Action | None:
    """The legal action the answer stands for (the game's listing decides what is legal)."""
    if kind == "air":
        return {"type": "end_air"}  # AoB 21: a side may always end its air missions
    legal = battle_flow.legal(s, w)
    if kind in ("defender_unit", "assign_hits"):
        units = sorted((a for a in legal if "unit" in a), key=lambda a: _rank(s, w, a["unit"]))
        return (units[-1] if answer == "strongest" else units[0]) if units else None
    want = {"support": "choose_bomber", "none": "no_bomber", "retreat": "retreat", "hit": "take_hit",
            "continue": "continue", "stop": "no_pursuit"}[answer]
    fits = [a for a in legal if a["type"] == want]
    if not fits and answer == "retreat":
        fits = [a for a in legal if a["type"] == "take_hit"]  # no hex to retreat into: the hit, as the rules force
    if not fits and answer == "support":
        fits = [a for a in legal if a["type"] == "no_bomber"]
    return fits[0] if fits else None
