"""Movement, one hex at a time (VB 5.0-5.3, 6.1; monitors 12.0).

MP are counted in half points so that the road rate (VB 5.2.1, ½ MP) stays an integer.
A unit is selected, enters hexes one by one, and ends its move; its move is then finished
(VB 5.1: a unit that has finished moving may not move again this turn).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rules.core.game import Fact, IllegalAction
from rules.core.hexgrid import hexside
from rules.vietnam_battles.board import (
    answers,
    enemy_monitor_blocks,
    in_ezoc,
    is_hexside,
    land_at,
    monitor_at,
    occupancy,
    placed,
    side_hexes,
    values,
)
from rules.vietnam_battles.data import World, hexpart
from rules.vietnam_battles.entry import entry_hexes, entry_of

State = dict[str, Any]


def can_select(s: State, w: World, u: str) -> bool:
    r = s["units"][u]
    d = w.units[u]
    if r["status"] == "hidden" and d.side == s["player"] and (s["phase"] == "movement" or d.mech):
        return True  # VB 15.0: the VC player may move a hidden unit; that reveals it
    if r["status"] == "off":
        spec = entry_of(s, w, u)
        return spec is not None and spec.get("kind") in ("edge", "hex", "slick_or_edge") and s["phase"] == "movement" \
            and bool(_off_entries(s, w, u, spec))
    if r["status"] != "map" or d.side != s["player"] or r["moved"] or r["transported"] or r["advanced"]:
        return False
    if s["phase"] == "mech_movement":
        return d.mech and not d.monitor  # VB 4.1, 12.0: monitors move only in the Movement Phase
    return True


def _off_entries(s: State, w: World, u: str, spec: dict[str, Any]) -> list[str]:
    """G13 (INFERRED): the first hex entered from off the map costs its terrain (a monitor: 1 MP)."""
    with occupancy(s, w):  # reads the state only
        return _off_entries_in(s, w, u, spec)


def _off_entries_in(s: State, w: World, u: str, spec: dict[str, Any]) -> list[str]:
    d = w.units[u]
    out = []
    for h in entry_hexes(w, spec):
        if h not in w.hexes:
            continue
        if d.monitor:
            if water_hex(w, h) and monitor_at(s, w, h) is None:
                out.append(h)
            continue
        nodes = [f"{h}:{p}" for p in w.portions(h)] or [h]
        for n in nodes:
            occ = land_at(s, w, n)
            if w.prohibited(n) or occ is not None:
                continue
            if int(w.terrain_info(n).get("mp", 1)) * 2 <= mp_total(s, w, u):
                out.append(n)
    return out


def mp_total(s: State, w: World, u: str) -> int:
    return values(s, w, u)[2] * 2


def _ez(s: State, w: World, u: str, h: str) -> bool:
    d = w.units[u]
    if d.side == "vc" and s.get("iron") is not None and h in w.tunnels():
        return False  # VB 22.0, A-21: VC units ignore US ZOC in the tunnel hexes
    return not d.special_forces and in_ezoc(s, w, d.side, h)  # VB 20.0: Special Forces ignore EZOC


def base_cost(s: State, w: World, frm: str, to: str) -> int:
    """VB 5.2, 5.2.1, 5.2.2 in half MP: road ½, trail 1, else terrain plus an unbridged river hexside.
    The map is fixed, so each (from, to, demolished bridges, engineer bridge) is worked out once per map."""
    down, eng = s.get("bridges_down", []), s.get("eng_bridge")
    cache = w.__dict__.setdefault("_base_cost", {})
    key = (frm, to, eng, tuple(down))
    got = cache.get(key)
    if got is None:
        got = cache[key] = _base_cost(w, frm, to, down, eng)
    return got  # type: ignore[no-any-return]


def _base_cost(w: World, frm: str, to: str, down: Any, eng: Any) -> int:
    if w.road_along(frm, to, down):
        return 1
    if w.trail_along(frm, to, down, eng):
        return 2
    cost = int(w.terrain_info(to).get("mp", 1)) * 2
    if w.is_river(frm, to) and not w.bridged(frm, to, down) and eng != hexside(hexpart(frm), hexpart(to)):
        cost += w.river_mp * 2
    return cost


def step(s: State, w: World, u: str, frm: str, to: str, spent: int, been_ez: bool, steps: int
         ) -> tuple[int, bool, str] | None:
    """Entering `to` from `frm`: (MP spent after, the move must end, why) or None if illegal."""
    d = w.units[u]
    if to not in _exits(s, w, u, frm) or w.prohibited(to):
        return None
    occupant = land_at(s, w, to)
    if occupant is not None and w.units[occupant].side != d.side:
        return None  # VB 5.1
    m = monitor_at(s, w, hexpart(to))
    if m is not None and w.units[m].side != d.side:
        return None  # VB 12.0: not into a bank hex an enemy monitor holds
    if enemy_monitor_blocks(s, w, d.side, frm, to):
        return None  # VB 12.0: not across an enemy monitor's hexside
    total = mp_total(s, w, u)
    cost = base_cost(s, w, frm, to)
    from_ez, to_ez = _ez(s, w, u, frm), _ez(s, w, u, to)
    if from_ez and to_ez and (w.fortified(to) or w.minefield(frm, to)):
        return None  # VB 5.1.2 exception: never EZOC to EZOC into a fortification or across a minefield
    if not d.mech:
        if from_ez and to_ez:
            if steps:
                return None
            return total, True, "VB 5.1.2 infiltration: all its MA"
        if spent + cost > total:
            return None
        return spent + cost, to_ez, "VB 5.1.1: a leg unit stops on entering an EZOC" if to_ez else ""
    if to_ez and (been_ez or from_ez):
        cost += (values(s, w, u)[2] // 2) * 2  # VB 5.1.1/5.1.2, A-6: +½ MA, rounded down
    if spent + cost > total:
        return None
    return spent + cost, False, ""


def _other_at(s: State, w: World, u: str, at: str) -> str | None:
    here = placed(s, w, at, False)
    if here is not None:
        return next((v for v in here if v != u), None)
    for v, r in s["units"].items():
        if v != u and r["status"] == "map" and r["at"] == at and not w.units[v].monitor:
            return str(v)
    return None


def _can_end(s: State, w: World, u: str, at: str, spent: int, been_ez: bool) -> bool:
    """May a unit passing through a friendly unit's hex still end its move somewhere empty (VB 5.3)?
    A search over (hex, MP spent), each state visited once."""
    seen: set[tuple[str, int, bool]] = set()
    todo = [(at, spent, been_ez)]
    while todo:
        here, sp, ez = todo.pop()
        if (here, sp, ez) in seen:
            continue
        seen.add((here, sp, ez))
        if _other_at(s, w, u, here) is None:
            return True
        for n in w.adjacent(here):
            r = step(s, w, u, here, n, sp, ez, 1)
            if r is None or (r[1] and _other_at(s, w, u, n) is not None):
                continue
            todo.append((n, r[0], ez or _ez(s, w, u, n)))
    return False


def entries(s: State, w: World) -> list[str]:
    """The places the moving unit may enter next (VB 5.0-5.3, 12.0, 19.0); reads the state only, so
    its occupancy questions are answered from one index (board.occupancy)."""
    with occupancy(s, w):
        return sorted(_entries(s, w))


def has_entry(s: State, w: World) -> bool:
    """`entries(s, w) != []`, stopping at the first place found."""
    with occupancy(s, w):
        return next(_entries(s, w), None) is not None


def can_enter(s: State, w: World, to: Any) -> bool:
    """`to in entries(s, w)`, asking the rules about `to` alone (check one, don't list all)."""
    mv = s["moving"]
    if mv is None or w.units[mv["unit"]].monitor:
        return False
    with occupancy(s, w):
        u = mv["unit"]
        frm = s["units"][u]["at"]
        if frm is None:
            return to in _off_entries(s, w, u, mv["entry"])
        if to in _crossings(s, w, u, frm):
            return True
        return to in _exits(s, w, u, frm) and _may_enter(s, w, u, frm, to, mv)


def _entries(s: State, w: World) -> Iterator[str]:
    """The places `entries` lists, unsorted (a place may come twice)."""
    mv = s["moving"]
    if mv is None or w.units[mv["unit"]].monitor:
        return
    u = mv["unit"]
    frm = s["units"][u]["at"]
    if frm is None:
        yield from _off_entries(s, w, u, mv["entry"])
        return
    yield from _crossings(s, w, u, frm)
    for n in _exits(s, w, u, frm):
        if _may_enter(s, w, u, frm, n, mv):
            yield n


def _may_enter(s: State, w: World, u: str, frm: str, n: str, mv: dict[str, Any]) -> bool:
    """VB 5.1-5.3: may the moving unit step from `frm` into the adjacent place `n`, and (through a
    friendly unit, VB 5.3) still end its move somewhere?"""
    return _stepped(s, w, u, frm, n, mv) is not None


def _stepped(s: State, w: World, u: str, frm: str, n: str, mv: dict[str, Any]) -> tuple[int, bool, str] | None:
    """`step` into the adjacent place `n` if `_may_enter` allows it, else None. Within an occupancy
    scope the answer is kept with the index (board.answers), keyed by everything else it reads: the
    move so far, the unit's side up, the bridges down and the engineer bridge. So the search for an
    entry after one move, the next entry's legality and the entry itself work it out once."""
    memo = answers(s)
    if memo is None:
        return _stepped_now(s, w, u, frm, n, mv)
    key = ("stepped", u, frm, n, mv["spent"], mv["been_ez"], mv["steps"], s["units"][u]["reduced"],
           tuple(s.get("bridges_down", ())), s.get("eng_bridge"), s.get("iron") is not None)
    got = memo.get(key, _UNKNOWN)
    if got is _UNKNOWN:
        got = memo[key] = _stepped_now(s, w, u, frm, n, mv)
    return got  # type: ignore[no-any-return]


_UNKNOWN = object()


def _stepped_now(s: State, w: World, u: str, frm: str, n: str, mv: dict[str, Any]) -> tuple[int, bool, str] | None:
    r = step(s, w, u, frm, n, mv["spent"], mv["been_ez"], mv["steps"])
    if r is None:
        return None
    if _other_at(s, w, u, n) is not None:
        if r[1] or not _can_end(s, w, u, n, r[0], mv["been_ez"] or _ez(s, w, u, n)):
            return None
    return r


def _exits(s: State, w: World, u: str, frm: str) -> Sequence[str]:
    """VB 12.0: a unit in a split Mekong hex that an enemy monitor has entered may leave it from either
    side of the water."""
    if ":" not in frm:
        return w.adjacent(frm)
    h = hexpart(frm)
    m = monitor_at(s, w, h)
    if m is not None and w.units[m].side != w.units[u].side:
        out: set[str] = set()
        for p in w.portions(h):
            out |= set(w.land_nbrs(f"{h}:{p}"))
        return sorted(out - {frm})
    return w.adjacent(frm)


def _crossings(s: State, w: World, u: str, frm: str) -> list[str]:
    """VB 19.0: a leg unit that began the phase on one land portion of a split hex may cross to another
    portion by spending all its MA (mechanized units only over an engineer bridge, not implemented)."""
    mv = s["moving"]
    if ":" not in frm or w.units[u].monitor:
        return []
    h, p = frm.split(":")
    bridged = s.get("eng_bridge") == h  # VB 18.3: over an engineer bridge, at the land's cost, mech too
    if not bridged and (mv["steps"] or w.units[u].mech):
        return []
    if bridged and mv["spent"] + int(w.terrain_info(h).get("mp", 1)) * 2 > mp_total(s, w, u):
        return []
    out = []
    for q in w.portions(h):
        node = f"{h}:{q}"
        if q != p and _other_at(s, w, u, node) is None:
            out.append(node)
    return out


def may_end_here(s: State, w: World) -> bool:
    u = s["moving"]["unit"]
    at = s["units"][u]["at"]
    if at is None:
        return False  # a reinforcement that has arrived must enter the map
    if w.units[u].monitor:
        return monitor_at_other(s, w, u, at) is None
    here = placed(s, w, at, False)
    if here is not None:
        return all(v == u for v in here)
    return not any(v != u and r["status"] == "map" and r["at"] == at and not w.units[v].monitor
                   for v, r in s["units"].items())


def monitor_at_other(s: State, w: World, u: str, space: str) -> str | None:
    here = placed(s, w, space, True)
    if here is not None:
        return next((v for v in here if v != u), None)
    for v, r in s["units"].items():
        if v != u and r["status"] == "map" and r["at"] == space and w.units[v].monitor:
            return str(v)
    return None


def begin(s: State, w: World, u: str, facts: list[Fact]) -> None:
    if s["units"][u]["status"] == "hidden":
        from rules.vietnam_battles.hidden import reveal_unit

        reveal_unit(s, w, u, facts, "its owner moves it")
    at = s["units"][u]["at"]
    if at is None:
        spec = entry_of(s, w, u)
        assert spec is not None
        s["moving"] = {"unit": u, "spent": 0, "steps": 0, "from": None, "been_ez": False, "entry": spec}
        facts.append(Fact(f"{w.units[u].name} arrives as a reinforcement", "VB 26.0", "move", {"unit": u}))
        return
    s["moving"] = {"unit": u, "spent": 0, "steps": 0, "from": at,
                   "been_ez": (not is_hexside(at)) and _ez(s, w, u, at) and not w.units[u].monitor}
    facts.append(Fact(f"{w.units[u].name} starts moving from {at}", "VB 5.0", "move", {"unit": u, "hex": at}))


def enter(s: State, w: World, to: str, facts: list[Fact]) -> None:
    mv = s["moving"]
    u = mv["unit"]
    frm = s["units"][u]["at"]
    with occupancy(s, w):  # the check and the cost read the state only: one index answers them all
        across = frm is not None and isinstance(to, str) and ":" in to and hexpart(to) == hexpart(frm)
        r: tuple[int, bool, str] | None = None
        if frm is None or across:
            ok = can_enter(s, w, to)
        else:  # `can_enter` here is `to in _exits and _may_enter` (never a crossing): its step is the cost
            r = _stepped(s, w, u, frm, to, mv) if not w.units[u].monitor and to in _exits(s, w, u, frm) else None
            ok = r is not None
        if not ok:
            raise IllegalAction(f"{w.units[u].name} may not enter {to} now", "VB 5.1")
        to_ez = _ez(s, w, u, to)
        if frm is None:
            r = (int(w.terrain_info(to).get("mp", 1)) * 2, to_ez and not w.units[u].mech,
                 "VB 5.1.1: a leg unit stops on entering an EZOC" if to_ez else "")
        elif across and s.get("eng_bridge") == hexpart(to):
            r = (mv["spent"] + int(w.terrain_info(to).get("mp", 1)) * 2, False, "VB 18.3: over the engineer bridge")
        elif across:
            r = (mp_total(s, w, u), True, "VB 19.0: across the Mekong, all its MA")
    assert r is not None
    if frm is None:
        s["units"][u]["status"] = "map"
    mv["spent"], stop, why = r
    mv["steps"] += 1
    mv["been_ez"] = mv["been_ez"] or to_ez
    s["units"][u]["at"] = to
    left = mp_total(s, w, u) - mv["spent"]
    facts.append(Fact(f"{w.units[u].name} enters {to} ({_mp(left)} MP left)" + (f"; {why}" if why else ""),
                      why.split(":")[0] if why else "VB 5.2", "move",
                      {"unit": u, "from": frm, "hex": to, "mp_left_halves": left}))
    if stop:
        mv["stopped"] = True


def _mp(halves: int) -> str:
    return str(halves // 2) + ("½" if halves % 2 else "")


# -- monitors (VB 12.0) ----------------------------------------------------------------------
def water_hex(w: World, h: str) -> bool:
    return w.terrain_of(h) in ("all_water", "mekong_bank", "mekong_split") or bool(w.hexes[h].get("mekong"))


def river_side(w: World, key: str) -> bool:
    a, b = side_hexes(key)
    return w.is_river(a, b) and not w.side(a, b).get("no_monitor", False) and \
        w.side(a, b).get("river") != "Thi Tinh"  # VB 12.0: never on the Thi Tinh


def water_links(w: World, at: str) -> list[str]:
    """The water spaces a monitor at `at` may enter for 1 MP (VB 12.0; G6 INFERRED)."""
    out: set[str] = set()
    if is_hexside(at):
        a, b = side_hexes(at)
        for c in set(w.neighbours(a)) & set(w.neighbours(b)):
            for k in (hexside(a, c), hexside(b, c)):
                if river_side(w, k):
                    out.add(k)
        out |= {h for h in (a, b) if water_hex(w, h)}
    else:
        for n in w.neighbours(at):
            if water_hex(w, n):
                out.add(n)
            k = hexside(at, n)
            if river_side(w, k):
                out.add(k)
    return sorted(out)


def sail_targets(s: State, w: World) -> list[str]:
    mv = s["moving"]
    if mv is None or not w.units[mv["unit"]].monitor:
        return []
    u = mv["unit"]
    if s["units"][u]["at"] is None:
        return _off_entries(s, w, u, mv["entry"])
    left = mp_total(s, w, u) - mv["spent"]
    if left < 2:
        return []
    # Passing through another monitor's space is allowed, ending there is not (VB 12.0).
    return [t for t in water_links(w, s["units"][u]["at"]) if left >= 4 or monitor_at_other(s, w, u, t) is None]


def sail(s: State, w: World, to: str, facts: list[Fact]) -> None:
    mv = s["moving"]
    u = mv["unit"]
    if to not in sail_targets(s, w):
        raise IllegalAction(f"{w.units[u].name} may not sail to {to} now", "VB 12.0")
    frm = s["units"][u]["at"]
    mv["spent"] += 2
    mv["steps"] += 1
    s["units"][u]["at"] = to
    s["units"][u]["status"] = "map"
    facts.append(Fact(f"{w.units[u].name} moves to {to} ({_mp(mp_total(s, w, u) - mv['spent'])} MP left)", "VB 12.0",
                      "move", {"unit": u, "from": frm, "to": to}))
