"""Tank battles and pursuit (AoB 15).

The marker shows the MP left to the tanks of a battle (AoB 15.4). When Germany wins a
tank battle whose last defender retreated, its tanks may pursue into a hex a defender
retreated to, or attack another adjacent Belgian hex not yet in a battle (AoB 15.6,
15.11), paying the hex's terrain cost, +1 for a river hexside and +1 for the new tank
battle from the marker. Non-tank units with the same printed movement allowance as a
pursuing tank may go along (AoB 15.9, reading of AoB 24.11). Tanks left behind may form
another group for another target (AoB 15.12); every group pays from the won battle's marker.
"""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.board import (
    ATTACKER,
    DEFENDER,
    aircraft,
    battle_at,
    enterable_country,
    fact,
    land_units,
    name,
)
from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.movement import new_battle
from rules.assault_on_belgium.tables import TANK_BATTLE_COST
from rules.assault_on_belgium.terrain import move_cost
from rules.core.game import Action, Fact, IllegalAction, State

PURSUIT_STACK = 5  # AoB 15.3


def may_pursue(b: dict[str, Any]) -> bool:
    """AoB 15.2, 15.6, 15.10: Germany won, the marker is still there and the last defender retreated."""
    return (b["winner"] == ATTACKER and b["marker"] is not None and not b["marker_removed"]
            and b["last_defender_exit"] == "retreat")


def start(s: State, w: World, b: dict[str, Any]) -> dict[str, Any]:
    p = {"battle": b["n"], "selected": [], "sent": [], "aircraft_moved": False}
    p["selected"] = [u for u in _remaining(s, w, b, p) if w.units[u].is_tank]
    return p


def _remaining(s: State, w: World, b: dict[str, Any], p: dict[str, Any]) -> list[str]:
    return [u for u in land_units(s, w, ATTACKER, b["hex"]) if u not in p["sent"]]


def _tank_moves(w: World, p: dict[str, Any]) -> set[int]:
    return {w.units[u].movement for u in p["selected"] if w.units[u].is_tank}


def targets(s: State, w: World, b: dict[str, Any], size: int) -> list[tuple[str, str, int]]:
    """(action type, hex, cost) for every affordable target of a group of `size` units."""
    retreated = {r["hex"] for r in b["retreats"]}
    out = []
    for h in w.neighbours(b["hex"]):
        if not land_units(s, w, DEFENDER, h) or battle_at(s, h) is not None:
            continue
        if enterable_country(s, w, h) is not None:
            continue
        c = move_cost(w, b["hex"], h)
        if c is None or c + TANK_BATTLE_COST > b["marker"]:
            continue
        if len(land_units(s, w, ATTACKER, h)) + size > PURSUIT_STACK:
            continue
        out.append(("pursue" if h in retreated else "attack", h, c + TANK_BATTLE_COST))
    return out


def candidates(s: State, w: World, b: dict[str, Any], p: dict[str, Any]) -> list[Action]:
    out: list[Action] = []
    for u in _remaining(s, w, b, p):
        if check_toggle(s, w, b, p, u) is None:
            out.append({"type": "pursuit_toggle", "unit": u})
    if any(w.units[u].is_tank for u in p["selected"]):
        for kind, h, _ in targets(s, w, b, len(p["selected"])):
            out.append({"type": kind, "hex": h})
    out.append({"type": "no_pursuit"})
    return out


def check_toggle(s: State, w: World, b: dict[str, Any], p: dict[str, Any], uid: object) -> IllegalAction | None:
    if not isinstance(uid, str) or uid not in _remaining(s, w, b, p):
        return IllegalAction(f"{uid!r} is not a German unit left in the won hex {b['hex']}", "AoB 15.6")
    if uid in p["selected"]:
        return None
    u = w.units[uid]
    if len(p["selected"]) >= PURSUIT_STACK:
        return IllegalAction("at most 5 units take part in a tank battle", "AoB 15.3")
    if not u.is_tank and u.movement not in _tank_moves(w, p):
        return IllegalAction(f"{u.name} may go along only with a selected tank of the same movement allowance "
                             f"({u.movement})", "AoB 15.9")
    return None


