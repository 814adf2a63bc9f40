"""The player base class, shared caches, set-up and common combat decisions."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.game import AssaultOnBelgium
from tools.aob_players.base import GERMANY, Action, Geo, State, by_type
from tools.aob_players.estimate import Estimator

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


