"""Retreat, displacement and advance after combat (VB 7.7, 7.7.1, 7.7.2, 7.9; A-15, A-16).

A retreat is chosen as one whole path. `retreat_options` lists every path the owner may pick,
in the order of preference the rules impose (VB 7.7): through empty hexes if any such full path
exists; else through friendly units; else ending on a friendly unit that may be displaced;
else the longest partial path (a step loss at its end); else none (eliminated).
"""

from __future__ import annotations

from typing import Any

from rules.vietnam_battles.board import (
    answers,
    enemy_monitor_blocks,
    in_ezoc,
    is_hexside,
    land_at,
    monitor_at,
    near_hexes,
    occupancy,
    space_distance,
)
from rules.vietnam_battles.data import World, hexpart
from rules.vietnam_battles.movement import water_links

State = dict[str, Any]


def _dist_to(w: World, at: str, away: list[str]) -> list[int]:
    return [space_distance(w, at, a) for a in away]


def _ok_land(s: State, w: World, u: str, frm: str, to: str) -> bool:
    d = w.units[u]
    if w.prohibited(to):
        return False
    occ = land_at(s, w, to)
    if occ is not None and w.units[occ].side != d.side:
        return False
    m = monitor_at(s, w, hexpart(to))
    if m is not None and w.units[m].side != d.side:
        return False
    if enemy_monitor_blocks(s, w, d.side, frm, to):
        return False
    tunnel = d.side == "vc" and s.get("iron") is not None and to in w.tunnels()
    if not d.special_forces and not tunnel and in_ezoc(s, w, d.side, to):
        return False  # VB 7.7: never into an EZOC hex (Special Forces excepted, VB 20.0)
    return True


def _next(s: State, w: World, u: str, at: str) -> list[str]:
    if w.units[u].monitor:
        return water_links(w, at)
    return [n for n in w.land_nbrs(at) if _ok_land(s, w, u, at, n)]  # VB 19.0: never across the Mekong


def _paths(s: State, w: World, u: str, n: int, away: list[str]) -> list[list[str]]:
    """Every path of length 1..n obeying A-15: the k-th hex k hexes from the start, never nearer the enemy."""
    start = s["units"][u]["at"]
    out: list[list[str]] = []

    def grow(path: list[str]) -> None:
        at = path[-1] if path else start
        k = len(path)
        if k == n:
            return
        for nx in _next(s, w, u, at):
            if nx in path or nx == start:
                continue
            if not w.units[u].monitor and space_distance(w, nx, start) != k + 1:
                continue  # A-15; a monitor retreats N water spaces, never doubling back (VB 12.0, INFERRED)
            if any(b < a for a, b in zip(_dist_to(w, at, away), _dist_to(w, nx, away))):
                continue
            p = path + [nx]
            out.append(p)
            grow(p)

    with occupancy(s, w):  # reads the state only
        grow([])
    return out


def _occupied(s: State, w: World, u: str, at: str) -> str | None:
    if w.units[u].monitor:
        m = monitor_at(s, w, at)
        return m if m != u else None
    occ = land_at(s, w, at)
    return occ if occ != u else None


def retreat_options(s: State, w: World, u: str, n: int, away: list[str], participants: list[str]
                    ) -> tuple[str, list[list[str]]]:
    """(kind, paths): kind is "empty", "through", "displace", "short" or "none" (VB 7.7, 7.7.2). Reads
    the state only: who is where is answered from one index (board.occupancy), and the answer depends
    only on that and the map, so it is kept with the index (a retreat's legality and the retreat ask
    the same question of the same places)."""
    with occupancy(s, w):
        memo = answers(s)
        assert memo is not None
        key = ("retreat", u, n, tuple(away), tuple(participants), s.get("iron") is not None)
        got = memo.get(key)
        if got is None:
            got = memo[key] = _retreat_options(s, w, u, n, away, participants)
        kind, paths = got
        return kind, [list(p) for p in paths]  # the kept answer's lists are never handed out


def _retreat_options(s: State, w: World, u: str, n: int, away: list[str], participants: list[str]
                     ) -> tuple[str, list[list[str]]]:
    paths = _paths(s, w, u, n, away)
    full = [p for p in paths if len(p) == n]
    empty = [p for p in full if all(_occupied(s, w, u, h) is None for h in p)]
    if empty:
        return "empty", empty
    through = [p for p in full if _occupied(s, w, u, p[-1]) is None]
    if through:
        return "through", through
    disp = [p for p in full if (o := _occupied(s, w, u, p[-1])) is not None and o not in participants]
    if disp:
        return "displace", disp
    ends = [p for p in paths if _occupied(s, w, u, p[-1]) is None]
    if ends:
        best = max(len(p) for p in ends)
        return "short", [p for p in ends if len(p) == best]
    return "none", []


def displace_options(s: State, w: World, blocker: str, coming_from: str, away: list[str], chain: list[str]
                     ) -> list[str]:
    """VB 7.7.2: the displaced unit moves 1 hex as if retreating; not into the hex the retreating unit comes from."""
    at = s["units"][blocker]["at"]
    out = []
    with occupancy(s, w):
        nexts = _next(s, w, blocker, at)
    for nx in nexts:
        if nx == coming_from or nx in chain:
            continue
        if any(b < a for a, b in zip(_dist_to(w, at, away), _dist_to(w, nx, away))):
            continue
        out.append(nx)
    return sorted(out)


def nearest_enemies(s: State, w: World, u: str) -> list[str]:
    """VB 7.7.1: the positions of the enemy unit(s) nearest to u."""
    me = s["units"][u]["at"]
    foes = [r["at"] for v, r in s["units"].items() if r["status"] == "map" and w.units[v].side != w.units[u].side]
    if not foes:
        return []
    best = min(space_distance(w, me, f) for f in foes)
    return sorted({f for f in foes if space_distance(w, me, f) == best})


def near_positions(at: str) -> list[str]:
    return near_hexes(at) if is_hexside(at) else [at]
