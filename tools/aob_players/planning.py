"""German planning: which tanks go where."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.tables import TANK_BATTLE_COST
from rules.assault_on_belgium.terrain import (
    move_cost,
)
from tools.aob_players.air_plan import AirModel
from tools.aob_players.base import BELGIUM, GERMANY, Geo, State, air_units, objectives
from tools.aob_players.estimate import Estimator

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


