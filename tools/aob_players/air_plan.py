"""Air planning for both sides: exact air-combat odds times estimated land odds."""

from __future__ import annotations

import itertools

from rules.assault_on_belgium.data import World
from tools.aob_players.base import BELGIUM, GERMANY, Action, State, air_units, land, objectives, open_battle_at
from tools.aob_players.estimate import Estimator, air_outcomes
from tools.aob_players.players import Player

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
    def from_state(cls, p: Player, s: State) -> AirModel:
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


def _reach(p: Player, s: State, side: str, hexes: list[str]) -> dict[str, list[str]]:
    out = {}
    for u in air_units(s, p.w, side):
        if s["units"][u]["mission"] is not None:
            continue
        x = p.w.units[u]
        out[u] = [h for h in hexes if p.w.distance(s["units"][u]["hex"], h) <= x.range]
    return out


def plan_german_air(p: Player, s: State, t: dict[str, list[Action]]) -> list[Action]:
    model = AirModel.from_state(p, s)
    if not model.battles:
        return []
    _, plan = model.german_plan(_reach(p, s, GERMANY, model.battles), _reach(p, s, BELGIUM, model.battles))
    return [{"type": "fly", "unit": u, "hex": h} for u, h in sorted(plan.items())]