def check(s: State, w: World, b: dict[str, Any], p: dict[str, Any], action: Action) -> None:
    kind = action["type"]
    if kind == "pursuit_toggle":
        problem = check_toggle(s, w, b, p, action["unit"])
        if problem:
            raise problem
    elif kind in ("pursue", "attack"):
        if not any(w.units[u].is_tank for u in p["selected"]):
            raise IllegalAction("select at least one tank: only tanks pursue", "AoB 15.6")
        h = action["hex"]
        found = {t[1]: t for t in targets(s, w, b, len(p["selected"]))}
        if h not in found:
            raise _target_problem(s, w, b, h, len(p["selected"]))
        if found[h][0] != kind:
            if kind == "pursue":
                raise IllegalAction(f"no defender of battle {b['n']} retreated to {h}; use attack", "AoB 15.11")
            raise IllegalAction(f"a defender of battle {b['n']} retreated to {h}; use pursue", "AoB 15.6")
    elif kind != "no_pursuit":
        raise IllegalAction(f"{kind} is not possible now: Germany decides on pursuit", "AoB 15.6")


def _target_problem(s: State, w: World, b: dict[str, Any], h: str, size: int) -> IllegalAction:
    if h not in w.neighbours(b["hex"]):
        return IllegalAction(f"{h} is not adjacent to the won hex {b['hex']}", "AoB 15.6")
    blocked = enterable_country(s, w, h)
    if blocked:
        return blocked
    if not land_units(s, w, DEFENDER, h):
        return IllegalAction(f"{h} holds no Belgian land units to pursue or attack", "AoB 15.11")
    if battle_at(s, h) is not None:
        return IllegalAction(f"{h} is already a battle hex", "AoB 15.11")
    c = move_cost(w, b["hex"], h)
    if c is not None and c + TANK_BATTLE_COST > b["marker"]:
        return IllegalAction(f"not enough MP on the tank battle marker: {h} costs {c} + 1 for the new tank battle, "
                             f"the marker shows {b['marker']}", "AoB 15.6")
    return IllegalAction(f"stacking: {h} would hold more than 5 German land units", "AoB 15.3")


def perform(s: State, w: World, b: dict[str, Any], p: dict[str, Any], action: Action, facts: list[Fact]) -> bool:
    """Apply a pursuit decision. Returns True while Germany is still to decide for this battle."""
    kind = action["type"]
    if kind == "pursuit_toggle":
        uid = action["unit"]
        if uid in p["selected"]:
            p["selected"] = [u for u in p["selected"] if u != uid]
            moves = _tank_moves(w, p)
            p["selected"] = [u for u in p["selected"] if w.units[u].is_tank or w.units[u].movement in moves]
        else:
            p["selected"] = [u for u in _remaining(s, w, b, p) if u in p["selected"] or u == uid]
        return True
    if kind == "no_pursuit":
        facts.append(fact(f"Germany does not pursue from {w.hex_title(b['hex'])}", "AoB 15.2", "pursuit",
                          battle=b["n"]))
        return False
    h = action["hex"]
    cost = move_cost(w, b["hex"], h)
    assert cost is not None
    cost += TANK_BATTLE_COST
    group = list(p["selected"])
    for u in group:
        s["units"][u]["hex"] = h
    nb = new_battle(s, h, b["hex"], b["marker"] - cost, b["n"])
    verb = "pursue into" if kind == "pursue" else "attack"
    facts.append(fact(
        f"{', '.join(name(w, u) for u in group)} {verb} {w.hex_title(h)}: pay {cost} MP "
        f"({cost - TANK_BATTLE_COST} terrain{' incl. river' if w.river(b['hex'], h) else ''} + 1 tank battle), "
        f"marker {b['marker']} − {cost} = {nb['marker']}; battle {nb['n']}",
        "AoB 15.6" if kind == "pursue" else "AoB 15.11", "pursuit", battle=nb["n"], parent=b["n"],
        hexes=[b["hex"], h], units=group, marker=nb["marker"], cost=cost))
    if not p["aircraft_moved"]:  # AoB 15.7: the surviving aircraft go with the (first) group
        p["aircraft_moved"] = True
        for a in aircraft(s, w, ATTACKER, mission=b["n"]):
            s["units"][a]["mission"] = nb["n"]
            facts.append(fact(f"{name(w, a)} goes along to battle {nb['n']}", "AoB 15.7", "pursuit",
                              battle=nb["n"], unit=a))
    here = set(land_units(s, w, DEFENDER, h))
    for a in aircraft(s, w, DEFENDER):  # AoB 15.8: aircraft that retreated with the pursued unit
        if s["units"][a]["with"] in here and s["units"][a]["mission"] is None:
            s["units"][a]["mission"], s["units"][a]["with"] = nb["n"], None
            facts.append(fact(f"{name(w, a)} is with the pursued unit: a new air combat round will follow",
                              "AoB 15.8", "pursuit", battle=nb["n"], unit=a))
    p["sent"] = p["sent"] + group
    left = _remaining(s, w, b, p)
    p["selected"] = [u for u in left if w.units[u].is_tank]
    return bool(p["selected"]) and bool(targets(s, w, b, 1))
