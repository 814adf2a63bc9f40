"""Helicopter (slick, VB 10.0-10.1) and riverine (tango, VB 11.0-11.2) transport.

Step-wise: `{"type": "slick"|"tango", "unit"}` puts a chit on a unit (the pick-up; a slick
pick-up in an EZOC costs a step, VB 10.0), then `{"type": "land", "hex"}` places it. The unit
is then `transported` for the game turn: no further move, one attacker marker (VB 10.1, 11.2;
A-7) and no advance after combat. `s["chits"]` counts the chits used this game turn; the
counts available are the counter mix's (`World.slicks`, `World.tangos`).
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.core.hexgrid import hexside
from rules.vietnam_battles.board import in_ezoc, is_hexside, land_at, occupancy
from rules.vietnam_battles.data import World
from rules.vietnam_battles.entry import entry_of
from rules.vietnam_battles.losses import lose_step
from rules.vietnam_battles.movement import can_select

State = dict[str, Any]
DECISIONS: tuple[str, ...] = ("ambush",)


def reset_chits(s: State) -> None:
    """VB 10.0 (INFERRED): LZ and Landing Beach chits turn back to their unused side each game turn."""
    s["chits"] = {"slick": 0, "tango": 0}


def _split(w: World, h: str) -> bool:
    return w.hexes[h].get("mekong") == "split"  # VB 19.0 land portions: not implemented, no landing there


def _eligible(s: State, w: World, u: str, kind: str) -> bool:
    d = w.units[u]
    at = s["units"][u]["at"]
    if s["units"][u]["status"] == "off":  # a reinforcement entering by transport (VB 26.0, G13)
        spec = entry_of(s, w, u)
        if spec is None or d.mech or d.monitor:
            return False
        if kind == "slick":
            return spec.get("kind") in ("slick", "slick_or_edge")
        return spec.get("kind") == "tango" and bool(_tango_from(s, w, spec))
    if d.side != "us" or d.mech or d.monitor or not can_select(s, w, u) or at is None or is_hexside(at):
        return False
    if kind == "slick":
        return w.terrain_of(at) != "jungle" and not w.prohibited(at)  # VB 10.0 step 1
    if at not in river_access(w):
        return False
    comp = river_component(w, at)
    return any(acc & comp and h != at and land_at(s, w, h) is None and not w.prohibited(h) and not _split(w, h)
               for h, acc in river_access(w).items())


def _tango_from(s: State, w: World, spec: dict[str, Any]) -> list[str]:
    """The destinations of a river transport starting at the entry hexes (0734/0833)."""
    comp: set[str] = set()
    for h in spec.get("from", []):
        comp |= river_component(w, h)
    return [h for h, acc in sorted(river_access(w).items()) if acc & comp and land_at(s, w, h) is None
            and not w.prohibited(h) and not _split(w, h)]


def phase_actions(s: State, w: World) -> list[Action]:
    """VB 10.0, 11.0: US Movement Phase only, while chits remain."""
    if s["phase"] != "movement" or s["player"] != "us" or s["moving"] is not None:
        return []
    out: list[Action] = []
    with occupancy(s, w):  # reads the state only: who is where answers from one index
        for kind, have in (("slick", w.slicks), ("tango", w.tangos)):
            if s["chits"][kind] < have:
                out += [{"type": kind, "unit": u} for u in sorted(s["units"]) if _eligible(s, w, u, kind)]
    return out


def can_board(s: State, w: World, u: Any, kind: str) -> bool:
    """`{"type": kind, "unit": u} in phase_actions(s, w)`, asked of that one unit (check one, don't list all)."""
    if s["phase"] != "movement" or s["player"] != "us" or s["moving"] is not None:
        return False
    have = w.slicks if kind == "slick" else w.tangos
    if not (isinstance(u, str) and u in s["units"] and s["chits"][kind] < have):
        return False
    with occupancy(s, w):
        return _eligible(s, w, u, kind)


def can_land(s: State, w: World, h: Any) -> bool:
    """`h in destinations(s, w)` for the moving transport, asked of that one hex."""
    mv = s["moving"]
    if not isinstance(h, str):
        return False
    if mv.get("mode") == "slick":
        only = (mv.get("entry") or {}).get("slick_terrain")
        return (h in _landing_set(w, "slick") and land_at(s, w, h) is None
                and (only is None or w.terrain_of(h) == only))
    if mv.get("entry"):
        return h in _tango_from(s, w, mv["entry"])
    return (h in _landing_set(w, "river") and bool(river_access(w)[h] & river_component(w, mv["from"]))
            and land_at(s, w, h) is None and h != mv["from"])


def _landing_set(w: World, mode: str) -> frozenset[str]:
    """`_landing_hexes(w, mode)` as a set, made once per map."""
    cache = w.__dict__.setdefault("_cache", {})
    key = "landing set " + mode
    if key not in cache:
        cache[key] = frozenset(_landing_hexes(w, mode))
    return cache[key]  # type: ignore[no-any-return]


def destinations(s: State, w: World) -> list[str]:
    """Where the moving transport may land; reads the state only, so who is where is answered
    from one index (board.occupancy: it asked every unit of every hex of the map)."""
    with occupancy(s, w):
        return _destinations(s, w)


def _destinations(s: State, w: World) -> list[str]:
    mv = s["moving"]
    if mv.get("mode") == "slick":
        # VB 10.0 step 3: any hex not jungle and not all-water, with no unit in it (VB 27.0: turn-1 entry, clear only)
        only = (mv.get("entry") or {}).get("slick_terrain")
        return [h for h in _landing_hexes(w, "slick") if land_at(s, w, h) is None
                and (only is None or w.terrain_of(h) == only)]
    if mv.get("entry"):
        return _tango_from(s, w, mv["entry"])
    comp = river_component(w, mv["from"])
    access = river_access(w)
    return [h for h in _landing_hexes(w, "river") if access[h] & comp and land_at(s, w, h) is None
            and h != mv["from"]]


def _landing_hexes(w: World, mode: str) -> list[str]:
    """The map's part of where a transport may land, in label order, computed once per map (the
    per-map geometry precomputed): a slick's hexes not jungle (VB 10.0 step 3), a boat's hexes on
    the water (VB 11.0); for both not all-water (VB 5.1) and not a split Mekong hex (VB 19.0)."""
    cache = w.__dict__.setdefault("_cache", {})
    key = "landing " + mode
    if key not in cache:
        hexes = sorted(w.hexes) if mode == "slick" else sorted(river_access(w))
        cache[key] = [h for h in hexes if (mode != "slick" or w.terrain_of(h) != "jungle")
                      and not w.prohibited(h) and not _split(w, h)]
    return cache[key]  # type: ignore[no-any-return]


def push_hexes(s: State, w: World, h: str) -> list[str]:
    """VB 11.1: an adjacent hex with no unit, not all-water, not across water from the landing hex."""
    return [n for n in w.land_nbrs(h) if land_at(s, w, n) is None and not w.prohibited(n) and not w.is_river(h, n)]


def decision_actions(s: State, w: World) -> list[Action]:
    d = s["decision"]
    return [{"type": "push", "hex": n} for n in push_hexes(s, w, d["hex"])]


def _ambush(s: State, w: World, u: str, h: str, vc: str, kind: str, facts: list[Fact]) -> None:
    """VB 11.1 (tango) and A-11 reading (i) (slick): the landing unit is pushed by the VC player to an
    empty adjacent hex, then attacks the revealed unit alone, without US support fire."""
    from rules.vietnam_battles.hidden import reveal_unit
    from rules.vietnam_battles.losses import eliminate

    rule = "VB 11.1" if kind == "tango" else "VB 11.1 (A-11)"
    reveal_unit(s, w, vc, facts, "ambush in the landing hex", rule)
    if not push_hexes(s, w, h):
        eliminate(s, w, u, facts, rule, "ambushed with no hex to be pushed into")
        return
    s["units"][u]["at"] = h
    s["decision"] = {"kind": "ambush", "seat": "vc", "unit": u, "vc": vc, "hex": h}
    facts.append(Fact(f"Ambush! The VC player pushes {w.units[u].name} out of {h}", rule, "ambush",
                      {"unit": u, "hex": h, "vc": vc}))


def _push(s: State, w: World, to: str, facts: list[Fact]) -> None:
    d = s["decision"]
    if to not in push_hexes(s, w, d["hex"]):
        raise IllegalAction(f"the ambushed unit may not be pushed into {to}", "VB 11.1")
    u, vc = d["unit"], d["vc"]
    s["units"][u]["at"] = to
    s["decision"] = None
    facts.append(Fact(f"{w.units[u].name} is pushed into {to} and must attack {w.units[vc].name} alone, without "
                      "support fire", "VB 11.1", "ambush", {"unit": u, "hex": to}))
    s["battle"] = {"kind": "attack", "attacker": "us", "defender": vc, "at": d["hex"], "units": [u], "step": 1,
                   "att": [], "def": [], "att_passed": [], "def_passed": [], "att_limit": 0, "ambush": True}


def land_actions(s: State, w: World) -> list[Action]:
    mv = s["moving"]
    if mv is None or mv.get("mode") not in ("slick", "tango"):
        return []
    return [{"type": "land", "hex": h} for h in destinations(s, w)]


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    t = a["type"]
    if t in ("slick", "tango"):
        u = a["unit"]
        at = s["units"][u]["at"]
        s["chits"][t] += 1
        s["moving"] = {"unit": u, "spent": 0, "steps": 0, "from": at, "been_ez": False, "mode": t}
        if at is None:
            s["moving"]["entry"] = entry_of(s, w, u)
        rule = "VB 10.0" if t == "slick" else "VB 11.0"
        where = at or "off the map"
        facts.append(Fact(f"{w.units[u].name} boards a {'helicopter' if t == 'slick' else 'river craft'} at {where}",
                          rule, "transport", {"unit": u, "hex": at, "chit": t}))
        if t == "slick" and at is not None and in_ezoc(s, w, "us", at):
            lose_step(s, w, u, facts, "VB 10.0", "picked up in an enemy zone of control")
            if s["units"][u]["status"] != "map":
                s["moving"] = None
        return
    if t == "push":
        _push(s, w, a["hex"], facts)
        return
    if t == "land":
        mv = s["moving"]
        u, h = mv["unit"], a["hex"]
        if not can_land(s, w, h):
            raise IllegalAction(f"{w.units[u].name} may not land in {h}", "VB 10.0")
        kind = mv["mode"]
        s["units"][u]["status"] = "map"
        s["units"][u]["transported"] = kind
        s["units"][u]["moved"] = s["phase"]
        s["moving"] = None
        from rules.vietnam_battles.hidden import hidden_at

        vc = hidden_at(s, h)
        if vc is not None:
            _ambush(s, w, u, h, vc, kind, facts)
            return
        s["units"][u]["at"] = h
        what = "Landing Zone" if kind == "slick" else "Landing Beach"
        facts.append(Fact(f"{w.units[u].name} lands in {h}: {what} chit; no further move, one attacker marker and "
                          "no advance this turn", "VB 10.1" if kind == "slick" else "VB 11.2", "transport",
                          {"unit": u, "hex": h, "chit": kind}))
        return
    raise IllegalAction(f"unknown action {t!r}")


# -- the water network for riverine transport (VB 11.0) ---------------------------------------
def _mekong(w: World, h: str) -> bool:
    return w.terrain_of(h) == "all_water" or w.hexes[h].get("mekong") in ("all_water", "bank", "split")


def river_access(w: World) -> dict[str, set[str]]:
    """Hex -> the water nodes it touches (its river hexsides; itself if a Mekong hex). Cached."""
    cache = w.__dict__.setdefault("_cache", {})
    if "access" not in cache:
        acc: dict[str, set[str]] = {}
        for h in w.hexes:
            nodes = {hexside(h, n) for n in w.neighbours(h) if w.is_river(h, n)}
            if _mekong(w, h):
                nodes.add(h)
            if nodes:
                acc[h] = nodes
        cache["access"] = acc
    return cache["access"]  # type: ignore[no-any-return]


def river_component(w: World, h: str) -> set[str]:
    """Every water node connected to hex h's (Mekong hexes and river hexsides, VB 11.0 step 3)."""
    cache = w.__dict__.setdefault("_cache", {})
    comps: dict[str, int] = cache.setdefault("comp", {})
    if not comps:
        nodes = set().union(*river_access(w).values())
        adj: dict[str, set[str]] = {n: set() for n in nodes}
        for n in nodes:
            if "/" in n:
                a, b = n.split("/")
                for c in set(w.neighbours(a)) & set(w.neighbours(b)):
                    for k in (hexside(a, c), hexside(b, c)):
                        if k in adj:
                            adj[n].add(k)
                for x in (a, b):
                    if x in adj:
                        adj[n].add(x)
                        adj[x].add(n)
            else:
                for m in w.neighbours(n):
                    if m in adj:
                        adj[n].add(m)
        i = 0
        for n in sorted(nodes):
            if n in comps:
                continue
            stack = [n]
            while stack:
                x = stack.pop()
                if x in comps:
                    continue
                comps[x] = i
                stack.extend(adj[x] - set(comps))
            i += 1
    ids = {comps[n] for n in river_access(w).get(h, set())}
    return {n for n, c in comps.items() if c in ids}
