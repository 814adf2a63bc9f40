"""Determinism, reading the (public) state, and movement geometry for the scripted players."""

from __future__ import annotations

import hashlib
import heapq
import hmac
from collections.abc import Callable
from typing import Any

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.terrain import (
    move_cost,
)
from rules.core.dice import DieFunction, RecordingDice

GERMANY, BELGIUM = "germany", "belgium"
State = dict[str, Any]
Action = dict[str, Any]
MASK64 = (1 << 64) - 1


# =============================================================================================
# Determinism: dice and the players' own sampling
# =============================================================================================

def die_function(seed: int) -> DieFunction:
    """Die `index` with `faces` faces from HMAC-SHA256(seed, index): no global state."""
    key = hashlib.sha256(b"aob-strategy-dice:" + str(int(seed)).encode()).digest()

    def draw(index: int, faces: int) -> int:
        d = hmac.new(key, index.to_bytes(8, "big"), hashlib.sha256).digest()
        return int.from_bytes(d[:8], "big") % faces + 1

    return draw


def hash_dice(seed: int) -> RecordingDice:
    return RecordingDice(die_function(seed))


def stable_hash(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


class Lcg:
    """Knuth's MMIX 64-bit linear congruential generator (the high bits are used)."""

    def __init__(self, seed: int) -> None:
        self.x = (seed ^ 0x9E3779B97F4A7C15) & MASK64

    def next(self) -> int:
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK64
        return self.x >> 33

    def die(self, faces: int) -> int:
        return self.next() % faces + 1


def pick(options: list[Any], *salt: Any) -> Any:
    """A deterministic choice among `options` from a hash of `salt`."""
    return options[stable_hash(*salt) % len(options)]


# =============================================================================================
# Reading the state (the game has no hidden information: the whole state is public)
# =============================================================================================

def land(s: State, w: World, side: str | None = None, hex_: str | None = None) -> list[str]:
    out = []
    for uid, u in w.units.items():
        st = s["units"][uid]
        if u.is_land and st["status"] == "active" and (side is None or u.side == side) \
                and (hex_ is None or st["hex"] == hex_):
            out.append(uid)
    return out


def air_units(s: State, w: World, side: str, kind: str | None = None) -> list[str]:
    return [u for u, x in w.units.items() if x.is_air and x.side == side and (kind is None or x.type == kind)
            and s["units"][u]["status"] == "active"]


def held(s: State, w: World, side: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for uid in land(s, w, side):
        out.setdefault(s["units"][uid]["hex"], []).append(uid)
    return out


def battle_of(s: State, n: int) -> dict[str, Any]:
    return next(b for b in s["battles"] if b["n"] == n)


def open_battle_at(s: State, hex_: str) -> dict[str, Any] | None:
    for b in s["battles"]:
        if b["hex"] == hex_ and b["status"] in ("pending", "active"):
            return b
    return None


def objectives(w: World) -> list[str]:
    return [w.objectives["brussels"], w.objectives["antwerp"]]


def by_type(legal: list[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in legal:
        out.setdefault(a["type"], []).append(a)
    return out


# =============================================================================================
# Geometry: movement costs and shortest paths
# =============================================================================================

class Geo:
    """Movement costs of the Terrain Effects Chart over one World, under one option set."""

    def __init__(self, w: World, no_nl_fr: bool) -> None:
        self.w = w
        self.no_nl_fr = no_nl_fr
        self.enterable = {h for h, x in w.hexes.items()
                          if not x.is_sea and not (no_nl_fr and x.country in ("NL", "FR"))}
        self.edges: dict[str, list[tuple[str, int]]] = {}
        for h in w.hexes:
            out = []
            for n in w.neighbours(h):
                c = move_cost(w, h, n)
                if c is not None and n in self.enterable:
                    out.append((n, c))
            self.edges[h] = out
        self.home = {side: [h for h, x in w.hexes.items() if x.country == c and not x.is_sea]
                     for side, c in ((GERMANY, "DE"), (BELGIUM, "BE"))}
        self._ctg: dict[tuple[str, frozenset[str]], dict[str, int]] = {}

    def cost_to_go(self, target: str, blocked: frozenset[str]) -> dict[str, int]:
        """MP from each hex to `target`, never passing through a blocked hex (the target may be one)."""
        key = (target, blocked)
        if key in self._ctg:
            return self._ctg[key]
        rev: dict[str, list[tuple[str, int]]] = self._rev()
        dist = {target: 0}
        heap = [(0, target)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > dist[h]:
                continue
            if h != target and h in blocked:
                continue
            for n, c in rev[h]:
                if n in blocked:
                    continue
                nd = d + c
                if nd < dist.get(n, 10**6):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        if len(self._ctg) > 20000:
            self._ctg.clear()
        self._ctg[key] = dist
        return dist

    def _rev(self) -> dict[str, list[tuple[str, int]]]:
        if not hasattr(self, "_reverse"):
            rev: dict[str, list[tuple[str, int]]] = {h: [] for h in self.w.hexes}
            for h, outs in self.edges.items():
                if h not in self.enterable:
                    continue
                for n, c in outs:
                    rev[n].append((h, c))  # from h one may enter n at cost c
            self._reverse = rev
        return self._reverse

    def best_start(self, side: str, target: str, blocked: frozenset[str]) -> list[tuple[int, str]]:
        ctg = self.cost_to_go(target, blocked)
        return sorted((ctg[h], h) for h in self.home[side] if h in ctg and h not in blocked)

    def reach(self, start: str, mp: int, passable: Callable[[str], bool]) -> tuple[dict[str, int], dict[str, str]]:
        """Every hex a unit on `start` with `mp` can stand on (through passable hexes only)."""
        dist = {start: 0}
        prev: dict[str, str] = {}
        heap = [(0, start)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > dist[h]:
                continue
            for n, c in self.edges[h]:
                nd = d + c
                if nd <= mp and nd < dist.get(n, 10**6) and passable(n):
                    dist[n] = nd
                    prev[n] = h
                    heapq.heappush(heap, (nd, n))
        return dist, prev

    def path(self, start: str, target: str, mp: int, passable: Callable[[str], bool]) -> tuple[int, list[str]] | None:
        """Cheapest path start → target within `mp`; intermediate hexes must be passable."""
        dist = {start: 0}
        prev: dict[str, str] = {}
        heap = [(0, start)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > dist[h]:
                continue
            if h == target:
                p = [h]
                while p[-1] != start:
                    p.append(prev[p[-1]])
                return d, p[::-1][1:]
            if h != start and not passable(h):
                continue
            for n, c in self.edges[h]:
                nd = d + c
                if nd <= mp and nd < dist.get(n, 10**6):
                    dist[n] = nd
                    prev[n] = h
                    heapq.heappush(heap, (nd, n))
        return None


def min_vertex_cut(geo: Geo, target: str, budget: int, allowed: Callable[[str], bool]) -> list[str] | None:
    """The smallest set of `allowed` hexes that cuts every path of cost <= budget from Germany to
    `target` (node-split max flow over the hexes on such paths); None if no such cut exists."""
    w = geo.w
    de = geo.home[GERMANY]
    fwd: dict[str, int] = {h: 0 for h in de}
    heap = [(0, h) for h in de]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if d > fwd[h]:
            continue
        for n, c in geo.edges[h]:
            if d + c < fwd.get(n, 10**6):
                fwd[n] = d + c
                heapq.heappush(heap, (d + c, n))
    bwd = geo.cost_to_go(target, frozenset())
    feas = {h for h in w.hexes if h in fwd and h in bwd and fwd[h] + bwd[h] <= budget}
    if target not in feas:
        return []
    inf = 10**6
    cap: dict[Any, dict[Any, int]] = {}

    def add(u: Any, v: Any, c: int) -> None:
        cap.setdefault(u, {}).setdefault(v, 0)
        cap.setdefault(v, {}).setdefault(u, 0)
        cap[u][v] += c

    for h in sorted(feas):
        add(("in", h), ("out", h), 1 if (h != target and allowed(h)) else inf)
        for n, c in geo.edges[h]:
            if n in feas and fwd[h] + c + bwd[n] <= budget:
                add(("out", h), ("in", n), inf)
        if h in de:
            add("S", ("in", h), inf)
    sink = ("out", target)
    if "S" not in cap:
        return []
    while True:
        par: dict[Any, Any] = {"S": None}
        queue = ["S"]
        while queue and sink not in par:
            u = queue.pop(0)
            for v, c in cap[u].items():
                if c > 0 and v not in par:
                    par[v] = u
                    queue.append(v)
        if sink not in par:
            break
        v, bottleneck = sink, inf
        while par[v] is not None:
            bottleneck = min(bottleneck, cap[par[v]][v])
            v = par[v]
        if bottleneck >= inf // 2:
            return None  # a path through hexes that may not be cut
        v = sink
        while par[v] is not None:
            u = par[v]
            cap[u][v] -= bottleneck
            cap[v][u] += bottleneck
            v = u
    return sorted(h for h in feas if ("in", h) in par and ("out", h) not in par)


