"""VC detection, hidden units and base camps (VB 15.0, 16.0, 14.0; A-13, A-19).

Secrets live in `s["secret"]` = {"hidden": {unit: position}, "camps": {camp: hex}}; `view`
removes them for the US seat and spectators. A hidden unit's record has status "hidden" and no
position. After every action `reveal_check` compares the US/ARVN positions with the secrets:
any US unit (monitors too, VB 15.0) adjacent to a hidden unit reveals it; adjacent to (or in) a
camp's hex reveals the camp (VB 16.0; monitors too, INFERRED); a non-monitor US/ARVN unit in a
revealed camp's hex with no VC unit there captures it (passing through counts: each hex entered
is its own action; A-19: advance, retreat and landing count too). Because only the positions
reached are checked, passing over in a helicopter or river craft reveals nothing (VB 15.0).
A revealed unit's ZOC acts at once: a US leg unit that just entered a hex now in an EZOC stops
(A-13). Captures lower the VC allotment from the next game turn (VB 14.0, 16.0: `s["captures"]`).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from rules.core.game import Fact
from rules.vietnam_battles.board import in_ezoc, is_hexside, side_hexes
from rules.vietnam_battles.data import World, hexpart

State = dict[str, Any]
_AT = itemgetter("at")


def _nodes_of(w: World, h: str) -> set[str]:
    return {f"{h}:{p}" for p in w.portions(h)} or {h}


def near_nodes(w: World, at: str, monitor: bool) -> set[str]:
    """Land positions adjacent to (or sharing the hex of) a unit at `at`."""
    return set(_near(w, at, monitor)[0])


def _near(w: World, at: str, monitor: bool) -> tuple[frozenset[str], frozenset[str]]:
    """(near_nodes, their hexes), worked out once per map, place and kind of unit."""
    cache = w.__dict__.setdefault("_vb_near", {})
    got = cache.get((at, monitor))
    if got is None:
        nodes = _near_nodes(w, at, monitor)
        got = cache[at, monitor] = (frozenset(nodes), frozenset(hexpart(n) for n in nodes))
    return got  # type: ignore[no-any-return]


def _near_nodes(w: World, at: str, monitor: bool) -> set[str]:
    if is_hexside(at):
        out: set[str] = set()
        for h in side_hexes(at):
            out |= _nodes_of(w, h)
        return out
    if monitor:
        out = set(_nodes_of(w, hexpart(at)))
        for n in w.neighbours(at):
            out |= _nodes_of(w, n)
        return out
    return set(w.land_nbrs(at)) | {at}


def reveal_unit(s: State, w: World, u: str, facts: list[Fact], why: str, rule: str = "VB 15.0") -> None:
    node = s["secret"]["hidden"].pop(u)
    s["units"][u]["status"], s["units"][u]["at"] = "map", node
    facts.append(Fact(f"Hidden VC unit {w.units[u].name} is revealed in {node} ({why})", rule, "reveal",
                      {"unit": u, "hex": node}))


def reveal_check(s: State, w: World, facts: list[Fact]) -> None:
    sec = s.get("secret")
    if not sec:
        return
    if sec["hidden"] or sec["camps"]:  # else nothing is left to find, and no US unit's place is asked
        _find(s, w, sec, facts)
    mv = s["moving"]
    if mv is not None and not mv.get("mode"):
        m = mv["unit"]
        d = w.units[m]
        if d.side == "us" and not d.mech and not d.monitor and not d.special_forces and mv["steps"] \
                and not mv.get("stopped") and in_ezoc(s, w, "us", s["units"][m]["at"]):
            mv["stopped"] = True
            facts.append(Fact(f"{d.name} stops: the revealed unit's zone of control (A-13)", "VB 5.1.1", "move"))
    capture_check(s, w, facts)


def _find(s: State, w: World, sec: dict[str, Any], facts: list[Fact]) -> None:
    """Every hidden unit and camp a US unit on the map is now beside (VB 15.0, 16.0), unit by unit."""
    units = w.units
    us = sorted((u, r["at"]) for u, r in s["units"].items() if r["status"] == "map" and units[u].side == "us")
    hidden_ids, camp_ids = sorted(sec["hidden"]), sorted(sec["camps"])  # only ever fewer below: sorted once
    hid, camps = sec["hidden"], sec["camps"]  # what is found leaves these very dicts
    known = w.__dict__.setdefault("_vb_near", {})  # _near's table
    for u, at in us:
        if not hid and not camps:
            break  # nothing left to find
        mon = units[u].monitor
        near, near_hexes = known.get((at, mon)) or _near(w, at, mon)
        if near.isdisjoint(hid.values()) and near_hexes.isdisjoint(camps.values()):
            continue  # nothing hidden beside this unit
        for h in hidden_ids:
            if h in sec["hidden"] and sec["hidden"][h] in near and sec["hidden"][h] != at:
                reveal_unit(s, w, h, facts, f"{w.units[u].name} is adjacent")
        for c in camp_ids:
            if c in sec["camps"] and sec["camps"][c] in near_hexes:
                hx = sec["camps"].pop(c)
                s["camps"][c] = {"hex": hx, "status": "revealed"}
                facts.append(Fact(f"VC base camp discovered in {hx} by {w.units[u].name}", "VB 16.0", "reveal",
                                  {"camp": c, "hex": hx}))


def capture_check(s: State, w: World, facts: list[Fact]) -> None:
    """VB 16.0: a US/ARVN unit alone in a revealed camp's hex captures it."""
    revealed = [(c, rec) for c, rec in sorted(s.get("camps", {}).items()) if rec["status"] == "revealed"]
    if not revealed:
        return  # only a revealed camp can be captured
    # who is where, for the camps' places only: `land_at`'s answers (the first non-monitor unit on
    # the map there, in unit order) in one pass over the units; no unit moves here
    nodes = {rec["hex"]: _nodes_of(w, rec["hex"]) for _, rec in revealed}
    wanted = set().union(*nodes.values())
    if wanted.isdisjoint(map(_AT, s["units"].values())):
        return  # no unit in any revealed camp's hex (asked at C speed)
    first: dict[str, str] = {}
    units = w.units
    for u, r in s["units"].items():
        at = r["at"]
        if at in wanted and at not in first and r["status"] == "map" and not units[u].monitor:
            first[at] = u
    for c, rec in revealed:
        hx = rec["hex"]
        here = nodes[hx]
        if any(n in first and units[first[n]].side == "vc" for n in here):
            continue
        for n in sorted(here):
            u = first.get(n)
            if u is not None and units[u].side == "us":
                rec["status"] = "captured"
                s["captures"].append(s["turn"])
                facts.append(Fact(f"{units[u].name} captures the VC base camp in {hx}: the VC support fire "
                                  "allotment falls by one from the next game turn", "VB 16.0", "capture",
                                  {"camp": c, "hex": hx, "unit": u}))
                break


def hidden_at(s: State, hx: str) -> str | None:
    sec = s.get("secret") or {}
    for u, node in sorted(sec.get("hidden", {}).items()):
        if hexpart(node) == hx:
            return str(u)
    return None


def redact(v: State, seat: str | None) -> None:
    """H2, H3: the US seat and spectators see neither hidden units nor unrevealed camps."""
    if seat == "vc" or not v.get("secret"):
        return
    n_units = len(v["secret"]["hidden"])
    n_camps = len(v["secret"]["camps"])
    had_victory = "victory" in v["secret"]
    had_real = "real" in v["secret"]
    v["secret"] = {"hidden": {}, "camps": {}, "hidden_count": n_units, "camp_count": n_camps}
    if had_victory:
        v["secret"]["victory"] = None  # H1: the Iron Triangle condition stays secret
    if had_real:
        v["secret"]["real"] = None  # H5: the designer's variant's real chit
