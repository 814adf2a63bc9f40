"""A sandbox position's invariants beyond its shape (rules.core.game.Game.check_position)."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.board import ATTACKER, battle_at, side_adj
from rules.assault_on_belgium.data import World
from rules.core.game import State
from rules.core.stateschema import error


def check_position(s: State, w: World) -> list[dict[str, Any]]:
    """Stacking: at most 3 land units of a side in a hex (AoB 4.1), 5 German ones in a battle
    hex (AoB 15.3); no two sides' land units share a hex that is not a battle hex (AoB 6.2)."""
    out: list[dict[str, Any]] = []
    stacks: dict[tuple[str, str], list[str]] = {}
    for uid, u in w.units.items():
        st = s["units"][uid]
        if u.is_land and st["status"] == "active":
            stacks.setdefault((st["hex"], u.side), []).append(uid)
    for (hex_, side), units in sorted(stacks.items()):
        battle = battle_at(s, hex_) is not None
        limit = 5 if battle and side == ATTACKER else 3
        if len(units) > limit:
            out.append(error(["units", units[limit]], f"stacking: {hex_} holds {len(units)} {side_adj(side)} land "
                             f"units ({', '.join(units)}); at most {limit}" + (" in a battle hex" if battle else ""),
                             "AoB 15.3" if limit == 5 else "AoB 4.1"))
        other = [k for k in stacks if k[0] == hex_ and k[1] != side]
        if other and not battle and side == ATTACKER:
            out.append(error(["units", units[0]], f"German and Belgian land units share {hex_}, which is no battle hex",
                             "AoB 6.2"))
    return out
