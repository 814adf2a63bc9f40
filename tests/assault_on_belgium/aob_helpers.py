"""Synthetic worlds and small play helpers for the Assault on Belgium tests.

The map is 10 x 10 hexes (0101-1010, even columns shifted): columns 01-05 are Belgium,
06-08 Germany, 09 the Netherlands, 10 France; 0101 is sea. Brussels 0305 is a hex city
with AA 3, Antwerp 0302 a small city. Everything else is clear unless a test overrides it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from rules.assault_on_belgium import movement
from rules.assault_on_belgium.data import World, build_world
from rules.assault_on_belgium.game import AssaultOnBelgium
from rules.core.dice import fixed_dice
from rules.core.game import Applied, State


def country(col: int) -> str:
    return "BE" if col <= 5 else "DE" if col <= 8 else "NL" if col == 9 else "FR"


def map_doc(overrides: dict[str, dict[str, Any]] | None = None, rivers: list[str] | None = None) -> dict[str, Any]:
    hexes: dict[str, Any] = {}
    for col in range(1, 11):
        for row in range(1, 11):
            lab = f"{col:02d}{row:02d}"
            hexes[lab] = {"terrain": "clear", "country": country(col), "city": None, "fortress": False, "name": None}
    hexes["0101"].update(terrain="sea", country="SEA")
    hexes["0305"].update(terrain="hex_city", city={"name": "Brussels", "kind": "hex_city", "aa": 3}, name="Brussels")
    hexes["0302"].update(city={"name": "Antwerp", "kind": "small_city", "aa": 2}, name="Antwerp")
    for lab, over in (overrides or {}).items():
        hexes[lab] = {**hexes[lab], **over}
    return {"id": "test-map", "title": "Test map", "provenance": "tests",
            "grid": {"first_col": 1, "first_row": 1, "cols": 10, "rows": 10, "shifted": "even", "digits": 2},
            "projection": {}, "hexes": hexes,
            "hexsides": {side: {"river": "Meuse"} for side in (rivers or [])},
            "objectives": {"brussels": "0305", "antwerp": "0302"}}


def land(uid: str, side: str, type_: str, a: int, d: int, m: int, name: str | None = None) -> dict[str, Any]:
    return {"id": uid, "side": side, "name": name or uid, "type": type_, "attack": a, "defense": d, "movement": m,
            "command": 0}


def plane(uid: str, side: str, type_: str, air: int, tac: int, rng: int, name: str | None = None) -> dict[str, Any]:
    return {"id": uid, "side": side, "name": name or uid, "type": type_, "air": air, "tactical": tac,
            "tactical_alt": 0, "naval": 0, "range": rng}


def oob_doc(units: list[dict[str, Any]] | None = None, default: dict[str, dict[str, str]] | None = None) -> dict:
    if units is None:
        units = [
            land("b_inf1", "belgium", "infantry", 5, 4, 6, "1st Infantry"),
            land("b_inf2", "belgium", "infantry", 5, 4, 6, "2nd Infantry"),
            land("b_inf3", "belgium", "infantry", 3, 3, 4, "3rd Infantry"),
            plane("b_ftr", "belgium", "fighter", 3, 0, 8, "Gladiator"),
            plane("b_bmb", "belgium", "bomber", 1, 3, 8, "Fairey Battle"),
            land("g_pz1", "germany", "tank", 6, 5, 5, "1. Panzer"),
            land("g_pz2", "germany", "tank", 7, 5, 5, "7. Panzer"),
            land("g_inf1", "germany", "infantry", 5, 4, 5, "1. Infanterie"),
            land("g_inf2", "germany", "infantry", 4, 4, 4, "2. Infanterie"),
            plane("g_ftr", "germany", "fighter", 6, 0, 10, "Bf 109"),
            plane("g_bmb", "germany", "bomber", 2, 4, 10, "Ju 87"),
        ]
    if default is None:
        default = {"belgium": {"b_inf1": "0305", "b_inf2": "0302", "b_inf3": "0404", "b_ftr": "0303",
                               "b_bmb": "0303"},
                   "germany": {"g_pz1": "0705", "g_pz2": "0705", "g_inf1": "0706", "g_inf2": "0706",
                               "g_ftr": "0805", "g_bmb": "0805"}}
    return {"id": "test-oob", "provenance": "tests", "units": units, "default_setup": default}


def world(overrides: dict[str, dict[str, Any]] | None = None, rivers: list[str] | None = None,
          units: list[dict[str, Any]] | None = None, default: dict[str, dict[str, str]] | None = None) -> World:
    return build_world(map_doc(overrides, rivers), oob_doc(units, default))


def new_game(w: World, **options: bool) -> tuple[AssaultOnBelgium, State]:
    g = AssaultOnBelgium(w)
    return g, g.setup("may-1940", options, fixed_dice([]))


def position(w: World, placing: dict[str, str], phase: str = "german_land_move", **options: bool
             ) -> tuple[AssaultOnBelgium, State]:
    """A hand-built start of German movement: the named units on the map, the rest eliminated."""
    g, s = new_game(w, **options)
    s = copy.deepcopy(s)
    for uid, st in s["units"].items():
        if uid in placing:
            st["status"], st["hex"] = "active", placing[uid]
        else:
            st["status"] = "eliminated" if w.units[uid].is_land else "removed"
    s["phase"] = phase
    if phase == "german_land_move":
        movement.start(s, w, "germany")
    return g, s


def act(g: AssaultOnBelgium, s: State, seat: str, action: dict[str, Any], dice: list[int] | None = None
        ) -> Applied:
    """Apply an action that must be listed as legal, with exactly the given dice."""
    assert action in g.legal_actions(s, seat), (action, g.legal_actions(s, seat))
    d = fixed_dice(dice or [])
    out = g.apply(s, seat, action, d)
    assert len(d.rolls) == len(dice or []), f"used {len(d.rolls)} dice, given {len(dice or [])}"
    json.dumps(out.state)
    return out


def play(g: AssaultOnBelgium, s: State, steps: list[tuple[str, dict[str, Any], list[int]]]) -> tuple[State, list]:
    facts = []
    for seat, action, dice in steps:
        out = act(g, s, seat, action, dice)
        s = out.state
        facts.extend(out.facts)
    return s, facts


def texts(facts: list) -> list[str]:
    return [f.text for f in facts]


