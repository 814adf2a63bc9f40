"""The combat phase as a table of named steps (AoB 10-17, AoB 21 battle sub-machine).

Decision steps belong to one seat and list its legal actions; engine steps run by
themselves with dice. A decision with a single legal action is taken automatically, so
the game stops only where a player has a real choice. Battle order: Germany picks the
next pending battle; pursuit battles are fought first, in the order they arose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.assault_on_belgium import air, combat, tank_battle
from rules.assault_on_belgium.board import (
    ATTACKER,
    DEFENDER,
    aircraft,
    battle,
    fact,
    land_units,
    name,
    side_adj,
    side_name,
)
from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.terrain import ignores_retreat
from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction, State

MAX_ROUNDS = 200  # every LCT cell inflicts a hit, so a battle ends long before this

# step -> (seat, what is asked, rule)
DECISIONS: dict[str, tuple[str, str, str]] = {
    "choose_battle": (ATTACKER, "choose the next battle to resolve", "AoB 21"),
    "attacker_unit": (ATTACKER, "choose the attacking unit for this round", "AoB 11.10"),
    "defender_unit": (DEFENDER, "choose the defending unit for this round", "AoB 11.10"),
    "attacker_bomber": (ATTACKER, "choose a bomber to support this round, or none", "AoB 8.5"),
    "defender_bomber": (DEFENDER, "choose a bomber to support this round, or none", "AoB 8.5"),
    "assign_hits": (DEFENDER, "assign an excess hit to another defending unit", "AoB 11.8"),
    "attacker_retreat": (ATTACKER, "retreat the attacking unit or take an extra hit", "AoB 11.6"),
    "defender_retreat": (DEFENDER, "retreat the defending unit or take an extra hit", "AoB 11.6"),
    "attacker_withdraw": (ATTACKER, "continue the battle or withdraw a unit", "AoB 11.9"),
    "defender_withdraw": (DEFENDER, "continue the battle or withdraw a unit", "AoB 11.9"),
    "pursuit": (ATTACKER, "pursue with the tanks, attack another hex, or stop", "AoB 15.6"),
}
DECISION_TYPES: dict[str, tuple[str, ...]] = {
    "choose_battle": ("resolve_battle",),
    "attacker_unit": ("choose_fighter",),
    "defender_unit": ("choose_fighter",),
    "attacker_bomber": ("choose_bomber", "no_bomber"),
    "defender_bomber": ("choose_bomber", "no_bomber"),
    "assign_hits": ("assign_hit",),
    "attacker_retreat": ("retreat", "take_hit"),
    "defender_retreat": ("retreat", "take_hit"),
    "attacker_withdraw": ("continue", "withdraw"),
    "defender_withdraw": ("continue", "withdraw"),
    "pursuit": ("pursuit_toggle", "pursue", "attack", "no_pursuit"),
}
STEP_SIDE = {"attacker": ATTACKER, "defender": DEFENDER}


def new_combat() -> dict[str, Any]:
    return {"step": "next_battle", "battle": None, "queue": [], "fighting": {ATTACKER: None, DEFENDER: None},
            "bomber": {ATTACKER: None, DEFENDER: None}, "pending_hits": 0,
            "retreat_due": {ATTACKER: None, DEFENDER: None}, "pursuit": None}


def seat(s: State) -> str | None:
    c = s.get("combat")
    if not c or c["step"] not in DECISIONS:
        return None
    return DECISIONS[c["step"]][0]


def _side_of(step: str) -> str:
    return STEP_SIDE[step.split("_")[0]]


def _b(s: State) -> dict[str, Any]:
    return battle(s, s["combat"]["battle"])


# -- legal actions ---------------------------------------------------------------------------

def candidates(s: State, w: World) -> list[Action]:
    c = s["combat"]
    step = c["step"]
    if step == "choose_battle":
        return [{"type": "resolve_battle", "battle": b["n"]} for b in s["battles"] if b["status"] == "pending"]
    b = _b(s)
    if step == "pursuit":
        return tank_battle.candidates(s, w, b, c["pursuit"])
    side = _side_of(step) if step != "assign_hits" else DEFENDER
    if step.endswith("_unit"):
        return [{"type": "choose_fighter", "unit": u} for u in land_units(s, w, side, b["hex"])]
    if step.endswith("_bomber"):
        return ([{"type": "choose_bomber", "unit": u} for u in aircraft(s, w, side, "bomber", b["n"])]
                + [{"type": "no_bomber"}])
    if step == "assign_hits":
        return [{"type": "assign_hit", "unit": u} for u in land_units(s, w, DEFENDER, b["hex"])]
    if step.endswith("_retreat"):
        uid = c["retreat_due"][side]
        return [{"type": "retreat", "hex": h} for h in combat.retreat_hexes(s, w, b, uid)] + [{"type": "take_hit"}]
    if step.endswith("_withdraw"):
        out: list[Action] = [{"type": "continue"}]
        for u in land_units(s, w, side, b["hex"]):
            out.extend({"type": "withdraw", "unit": u, "hex": h} for h in combat.retreat_hexes(s, w, b, u))
        return out
    return []


def check(s: State, w: World, action: Action) -> None:
    c = s["combat"]
    step = c["step"]
    kind = action["type"]
    seat_, what, rule = DECISIONS[step]
    if kind not in DECISION_TYPES[step]:
        raise IllegalAction(f"{kind} is not possible now: {side_name(seat_)} must {what}", rule)
    if step == "choose_battle":
        n = action["battle"]
        b = battle(s, n)
        if b["status"] != "pending":
            raise IllegalAction(f"battle {n} is {'already resolved' if b['status'] == 'done' else 'being fought'}",
                                "AoB 17.1")
        return
    b = _b(s)
    if step == "pursuit":
        tank_battle.check(s, w, b, c["pursuit"], action)
        return
    side = DEFENDER if step == "assign_hits" else _side_of(step)
    if kind in ("choose_fighter", "assign_hit", "withdraw"):
        uid = action["unit"]
        if uid not in w.units or w.units[uid].side != side or not w.units[uid].is_land:
            raise IllegalAction(f"{uid!r} is not a {side_adj(side)} land unit", rule)
        if uid not in land_units(s, w, side, b["hex"]):
            raise IllegalAction(f"{name(w, uid)} is not in battle {b['n']} at {b['hex']}", rule)
    if kind == "choose_bomber":
        uid = action["unit"]
        if uid not in w.units or w.units[uid].side != side or w.units[uid].type != "bomber":
            raise IllegalAction(f"{uid!r} is not a {side_adj(side)} bomber", "AoB 8.1")
        if uid not in aircraft(s, w, side, "bomber", b["n"]):
            raise IllegalAction(f"{name(w, uid)} is not flying over battle {b['n']}", "AoB 8.2")
    if kind == "retreat":
        problem = combat.retreat_problem(s, w, b, c["retreat_due"][side], action["hex"])
        if problem:
            raise problem
    if kind == "withdraw":
        problem = combat.retreat_problem(s, w, b, action["unit"], action["hex"])
        if problem:
            raise problem


# -- decisions -------------------------------------------------------------------------------

def perform(s: State, w: World, action: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """Apply one decision, then run the engine to the next real decision (or the end)."""
    _decide(s, w, action, facts)
    run(s, w, dice, facts)


def _decide(s: State, w: World, action: Action, facts: list[Fact]) -> None:
    c = s["combat"]
    step = c["step"]
    kind = action["type"]
    if step == "choose_battle":
        c["battle"] = action["battle"]
        facts.append(fact(f"Germany resolves battle {action['battle']} at {w.hex_title(_b(s)['hex'])}", "AoB 21",
                          "battle", battle=action["battle"], hex=_b(s)["hex"]))
        c["step"] = "start_battle"
        return
    b = _b(s)
    if step == "pursuit":
        first_new = s["next_battle"]
        more = tank_battle.perform(s, w, b, c["pursuit"], action, facts)
        c["queue"].extend(range(first_new, s["next_battle"]))  # pursuit battles come next, in order
        if not more:
            c["step"] = "next_battle"
        return
    side = DEFENDER if step == "assign_hits" else _side_of(step)
    if kind == "choose_fighter":
        uid = action["unit"]
        c["fighting"][side] = uid
        facts.append(fact(f"{side_name(side)} fights with {name(w, uid)}", "AoB 11.11", "choose",
                          battle=b["n"], unit=uid))
        if side == ATTACKER and not w.units[uid].is_tank and b["marker"] is not None:
            b["marker"], b["marker_removed"] = None, True
            facts.append(fact(f"{name(w, uid)} is not a tank: the tank battle marker of battle {b['n']} is "
                              "removed for good", "AoB 15.10", "tank_battle", battle=b["n"], unit=uid))
        c["step"] = "defender_unit" if side == ATTACKER else "attacker_bomber"
    elif kind in ("choose_bomber", "no_bomber"):
        c["bomber"][side] = action.get("unit")
        if kind == "choose_bomber":
            facts.append(fact(f"{name(w, action['unit'])} supports {name(w, c['fighting'][side])}", "AoB 8.3",
                              "choose", battle=b["n"], unit=action["unit"]))
        c["step"] = "defender_bomber" if side == ATTACKER else "fire"
    elif kind == "assign_hit":
        c["pending_hits"] -= 1
        combat.add_hits(s, w, b, action["unit"], 1, facts, "excess hit, AoB 11.8")
        _settle_excess(s, w, b, facts)
    elif kind == "retreat":
        combat.retreat(s, w, b, c, c["retreat_due"][side], action["hex"], facts, voluntary=False)
        c["retreat_due"][side] = None
        c["step"] = "after_hits"
    elif kind == "take_hit":
        uid = c["retreat_due"][side]
        c["retreat_due"][side] = None
        combat.add_hits(s, w, b, uid, 1, facts, "instead of retreating, AoB 11.6")
        c["step"] = "after_hits"
    elif kind == "continue":
        c["step"] = "defender_withdraw" if side == ATTACKER else "new_round"
    elif kind == "withdraw":
        combat.retreat(s, w, b, c, action["unit"], action["hex"], facts, voluntary=True)
        if not land_units(s, w, side, b["hex"]):
            c["step"] = "end_battle"


def _settle_excess(s: State, w: World, b: dict[str, Any], facts: list[Fact]) -> None:
    c = s["combat"]
    if c["pending_hits"] > 0 and not land_units(s, w, DEFENDER, b["hex"]):
        facts.append(fact(f"{c['pending_hits']} excess hit(s) lost: no other defending unit in battle {b['n']}",
                          "AoB 11.8", "hit", battle=b["n"]))
        c["pending_hits"] = 0
    c["step"] = "assign_hits" if c["pending_hits"] > 0 else "after_hits"


# -- engine steps ----------------------------------------------------------------------------

def _next_battle(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c = s["combat"]
    c["battle"], c["pursuit"] = None, None
    if c["queue"]:
        c["battle"] = c["queue"].pop(0)
        c["step"] = "start_battle"
    elif any(b["status"] == "pending" for b in s["battles"]):
        c["step"] = "choose_battle"
    else:
        c["step"] = "done"


def _start_battle(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c, b = s["combat"], _b(s)
    b["status"] = "active"
    g, be = land_units(s, w, ATTACKER, b["hex"]), land_units(s, w, DEFENDER, b["hex"])
    facts.append(fact(f"Battle {b['n']} at {w.hex_title(b['hex'])} (vector from {b['origin']}"
                      + (f", tank battle marker {b['marker']}" if b["marker"] is not None else "") + "): "
                      + ", ".join(name(w, u) for u in g) + " attack " + ", ".join(name(w, u) for u in be),
                      "AoB 10.1", "battle", battle=b["n"], hex=b["hex"], origin=b["origin"], units=g + be))
    if g and be:
        air.aa_fire(s, w, b, dice, facts)  # AoB 12.2: AA first
        air.air_combat(s, w, b, dice, facts)  # AoB 10.1: one air combat round
        c["step"] = "new_round"
    else:
        c["step"] = "end_battle"


def _new_round(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c, b = s["combat"], _b(s)
    if b["round"] >= MAX_ROUNDS:
        raise RuntimeError(f"battle {b['n']} did not end in {MAX_ROUNDS} rounds")
    b["round"] += 1
    c["fighting"] = {ATTACKER: None, DEFENDER: None}
    c["bomber"] = {ATTACKER: None, DEFENDER: None}
    c["retreat_due"] = {ATTACKER: None, DEFENDER: None}
    c["step"] = "attacker_unit"


def _fire(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c, b = s["combat"], _b(s)
    att, dfn = c["fighting"][ATTACKER], c["fighting"][DEFENDER]
    res = combat.fight_round(s, w, b, att, dfn, c["bomber"], dice, facts)
    if res.attacker_hits:
        lost = combat.add_hits(s, w, b, att, res.attacker_hits, facts, f"LCT {res.cell}")
        if lost:
            facts.append(fact(f"{lost} excess hit(s) on the attacker are lost", "AoB 11.8", "hit", battle=b["n"]))
    if res.defender_hits:
        c["pending_hits"] = combat.add_hits(s, w, b, dfn, res.defender_hits, facts, f"LCT {res.cell}")
    if res.attacker_retreat and s["units"][att]["status"] == "active":
        c["retreat_due"][ATTACKER] = att
    if res.defender_retreat and s["units"][dfn]["status"] == "active":
        if ignores_retreat(w.hexes[b["hex"]]):
            facts.append(fact(f"{name(w, dfn)} defends a {'fortress' if w.hexes[b['hex']].fortress else 'hex city'}"
                              ": it ignores the retreat", "AoB 13.3", "retreat", battle=b["n"], unit=dfn))
        else:
            c["retreat_due"][DEFENDER] = dfn
    _settle_excess(s, w, b, facts)


def _after_hits(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c = s["combat"]
    if c["retreat_due"][ATTACKER] is not None:
        c["step"] = "attacker_retreat"
    elif c["retreat_due"][DEFENDER] is not None:
        c["step"] = "defender_retreat"
    else:
        c["step"] = "after_round"


def _after_round(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    b = _b(s)
    if land_units(s, w, ATTACKER, b["hex"]) and land_units(s, w, DEFENDER, b["hex"]):
        s["combat"]["step"] = "attacker_withdraw"
    else:
        s["combat"]["step"] = "end_battle"


def _end_battle(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    c, b = s["combat"], _b(s)
    g, be = land_units(s, w, ATTACKER, b["hex"]), land_units(s, w, DEFENDER, b["hex"])
    b["winner"] = ATTACKER if g and not be else DEFENDER if be and not g else "none"
    b["status"] = "done"
    word = {"germany": "Germany wins", "belgium": "Belgium holds", "none": "no land unit is left"}[b["winner"]]
    facts.append(fact(f"Battle {b['n']} at {w.hex_title(b['hex'])} is over after {b['round']} round(s): {word}",
                      "AoB 11.9", "battle_end", battle=b["n"], hex=b["hex"], winner=b["winner"], units=g + be))
    c["step"] = "next_battle"
    if tank_battle.may_pursue(b):
        p = tank_battle.start(s, w, b)
        if p["selected"] and tank_battle.targets(s, w, b, 1):
            c["pursuit"] = p
            c["step"] = "pursuit"
        else:
            facts.append(fact(f"No pursuit from battle {b['n']}: no enemy hex within the marker's {b['marker']} MP",
                              "AoB 15.6", "pursuit", battle=b["n"]))


ENGINE: dict[str, Callable[[State, World, DiceSource, list[Fact]], None]] = {
    "next_battle": _next_battle,
    "start_battle": _start_battle,
    "new_round": _new_round,
    "fire": _fire,
    "after_hits": _after_hits,
    "after_round": _after_round,
    "end_battle": _end_battle,
}


def legal(s: State, w: World) -> list[Action]:
    out = []
    for a in candidates(s, w):
        try:
            check(s, w, a)
        except IllegalAction:
            continue
        out.append(a)
    return out


def run(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """Run engine steps and single-choice decisions until a player must choose or all is done."""
    for _ in range(100_000):
        step = s["combat"]["step"]
        if step == "done":
            return
        if step in ENGINE:
            ENGINE[step](s, w, dice, facts)
            continue
        options = legal(s, w)
        if not options:
            raise RuntimeError(f"dead end in combat step {step}")
        if len(options) > 1:
            return
        _decide(s, w, options[0], facts)
    raise RuntimeError("the combat engine did not settle")
