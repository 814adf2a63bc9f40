"""Land movement (AoB 5, 13, 15.4) and the Belgian reaction (AoB 6).

Both go one unit at a time: select a unit, move it hex by hex, end its move. Germany's
entry into a hex with Belgian land units stops the unit and creates (or joins) a battle
with its battle vector (AoB 5.4, 5.5); a tank may declare a tank battle (AoB 15.4).
Belgium's reacting units may not enter battle hexes or hexes with German units and must
end next to a battle hex (AoB 6.1, memo 2 reading of AoB 24.8).
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from typing import Any

from rules.assault_on_belgium.board import (
    ATTACKER,
    DEFENDER,
    battle_at,
    battle_hexes,
    enterable_country,
    fact,
    land_units,
    name,
    side_adj,
    side_name,
)
from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.tables import TANK_BATTLE_COST
from rules.assault_on_belgium.terrain import cost_text, move_cost
from rules.core.game import Action, Fact, IllegalAction, State


def start(s: State, w: World, side: str) -> None:
    """Give every land unit of `side` its full movement allowance (AoB 5.1)."""
    for uid in land_units(s, w, side):
        st = s["units"][uid]
        st["mp"], st["moved"], st["done"] = w.units[uid].movement, False, False
    s["selected"] = None


# -- which units may move -------------------------------------------------------------

def _movable(s: State, w: World, side: str, uid: str) -> IllegalAction | None:
    rule = "AoB 5.1" if side == ATTACKER else "AoB 6.1"
    if uid not in w.units:
        return IllegalAction(f"there is no unit {uid!r}")
    u = w.units[uid]
    if u.side != side:
        return IllegalAction(f"{u.name} is not a {side_adj(side)} unit", rule)
    if not u.is_land:
        return IllegalAction(f"{u.name} is an aircraft; aircraft fly missions, they do not move by land", "AoB 7.1")
    st = s["units"][uid]
    if st["status"] != "active":
        return IllegalAction(f"{u.name} is not on the map", rule)
    if st["done"]:
        if side == ATTACKER and battle_at(s, st["hex"]) is not None:
            return IllegalAction(f"{u.name} entered an enemy-occupied hex and must stop", "AoB 5.4")
        return IllegalAction(f"{u.name} has already finished its move", "AoB 5.3")
    if side == DEFENDER and battle_at(s, st["hex"]) is not None:
        return IllegalAction(f"{u.name} is in battle at {st['hex']} and cannot react", "AoB 6.1")
    return None


def _reaction_end_ok(s: State, w: World, uid: str) -> bool:
    """AoB 6.1: a reacting unit ends next to a battle hex, or stays where it was."""
    st = s["units"][uid]
    if not st["moved"]:
        return True
    return _next_to_battle(s, w, st["hex"])


def _next_to_battle(s: State, w: World, hex_: str) -> bool:
    bh = set(battle_hexes(s))
    return any(n in bh for n in w.neighbours(hex_))


def _leave_problem(s: State, w: World, side: str) -> IllegalAction | None:
    """The selected reacting unit may not be left standing away from the battles."""
    sel = s["selected"]
    if side == DEFENDER and sel is not None and not _reaction_end_ok(s, w, sel):
        return IllegalAction(
            f"{name(w, sel)} must end its reaction next to a battle hex; move it on first", "AoB 6.1")
    return None


# -- one step ---------------------------------------------------------------------------

def step_problem(s: State, w: World, side: str, uid: str, frm: str, to: str, mp: int,
                 tank_battle: bool = False) -> IllegalAction | None:
    """Why `uid` (standing on `frm` with `mp` left) may not step into `to`."""
    if to not in w.hexes:
        return IllegalAction(f"there is no hex {to} on the map")
    if to not in w.neighbours(frm):
        return IllegalAction(f"{to} is not adjacent to {frm}; units move one hex at a time", "AoB 5.2")
    blocked = enterable_country(s, w, to)
    if blocked:
        return blocked
    cost = move_cost(w, frm, to)
    assert cost is not None
    if cost > mp:
        return IllegalAction(f"not enough movement points: {cost_text(w, frm, to)} costs {cost}, {mp} left", "AoB 5.3")
    enemy = land_units(s, w, DEFENDER if side == ATTACKER else ATTACKER, to)
    own = [u for u in land_units(s, w, side, to) if u != uid]
    if side == DEFENDER:
        if enemy:
            return IllegalAction(f"{to} holds German units; Belgium never attacks, it may only move next to battles",
                                 "AoB 6.2")
        if battle_at(s, to) is not None:
            return IllegalAction(f"{to} is a battle hex; reacting units may only move next to it", "AoB 6.2")
    b = battle_at(s, to)
    limit = 5 if (b is not None and b["marker"] is not None) or tank_battle else 3
    if len(own) >= limit:
        rule = "AoB 15.3" if limit == 5 else "AoB 4.1"
        return IllegalAction(f"stacking: {to} already holds {len(own)} {side_adj(side)} land units", rule)
    if tank_battle:
        u = w.units[uid]
        if not u.is_tank:
            return IllegalAction(f"{u.name} is not a tank; only tanks start tank battles", "AoB 15.1")
        if not enemy:
            return IllegalAction(f"{to} holds no enemy units; a tank battle needs a battle hex", "AoB 15.1")
        if b is not None and b["marker"] is not None:
            return IllegalAction(f"battle {b['n']} at {to} already has a tank battle marker", "AoB 15.4")
        if mp - cost < TANK_BATTLE_COST:
            return IllegalAction(
                f"a tank needs at least 1 MP left after entering to start a tank battle: {cost_text(w, frm, to)} "
                f"costs {cost}, {mp} left", "AoB 15.4")
    if side == DEFENDER and not _can_reach_end(s, w, uid, to, mp - cost):
        return IllegalAction(
            f"from {to} with {mp - cost} MP left {name(w, uid)} could not end its move next to a battle hex",
            "AoB 6.1")
    return None


def _can_reach_end(s: State, w: World, uid: str, start_hex: str, mp: int) -> bool:
    """Can the reacting unit, standing on `start_hex` with `mp` left, still end next to a battle?"""
    german: set[str] = set()
    belgian: dict[str, int] = {}
    for other_id, st in s["units"].items():
        if st["status"] != "active" or other_id == uid or not w.units[other_id].is_land:
            continue
        if w.units[other_id].side == ATTACKER:
            german.add(st["hex"])
        else:
            belgian[st["hex"]] = belgian.get(st["hex"], 0) + 1
    need = _need_map(w, frozenset(battle_hexes(s)), frozenset(german), frozenset(h for h, k in belgian.items() if k >= 3),
                     bool(s["options"].get("no_entry_nl_france")))
    return need.get(start_hex, mp + 1) <= mp


@lru_cache(maxsize=512)
def _need_map(w: World, battles: frozenset[str], german: frozenset[str], full: frozenset[str],
              no_nl_fr: bool) -> dict[str, int]:
    """Least MP from each hex to a hex next to a battle, through hexes a reacting unit may enter
    (a pure function of its arguments, memoised: reverse Dijkstra from the goal hexes)."""
    def passable(h: str) -> bool:
        x = w.hexes[h]
        return not (h in battles or h in german or h in full or x.is_sea or (no_nl_fr and x.country in ("NL", "FR")))

    need: dict[str, int] = {}
    heap: list[tuple[int, str]] = []
    for b in sorted(battles):
        for n in w.neighbours(b):
            if n not in need:
                need[n] = 0
                heap.append((0, n))
    heapq.heapify(heap)
    while heap:
        d, here = heapq.heappop(heap)
        if d > need.get(here, d):
            continue
        if not passable(here):
            continue  # a goal hex the unit could not enter helps only the unit already standing on it
        for n in w.neighbours(here):
            c = move_cost(w, n, here)
            if c is None:
                continue
            if d + c < need.get(n, d + c + 1):
                need[n] = d + c
                heapq.heappush(heap, (d + c, n))
    return need


# -- actions ------------------------------------------------------------------------------

def candidates(s: State, w: World, side: str, kind: Any = None) -> list[Action]:
    """The movement phase's candidates; with `kind`, only those of that action type."""
    def want(t: str) -> bool:
        return kind is None or kind == t

    out: list[Action] = []
    sel = s["selected"]
    leave = _leave_problem(s, w, side)
    if leave is None and want("select"):
        for uid in land_units(s, w, side):
            if uid != sel and _movable(s, w, side, uid) is None:
                if side == ATTACKER or _moves(s, w, side, uid):
                    out.append({"type": "select", "unit": uid})
    if sel is not None:
        if want("move"):
            out.extend(_moves(s, w, side, sel))
        if want("end_unit_move") and (side == ATTACKER or _reaction_end_ok(s, w, sel)):
            out.append({"type": "end_unit_move"})
    if leave is None:
        out.append({"type": "end_movement" if side == ATTACKER else "end_reaction"})
    return out


