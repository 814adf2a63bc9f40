"""A sandbox position's invariants beyond its shape (rules.core.game.Game.check_position):
stacking (LnL 1.3), this scenario's units (its order of battle, its event reinforcements, the
half squads they split into, heroes when the option is on: LnL 3.0, 1.7, 11.2) and any counter of
the published mix (counters.json) a judge brings as `<kind>-<n>` for its nationality's side (a
dispute about a Marine or an NVA squad can be rebuilt in the demo's sandbox), and markers
on what exists: support weapons held by living units of this position (LnL 1.6), spotted and event
markers on hexes of the board (LnL 10.1, 1.7), a selected or spotting unit that exists (LnL 4.0).
A unit off the map or eliminated keeps the marker it had: play leaves it so."""

from __future__ import annotations

import re
from typing import Any

from rules.core.game import State
from rules.core.stateschema import error
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World


def scenario_units(w: World, scenario: str) -> dict[str, tuple[str, str]]:
    """The unit ids the scenario brings into play, with their side and kind: its order of battle
    and the reinforcements its event markers bring (LnL 1.7)."""
    sc = w.scenarios[scenario]
    out = {u["id"]: (side, u["kind"]) for side, lst in sc["units"].items() for u in lst}
    for e in sc["event_markers"]:
        unit = (e.get("effect") or {}).get("unit")
        if unit:
            out[unit["id"]] = (unit["side"], unit["kind"])
    return out


def _origin(uid: str, known: dict[str, tuple[str, str]], heroes: bool, w: World) -> tuple[str, str | None] | None:
    """Where a unit id can come from: (the scenario unit, None), (a split's parent, "split"),
    (its side, "hero"), (a counter kind of the published mix, "counter"); None if from nowhere."""
    if uid in known:
        return uid, None
    counter = re.fullmatch(r"(.+)-(\d+)", uid)
    if counter and counter.group(1) in w.kinds and w.kinds[counter.group(1)].cls != "hero":
        return counter.group(1), "counter"
    split = re.fullmatch(r"(.+)-(\d+)", uid)
    if split and int(split.group(2)) >= 2:  # a half squad split off a unit of the scenario, or off such a half
        parent = _origin(split.group(1), known, heroes, w)  # squad recombined and split again (3.0: us6-2-2)
        if parent is not None and parent[1] in (None, "split"):
            return parent[0], "split"
    hero = re.fullmatch(r"(us|vc)-hero(\d+)", uid)
    if hero and heroes:
        return hero.group(1), "hero"
    return None


def check_position(s: State, w: World) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    known = scenario_units(w, s["scenario"])
    sides = w.scenarios[s["scenario"]]["sides"]
    heroes = bool(s["options"].get("heroes"))
    for uid, r in sorted(s["units"].items()):
        origin = _origin(uid, known, heroes, w)
        if origin is None:
            out.append(error(["units", uid], f"{uid} is not a unit of scenario {s['scenario']} (its units: "
                             f"{', '.join(sorted(known))}; split half squads <id>-2..., heroes <side>-heroN; "
                             "any counter of the published mix as <kind>-<n>, e.g. usmc-sq-364-1)",
                             "LnL 1.7 (scenario)"))
            continue
        base, how = origin
        nationality = w.kinds[r["kind"]].nationality
        if how == "counter":  # a counter the judge brings: its own kind, for its nationality's side
            if r["kind"] != base:
                out.append(error(["units", uid, "kind"], f"{uid} is named for a {base}, not a {r['kind']}",
                                 "LnL 1.7 (counters)"))
            elif w.side_of(nationality) != r["side"]:
                out.append(error(["units", uid, "side"], f"{uid} is {nationality}, which fights for "
                                 f"{w.side_of(nationality)}", "LnL 1.7 (counters)"))
            continue
        if nationality not in sides[r["side"]]["nationalities"]:
            out.append(error(["units", uid, "kind"], f"{uid} is a {r['kind']} ({nationality}), not of the "
                             f"{r['side']} side's nationalities in this scenario "
                             f"({', '.join(sides[r['side']]['nationalities'])})", "LnL 1.7 (scenario)"))
        if how is None and known[base][0] != r["side"]:
            out.append(error(["units", uid, "side"], f"{uid} fights for {known[base][0]} in this scenario",
                             "LnL 1.7 (scenario)"))
    for x, sw in sorted(s["sws"].items()):
        holder = sw["holder"]
        if holder is not None and (holder not in s["units"] or s["units"][holder]["dead"]):
            out.append(error(["sws", x, "holder"], f"support weapon {x} is held by {holder}, which is "
                             + ("dead" if holder in s["units"] else "no unit of this position"), "LnL 1.6"))
    for i, h in enumerate(s["spotted"]):
        if not w.board.is_hex(h):
            out.append(error(["spotted", i], f"a spotted marker in {h}, which is no hex of the board", "LnL 10.1"))
    for eid, e in sorted(s["events"].items()):
        if not w.board.is_hex(e["hex"]):
            out.append(error(["events", eid, "hex"], f"event marker {eid} is in {e['hex']}, which is no hex of the "
                             "board", "LnL 1.7"))
    spot = s["spot"]
    if spot is not None and spot["unit"] not in s["units"]:
        out.append(error(["spot", "unit"], f"{spot['unit']} is spotting but is no unit of this position", "LnL 10.1"))
    imp = s["impulse"] or {}
    for i, uid in enumerate(imp.get("group") or []):
        if uid not in s["units"]:
            out.append(error(["impulse", "group", i], f"{uid} is selected but is no unit of this position", "LnL 4.0"))
    if s["phase"] != "over":
        hexes = sorted({r["at"] for r in s["units"].values() if r["at"]})
        for h in hexes:
            for side in ("us", "vc"):
                if not U.stacking_ok(s, w, h, side):
                    here = U.units_in(s, h, side)
                    out.append(error(["units", here[-1], "at"], f"{side.upper()} is over-stacked in {h} "
                                     f"({', '.join(here)}): at most 3 squad-equivalents and 2 SMCs (dense jungle: "
                                     f"2 squads, 2 SWs)", "LnL 1.3"))
    return out
