"""Reinforcements (VB 3.0, 4.1, 26.0; A-36; G13).

Off-map units (status "off") whose turn has come enter in their side's Movement Phase (never the
Mechanized one, A-36), on that turn or later. The scenario data (counters.json "scenarios")
gives each group's turn and entry: `edge` (a hex of the named map edge, paying that hex's
terrain cost, then moving on), `hex` (monitors at 0734/0833, 1 MP), `slick` (helicopter
transport from off the map, VB 10.0) or `tango` (river transport starting at 0734/0833, VB 11.0).
"""

from __future__ import annotations

from typing import Any

from rules.vietnam_battles.data import World

State = dict[str, Any]


def schedule(w: World, scenario: str) -> dict[str, tuple[int, dict[str, Any]]]:
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for e in (w.scenarios.get(scenario) or {}).get("setup", []):
        if e.get("chit") == "tango" and not e.get("landed"):  # ARVN 5 on its tango at 4223/4323
            out[e["unit"]] = (1, {"kind": "tango", "from": str(e["at"]).split("/")})
    for grp in (w.scenarios.get(scenario) or {}).get("reinforcements", []):
        for u in grp["units"]:
            out[u] = (int(grp["turn"]), dict(grp["entry"]))
    return out


def entry_of(s: State, w: World, u: str) -> dict[str, Any] | None:
    """The entry spec of an off-map unit whose turn has come, else None."""
    if s["units"][u]["status"] != "off" or w.units[u].side != s["player"]:
        return None
    sch = schedule(w, s["scenario"]).get(u)
    if sch is None or sch[0] > s["turn"]:
        return None
    return sch[1]


def entry_hexes(w: World, spec: dict[str, Any]) -> list[str]:
    if spec.get("kind") == "hex" or spec.get("from"):
        return list(spec.get("hexes") or spec.get("from") or [])
    edge = str(spec.get("edge", ""))
    if edge in w.edges:
        return list(w.edges[edge])
    if edge.endswith("_north_of_mekong"):
        north = set(w.regions.get("north_of_mekong", []))
        return [h for h in w.edges.get(edge.split("_")[0], []) if h in north]
    return list(w.edges.get(edge, []))