def _moves(s: State, w: World, side: str, uid: str) -> list[Action]:
    st = s["units"][uid]
    out: list[Action] = []
    for n in w.neighbours(st["hex"]):
        if step_problem(s, w, side, uid, st["hex"], n, st["mp"]) is None:
            out.append({"type": "move", "hex": n})
            if side == ATTACKER and step_problem(s, w, side, uid, st["hex"], n, st["mp"], True) is None:
                out.append({"type": "move", "hex": n, "tank_battle": True})
    return out


def check(s: State, w: World, side: str, action: Action) -> None:
    kind = action["type"]
    end_kind = "end_movement" if side == ATTACKER else "end_reaction"
    if kind == "select":
        leave = _leave_problem(s, w, side)
        if leave:
            raise leave
        problem = _movable(s, w, side, action["unit"])
        if problem:
            raise problem
        if action["unit"] == s["selected"]:
            raise IllegalAction(f"{name(w, action['unit'])} is already selected")
        if side == DEFENDER and not _moves(s, w, side, action["unit"]):
            raise IllegalAction(f"{name(w, action['unit'])} has no legal reaction move", "AoB 6.1")
    elif kind == "move":
        sel = s["selected"]
        if sel is None:
            raise IllegalAction("select a unit to move first", "AoB 5.1")
        if side == DEFENDER and action.get("tank_battle"):
            raise IllegalAction("only Germany starts tank battles; Belgium never attacks", "AoB 6.2")
        st = s["units"][sel]
        problem = step_problem(s, w, side, sel, st["hex"], action["hex"], st["mp"], bool(action.get("tank_battle")))
        if problem:
            raise problem
    elif kind == "end_unit_move":
        if s["selected"] is None:
            raise IllegalAction("no unit is selected", "AoB 5.1")
        leave = _leave_problem(s, w, side)
        if leave:
            raise leave
    elif kind == end_kind:
        leave = _leave_problem(s, w, side)
        if leave:
            raise leave
    else:
        raise IllegalAction(f"{kind} is not an action of this phase")


