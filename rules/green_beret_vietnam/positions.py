"""A sandbox position's invariants beyond its shape (rules.core.game.Game.check_position)."""

from __future__ import annotations

from typing import Any

from rules.core.game import State
from rules.core.stateschema import error
from rules.green_beret_vietnam.data import World


def check_position(s: State, w: World) -> list[dict[str, Any]]:
    """Enemies appear only where a stack was detected (GBV 12.0): an enemy on the map needs a
    detected Green Beret counter on the map; `enemy_order` lists exactly the enemies on the map;
    every enemy stands on a map hex; two PP-track markers are face down (GBV 3.6)."""
    out: list[dict[str, Any]] = []
    enemies = s["enemies"]
    for e, rec in sorted(enemies.items()):
        if not isinstance(rec, dict) or rec.get("hex") not in w.hexes:
            out.append(error(["enemies", e, "hex"], f"{rec.get('hex') if isinstance(rec, dict) else rec!r} "
                             "is not a map hex", "GBV 12.0"))
    detected = [c for c, r in sorted(s["gb"].items()) if r["status"] == "map" and r["detected"]]
    if enemies and not detected and s["phase"] != "over":
        out.append(error(["enemies"], f"{len(enemies)} enemy unit(s) on the map but no Green Beret counter is "
                         "detected: enemies appear only where a stack was detected", "GBV 12.0"))
    if sorted(s["enemy_order"]) != sorted(enemies):
        out.append(error(["enemy_order"], "must list exactly the enemies on the map (the keys of /enemies)",
                         "GBV 12.0"))
    if len(s["pp_markers"]) != 2:
        out.append(error(["pp_markers"], "the PP track holds two face-down markers", "GBV 3.6"))
    return out
