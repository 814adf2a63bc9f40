"""Where things are, as the rules ask it: occupancy, zones of control, contact (VB 5.3, 6.0, 12.0).

A unit's `at` is a hex label, or for a monitor on a river hexside the hexside key ("0717/0718",
VB 12.0: the only case of a unit on a hexside). Monitors exert no ZOC and are not counted as
occupying a land hex (VB 12.0, 12.1; A-32).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from operator import itemgetter
from typing import Any

from rules.core.readscope import read_only_scope
from rules.vietnam_battles.data import UnitDef, World, hexpart

State = dict[str, Any]
SIDES = ("us", "vc")


def other(side: str) -> str:
    return "vc" if side == "us" else "us"


def udef(w: World, uid: str) -> UnitDef:
    return w.units[uid]


def on_map(s: State, uid: str) -> bool:
    return bool(s["units"][uid]["status"] == "map")


def units_of(s: State, w: World, side: str | None = None) -> list[str]:
    return sorted(u for u, r in s["units"].items() if r["status"] == "map" and (side is None or w.units[u].side == side))


def is_hexside(at: str | None) -> bool:
    return at is not None and "/" in at


def side_hexes(at: str) -> list[str]:
    return at.split("/")


Index = tuple[dict[str, list[str]], dict[str, list[str]]]  # (land units by place, monitors by place)
Memo = dict[tuple[Any, ...], Any]  # answers that depend only on the map and who is where: in_ezoc's by (side, hex)
# The scope: the units dict it indexes, its index, and the memo of ZOC answers for that index.
_SCOPE: ContextVar[tuple[Any, Index, Memo] | None] = ContextVar("vb_occupancy", default=None)
_WHERE = itemgetter("status", "at")
Where = tuple[list[str], list[tuple[Any, Any]]]  # every unit, and each one's (status, at), in unit order
_RECENT: tuple[tuple[World, Where, Index, Memo], ...] = ()  # the last few indexes built, newest first
_KEEP = 4


def _where(s: State) -> Where:
    """All that the index is built from (with the map's unit definitions), taken at C speed."""
    units = s["units"]
    return list(units), list(map(_WHERE, units.values()))


def _index(s: State, w: World) -> Index:
    """Every on-map unit by where it is, in the state's unit order (so the first is the one a scan finds)."""
    land: dict[str, list[str]] = {}
    mons: dict[str, list[str]] = {}
    units = w.units
    for u, r in s["units"].items():
        if r["status"] == "map" and r["at"] is not None:
            (mons if units[u].monitor else land).setdefault(r["at"], []).append(u)
    return land, mons


def _indexed(s: State, w: World, where: Where) -> tuple[Index, Memo]:
    """The index of `s` (and its ZOC memo): reused when the same map had the same units in the same
    places lately (one apply asks about the state before the move, its copy, and the state after),
    else built and kept."""
    global _RECENT
    recent = _RECENT  # swapped whole, never changed in place: safe beside other threads
    for w2, where2, idx, memo in recent:
        if w2 is w and where2 == where:
            return idx, memo
    idx, memo = _index(s, w), {}
    _RECENT = ((w, where, idx, memo), *recent[: _KEEP - 1])
    return idx, memo


def occupancy(s: State, w: World) -> AbstractContextManager[None]:
    """Within this scope, who-is-where questions on `s` answer from an index (built on entry, or a
    recent one for the very same places) instead of scanning every unit. For read-only work only:
    on leaving, every unit's place is compared with the one on entry, so a scope that moved a unit
    fails loudly instead of having answered from a stale index."""
    return read_only_scope(_SCOPE, s["units"], lambda: _where(s), lambda where: _indexed(s, w, where),
                           "occupancy index")


def placed(s: State, w: World, at: str, monitor: bool) -> list[str] | None:
    """The units (monitors or not) at `at` in unit order, from the scope's index; None outside a scope."""
    cur = _SCOPE.get()
    if cur is None or cur[0] is not s["units"]:
        return None
    return cur[1][1 if monitor else 0].get(at, [])


def answers(s: State) -> Memo | None:
    """The scope's memo for `s`: questions whose answer depends only on the map and on where the units
    are (as in_ezoc's) may keep it there, by a key of their own; None outside a scope."""
    cur = _SCOPE.get()
    return cur[2] if cur is not None and cur[0] is s["units"] else None


def land_at(s: State, w: World, h: str) -> str | None:
    """The (non-monitor) unit in hex h, if any (VB 5.3: at most one)."""
    cur = _SCOPE.get()
    if cur is not None and cur[0] is s["units"]:
        here = cur[1][0].get(h)
        return here[0] if here else None
    for u, r in s["units"].items():
        if r["status"] == "map" and r["at"] == h and not w.units[u].monitor:
            return str(u)
    return None


def monitor_at(s: State, w: World, space: str) -> str | None:
    cur = _SCOPE.get()
    if cur is not None and cur[0] is s["units"]:
        here = cur[1][1].get(space)
        return here[0] if here else None
    for u, r in s["units"].items():
        if r["status"] == "map" and r["at"] == space and w.units[u].monitor:
            return str(u)
    return None


def values(s: State, w: World, uid: str) -> tuple[int, int, int]:
    """(attack, defense, MA) on the side now face up (VB 7.6 step losses flip a unit)."""
    return w.units[uid].values(bool(s["units"][uid]["reduced"]))


def in_ezoc(s: State, w: World, side: str, h: str) -> bool:
    """VB 6.0: h is in an enemy ZOC for `side` if an enemy non-monitor unit is adjacent. Within an
    occupancy scope each (side, hex) is worked out once, from the index."""
    cur = _SCOPE.get()
    if cur is None or cur[0] is not s["units"]:
        with occupancy(s, w):
            return in_ezoc(s, w, side, h)
    memo = cur[2]
    got = memo.get((side, h))
    if got is None:
        land, units = cur[1][0], w.units
        got = memo[side, h] = any((here := land.get(n)) and units[here[0]].side != side for n in w.adjacent(h))
    return got


def _in_ezoc(s: State, w: World, side: str, h: str) -> bool:
    """in_ezoc by a scan of the units (outside an occupancy scope)."""
    for n in w.adjacent(h):
        u = land_at(s, w, n)
        if u is not None and w.units[u].side != side:
            return True
    return False


def enemy_monitor_blocks(s: State, w: World, side: str, a: str, b: str) -> bool:
    """VB 12.0: enemy units may not cross the hexside a monitor occupies."""
    m = monitor_at(s, w, w.side_key(a, b))
    return m is not None and w.units[m].side != side


def touches(w: World, at: str) -> set[str]:
    """Hexes a unit at `at` is adjacent to or in: a land hex's neighbours; a hexside's two hexes (INFERRED, G6)."""
    if is_hexside(at):
        return set(side_hexes(at))
    return set(w.land_nbrs(at)) | {at}


def in_contact(s: State, w: World, a: str, b: str) -> bool:
    """VB 7.0, 12.0: may units a and b fight each other (adjacent, or a monitor and a unit in a hex it touches)?"""
    pa, pb = s["units"][a]["at"], s["units"][b]["at"]
    if pa is None or pb is None:
        return False
    if is_hexside(pa) and is_hexside(pb):
        return False
    if is_hexside(pa):
        return hexpart(pb) in side_hexes(pa)
    if is_hexside(pb):
        return hexpart(pa) in side_hexes(pb)
    if w.units[a].monitor or w.units[b].monitor:
        # a monitor in a Mekong hex: the land portions of that hex and the hexes around it (G6, INFERRED)
        return hexpart(pa) == hexpart(pb) or hexpart(pb) in w.neighbours(pa)
    return pb in w.adjacent(pa)


def hex_of(s: State, uid: str) -> str | None:
    at = s["units"][uid]["at"]
    return None if at is None or is_hexside(at) else str(at)


def near_hexes(at: str) -> list[str]:
    return side_hexes(at) if is_hexside(at) else [hexpart(at)]


def space_distance(w: World, a: str, b: str) -> int:
    """Hex distance between two positions; a hexside counts as the nearer of its two hexes (G18)."""
    return min(w.distance(x, y) for x in near_hexes(a) for y in near_hexes(b))
