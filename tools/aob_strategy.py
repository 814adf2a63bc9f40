#!/usr/bin/env python3
"""Scripted players and a balance tournament for Assault on Belgium.

    python tools/aob_strategy.py --games 200            # the balance figures in the data doc
    python tools/aob_strategy.py --games 50 --no-entry-nl-france

Two competent players play through the pure rules interface (`setup`, `legal_actions`,
`apply`, `active_seats`, `outcome`; no HTTP), always choosing one of the listed legal actions:

* `CompetentGerman` reads the Belgian set-up, sets up its tanks on the German hexes nearest the
  objectives, splits them between Brussels and Antwerp by estimating each battle (a small
  Monte Carlo of the land rounds with the real tables and terrain rules), plans every tank's path
  with Dijkstra over MP (terrain, +1 river hexsides, no sea, the optional rule), avoiding Belgian
  hexes except the objective, declares the tank battles, uses infantry and motorised units
  against weak Belgian hexes within reach, sends bombers and escorts where the estimated gain is
  largest against Belgium's best interception reply, and fights, retreats and pursues sensibly.
* `CompetentBelgian` chooses its own set-up: the best defenders stacked in Brussels and Antwerp
  (the split chosen against the German's best reply), the rest as screens on the approaches;
  then reacts next to the objective battles to block the attackers' retreat hexes, intercepts
  where it hurts Germany most, fights with its best defender, gives excess hits to the weakest
  unit and never retreats where a pursuit could follow.
* `CordonBelgian` is the competent Belgian with another set-up: it spends its army on a cordon
  (a minimum vertex cut of the tank paths) around one objective. See the note printed by the
  tournament: under the engine's reading 41 a cordon can never be passed.
* `DefaultSetupBelgian` is the competent Belgian using the OOB's default set-up.
* `NaiveGerman` / `NaiveBelgian` port the HTTP test bot (tests/aob/api_bot.py); `RandomPlayer`
  picks uniformly among the legal actions (standard set-up).
* Ablations: `GroundedGerman` / `GroundedBelgian` never fly; `SetupOnlyBelgian` sets up like the
  competent Belgian, then plays like the naive bot.

The figures and what they mean: docs/games/assault-on-belgium-data.md, section "Balance".

Everything is deterministic given the seed: dice come from HMAC-SHA256 of the game's integer seed
and the die index; the players' own sampling uses a 64-bit LCG seeded from a hash of what they
are estimating, never the `random` module.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import heapq
import itertools
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rules.core.dice import DieFunction, RecordingDice  # noqa: E402
from rules.assault_on_belgium.data import World, load_world  # noqa: E402
from rules.assault_on_belgium.game import AssaultOnBelgium  # noqa: E402
from rules.assault_on_belgium.tables import TANK_BATTLE_COST, aa_result, air_result, land_result  # noqa: E402
from rules.assault_on_belgium.terrain import (  # noqa: E402
    attack_strength, bomber_support, defense_strength, ignores_retreat, move_cost,
)

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


# =============================================================================================
# Estimating a land battle: a small Monte Carlo with the real LCT, terrain and AA rules
# =============================================================================================

LCT = {(d, die): land_result(d, die) for d in range(-6, 9) for die in range(1, 7)}


class _Fighter:
    __slots__ = ("uid", "hits")

    def __init__(self, uid: str, hits: int) -> None:
        self.uid, self.hits = uid, hits


class Estimator:
    """P(Germany takes a battle hex) for given units and bombers; memoised, deterministic."""

    def __init__(self, w: World, samples: int = 160) -> None:
        self.w = w
        self.samples = samples
        # counters with the same combat values are interchangeable: estimate with one of them
        first: dict[tuple, str] = {}
        self.rep: dict[str, str] = {}
        for uid, u in w.units.items():
            sig = (u.side, u.type, u.attack, u.defense, u.air, u.bombing)
            self.rep[uid] = first.setdefault(sig, uid)
        self._att: dict[tuple, int] = {}
        self._def: dict[tuple, int] = {}
        self._sup: dict[tuple, int] = {}
        self.cache: dict[tuple, float] = {}

    def att(self, uid: str, hits: int, hex_: str, origin: str) -> int:
        k = (uid, hits, hex_, origin)
        if k not in self._att:
            self._att[k] = attack_strength(self.w, self.w.units[uid], hits, hex_, origin).value
        return self._att[k]

    def dfn(self, uid: str, hits: int, hex_: str) -> int:
        k = (uid, hits, hex_)
        if k not in self._def:
            self._def[k] = defense_strength(self.w, self.w.units[uid], hits, hex_).value
        return self._def[k]

    def sup(self, bomber: str, loss: int, hex_: str, cap: int) -> int:
        k = (bomber, loss, hex_, cap)
        if k not in self._sup:
            self._sup[k] = bomber_support(self.w, self.w.units[bomber], loss, hex_, cap).value
        return self._sup[k]

    def p_take(self, hex_: str, origin: str, attackers: Iterable[tuple[str, int]],
               defenders: Iterable[tuple[str, int]], gbombers: Iterable[tuple[str, int]] = (),
               bbombers: Iterable[str] = (), aa_fired: bool = False) -> float:
        """attackers/defenders: (unit, hits); gbombers: (bomber, AA loss so far)."""
        rep = self.rep
        att = tuple(sorted((rep[u], h) for u, h in attackers))
        dfn = tuple(sorted((rep[u], h) for u, h in defenders))
        gb = tuple(sorted((rep[u], h) for u, h in gbombers))
        bb = tuple(sorted(rep[u] for u in bbombers))
        if not dfn:
            return 1.0 if att else 0.0
        if not att:
            return 0.0
        key = (hex_, origin, att, dfn, gb, bb, aa_fired)
        if key in self.cache:
            return self.cache[key]
        w = self.w
        h = w.hexes[hex_]
        aa = h.city.aa if (h.city is not None and not aa_fired) else 0
        ignore_r = ignores_retreat(h)
        rng = Lcg(stable_hash(key))
        units = w.units
        wins = 0
        for _ in range(self.samples):
            A = [_Fighter(u, h) for u, h in att]
            D = [_Fighter(u, h) for u, h in dfn]
            bombers: list[tuple[str, int]] = []
            for b, loss in gb:
                if aa > 0:
                    flak = aa_result(aa, rng.die(6))
                    if flak.removed:
                        continue
                    loss += flak.loss
                bombers.append((b, loss))
            for _round in range(60):
                if not A or not D:
                    break
                a = max(A, key=lambda x: (self.att(x.uid, x.hits, hex_, origin), units[x.uid].is_tank,
                                          units[x.uid].defense - x.hits))
                d = max(D, key=lambda x: (self.dfn(x.uid, x.hits, hex_), units[x.uid].defense - x.hits))
                av = self.att(a.uid, a.hits, hex_, origin)
                dv = self.dfn(d.uid, d.hits, hex_)
                gs = max((self.sup(b, loss, hex_, av) for b, loss in bombers), default=0)
                bs = max((self.sup(b, 0, hex_, dv) for b in bb), default=0)
                res = LCT[(max(-6, min(8, av + gs - dv - bs)), rng.die(6))]
                a.hits += res.attacker_hits + (1 if res.attacker_retreat else 0)  # stays: an extra hit
                d.hits += res.defender_hits + (1 if (res.defender_retreat and not ignore_r) else 0)
                excess = max(0, d.hits - units[d.uid].defense)
                A = [x for x in A if x.hits < units[x.uid].defense]
                D = [x for x in D if x.hits < units[x.uid].defense]
                while excess > 0 and D:  # to the weakest other defender (the Belgian's choice)
                    t = min(D, key=lambda x: (self.dfn(x.uid, x.hits, hex_), units[x.uid].defense - x.hits))
                    t.hits += 1
                    excess -= 1
                    D = [x for x in D if x.hits < units[x.uid].defense]
            if A and not D:
                wins += 1
        p = wins / self.samples
        self.cache[key] = p
        return p


# =============================================================================================
# Air combat probabilities (exact enumeration of the engine's pairing rules, air.py)
# =============================================================================================

P2D6 = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) / 36 for t in range(2, 13)}


_P_ADVERSE = {col: sum(p for t, p in P2D6.items() if air_result(col, t) != "-") for col in range(-12, 13)}
_AIR_OUTCOMES: dict[tuple, list[tuple[float, frozenset[str], frozenset[str]]]] = {}


def p_adverse(w: World, firer: str, target: str) -> float:
    return _P_ADVERSE[max(-12, min(12, w.units[firer].air - w.units[target].air))]


def air_outcomes(w: World, gf: list[str], gb: list[str], bf: list[str], bb: list[str]
                 ) -> list[tuple[float, frozenset[str], frozenset[str]]]:
    """Distribution of (surviving German bombers, surviving Belgian bombers) after AoB 10."""
    key = (id(w), tuple(sorted(gf)), tuple(sorted(gb)), tuple(sorted(bf)), tuple(sorted(bb)))
    if key not in _AIR_OUTCOMES:
        _AIR_OUTCOMES[key] = _air_outcomes(w, gf, gb, bf, bb)
    return _AIR_OUTCOMES[key]


def _air_outcomes(w: World, gf: list[str], gb: list[str], bf: list[str], bb: list[str]
                  ) -> list[tuple[float, frozenset[str], frozenset[str]]]:
    order = lambda ids: sorted(ids, key=lambda u: (-w.units[u].air, u))  # noqa: E731
    gf, gb, bf, bb = order(gf), order(gb), order(bf), order(bb)
    # fighter round: independent shots, simultaneous
    p_hit: dict[str, float] = {}
    if gf and bf:
        survive = {f: 1.0 for f in gf + bf}
        for side, enemy in ((gf, bf), (bf, gf)):
            for i, f in enumerate(side):
                t = enemy[i % len(enemy)]
                survive[t] *= 1 - p_adverse(w, f, t)
        p_hit = {f: 1 - survive[f] for f in survive}
    fighters = gf + bf
    out: dict[tuple[frozenset, frozenset], float] = {}
    for alive_bits in itertools.product((True, False), repeat=len(fighters)):
        pr = 1.0
        for f, alive in zip(fighters, alive_bits):
            q = p_hit.get(f, 0.0)
            pr *= (1 - q) if alive else q
        if pr == 0:
            continue
        alive_f = {f for f, a in zip(fighters, alive_bits) if a}
        free_g = [f for f in gf if f in alive_f]
        free_b = [f for f in bf if f in alive_f]
        pairs = list(zip(free_g, bb)) + list(zip(free_b, gb))
        for res in itertools.product((0, 1), repeat=len(pairs)):  # 1 = the bomber is removed
            pr2 = pr
            for (f, bomber), removed in zip(pairs, res):
                q = p_adverse(w, f, bomber)
                pr2 *= q if removed else (1 - q)
            if pr2 == 0:
                continue
            lost = {bomber for (f, bomber), removed in zip(pairs, res) if removed}
            key = (frozenset(b for b in gb if b not in lost), frozenset(b for b in bb if b not in lost))
            out[key] = out.get(key, 0.0) + pr2
    return [(p, g, b) for (g, b), p in out.items()]


# =============================================================================================
# German planning: which tanks go where
# =============================================================================================

@dataclass
class Split:
    value: float
    tanks: dict[str, str]  # tank -> objective hex
    bombers: dict[str, str | None] = field(default_factory=dict)  # objective -> assumed bomber
    origin: dict[str, str] = field(default_factory=dict)  # objective -> likely battle vector base


def german_split(w: World, geo: Geo, est: Estimator, belgian_at: dict[str, list[str]],
                 tanks: list[str] | None = None) -> Split:
    """The German's best split of its tanks between the two objectives (value = P_B * P_A,
    assuming each objective gets one bomber and no air combat)."""
    return german_splits(w, geo, est, belgian_at, tanks)[0]


def german_splits(w: World, geo: Geo, est: Estimator, belgian_at: dict[str, list[str]],
                  tanks: list[str] | None = None) -> list[Split]:
    """Every split of the tanks between the objectives, best first (see german_split)."""
    blocked = frozenset(belgian_at)
    objs = objectives(w)
    if tanks is None:
        tanks = [u for u, x in w.units.items() if x.side == GERMANY and x.is_tank]
    spare: dict[tuple[str, str], int] = {}
    origin: dict[str, str] = {}
    for o in objs:
        ctg = geo.cost_to_go(o, blocked - {o})
        best = geo.best_start(GERMANY, o, blocked - {o})
        origin[o] = _likely_origin(geo, o, blocked - {o}, ctg)
        for t in tanks:
            spare[(t, o)] = w.units[t].movement - best[0][0] if best else -1
    bombers = sorted((u for u, x in w.units.items() if x.side == GERMANY and x.type == "bomber"),
                     key=lambda u: (-w.units[u].bombing, u))
    bomber_pairs: list[tuple[str | None, str | None]] = [(None, None)]
    if len(bombers) >= 2:
        bomber_pairs = [(bombers[0], bombers[1]), (bombers[1], bombers[0])]
    elif bombers:
        bomber_pairs = [(bombers[0], None), (None, bombers[0])]

    def p_obj(o: str, group: tuple[str, ...], bomber: str | None) -> float:
        if not group:
            return 0.0
        if not belgian_at.get(o):
            return 1.0
        if len(group) > 3 and not any(spare[(t, o)] >= TANK_BATTLE_COST for t in group):
            group = group[:3]
        group = group[:5]
        return est.p_take(o, origin[o], [(t, 0) for t in group], [(u, 0) for u in belgian_at[o]],
                          [(bomber, 0)] if bomber else [])

    out: list[Split] = []
    choices: list[list[str | None]] = []
    for t in tanks:
        opts: list[str | None] = [o for o in objs if spare[(t, o)] >= 0]
        choices.append(opts or [None])
    for combo in itertools.product(*choices):
        groups = {o: tuple(t for t, c in zip(tanks, combo) if c == o) for o in objs}
        if any(len(g) > 5 for g in groups.values()):
            continue
        top = Split(-1.0, {})
        for pair in bomber_pairs:
            v = p_obj(objs[0], groups[objs[0]], pair[0]) * p_obj(objs[1], groups[objs[1]], pair[1])
            if v > top.value + 1e-9:
                top = Split(v, {t: c for t, c in zip(tanks, combo) if c is not None},
                            {objs[0]: pair[0], objs[1]: pair[1]}, origin)
        out.append(top)
    out.sort(key=lambda x: (-x.value, sorted(x.tanks.items())))
    return out or [Split(0.0, {})]


def air_aware_value(w: World, est: Estimator, split: Split, belgian_at: dict[str, list[str]],
                    reach_g: dict[str, list[str]], reach_b: dict[str, list[str]]) -> float:
    """P(Germany wins) for a tank split once both sides fly their best air missions."""
    specs, taken = {}, {}
    for o in objectives(w):
        group = [t for t, x in split.tanks.items() if x == o]
        if belgian_at.get(o) and group:
            specs[o] = (split.origin.get(o, o), [(t, 0) for t in group[:5]], [(u, 0) for u in belgian_at[o]])
        else:
            taken[o] = bool(group) and not belgian_at.get(o)
    model = AirModel(w, est, specs, taken)
    if not model.battles:
        return model.value({}, {})
    rg = {u: [h for h in hs if h in model.battles] for u, hs in reach_g.items()}
    rb = {u: [h for h in hs if h in model.battles] for u, hs in reach_b.items()}
    return model.german_plan(rg, rb)[0]


_SPLITS: dict[tuple, Split] = {}


def best_german_split(w: World, geo: Geo, est: Estimator, s: State, belgian_at: dict[str, list[str]],
                      top: int = 8) -> Split:
    """Of the best `top` splits without air, the one best once both air forces fly (memoised)."""
    key = (id(w), geo.no_nl_fr, tuple(sorted((h, tuple(sorted(us))) for h, us in belgian_at.items())),
           tuple(sorted((u, s["units"][u]["hex"]) for u in air_units(s, w, BELGIUM))))
    if key in _SPLITS:
        return _SPLITS[key]
    objs = objectives(w)
    reach_g = {}
    for u, x in w.units.items():
        if x.side == GERMANY and x.is_air:
            reach_g[u] = [o for o in objs if min(max(w.distance(h, o2) for o2 in objs)
                                                  for h in geo.home[GERMANY]) <= x.range]
    reach_b = {u: [o for o in objs if w.distance(s["units"][u]["hex"], o) <= w.units[u].range]
               for u in air_units(s, w, BELGIUM)}
    cands = german_splits(w, geo, est, belgian_at)[:top]
    best = max(cands, key=lambda sp: (air_aware_value(w, est, sp, belgian_at, reach_g, reach_b), sp.value))
    _SPLITS[key] = best
    return best


def _likely_origin(geo: Geo, o: str, blocked: frozenset[str], ctg: dict[str, int]) -> str:
    """The neighbour of `o` a cheapest path comes from (for the river modifier)."""
    best = None
    for n in geo.w.neighbours(o):
        if n in ctg and n not in blocked and n in geo.enterable:
            c = move_cost(geo.w, n, o)
            if c is None:
                continue
            k = (ctg[n] + c - ctg[o], ctg[n], n)
            if best is None or k < best[0]:
                best = (k, n)
    return best[1] if best else o


# =============================================================================================
# Players
# =============================================================================================

class Player:
    side = ""

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        self.g, self.w, self.seed, self.options = g, g.world, seed, options
        self.geo = geo_for(self.w, bool(options.get("no_entry_nl_france")))
        self.est = estimator_for(self.w)
        self.steps = 0

    def choose(self, s: State, legal: list[Action]) -> Action:
        self.steps += 1
        return self.decide(s, legal, by_type(legal))

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        raise NotImplementedError


_GEO: dict[tuple[int, bool], Geo] = {}
_EST: dict[int, Estimator] = {}


def clear_caches() -> None:
    """Forget every memoised plan and estimate (they only save time: results do not change)."""
    for cache in (_GEO, _EST, _SPLITS, _BELGIAN_SETUPS, _AIR_OUTCOMES):
        cache.clear()


def geo_for(w: World, no_nl_fr: bool) -> Geo:
    k = (id(w), no_nl_fr)
    if k not in _GEO:
        _GEO[k] = Geo(w, no_nl_fr)
    return _GEO[k]


def estimator_for(w: World) -> Estimator:
    if id(w) not in _EST:
        _EST[id(w)] = Estimator(w)
    return _EST[id(w)]


class SetupMixin:
    """Place units one by one from a plan {unit: hex}; anything the plan cannot place goes to the
    first legal hex."""

    plan: dict[str, str]

    def setup_action(self, s: State, t: dict[str, list[Action]]) -> Action:
        sel = s["selected"]
        if sel is not None:
            want = self.plan.get(sel)
            places = t.get("place", [])
            for a in places:
                if a["hex"] == want:
                    return a
            return places[0]
        if t.get("select"):
            order = list(self.plan)
            return min(t["select"], key=lambda a: (order.index(a["unit"]) if a["unit"] in self.plan else 999, a["unit"]))
        return t["done_setup"][0]


# ---------------------------------------------------------------------------------------------
# Common combat decisions
# ---------------------------------------------------------------------------------------------

def best_fighter(p: Player, s: State, b: dict[str, Any], options: list[Action], side: str) -> Action:
    w, est = p.w, p.est
    if side == GERMANY:
        def key(a: Action) -> tuple:
            u = a["unit"]
            h = s["units"][u]["hits"]
            return (w.units[u].is_tank or b["marker"] is None, est.att(u, h, b["hex"], b["origin"]),
                    w.units[u].defense - h, u)
    else:
        def key(a: Action) -> tuple:
            u = a["unit"]
            h = s["units"][u]["hits"]
            return (est.dfn(u, h, b["hex"]), w.units[u].defense - h, u)
    return max(options, key=key)


def best_bomber(p: Player, s: State, b: dict[str, Any], t: dict[str, list[Action]], side: str) -> Action:
    if "choose_bomber" not in t:
        return t["no_bomber"][0]
    c = s["combat"]
    fighter = c["fighting"][side]
    h = s["units"][fighter]["hits"]
    cap = p.est.att(fighter, h, b["hex"], b["origin"]) if side == GERMANY else p.est.dfn(fighter, h, b["hex"])

    def value(a: Action) -> tuple:
        u = a["unit"]
        return (p.est.sup(u, b["aa_loss"].get(u, 0), b["hex"], cap), p.w.units[u].bombing, u)

    best = max(t["choose_bomber"], key=value)
    return best if value(best)[0] > 0 else t["no_bomber"][0]


# ---------------------------------------------------------------------------------------------
# The competent German
# ---------------------------------------------------------------------------------------------

class CompetentGerman(SetupMixin, Player):
    side = GERMANY

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.plan: dict[str, str] = {}
        self.targets: dict[str, str] = {}  # unit -> the hex it moves to
        self.order: list[str] = []
        self.started: set[str] = set()
        self.air_plan: list[Action] | None = None

    # -- set-up --------------------------------------------------------------------------
    def make_plan(self, s: State) -> None:
        w, geo = self.w, self.geo
        belgian_at = held(s, w, BELGIUM)
        blocked = frozenset(belgian_at)
        split = best_german_split(w, geo, self.est, s, belgian_at)
        count: dict[str, int] = {}
        plan: dict[str, str] = {}
        objs = objectives(w)
        # tanks: the German hexes nearest their objective (the biggest-movement tank declares)
        for o in objs:
            group = sorted((t for t, x in split.tanks.items() if x == o),
                           key=lambda t: (-w.units[t].movement, -w.units[t].attack, t))
            for t in group:
                for _, h in geo.best_start(GERMANY, o, blocked - {o}):
                    if count.get(h, 0) < 3:
                        plan[t] = h
                        count[h] = count.get(h, 0) + 1
                        break
                self.targets[t] = o
                self.order.append(t)
        # tanks that reach no objective: a tank battle on the Belgian hex nearest an objective
        for t in sorted(u for u, x in w.units.items() if x.side == GERMANY and x.is_tank and u not in plan):
            tgt = self._screen_target(t, belgian_at, count)
            if tgt:
                plan[t], hx = tgt
                count[plan[t]] = count.get(plan[t], 0) + 1
                self.targets[t] = hx
                self.order.append(t)
        # infantry and motorised: attack weak Belgian hexes within reach, up to 3 per hex
        self._plan_infantry(belgian_at, plan, count)
        # aircraft: the German hex nearest both objectives, within range
        for u, x in w.units.items():
            if x.side == GERMANY and x.is_air:
                plan[u] = min(geo.home[GERMANY],
                              key=lambda h: (max(w.distance(h, o) for o in objs) > x.range,
                                             max(w.distance(h, o) for o in objs), h))
        for u, x in w.units.items():  # the rest: their default hex, or any German hex with room
            if x.side == GERMANY and u not in plan:
                h = w.default_setup.get(GERMANY, {}).get(u, "")
                if h not in geo.home[GERMANY] or count.get(h, 0) >= 3:
                    h = next(x for x in geo.home[GERMANY] if count.get(x, 0) < 3)
                plan[u] = h
                count[h] = count.get(h, 0) + 1
        self.plan = plan

    def _screen_target(self, t: str, belgian_at: dict[str, list[str]], count: dict[str, int]
                       ) -> tuple[str, str] | None:
        w, geo = self.w, self.geo
        blocked = frozenset(belgian_at)
        best = None
        for hx in belgian_at:
            if hx in objectives(w):
                continue
            starts = [x for x in geo.best_start(GERMANY, hx, blocked - {hx}) if count.get(x[1], 0) < 3]
            if not starts or starts[0][0] + TANK_BATTLE_COST > w.units[t].movement:
                continue
            near = min(w.distance(hx, o) for o in objectives(w))
            k = (near, starts[0][0], hx)
            if best is None or k < best[0]:
                best = (k, (starts[0][1], hx))
        return best[1] if best else None

    def _plan_infantry(self, belgian_at: dict[str, list[str]], plan: dict[str, str], count: dict[str, int]) -> None:
        w, geo, est = self.w, self.geo, self.est
        blocked = frozenset(belgian_at)
        units = sorted((u for u, x in w.units.items() if x.side == GERMANY and x.is_land and not x.is_tank),
                       key=lambda u: (-w.units[u].attack, u))
        for hx in sorted(belgian_at, key=lambda h: sum(w.units[u].defense for u in belgian_at[h])):
            if hx in objectives(w):
                continue
            starts = geo.best_start(GERMANY, hx, blocked - {hx})
            if not starts:
                continue
            origin = _likely_origin(geo, hx, blocked - {hx}, geo.cost_to_go(hx, blocked - {hx}))
            group: list[tuple[str, str]] = []
            for u in units:
                if u in plan or len(group) >= 3:
                    continue
                ok = [x for x in starts if x[0] <= w.units[u].movement and count.get(x[1], 0) < 3]
                if ok:
                    group.append((u, ok[0][1]))
            if not group:
                continue
            p = est.p_take(hx, origin, [(u, 0) for u, _ in group], [(d, 0) for d in belgian_at[hx]])
            if p < 0.5:
                continue
            for u, h in group:
                plan[u] = h
                count[h] = count.get(h, 0) + 1
                self.targets[u] = hx
                self.order.append(u)

    # -- the move ------------------------------------------------------------------------
    def move_action(self, s: State, t: dict[str, list[Action]]) -> Action:
        sel = s["selected"]
        if sel is not None and sel in self.targets:
            step = self._next_step(s, sel)
            if step is not None:
                for a in t.get("move", []):
                    if a == step:
                        return a
            if "end_unit_move" in t:
                return t["end_unit_move"][0]
        for u in self.order:
            if u in self.started:
                continue
            self.started.add(u)
            for a in t.get("select", []):
                if a["unit"] == u and self._next_step(s, u) is not None:
                    return a
        if sel is not None and "end_unit_move" in t:
            return t["end_unit_move"][0]
        return t["end_movement"][0]

    def _next_step(self, s: State, uid: str) -> Action | None:
        """The next hex of the unit's path to its target. The first unit into a battle hex picks
        the approach (the battle vector): a tank battle if more than 3 units will join, then no
        river on the vector (AoB 19.1: −1 attack for the whole battle), then the cheapest."""
        w = self.w
        target = self.targets[uid]
        st = s["units"][uid]
        here = st["hex"]
        if here == target:
            return None
        belg = held(s, w, BELGIUM)
        germ = held(s, w, GERMANY)
        b = open_battle_at(s, target)
        mp = st["mp"]
        others_there = len([u for u in germ.get(target, []) if u != uid])
        joining = sum(1 for tg in self.targets.values() if tg == target)

        def passable(h: str) -> bool:
            return h not in belg and len([u for u in germ.get(h, []) if u != uid]) < 3

        dist, prev = self.geo.reach(here, mp, passable)
        best = None
        for n in w.neighbours(target):
            if n not in dist or target not in self.geo.enterable:
                continue
            c = move_cost(w, n, target)
            if c is None or dist[n] + c > mp:
                continue
            spare = mp - dist[n] - c
            declare = (w.units[uid].is_tank and bool(belg.get(target)) and (b is None or b["marker"] is None)
                       and spare >= TANK_BATTLE_COST)
            limit = 5 if declare or (b is not None and b["marker"] is not None) else 3
            if others_there >= limit:
                continue
            river = b is None and bool(belg.get(target)) and w.river(n, target) is not None
            k = (not declare and joining > 3, river, not declare, dist[n] + c, n)
            if best is None or k < best[0]:
                best = (k, n, declare)
        if best is None:
            return None
        _, n, declare = best
        path = [target, n]
        while path[-1] != here:
            path.append(prev[path[-1]])
        nxt = path[-2]
        a: Action = {"type": "move", "hex": nxt}
        if nxt == target and declare:
            a["tank_battle"] = True
        return a

    # -- air ------------------------------------------------------------------------------
    def air_action(self, s: State, t: dict[str, list[Action]]) -> Action:
        if self.air_plan is None:
            self.air_plan = plan_german_air(self, s, t)
        while self.air_plan:
            a = self.air_plan.pop(0)
            if a in t.get("fly", []):
                return a
        return t["end_air"][0]

    # -- combat ---------------------------------------------------------------------------
    def combat_action(self, s: State, t: dict[str, list[Action]]) -> Action:
        w = self.w
        c = s["combat"]
        step = c["step"]
        if step == "choose_battle":
            objs = objectives(w)
            return min(t["resolve_battle"], key=lambda a: (battle_of(s, a["battle"])["hex"] not in objs, a["battle"]))
        b = battle_of(s, c["battle"])
        if step == "attacker_unit":
            return best_fighter(self, s, b, t["choose_fighter"], GERMANY)
        if step == "attacker_bomber":
            return best_bomber(self, s, b, t, GERMANY)
        if step == "attacker_retreat":
            return self._retreat_or_hit(s, b, t)
        if step == "attacker_withdraw":
            return t["continue"][0]
        if step == "pursuit":
            return self._pursuit(s, b, t)
        return next(iter(t.values()))[0]

    def _retreat_or_hit(self, s: State, b: dict[str, Any], t: dict[str, list[Action]]) -> Action:
        w = self.w
        c = s["combat"]
        uid = c["retreat_due"][GERMANY]
        if "retreat" not in t:
            return t["take_hit"][0]
        dies = s["units"][uid]["hits"] + 1 >= w.units[uid].defense
        others = [u for u in land(s, w, GERMANY, b["hex"]) if u != uid]
        matters = b["hex"] in objectives(w) or b["marker"] is not None
        if not dies and matters:
            return t["take_hit"][0]
        if dies and others and c["bomber"][GERMANY] is not None:
            return t["take_hit"][0]  # retreating would take the supporting bomber away (AoB 14.5)
        if not dies and len(others) == 0:
            return t["take_hit"][0]  # the last attacker stays in the fight
        back = [a for a in t["retreat"] if a["hex"] == b["origin"]]
        return (back or t["retreat"])[0]

    def _pursuit(self, s: State, b: dict[str, Any], t: dict[str, list[Action]]) -> Action:
        w = self.w
        objs = objectives(w)
        goes = t.get("pursue", []) + t.get("attack", [])
        for a in goes:
            if a["hex"] in objs:
                return a
        belg = held(s, w, BELGIUM)
        for a in goes:  # a stepping stone: a Belgian hex next to an objective, with MP to go on
            left = b["marker"] - (move_cost(w, b["hex"], a["hex"]) or 99) - TANK_BATTLE_COST
            for o in objs:
                if o in w.neighbours(a["hex"]) and belg.get(o) and open_battle_at(s, o) is None:
                    if left >= (move_cost(w, a["hex"], o) or 99) + TANK_BATTLE_COST:
                        return a
        return t["no_pursuit"][0]

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        ph = s["phase"]
        if ph == "setup_germany":
            if not self.plan:
                self.make_plan(s)
            return self.setup_action(s, t)
        if ph == "german_land_move":
            return self.move_action(s, t)
        if ph == "german_air":
            return self.air_action(s, t)
        return self.combat_action(s, t)


# ---------------------------------------------------------------------------------------------
# Air planning (both sides): exact air combat odds x estimated land odds
# ---------------------------------------------------------------------------------------------

class AirModel:
    """P(Germany wins) = the product over the two objectives of P(Germany takes it), given which
    aircraft fly where: exact air combat odds (air_outcomes) times the estimated land battle."""

    def __init__(self, w: World, est: Estimator, specs: dict[str, tuple[str, list, list]],
                 taken: dict[str, bool]) -> None:
        self.w, self.est = w, est
        self.objs = objectives(w)
        self.specs = specs  # objective -> (origin, attackers [(unit, hits)], defenders [(unit, hits)])
        self.taken = taken  # objectives without a battle: held by Germany or not
        self._land: dict[tuple, float] = {}
        self._battle: dict[tuple, float] = {}

    @classmethod
    def from_state(cls, p: "Player", s: State) -> "AirModel":
        w = p.w
        specs, taken = {}, {}
        for o in objectives(w):
            b = open_battle_at(s, o)
            if b is not None:
                specs[o] = (b["origin"], [(u, s["units"][u]["hits"]) for u in land(s, w, GERMANY, o)],
                            [(u, s["units"][u]["hits"]) for u in land(s, w, BELGIUM, o)])
            else:
                taken[o] = bool(land(s, w, GERMANY, o)) and not land(s, w, BELGIUM, o)
        return cls(w, p.est, specs, taken)

    @property
    def battles(self) -> list[str]:
        return list(self.specs)

    def p_land(self, o: str, gb: frozenset[str], bb: frozenset[str]) -> float:
        k = (o, gb, bb)
        if k not in self._land:
            origin, att, dfn = self.specs[o]
            self._land[k] = self.est.p_take(o, origin, att, dfn, [(x, 0) for x in gb], list(bb))
        return self._land[k]

    def p_battle(self, o: str, gf: tuple, gb: tuple, bf: tuple, bb: tuple) -> float:
        k = (o, gf, gb, bf, bb)
        if k not in self._battle:
            self._battle[k] = sum(pr * self.p_land(o, g, b)
                                  for pr, g, b in air_outcomes(self.w, list(gf), list(gb), list(bf), list(bb)))
        return self._battle[k]

    def value(self, german: dict[str, str], belgian: dict[str, str]) -> float:
        v = 1.0
        for o in self.objs:
            if o not in self.specs:
                v *= 1.0 if self.taken.get(o) else 0.0
                continue
            if v == 0.0:
                return 0.0
            sel = lambda d, kind: tuple(sorted(u for u, x in d.items()  # noqa: E731
                                               if x == o and self.w.units[u].type == kind))
            v *= self.p_battle(o, sel(german, "fighter"), sel(german, "bomber"),
                               sel(belgian, "fighter"), sel(belgian, "bomber"))
        return v

    def belgian_reply(self, german: dict[str, str], reach_b: dict[str, list[str]]) -> tuple[float, dict[str, str]]:
        """Belgium's best air missions against a German air plan: minimise P(Germany wins)."""
        units = sorted(reach_b)
        best: tuple[float, dict[str, str]] = (2.0, {})
        for combo in itertools.product(*[[None] + reach_b[u] for u in units]):
            plan = {u: h for u, h in zip(units, combo) if h is not None}
            v = self.value(german, plan)
            if v < best[0] - 1e-12:
                best = (v, plan)
        return best

    def german_plan(self, reach_g: dict[str, list[str]], reach_b: dict[str, list[str]]
                    ) -> tuple[float, dict[str, str]]:
        """Germany's air missions maximising P(Germany wins) against Belgium's best reply.
        Bombers always fly (to an objective battle in range); fighters escort or stay."""
        units = sorted(reach_g)
        bombers = [u for u in units if self.w.units[u].type == "bomber"]
        fighters = [u for u in units if self.w.units[u].type == "fighter"]
        best: tuple[float, dict[str, str]] = (-1.0, {})
        b_opts: list[list[str | None]] = [list(reach_g[u]) or [None] for u in bombers]
        f_opts: list[list[str | None]] = [[None, *reach_g[u]] for u in fighters]
        for bc in itertools.product(*b_opts):
            for fc in itertools.product(*f_opts):
                plan = {u: h for u, h in zip(bombers + fighters, list(bc) + list(fc)) if h is not None}
                v, _ = self.belgian_reply(plan, reach_b)
                if v > best[0] + 1e-12:
                    best = (v, plan)
        return best


