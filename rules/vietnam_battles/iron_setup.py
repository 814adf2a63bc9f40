"""The Iron Triangle's set-up (VB 27.0; A-26, A-27, A-30; H1).

Stages, in order (the VC first, A-30):
1. `choose_victory {condition}` (VC, secret): escape | casualties | hold — before either side sets up.
2. `cache {hex}` x3 (VC, open): the supply caches, in the VC set-up area (VB 16.1).
3. `place {unit}` then `at {hex}` for every VC unit, openly, in the VC set-up area: Iron Triangle
   hexes of column 12 and east (the map's `vc_setup` region, A-26).
4. `place {unit}` then `at {hex}` (US) for the 2nd Brigade (region `setup_2_25`) and the 196th
   (`setup_196`). The monitor starts on 4223/4323; ARVN 5's tango lands in the US turn-1 Movement
   Phase (A-27), like a reinforcement by river from that hexside's hexes.
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.vietnam_battles.board import land_at, occupancy
from rules.vietnam_battles.data import World

State = dict[str, Any]
CONDITIONS = ("escape", "casualties", "hold")


def _groups(w: World) -> list[tuple[str, list[str], str]]:
    """(side, units, region) of each set-up area."""
    sc = w.scenarios["iron_triangle"]
    out = [("vc", list(sc["vc_setup"]["units"]), str(sc["vc_setup"]["region"]))]
    for e in sc["setup"]:
        if "region" in e:
            out.append(("us", list(e["units"]), str(e["region"])))
    return out


def _region_of(w: World, u: str) -> str:
    for _side, units, region in _groups(w):
        if u in units:
            return region
    raise KeyError(u)


def _unplaced(s: State, w: World, side: str) -> list[str]:
    return [u for sd, units, _r in _groups(w) if sd == side for u in units if s["units"][u]["status"] == "off"]


def legal(s: State, w: World) -> list[Action]:
    st = s["vc_setup"]
    if st["stage"] == "victory":
        return [{"type": "choose_victory", "condition": c} for c in CONDITIONS]
    if st["stage"] == "caches":
        taken = {c["hex"] for c in s["camps"].values()}
        return [{"type": "cache", "hex": h} for h in sorted(w.regions.get("vc_setup", [])) if h not in taken]
    if st["pending"] is None:
        return [{"type": "place", "unit": u} for u in _unplaced(s, w, s["player"])]
    region = sorted(w.regions.get(_region_of(w, st["pending"]["unit"]), []))
    with occupancy(s, w):  # read only: one index instead of a scan of every unit per hex
        return [{"type": "at", "hex": h} for h in region if land_at(s, w, h) is None and not w.prohibited(h)]


def _region_set(w: World, region: str) -> frozenset[str]:
    """A set-up region's hexes as a set, made once per map and region."""
    cache = w.__dict__.setdefault("_setup_regions", {})
    got = cache.get(region)
    if got is None:
        got = cache[region] = frozenset(w.regions.get(region, []))
    return got  # type: ignore[no-any-return]


def is_legal(s: State, w: World, a: Action) -> bool:
    """`a in legal(s, w)`; a unit's place (`at`) is asked of that one hex, not listed among all."""
    st = s["vc_setup"]
    if not (isinstance(a, dict) and a.get("type") == "at" and set(a) == {"type", "hex"}
            and st["stage"] not in ("victory", "caches") and st["pending"] is not None):
        return a in legal(s, w)
    h = a["hex"]
    return (isinstance(h, str) and h in _region_set(w, _region_of(w, st["pending"]["unit"]))
            and land_at(s, w, h) is None and not w.prohibited(h))


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact], start: Any) -> None:
    if not is_legal(s, w, a):
        raise IllegalAction("that set-up step is not allowed", "VB 27.0")
    st = s["vc_setup"]
    t = a["type"]
    if t == "choose_victory":
        s["secret"]["victory"] = a["condition"]
        st["stage"] = "caches"
        facts.append(Fact(f"The VC secretly chooses the victory condition: {a['condition']}", "VB 27.0", "secret_setup",
                          {"condition": a["condition"]}, visible_to=("vc",)))
        facts.append(Fact("The VC writes down a secret victory condition", "VB 27.0", "setup"))
        return
    if t == "cache":
        cid = f"cache-{len(s['camps']) + 1}"
        s["camps"][cid] = {"hex": a["hex"], "status": "revealed"}
        facts.append(Fact(f"VC supply cache {cid} in {a['hex']}", "VB 16.1", "setup", {"camp": cid, "hex": a["hex"]}))
        if len(s["camps"]) == 3:
            st["stage"] = "units"
        return
    if t == "place":
        st["pending"] = {"unit": a["unit"], "hidden": False}
        return
    u = st["pending"]["unit"]
    st["pending"] = None
    s["units"][u]["status"], s["units"][u]["at"] = "map", a["hex"]
    facts.append(Fact(f"{w.units[u].name} sets up in {a['hex']}", "VB 27.0", "setup", {"unit": u, "hex": a["hex"]}))
    if not _unplaced(s, w, s["player"]):
        if s["player"] == "vc":
            s["player"] = "us"
            return
        s["vc_setup"] = None
        start(s, w, dice, facts)
