"""The competent German."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.game import AssaultOnBelgium
from rules.assault_on_belgium.tables import TANK_BATTLE_COST
from rules.assault_on_belgium.terrain import (
    move_cost,
)
from tools.aob_players.air_plan import plan_german_air
from tools.aob_players.base import (
    BELGIUM,
    GERMANY,
    Action,
    State,
    battle_of,
    held,
    land,
    objectives,
    open_battle_at,
)
from tools.aob_players.planning import _likely_origin, best_german_split
from tools.aob_players.players import Player, SetupMixin, best_bomber, best_fighter

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


