"""Small hand-made worlds and states for the Vietnam Battles tests (no dependency on the map data)."""

from __future__ import annotations

from typing import Any

from rules.core.dice import fixed_dice
from rules.core.game import Applied
from rules.core.hexgrid import HexGrid, hexside
from rules.vietnam_battles.data import UnitDef, World
from rules.vietnam_battles.game import VietnamBattles

GRID = HexGrid(1, 1, 16, 20, "even")


def unit(uid: str, side: str, a: int, d: int, ma: int, ra: int | None = None, rd: int | None = None,
         steps: int = 2, **kw: Any) -> UnitDef:
    return UnitDef(uid, kw.pop("name", uid), side, kw.pop("nationality", side.upper()), a, d, ma,
                   a // 2 if ra is None else ra, d // 2 if rd is None else rd, ma, steps, **kw)


def boys_units() -> dict[str, UnitDef]:
    """VB 25.0 values; the reduced sides are authored for the tests."""
    us = [("us-4-47-c", 3, 4, 5), ("us-4-47-b", 3, 4, 5), ("us-3-47-c", 2, 4, 5), ("us-3-47-b", 2, 4, 5),
          ("us-3-47-a", 2, 4, 5)]
    out = {u: unit(u, "us", a, d, m) for u, a, d, m in us}
    out["us-5-cav"] = unit("us-5-cav", "us", 1, 2, 6, 0, 1, mech=True)
    out["us-mon-1"] = unit("us-mon-1", "us", 1, 4, 11, 0, 2, monitor=True)
    out["us-mon-3"] = unit("us-mon-3", "us", 0, 2, 12, 0, 1, monitor=True)
    out["vc-514-1"] = unit("vc-514-1", "vc", 3, 5, 6, 1, 3)
    out["vc-514-2"] = unit("vc-514-2", "vc", 3, 5, 6, 1, 3)
    return out


def world(terrain: dict[str, str] | None = None, sides: dict[str, dict[str, Any]] | None = None,
          units: dict[str, UnitDef] | None = None, pools: dict[str, list[int]] | None = None,
          gtrt: list[list[int]] | None = None) -> World:
    hexes = {lab: {"terrain": "clear"} for lab in GRID.labels()}
    for h, t in (terrain or {}).items():
        hexes[h] = {"terrain": t}
    w = World("fixture-map", GRID, hexes, {hexside(*k.split("/")): v for k, v in (sides or {}).items()},
              units or boys_units())
    w.pools = pools if pools is not None else {"us": [1, 2, 3, 4], "vc": [1, 2]}
    w.gtrt = {"boys67": gtrt or [[4, 2]] * 4}
    return w


def state(w: World, at: dict[str, str], player: str = "us", phase: str = "movement",
          hands: dict[str, list[str]] | None = None, reduced: tuple[str, ...] = ()) -> dict[str, Any]:
    units = {u: {"at": h, "status": "map", "reduced": u in reduced, "moved": "", "attacked": "", "advanced": False,
                 "retreated": False, "transported": ""} for u, h in at.items()}
    return {"game": "vietnam-battles", "version": "1", "scenario": "boys67", "map_id": w.map_id, "data_id": w.data_id,
            "options": {}, "rules": {"body_count": True}, "turn": 1, "final_turn": 4, "phase": phase,
            "player": player, "units": units, "moving": None, "battle": None, "decision": None,
            "hands": hands or {"us": [], "vc": []}, "spent": {"us": [], "vc": []}, "bombarded": [], "defended": [],
            "attacks_made": 0, "eliminated": [], "chits": {"slick": 0, "tango": 0}, "bridges_down": [], "eng_bridge": None, "eng": {"done": [], "bridge_turn": None}, "vc_setup": None, "iron": None,
            "secret": None, "camps": {}, "captures": [], "result": None}


def play(g: VietnamBattles, s: dict[str, Any], seat: str, action: dict[str, Any], dice: list[int] | None = None
         ) -> Applied:
    out = g.apply(s, seat, action, fixed_dice(dice or []))
    g.check_state(out.state)
    return out


def texts(out: Applied) -> str:
    return "\n".join(f.text for f in out.facts)
