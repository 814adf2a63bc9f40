"""The competent Belgian, its set-ups and the ablations."""

from __future__ import annotations

import heapq
from typing import Any

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.game import AssaultOnBelgium
from tools.aob_players.air_plan import AirModel, _reach
from tools.aob_players.base import (
    BELGIUM,
    GERMANY,
    Action,
    Geo,
    State,
    air_units,
    battle_of,
    held,
    land,
    min_vertex_cut,
    objectives,
)
from tools.aob_players.estimate import Estimator
from tools.aob_players.german import CompetentGerman
from tools.aob_players.planning import air_aware_value, german_split, german_splits
from tools.aob_players.players import Player, SetupMixin, best_bomber, best_fighter

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


