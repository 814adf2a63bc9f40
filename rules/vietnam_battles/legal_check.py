"""One action's legality, checked without listing every legal action.

`is_legal(s, w, a)` answers exactly `a in flow.legal(s, w)` (tests/core/test_is_legal.py plays
random games and compares the two on every action listed and on near misses), but asks only
the rule that governs the action's type: a unit's selection asks `movement.can_select` for that
unit (VB 5.0), an engineer task asks for that engineer and that site (VB 18.2-18.3), a set-up
placement for that one place (VB 26.0, 27.0), and so on. Where the listing is short anyway (the
other set-up steps, decisions, landings) it is the listing.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Action
from rules.vietnam_battles import bridges, combat, engineers, iron, iron_setup, movement, setup_vc, transport
from rules.vietnam_battles.data import World
from rules.vietnam_battles.flow import legal

State = dict[str, Any]


def _keys(a: Action, *keys: str) -> bool:
    return set(a) == {"type", *keys}


def is_legal(s: State, w: World, a: Action) -> bool:
    if s["phase"] == "over" or not isinstance(a, dict):
        return False
    if s["phase"] == "setup":
        return iron_setup.is_legal(s, w, a) if iron.on(s) else setup_vc.is_legal(s, w, a)
    if s["decision"] is not None:
        return a in legal(s, w)
    t = a.get("type")
    if s["battle"] is not None:
        if t == "add":
            return _keys(a, "unit") and a["unit"] in combat.addable(s, w)
        if t == "support":
            return _keys(a, "marker") and a["marker"] in combat.committable(s, w)
        return a == {"type": "pass"}
    mv = s["moving"]
    if mv is not None and mv.get("mode") in ("slick", "tango"):
        return t == "land" and _keys(a, "hex") and transport.can_land(s, w, a["hex"])
    if mv is not None and mv.get("mode"):
        return False  # no landing is listed (transport.land_actions)
    if mv is not None:
        return _moving(s, w, mv, a, t)
    if t == "end_phase":
        return a == {"type": "end_phase"}
    if s["phase"] in ("movement", "mech_movement"):
        if t == "select":
            u = a.get("unit")
            return _keys(a, "unit") and isinstance(u, str) and u in s["units"] and movement.can_select(s, w, u)
        if t in ("repair", "eng_bridge"):
            return engineers.is_legal(s, w, a)
        if t == "b52":
            return a in iron.b52_actions(s, w)
        if t in ("slick", "tango"):
            return _keys(a, "unit") and transport.can_board(s, w, a["unit"], t)
        return a in transport.phase_actions(s, w)
    if t == "bombard":
        return (_keys(a, "unit", "marker") and a["marker"] in s["hands"][s["player"]]
                and a["unit"] in combat.bombard_targets(s, w))
    if t == "declare":
        return _keys(a, "defender", "unit") and (a["defender"], a["unit"]) in combat.declarations(s, w)
    return False


def _moving(s: State, w: World, mv: dict[str, Any], a: Action, t: Any) -> bool:
    if t == "enter":
        return _keys(a, "hex") and not mv.get("stopped") and movement.can_enter(s, w, a["hex"])
    if t == "sail":
        return _keys(a, "to") and a["to"] in movement.sail_targets(s, w)
    if t == "demolish":
        return not mv.get("demolished") and a in bridges.demolish_actions(s, w)
    if t == "exit":
        return a in iron.exit_actions(s, w)
    if t == "end_move":
        return a == {"type": "end_move"} and movement.may_end_here(s, w)
    return False
