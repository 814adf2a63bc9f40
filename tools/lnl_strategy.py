"""A scripted player for both seats of the Lock 'n Load demo (bench/lnl_balance.py, the browser test).

Not a rule: a reasonable, deterministic-given-its-rng way to play, so that the scenario's balance
can be measured. Each side reads the same state a seat sees and picks one of the listed actions.

US (attacker): rally everything; activate a stack with a leader first (its neighbours move too);
a group that sees a Good Order enemy within 2 hexes and is not strong enough to assault fires at
it, otherwise it advances on the nearest objective the US does not hold (double time when far)
and assaults into it (melee, 8.0) when it has two squads or the defenders are shaken; units on
an objective stay and fire.
VC (defender): rally everything; opportunity fire whenever asked (or by standing order "within2",
so that the US sees fire only at close range); each impulse fires the strongest group that has a
target; in the last two turns it counter-attacks an objective the US holds from an adjacent hex;
otherwise passes (staying hidden in its cover).
"""

from __future__ import annotations

import random
from typing import Any

from rules.lock_n_load import units as U
from rules.lock_n_load.game import LockNLoad

Act = dict[str, Any]


def choose(g: LockNLoad, s: dict[str, Any], seat: str, legal: list[Act], rng: random.Random,
           orders: bool = False) -> Act:
    by: dict[str, list[Act]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    w = g.world
    if orders:
        want = "within2" if seat == "vc" else "fire"
        for a in by.get("order", []):
            if a["order"] == want and a["hex"] not in s["orders"][seat]:
                return a
    if "melee_targets" in by:
        return by["melee_targets"][-1]  # all the enemy units
    if "drop_sw" in by:
        return by["drop_sw"][0]
    for t in ("retreat", "place_hero"):  # W4, W6: the first hex offered
        if t in by:
            return by[t][0]
    if "opp_fire" in by:
        return max(by["opp_fire"], key=lambda a: _fp_in(g, s, a["hex"], seat))
    for t in ("rally", "medic", "pickup"):
        if t in by:
            return by[t][0]
    if "hold_fire" in by:
        return by["hold_fire"][0]
    if "end_rally" in by:
        return by["end_rally"][0]
    if "place_sniper" in by and s["impulse"] is None:
        objs = s["objectives"]
        return min(by["place_sniper"], key=lambda a: (min(w.board.distance(a["hex"], o) for o in objs) != 2,
                                                        a["hex"]))
    return (_us if seat == "us" else _vc)(g, s, by, rng)


def _fp_in(g: LockNLoad, s: dict[str, Any], h: str, side: str) -> int:
    return sum(U.kind(s, g.world, u).fp for u in U.units_in(s, h, side))


def _open_objectives(g: LockNLoad, s: dict[str, Any]) -> list[str]:
    from rules.lock_n_load.events import holds

    w = g.world
    left = [o for o in s["objectives"] if not holds(s, w, o, "us")]
    return left or list(s["objectives"])


def _squads(g: LockNLoad, s: dict[str, Any], units: list[str]) -> int:
    return sum(2 if U.kind(s, g.world, u).cls == "squad" else 1 for u in units
               if U.kind(s, g.world, u).is_mmc and not s["units"][u]["shaken"])


def _go_enemy(g: LockNLoad, s: dict[str, Any], h: str, side: str) -> list[str]:
    return [u for u in U.units_in(s, h, U.other(side)) if U.kind(s, g.world, u).is_mmc and not s["units"][u]["shaken"]]


def _us(g: LockNLoad, s: dict[str, Any], by: dict[str, list[Act]], rng: random.Random) -> Act:
    w = g.world
    objs = s["objectives"]
    targets = _open_objectives(g, s)
    imp = s["impulse"]

    def dist(h: str) -> int:
        return min(w.board.distance(h, o) for o in targets)

    if imp is None:
        acts = [a for a in by.get("activate", []) if not (a["hex"] in objs and not _fires_from(g, s, a["hex"], "us"))]
        if not acts:
            if "spot" in by:
                return by["spot"][0]
            return by["pass"][0]
        led = [a for a in acts if any(U.kind(s, w, u).cls == "leader" and not s["units"][u]["activated"]
                                      for u in U.units_in(s, a["hex"], "us"))]
        return min(led or acts, key=lambda a: (dist(a["hex"]), a["hex"]))
    mv = imp["move"]
    if mv is not None:
        at = mv["at"]
        if at in targets or not by.get("step"):
            return by["stop"][0]
        strong = _squads(g, s, mv["units"]) >= 3
        options = []
        for a in by["step"]:
            foe = _go_enemy(g, s, a["hex"], "us")
            if foe and not strong and len(foe) > 0:
                continue  # never walk alone into Good Order defenders
            options.append(a)
        if not options:
            return by["stop"][0]
        best = min(options, key=lambda a: (dist(a["hex"]), a["hex"]))
        if dist(best["hex"]) >= dist(at):
            return by["stop"][0]
        return best
    if "melee" in by:
        return by["melee"][0]
    if "select" in by:
        return by["select"][0]
    if imp["group"]:
        g0 = imp["group"][0]
        at = s["units"][g0]["at"]
        fires = by.get("fire", [])
        near = [a for a in fires if w.board.distance(at, a["target"]) <= 2 and _go_enemy(g, s, a["target"], "us")]
        moves = {a["mode"]: a for a in by.get("move", [])}
        strong = _squads(g, s, imp["group"]) >= 3
        if at in objs:
            if fires:
                return min(fires, key=lambda a: (w.board.distance(at, a["target"]), a["target"]))
            return by["end_impulse"][0]
        go_fires = [a for a in fires if _go_enemy(g, s, a["target"], "us")]
        if go_fires and not (strong and near and dist(at) <= 1):
            return min(go_fires, key=lambda a: (w.board.distance(at, a["target"]), a["target"]))
        if moves:
            far = dist(at) > 4
            return (moves.get("double") if far else None) or moves.get("normal") or next(iter(moves.values()))
        if fires:
            return fires[0]
        if "clear" in by and "end_impulse" in by:
            return by["end_impulse"][0]
    return by["end_impulse"][0]


def _fires_from(g: LockNLoad, s: dict[str, Any], h: str, side: str) -> bool:
    from rules.lock_n_load import fire

    mine = [u for u in U.units_in(s, h, side) if U.can_act(s, g.world, u)]
    if not mine:
        return False
    return any(fire.plan(s, g.world, mine, t, opportunity=False) is not None for t in U.side_hexes(s, U.other(side)))


def _vc(g: LockNLoad, s: dict[str, Any], by: dict[str, list[Act]], rng: random.Random) -> Act:
    w = g.world
    imp = s["impulse"]
    late = s["turn"] >= s["turns"] - 1
    us_held = [o for o in s["objectives"] if U.units_in(s, o, "us") and not _go_enemy(g, s, o, "us")]
    if imp is None:
        acts = by.get("activate", [])
        firing = [a for a in acts if _fires_from(g, s, a["hex"], "vc")]
        if late and us_held:
            near = [a for a in acts if any(w.board.distance(a["hex"], o) <= 1 for o in us_held)
                    and _squads(g, s, U.units_in(s, a["hex"], "vc")) >= 2]
            if near:
                return near[0]
        if firing:
            return max(firing, key=lambda a: (_fp_in(g, s, a["hex"], "vc"), a["hex"]))
        return by["pass"][0]
    mv = imp["move"]
    if mv is not None:
        step = [a for a in by.get("step", []) if a["hex"] in us_held]
        return step[0] if step else by["stop"][0]
    if "melee" in by:
        return by["melee"][0]
    if "select" in by:
        return by["select"][0]
    if imp["group"]:
        at = s["units"][imp["group"][0]]["at"]
        if late and "move" in by and any(w.board.distance(at, o) == 1 for o in us_held) \
                and _squads(g, s, imp["group"]) >= 2:
            return next((a for a in by["move"] if a["mode"] == "normal"), by["move"][0])
        fires = by.get("fire", [])
        if fires:
            return min(fires, key=lambda a: (w.board.distance(at, a["target"]), a["target"]))
    return by["end_impulse"][0]