def _reach(p: "Player", s: State, side: str, hexes: list[str]) -> dict[str, list[str]]:
    out = {}
    for u in air_units(s, p.w, side):
        if s["units"][u]["mission"] is not None:
            continue
        x = p.w.units[u]
        out[u] = [h for h in hexes if p.w.distance(s["units"][u]["hex"], h) <= x.range]
    return out


def plan_german_air(p: "Player", s: State, t: dict[str, list[Action]]) -> list[Action]:
    model = AirModel.from_state(p, s)
    if not model.battles:
        return []
    _, plan = model.german_plan(_reach(p, s, GERMANY, model.battles), _reach(p, s, BELGIUM, model.battles))
    return [{"type": "fly", "unit": u, "hex": h} for u, h in sorted(plan.items())]


# ---------------------------------------------------------------------------------------------
# The competent Belgian
# ---------------------------------------------------------------------------------------------

_BELGIAN_SETUPS: dict[tuple, dict[str, str]] = {}


def hex_city_defense(w: World, uid: str) -> tuple:
    u = w.units[uid]
    return (u.defense + (-2 if u.is_tank else 2), u.defense, u.attack, uid)


def competent_belgian_setup(w: World, geo: Geo, est: Estimator) -> dict[str, str]:
    """The best defenders stacked in both objectives (up to 3 each; which unit goes where chosen
    against the German's best tank split), then the rest as screens on the approaches, each
    where it lowers the German's chances most (ties: where it costs the tanks most MP)."""
    key = ("competent", id(w), geo.no_nl_fr)
    if key in _BELGIAN_SETUPS:
        return _BELGIAN_SETUPS[key]
    objs = objectives(w)
    units = sorted((u for u, x in w.units.items() if x.side == BELGIUM and x.is_land),
                   key=lambda u: hex_city_defense(w, u), reverse=True)
    per = min(3, len(units) // 2)
    top = units[:2 * per]
    candidates: list[dict[str, list[str]]] = []
    for first in (0, 1):
        a, b = objs[first], objs[1 - first]
        candidates.append({a: top[0::2], b: top[1::2]})  # dealt alternately
        candidates.append({a: top[:per], b: top[per:]})  # the best three together
    screen_hexes = _screen_candidates(w, geo)
    bases = _belgian_air_bases(w, geo)
    reach_b = {u: [o for o in objs if w.distance(h, o) <= w.units[u].range] for u, h in bases.items()}
    reach_g = {u: [o for o in objs if min(max(w.distance(h, o2) for o2 in objs) for h in geo.home[GERMANY])
                   <= x.range] for u, x in w.units.items() if x.side == GERMANY and x.is_air}
    best: tuple[tuple, dict[str, list[str]]] | None = None
    for g in candidates:
        at = {o: list(v) for o, v in g.items() if v}
        for u in units[2 * per:]:
            at = _best_screen(w, geo, est, at, u, screen_hexes)
        splits = german_splits(w, geo, est, at)[:4]
        value = max(air_aware_value(w, est, sp, at, reach_g, reach_b) for sp in splits)
        score = (value, splits[0].value, _slack(w, geo, at))
        if best is None or score < best[0]:
            best = (score, at)
    assert best is not None
    setup = {u: h for h, us in best[1].items() for u in us}
    setup.update(bases)
    _BELGIAN_SETUPS[key] = setup
    return setup


def _screen_candidates(w: World, geo: Geo) -> list[str]:
    tanks = [x for x in w.units.values() if x.side == GERMANY and x.is_tank]
    budget = max((x.movement for x in tanks), default=0)
    out = set()
    for o in objectives(w):
        ctg = geo.cost_to_go(o, frozenset())
        de = geo.home[GERMANY]
        fwd = _forward(geo, de)
        for h in geo.home[BELGIUM]:
            if h in objectives(w) or h not in ctg or h not in fwd:
                continue
            if fwd[h] + ctg[h] <= budget + 2:
                out.add(h)
    return sorted(out)


def _forward(geo: Geo, src: list[str]) -> dict[str, int]:
    dist = {h: 0 for h in src}
    heap = [(0, h) for h in src]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist[h]:
            continue
        for n, c in geo.edges[h]:
            if d + c < dist.get(n, 10**6):
                dist[n] = d + c
                heapq.heappush(heap, (d + c, n))
    return dist


def _slack(w: World, geo: Geo, at: dict[str, list[str]]) -> int:
    """Total spare MP of the German tanks at their nearest reachable objective (lower = better)."""
    blocked = frozenset(at)
    total = 0
    for o in objectives(w):
        best = geo.best_start(GERMANY, o, blocked - {o})
        cost = best[0][0] if best else 99
        for x in w.units.values():
            if x.side == GERMANY and x.is_tank:
                total += max(-1, x.movement - cost)
    return total


def _best_screen(w: World, geo: Geo, est: Estimator, at: dict[str, list[str]], unit: str,
                 hexes: list[str]) -> dict[str, list[str]]:
    best = None
    for h in hexes:
        if len(at.get(h, [])) >= 3:
            continue
        trial = {k: list(v) for k, v in at.items()}
        trial.setdefault(h, []).append(unit)
        split = german_split(w, geo, est, trial)
        k = (split.value, _slack(w, geo, trial), len(at.get(h, [])), h)
        if best is None or k < best[0]:
            best = (k, trial)
    if best is None:
        return at
    return best[1]


def _belgian_air_bases(w: World, geo: Geo) -> dict[str, str]:
    objs = objectives(w)
    out = {}
    for u, x in w.units.items():
        if x.side == BELGIUM and x.is_air:
            out[u] = min(geo.home[BELGIUM], key=lambda h: (max(w.distance(h, o) for o in objs), h))
    return out


def cordon_belgian_setup(w: World, geo: Geo, est: Estimator) -> dict[str, str]:
    """A minimum vertex cut of every tank path to one objective, the rest in the objectives."""
    key = ("cordon", id(w), geo.no_nl_fr)
    if key in _BELGIAN_SETUPS:
        return _BELGIAN_SETUPS[key]
    budget = max(x.movement for x in w.units.values() if x.side == GERMANY and x.is_tank)
    units = sorted((u for u, x in w.units.items() if x.side == BELGIUM and x.is_land),
                   key=lambda u: hex_city_defense(w, u))
    cuts = []
    for o in objectives(w):
        cut = min_vertex_cut(geo, o, budget, lambda h: w.hexes[h].country == "BE")
        if cut is not None:
            cuts.append((len(cut), o, cut))
    setup: dict[str, str] = {}
    if cuts:
        _, _, cut = min(cuts)
        for h, u in zip(cut, units):  # the weakest units make the cordon
            setup[u] = h
    spots = [o for _ in range(3) for o in objectives(w)] + [h for h in geo.home[BELGIUM] if h not in setup.values()]
    for u, h in zip([u for u in reversed(units) if u not in setup], spots):
        setup[u] = h
    setup.update(_belgian_air_bases(w, geo))
    _BELGIAN_SETUPS[key] = setup
    return setup


class CompetentBelgian(SetupMixin, Player):
    side = BELGIUM

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.plan = {}
        self.planned = False
        self.react_goal: dict[str, str] = {}
        self.react_started: set[str] = set()
        self.air_plan: list[Action] | None = None

    def make_setup(self) -> dict[str, str]:
        return competent_belgian_setup(self.w, self.geo, self.est)

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        ph = s["phase"]
        if ph == "setup_belgium":
            if not self.planned:
                self.plan, self.planned = self.make_setup(), True
            if not self.plan and "standard_setup" in t:
                return t["standard_setup"][0]  # what the OOB's default set-up cannot place goes by hand
            return self.setup_action(s, t)
        if ph == "belgian_reaction":
            return self.reaction(s, t)
        if ph == "belgian_air":
            if self.air_plan is None:
                model = AirModel.from_state(self, s)
                german = {u: battle_of(s, s["units"][u]["mission"])["hex"] for u in air_units(s, self.w, GERMANY)
                          if s["units"][u]["mission"] is not None}
                _, plan = model.belgian_reply(german, _reach(self, s, BELGIUM, model.battles)) \
                    if model.battles else (0.0, {})
                self.air_plan = [{"type": "fly", "unit": u, "hex": h} for u, h in sorted(plan.items())]
            while self.air_plan:
                a = self.air_plan.pop(0)
                if a in t.get("fly", []):
                    return a
            return t["end_air"][0]
        return self.combat(s, t)

    # -- reaction: block the attackers' retreat hexes around the objective battles -----------
    def reaction(self, s: State, t: dict[str, list[Action]]) -> Action:
        w = self.w
        sel = s["selected"]
        if sel is not None:
            goal = self.react_goal.get(sel)
            here = s["units"][sel]["hex"]
            if goal is not None and here != goal:
                moves = t.get("move", [])
                belg = held(s, w, BELGIUM)
                germ = held(s, w, GERMANY)
                bh = {b["hex"] for b in s["battles"] if b["status"] in ("pending", "active")}
                found = self.geo.path(here, goal, s["units"][sel]["mp"],
                                      lambda h: h not in germ and h not in bh and len(belg.get(h, [])) < 3)
                if found is not None:
                    step = {"type": "move", "hex": found[1][0]}
                    if step in moves:
                        return step
            if "end_unit_move" in t:
                return t["end_unit_move"][0]
            if t.get("move"):
                return t["move"][0]
        goals = self._reaction_goals(s)
        for a in t.get("select", []):
            u = a["unit"]
            if u in self.react_started or u not in goals:
                continue
            self.react_started.add(u)
            self.react_goal[u] = goals[u]
            return a
        return t["end_reaction"][0]

    def _reaction_goals(self, s: State) -> dict[str, str]:
        """Free units to the empty hexes next to objective battles (German retreat hexes), nearest
        first; never next to a tank battle in the open (a pursuit target)."""
        w = self.w
        objs = objectives(w)
        germ = held(s, w, GERMANY)
        belg = held(s, w, BELGIUM)
        open_b = [b for b in s["battles"] if b["status"] in ("pending", "active")]
        bh = {b["hex"] for b in open_b}
        danger = set()
        for b in open_b:
            if b["hex"] not in objs and b["marker"] is not None:
                danger |= set(w.neighbours(b["hex"]))
        spots = []
        for b in open_b:
            if b["hex"] not in objs:
                continue
            for n in w.neighbours(b["hex"]):
                if n in bh or n in germ or n in danger or n not in self.geo.enterable or belg.get(n):
                    continue
                spots.append(n)
        free = [u for u in land(s, w, BELGIUM) if s["units"][u]["hex"] not in bh and not s["units"][u]["done"]]
        goals: dict[str, str] = {}
        for spot in sorted(set(spots)):
            best = None
            for u in free:
                if u in goals:
                    continue
                found = self.geo.path(s["units"][u]["hex"], spot, s["units"][u]["mp"] or 0,
                                      lambda h: h not in germ and h not in bh and len(belg.get(h, [])) < 3)
                if found is not None and (best is None or (found[0], u) < best):
                    best = (found[0], u)
            if best is not None:
                goals[best[1]] = spot
        return goals

    # -- combat ------------------------------------------------------------------------------
    def combat(self, s: State, t: dict[str, list[Action]]) -> Action:
        w = self.w
        c = s["combat"]
        step = c["step"]
        b = battle_of(s, c["battle"])
        if step == "defender_unit":
            return best_fighter(self, s, b, t["choose_fighter"], BELGIUM)
        if step == "defender_bomber":
            return best_bomber(self, s, b, t, BELGIUM)
        if step == "assign_hits":
            return min(t["assign_hit"], key=lambda a: (self.est.dfn(a["unit"], s["units"][a["unit"]]["hits"], b["hex"]),
                                                       w.units[a["unit"]].defense - s["units"][a["unit"]]["hits"],
                                                       a["unit"]))
        if step == "defender_retreat":
            if b["marker"] is not None or "retreat" not in t:
                return t["take_hit"][0]  # a retreat would open the pursuit (AoB 15.6)
            uid = c["retreat_due"][BELGIUM]
            if s["units"][uid]["hits"] + 1 >= w.units[uid].defense:
                return t["retreat"][0]
            return t["take_hit"][0]
        if step == "defender_withdraw":
            return t["continue"][0]
        return next(iter(t.values()))[0]


class CordonBelgian(CompetentBelgian):
    def make_setup(self) -> dict[str, str]:
        return cordon_belgian_setup(self.w, self.geo, self.est)


class DefaultSetupBelgian(CompetentBelgian):
    def make_setup(self) -> dict[str, str]:
        return {}  # standard_setup


class GroundedGerman(CompetentGerman):
    """The competent German without aircraft (ablation: how much the air war matters)."""

    def air_action(self, s: State, t: dict[str, list[Action]]) -> Action:
        return t["end_air"][0]


class GroundedBelgian(CompetentBelgian):
    """The competent Belgian without aircraft (ablation)."""

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        if s["phase"] == "belgian_air":
            return t["end_air"][0]
        return super().decide(s, legal, t)


# ---------------------------------------------------------------------------------------------
# Baselines: the HTTP test bot's logic, and uniform random play
# ---------------------------------------------------------------------------------------------

NAIVE_PREFERENCE = ["standard_setup", "done_setup", "pursue", "attack", "resolve_battle", "retreat", "continue",
                    "choose_fighter", "choose_bomber", "assign_hit", "take_hit", "no_pursuit"]


class NaivePlayer(Player):
    """tests/aob/api_bot.py's choices, through the pure interface."""

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.targets: dict[str, str] = {}
        self.reacted = False

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        w = self.w
        ph = s["phase"]
        if ph == "german_land_move":
            sel = s["selected"]
            if sel and "move" in t:
                target = self.targets[sel]
                here = s["units"][sel]["hex"]
                best = min(t["move"], key=lambda a: (w.distance(a["hex"], target), 0 if a.get("tank_battle") else 1))
                if w.distance(best["hex"], target) < w.distance(here, target):
                    return best
            if sel and "end_unit_move" in t:
                return t["end_unit_move"][0]
            tanks = [a for a in t.get("select", []) if w.units[a["unit"]].is_tank]
            if tanks:
                self.targets[tanks[0]["unit"]] = objectives(w)[len(self.targets) % 2]
                return tanks[0]
            return t["end_movement"][0]
        if ph == "belgian_reaction":
            sel = s["selected"]
            if sel and "end_unit_move" in t:
                self.reacted = True
                return t["end_unit_move"][0]
            if sel and "move" in t:
                return t["move"][0]
            if "select" in t and not self.reacted:
                return t["select"][0]
            return t["end_reaction"][0]
        if ph in ("german_air", "belgian_air"):
            return (t.get("fly") or t["end_air"])[0]
        for kind in NAIVE_PREFERENCE:
            if kind in t:
                return t[kind][0]
        return legal[0]


class NaiveGerman(NaivePlayer):
    side = GERMANY


class NaiveBelgian(NaivePlayer):
    side = BELGIUM


class SetupOnlyBelgian(NaiveBelgian):
    """The competent Belgian's set-up, then the naive bot's choices (ablation: do the Belgian
    choices after the set-up matter?)."""

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.setup = CompetentBelgian()
        self.setup.new_game(g, seed, options)

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        if s["phase"] == "setup_belgium":
            return self.setup.decide(s, legal, t)
        return super().decide(s, legal, t)


class RandomPlayer(Player):
    """Uniform among the legal actions (standard set-up; never picks a unit up again)."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        if s["phase"].startswith("setup"):
            return (t.get("standard_setup") or t.get("done_setup") or legal)[0]
        options = [a for a in legal if a["type"] != "unplace"]
        ends = [a for a in options if a["type"] in ("end_movement", "end_unit_move", "end_reaction", "end_air")]
        rest = [a for a in options if a not in ends]
        if rest and (not ends or stable_hash(self.seed, self.side, self.steps, "end") % 10):
            return pick(rest, self.seed, self.side, self.steps)
        return pick(options, self.seed, self.side, self.steps)


# =============================================================================================
# Playing games and the tournament
# =============================================================================================

@dataclass
class Record:
    winner: str
    battles: int
    actions: int
    pursuits: int
    seconds: float
    taken: tuple[bool, bool] = (False, False)  # Brussels, Antwerp conquered


def play_game(g: AssaultOnBelgium, german: Player, belgian: Player, seed: int,
              options: dict[str, Any] | None = None, max_actions: int = 20000,
              trace: Callable[[str], None] | None = None) -> tuple[Record, State]:
    options = dict(options or {})
    dice = hash_dice(seed)
    t0 = time.perf_counter()
    s = g.setup("may-1940", options, dice)
    german.new_game(g, seed, options)
    belgian.new_game(g, seed, options)
    n = 0
    while g.outcome(s) is None:
        seat = g.active_seats(s)[0]
        legal = g.legal_actions(s, seat)
        player = german if seat == GERMANY else belgian
        a = player.choose(s, legal)
        if a not in legal:
            raise AssertionError(f"{type(player).__name__} chose an unlisted action {a} in {s['phase']}")
        applied = g.apply(s, seat, a, dice)
        s = applied.state
        if trace is not None and a["type"] not in ("select", "place"):
            if a["type"] != "move" or s["phase"] != "german_land_move":
                trace(f"  {seat}: {g.describe_action(a)}")
            for f in applied.facts:
                if f.kind not in ("setup", "choose") and not (f.kind == "move" and a["type"] == "move"
                                                              and s["phase"] == "belgian_reaction"):
                    trace(f"    {f.text}")
        n += 1
        if n > max_actions:
            raise AssertionError(f"seed {seed}: no end after {max_actions} actions")
    o = g.outcome(s)
    assert o is not None and o.winner is not None
    w = g.world
    br, an = (bool(land(s, w, GERMANY, o)) and not land(s, w, BELGIUM, o) for o in objectives(w))
    return Record(o.winner, len(s["battles"]), n, sum(1 for b in s["battles"] if b["parent"] is not None),
                  time.perf_counter() - t0, (br, an)), s


@dataclass
class Summary:
    label: str
    games: int
    german_wins: int
    battles: float
    actions: float
    pursuits: float
    seconds: float
    brussels: float = 0.0
    antwerp: float = 0.0

    @property
    def rate(self) -> float:
        return self.german_wins / self.games if self.games else 0.0

    def line(self) -> str:
        return (f"{self.label:<44} {self.rate:6.1%} ({self.german_wins}/{self.games})  Brussels {self.brussels:4.0%} "
                f"Antwerp {self.antwerp:4.0%}  battles {self.battles:5.2f}  actions {self.actions:6.1f}  "
                f"pursuits {self.pursuits:4.2f}  {self.seconds:5.1f}s")


PAIRINGS: dict[str, tuple[Callable[[], Player], Callable[[], Player]]] = {
    "competent German vs competent Belgian": (CompetentGerman, CompetentBelgian),
    "competent German vs default set-up Belgian": (CompetentGerman, DefaultSetupBelgian),
    "naive German vs naive Belgian (API test bot)": (NaiveGerman, NaiveBelgian),
    "naive German vs competent Belgian": (NaiveGerman, CompetentBelgian),
    "competent German vs naive Belgian": (CompetentGerman, NaiveBelgian),
    "random German vs random Belgian": (lambda: RandomPlayer(GERMANY), lambda: RandomPlayer(BELGIUM)),
    "competent German vs competent set-up, naive play": (CompetentGerman, SetupOnlyBelgian),
    "grounded German vs competent Belgian": (GroundedGerman, CompetentBelgian),
    "competent German vs grounded Belgian": (CompetentGerman, GroundedBelgian),
    "competent German vs cordon Belgian": (CompetentGerman, CordonBelgian),
}


def run_pairing(label: str, n: int, options: dict[str, Any] | None = None, world: World | None = None,
                first_seed: int = 0) -> Summary:
    g = AssaultOnBelgium(world or load_world())
    make_g, make_b = PAIRINGS[label]
    german, belgian = make_g(), make_b()
    wins = battles = actions = pursuits = br = an = 0
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + n):
        rec, _ = play_game(g, german, belgian, seed, options)
        wins += rec.winner == GERMANY
        battles += rec.battles
        actions += rec.actions
        pursuits += rec.pursuits
        br += rec.taken[0]
        an += rec.taken[1]
    return Summary(label, n, wins, battles / n, actions / n, pursuits / n, time.perf_counter() - t0, br / n, an / n)


def tournament(n: int, options: dict[str, Any] | None = None, pairings: list[str] | None = None,
               world: World | None = None, out: Callable[[str], None] = print) -> list[Summary]:
    """Play n seeded games (seeds 0..n-1) for each pairing and print the German win rate, the
    mean number of battles and of actions per game."""
    out(f"Assault on Belgium tournament: {n} games per pairing, options {dict(options or {})}")
    res = []
    for label in pairings or list(PAIRINGS):
        sm = run_pairing(label, n, options, world)
        out(sm.line())
        res.append(sm)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--no-entry-nl-france", action="store_true", help="the optional rule (AoB 18.1)")
    ap.add_argument("--memo-order", action="store_true", help="reaction_before_german_air = false")
    ap.add_argument("--pairing", action="append", choices=list(PAIRINGS), help="only these pairings")
    ap.add_argument("--show-setup", action="store_true", help="print the competent Belgian set-up")
    ap.add_argument("--trace", type=int, metavar="SEED", help="print one game of the first pairing, fact by fact")
    args = ap.parse_args(argv)
    options = {"no_entry_nl_france": args.no_entry_nl_france, "reaction_before_german_air": not args.memo_order}
    if args.show_setup:
        w = load_world()
        geo = geo_for(w, args.no_entry_nl_france)
        for name, fn in (("competent", competent_belgian_setup), ("cordon", cordon_belgian_setup)):
            su = fn(w, geo, estimator_for(w))
            print(name, {h: [u for u, x in su.items() if x == h] for h in sorted(set(su.values()))})
    if args.trace is not None:
        make_g, make_b = PAIRINGS[(args.pairing or list(PAIRINGS))[0]]
        rec, _ = play_game(AssaultOnBelgium(load_world()), make_g(), make_b(), args.trace, options, trace=print)
        print(rec)
        return 0
    if args.games > 0:
        t0 = time.perf_counter()
        tournament(args.games, options, args.pairing)
        print(f"total {time.perf_counter() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
