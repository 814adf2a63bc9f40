"""Estimating battles: a small Monte Carlo of the land rounds and exact air-combat odds."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.tables import aa_result, air_result, land_result
from rules.assault_on_belgium.terrain import (
    attack_strength,
    bomber_support,
    defense_strength,
    ignores_retreat,
)
from tools.aob_players.base import Lcg, stable_hash

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


