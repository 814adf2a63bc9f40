"""A sandbox position's invariants beyond its shape (rules.core.game.Game.check_position)."""

from __future__ import annotations

from typing import Any

from rules.core.game import State
from rules.core.stateschema import error
from rules.vietnam_battles.data import World


def check_position(s: State, w: World, scenario_units: set[str]) -> list[dict[str, Any]]:
    """Only this scenario's units (its set-up and reinforcements, VB 26.0/27.0/A-13); a unit is
    hidden exactly when the VC's secret record holds its position, and only VC units hide, on a
    land position (VB 15.0, 16.0); secret base camps stand on map hexes (VB 14.0)."""
    out: list[dict[str, Any]] = []
    for u in sorted(set(s["units"]) - scenario_units):
        out.append(error(["units", u], f"{u} is not a unit of the scenario {s['scenario']}", "VB 26.0"))
    for u in sorted(scenario_units - set(s["units"])):
        out.append(error(["units", u], "missing: a unit of this scenario", "VB 26.0"))
    sec = s["secret"] if isinstance(s["secret"], dict) else {}
    hidden = sec.get("hidden") or {}
    for u, r in sorted(s["units"].items()):
        if r["status"] == "hidden" and u not in hidden:
            out.append(error(["units", u, "status"], "hidden, but /secret/hidden does not hold its position",
                             "VB 15.0"))
    for u, at in sorted(hidden.items()):
        if u not in s["units"] or s["units"][u]["status"] != "hidden":
            out.append(error(["secret", "hidden", u], "a hidden position for a unit that is not hidden", "VB 15.0"))
        elif w.units[u].side != "vc":
            out.append(error(["secret", "hidden", u], "only VC units are hidden", "VB 15.0"))
        elif not isinstance(at, str) or not w.is_node(at):
            out.append(error(["secret", "hidden", u], f"{at!r} is not a land position", "VB 15.0"))
    for camp, hx in sorted((sec.get("camps") or {}).items()):
        if hx not in w.hexes:
            out.append(error(["secret", "camps", camp], f"{hx!r} is not a map hex", "VB 14.0"))
    return out