def _finish(s: State, uid: str) -> None:
    s["units"][uid]["done"] = True
    if s["selected"] == uid:
        s["selected"] = None


def perform(s: State, w: World, side: str, action: Action, facts: list[Fact]) -> None:
    kind = action["type"]
    rule = "AoB 5.1" if side == ATTACKER else "AoB 6.1"
    if kind == "select":
        prev = s["selected"]
        if prev is not None and s["units"][prev]["moved"]:
            _finish(s, prev)
        s["selected"] = action["unit"]
    elif kind == "move":
        _step(s, w, side, s["selected"], action["hex"], bool(action.get("tank_battle")), facts)
    elif kind == "end_unit_move":
        uid = s["selected"]
        _finish(s, uid)
        facts.append(fact(f"{name(w, uid)} ends its move in {w.hex_title(s['units'][uid]['hex'])}", rule, "move",
                          unit=uid, hex=s["units"][uid]["hex"]))
    else:
        s["selected"] = None
        for uid in land_units(s, w, side):
            s["units"][uid]["done"] = True
        what = "movement" if side == ATTACKER else "reaction"
        facts.append(fact(f"{side_name(side)} ends its {what}", rule, "phase"))


def _step(s: State, w: World, side: str, uid: str, to: str, tank_battle: bool, facts: list[Fact]) -> None:
    st = s["units"][uid]
    frm = st["hex"]
    cost = move_cost(w, frm, to)
    assert cost is not None
    st["hex"], st["mp"], st["moved"] = to, st["mp"] - cost, True
    u = w.units[uid]
    enemy = land_units(s, w, DEFENDER, to) if side == ATTACKER else []
    facts.append(fact(f"{u.name} moves {frm} → {w.hex_title(to)} ({cost} MP, {st['mp']} left)", "AoB 5.2", "move",
                      unit=uid, hexes=[frm, to], cost=cost, mp=st["mp"]))
    if enemy:
        b = battle_at(s, to)
        if b is None:
            b = new_battle(s, to, frm)
            facts.append(fact(f"Battle {b['n']} at {w.hex_title(to)}: {u.name} attacks from {frm} "
                              f"(battle vector {frm} → {to}) against " + ", ".join(name(w, e) for e in enemy),
                              "AoB 5.5", "battle", battle=b["n"], hex=to, origin=frm, units=[uid] + enemy))
        else:
            facts.append(fact(f"{u.name} joins battle {b['n']} at {w.hex_title(to)}", "AoB 5.4", "battle",
                              battle=b["n"], hex=to, unit=uid))
        if tank_battle:
            st["mp"] -= TANK_BATTLE_COST
            b["marker"] = st["mp"]
            facts.append(fact(f"{u.name} starts a tank battle: pays 1 MP, the tank battle marker shows {b['marker']}",
                              "AoB 15.4", "tank_battle", battle=b["n"], hex=to, unit=uid, marker=b["marker"]))
        _finish(s, uid)
    elif st["mp"] == 0:
        _finish(s, uid)


def new_battle(s: State, hex_: str, origin: str, marker: int | None = None, parent: int | None = None) -> dict[str, Any]:
    """AoB 5.5: a battle with its vector based on `origin` and the next battle number."""
    n = s["next_battle"]
    s["next_battle"] = n + 1
    b = {"n": n, "hex": hex_, "origin": origin, "status": "pending", "marker": marker, "marker_removed": False,
         "parent": parent, "round": 0, "aa_loss": {}, "retreats": [], "last_defender_exit": None, "winner": None}
    s["battles"].append(b)
    return b
