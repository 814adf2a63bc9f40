"""The sequence of play (4.0; digest Part B) as a table of phases, an agenda and decisions.

`state.phase` names the phase: setup_camp → procurement (the Mission Placement Phase) →
movement → combat → enemy → victory → (next turn) ... → over. The system's work is a list of
tasks (`state.agenda`) run one by one inside `apply`; a task that needs the player (a tie, a
choice of losses) sets `state.decision` and waits, and only the decision's answers are then
legal. After every task the global triggers run: T1 (no detected team outside a base camp:
every enemy goes home) and T2 (no team left: defeat).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction, State
from rules.green_beret_vietnam import combat, detection, enemy, missions, movement, procurement
from rules.green_beret_vietnam.board import (
    enemies_at,
    fact,
    items_at,
    name,
    net_score,
    teams,
    teams_at,
)
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import clear_detection_in_camps, enemies_go_home

Task = dict[str, Any]
Facts = list[Fact]


# -- tasks ---------------------------------------------------------------------------------------
def _phase_task(s: State, w: World, task: Task, dice: DiceSource, facts: Facts) -> None:
    ENTER[task["to"]](s, w, dice, facts)


def _enemy_moves(s: State, w: World, task: Task, dice: DiceSource, facts: Facts) -> None:
    tasks: list[Task] = []
    for e in s["enemy_order"]:
        en = w.enemies[e]
        if en.ma == 0:
            facts.append(fact(f"{name(w, e)} has MA 0: it stays in {s['enemies'][e]['hex']} (10.6)", "10.6",
                              "pursuit", enemy=e))
        elif s["enemies"][e]["suppressed"]:
            facts.append(fact(f"{name(w, e)} is suppressed: it does not move this phase", "15.0", "pursuit",
                              enemy=e))
        else:
            tasks.append({"t": "enemy_move", "enemy": e})
    s["agenda"][0:0] = tasks


def _enemy_combats(s: State, w: World, task: Task, dice: DiceSource, facts: Facts) -> None:
    """13.0: every enemy unit next to (or in the hex of) GB teams attacks each such hex once,
    separately (8.0, 13.2), detected or not (AMBIG-8); enemy order, then the hexes clockwise
    from its own (GAP-19)."""
    tasks: list[Task] = []
    for e in s["enemy_order"]:
        h = s["enemies"][e]["hex"]
        for t in [h] + list(w.neighbours(h)):
            if teams_at(s, w, t):
                tasks.append({"t": "combat", "attacker": "enemy", "enemy": e, "hex": t})
    if not tasks:
        facts.append(fact("No enemy unit is next to a Green Beret team: no enemy attack", "13.0", "combat"))
    s["agenda"][0:0] = tasks


def _enemy_end(s: State, w: World, task: Task, dice: DiceSource, facts: Facts) -> None:
    """15.0: suppression ends with the phase; flipped weapons regain their functions."""
    for rec in s["gb"].values():
        rec["flipped"] = False
    for rec in s["enemies"].values():
        rec.update(suppressed=False, target=None, next=None)
    ENTER["victory"](s, w, dice, facts)


TASKS: dict[str, Callable[[State, World, Task, DiceSource, Facts], None]] = {
    "phase": _phase_task,
    "spawn": enemy.spawn,
    "enemy_moves": _enemy_moves,
    "enemy_move": enemy.move,
    "enemy_combats": _enemy_combats,
    "enemy_end": _enemy_end,
    "suppression": combat.resolve_suppression,
    "combat": combat.combat,
    "gb_loss": combat.gb_loss,
    "item_loss": combat.item_loss,
    "claim": combat.claim,
    "naval": combat.naval,
    "combat_detect": combat.combat_detect,
    "mission_check": missions.check,
    "noise": detection.noise,
    "detected": detection.detected,
    "assassination": missions.assassination,
}


def run(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    while s["phase"] != "over" and s["decision"] is None and s["agenda"]:
        task = s["agenda"].pop(0)
        TASKS[task["t"]](s, w, task, dice, facts)
        triggers(s, w, facts)


def triggers(s: State, w: World, facts: Facts) -> None:
    if s["phase"] in ("setup_camp", "over"):
        return
    if not teams(s, w):
        finish(s, w, facts, defeat=True,
               reason="the last Green Beret team was eliminated: a defeat whatever the missions (5.0, 13.1)")
        return
    enemies_go_home(s, w, facts)


def finish(s: State, w: World, facts: Facts, defeat: bool, reason: str) -> None:
    net = net_score(s)
    lv = w.level(net)
    s.update(phase="over", agenda=[], decision=None, moving=None, suppress=[])
    s["result"] = {"defeat": defeat, "net": net, "level": "Defeat" if defeat else lv.name,
                   "level_jp": "" if defeat else lv.jp, "reason": reason}
    text = (f"Game over: {reason}. " + ("Defeat." if defeat else f"Net {net}: {lv.name} ({lv.jp})."))
    facts.append(fact(text, "5.0", "victory", net=net, level=s["result"]["level"], defeat=defeat,
                      tally={k: len(v) for k, v in s["tally"].items()}))


# -- entering phases -----------------------------------------------------------------------------
def enter_procurement(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    """4.0 phase 1 (7.0): only when a mission is needed; with the pool empty the game ends (AMBIG-10)."""
    if not s["mission_pool"]:
        finish(s, w, facts, defeat=False, reason="no mission is left in the pool (4.0, 5.0)")
        return
    s.update(phase="procurement", camp_bought=False)
    facts.append(fact(f"Turn {s['turn']}: Mission Placement Phase", "4.0", "phase", turn=s["turn"]))
    missions.draw_and_place(s, w, dice, facts)


def enter_movement(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    s["phase"] = "movement"
    for rec in s["gb"].values():
        rec["moved"] = False
    clear_detection_in_camps(s, w)
    facts.append(fact(f"Turn {s['turn']}: Friendly Movement Phase", "4.0", "phase", turn=s["turn"]))


def attack_candidates(s: State, w: World) -> list[Action]:
    out: list[Action] = []
    for h in sorted({s["gb"][t]["hex"] for t in teams(s, w)}):
        if h in s["attacked"]:
            continue
        for n in [h] + list(w.neighbours(h)):
            for e in enemies_at(s, n):
                out.append({"type": "attack", "hex": h, "enemy": e})
    return out


def enter_combat(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    s.update(phase="combat", attacked=[])
    if not attack_candidates(s, w):
        facts.append(fact(f"Turn {s['turn']}: Friendly Combat Phase: no team is next to an enemy, skipped", "4.0",
                          "phase"))
        s["agenda"].insert(0, {"t": "phase", "to": "enemy"})
        return
    facts.append(fact(f"Turn {s['turn']}: Friendly Combat Phase", "4.0", "phase"))


def enter_enemy(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    s.update(phase="enemy", enemy_step="suppression", suppress=[])
    if not s["enemies"]:
        facts.append(fact(f"Turn {s['turn']}: Enemy Movement/Combat Phase: no enemy on the map", "4.0", "phase"))
        s["agenda"].insert(0, {"t": "enemy_end"})
        s["enemy_step"] = "resolve"
        return
    enemy.start_phase(s, w)
    facts.append(fact(f"Turn {s['turn']}: Enemy Movement/Combat Phase ({len(s['enemies'])} enemy unit(s))", "4.0",
                      "phase"))
    if not any(combat.suppression_targets(s, w, c) for c in combat.suppressors(s, w)):
        start_enemy_resolution(s)


def start_enemy_resolution(s: State) -> None:
    s["enemy_step"] = "resolve"
    s["agenda"][0:0] = [{"t": "suppression"}, {"t": "enemy_moves"}, {"t": "enemy_combats"}, {"t": "enemy_end"}]


def enter_victory(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    s.update(phase="victory", enemy_step=None)
    net = net_score(s)
    lv = w.level(net)
    t = s["tally"]
    facts.append(fact(f"Turn {s['turn']}: Victory Determination: {len(t['accomplished'])} accomplished − "
                      f"{len(t['abandoned'])} abandoned − {len(t['teams_lost'])} teams lost"
                      + (f" − {len(t['leaders_lost'])} leaders lost" if s["options"].get("leaders_count", True) else "")
                      + f" = {net}: {lv.name} ({lv.jp})", "5.0", "victory", net=net, level=lv.name))


ENTER: dict[str, Callable[[State, World, DiceSource, Facts], None]] = {
    "procurement": enter_procurement, "movement": enter_movement, "combat": enter_combat,
    "enemy": enter_enemy, "victory": enter_victory,
}


def next_turn(s: State, w: World, dice: DiceSource, facts: Facts) -> None:
    s["turn"] += 1
    ENTER["procurement" if s["mission"] is None else "movement"](s, w, dice, facts)


# -- what the player may do ----------------------------------------------------------------------
def common(s: State) -> list[Action]:
    out: list[Action] = []
    if s["mission"] is not None:
        out.append({"type": "abandon"})
    out.append({"type": "end_game"})
    return out


def phase_candidates(s: State, w: World, kind: Any = None) -> list[Action]:
    """The phase's legal actions; with `kind`, only those of that type (`candidates_like`)."""
    def want(*types: str) -> bool:
        return kind is None or kind in types

    ph = s["phase"]
    out: list[Action] = []
    if ph == "setup_camp":
        return procurement.setup_candidates(s, w)
    if ph == "procurement":
        out += procurement.buy_candidates(s, w) if want("buy") else []
        out += procurement.camp_candidates(s, w) if want("buy_camp") else []
        out += procurement.relocate_candidates(s, w) if want("relocate") else []
        return out + common(s) + [{"type": "done"}]
    if ph == "movement":
        mv = s["moving"]
        if mv is None:
            out += [{"type": "begin_move", "counter": c} for c in movement.movers(s, w)] if want("begin_move") else []
            out += [{"type": "take", "item": c} for c in movement.takeable(s, w)] if want("take") else []
            return out + common(s) + [{"type": "end_movement"}]
        if mv["steps"] == 0 and want("join"):
            out += [{"type": "join", "counter": c} for c in _at(s, mv["hex"])
                    if movement.join_problem(s, w, mv, c) is None]
        if want("drop"):
            out += [{"type": "drop", "counter": c} for c in mv["members"]
                    if movement.drop_problem(s, w, mv, c) is None]
        out += [{"type": "step", "hex": h} for h in movement.legal_steps(s, w, mv)] if want("step") else []
        out.append({"type": "end_move"})
        return out
    if ph == "combat":
        attacks = attack_candidates(s, w) if want("attack", "jettison") else []
        ready = {a["hex"] for a in attacks}
        jettison = [{"type": "jettison", "item": c} for h in sorted(ready) for c in items_at(s, w, h)
                    if not s["gb"][c]["left"]] if want("jettison") else []
        return attacks + jettison + common(s) + [{"type": "end_combat"}]
    if ph == "enemy" and s["enemy_step"] == "suppression":
        if want("suppress"):
            out = [{"type": "suppress", "item": c, "enemy": e} for c in combat.suppressors(s, w)
                   for e in combat.suppression_targets(s, w, c)]
        return out + [{"type": "end_suppression"}] + common(s)
    if ph == "victory":
        return [{"type": "continue"}] + common(s)
    return []


def _at(s: State, h: str) -> list[str]:
    return [c for c, x in s["gb"].items() if x["status"] == "map" and x["hex"] == h]


def decision_candidates(s: State, w: World) -> list[Action]:
    d = s["decision"]
    k = d["kind"]
    if k == "evade":
        return [{"type": "evade", "camp": c} for c in d["options"]] + [{"type": "stay"}]
    if k == "target":
        return [{"type": "choose_target", "hex": h} for h in d["options"]]
    if k == "pursuit_hex":
        return [{"type": "choose_hex", "hex": h} for h in d["options"]]
    if k == "naval":
        return [{"type": "use_naval"}, {"type": "hold_naval"}]
    if k == "damage_team":
        return [{"type": "damage_team", "team": t} for t in d["options"]]
    if k == "kill_leader":
        return [{"type": "kill_leader", "leader": c} for c in d["options"]]
    if k == "lose_item":
        return [{"type": "lose_item", "item": c} for c in d["options"]]
    if k == "claim":
        return [{"type": "claim", "item": c} for c in d["options"]] + [{"type": "claim_done"}]
    if k == "relocate_to":
        return [{"type": "relocate_to", "hex": h} for h in procurement.relocate_hexes(s, w, d["camp"])]
    if k == "spend":
        return procurement.buy_candidates(s, w) + [{"type": "done_spending"}]
    if k == "assassinate_team":
        return [{"type": "assassinate_team", "team": t} for t in d["options"]]
    if k == "assassinate_leader":
        return [{"type": "assassinate_leader", "leader": c} for c in d["options"]]
    raise AssertionError(f"unknown decision {k}")


def legal(s: State, w: World) -> list[Action]:
    if s["phase"] == "over":
        return []
    if s["decision"] is not None:
        return decision_candidates(s, w)
    return phase_candidates(s, w)


def candidates_like(s: State, w: World, a: Any) -> list[Action]:
    """The part of `legal(s, w)` that may equal `a`: in a phase, only the actions of its type are
    listed (a decision's answers are a short list, taken whole)."""
    if s["phase"] == "over" or not isinstance(a, dict):
        return []
    if s["decision"] is not None:
        return decision_candidates(s, w)
    return phase_candidates(s, w, a.get("type"))


# -- doing it ------------------------------------------------------------------------------------
def perform(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    """Apply a legal action to the private copy `s`, then run the system until the player is needed."""
    if s["decision"] is not None:
        _answer(s, w, a, dice, facts)
    else:
        _act(s, w, a, dice, facts)
    triggers(s, w, facts)
    run(s, w, dice, facts)


def _answer(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    d = s["decision"]
    t = a["type"]
    k = d["kind"]
    s["decision"] = None
    task = s["agenda"][0] if s["agenda"] else None
    if t in ("evade", "stay"):
        assert task is not None
        task["evade"] = a["camp"] if t == "evade" else False
    elif t == "choose_target":
        s["decision"] = d
        enemy.answer_target(s, w, a["hex"])
        s["decision"] = None
    elif t == "choose_hex":
        s["decision"] = d
        enemy.answer_hex(s, w, a["hex"])
        s["decision"] = None
    elif t in ("use_naval", "hold_naval"):
        s["decision"] = d
        combat.answer_naval(s, w, t == "use_naval", facts)
        s["decision"] = None
    elif t == "damage_team":
        assert task is not None
        task["team"] = a["team"]
    elif t == "kill_leader":
        assert task is not None
        task["victim"] = a["leader"]
    elif t == "lose_item":
        combat.answer_lose_item(s, w, a["item"], facts)
    elif t == "claim":
        combat.answer_claim(s, w, a["item"], facts)
    elif t == "claim_done":
        combat.answer_claim(s, w, None, facts)
        s["agenda"].pop(0)
    elif t == "relocate_to":
        s["decision"] = d
        procurement.relocate_to(s, w, a["hex"], facts)
        s["decision"] = None
    elif t == "buy":
        procurement.buy(s, w, a, facts)
        s["decision"] = d  # 16.0: keep spending until done
    elif t == "done_spending":
        pass
    elif t in ("assassinate_team", "assassinate_leader"):
        assert task is not None
        task["choice"] = a["team"] if t == "assassinate_team" else a["leader"]
    else:
        raise AssertionError(f"{t} does not answer {k}")


def _act(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    t = a["type"]
    if t == "place_camp":
        procurement.place_start(s, w, a, facts)
        s["turn"] = 1
        enter_procurement(s, w, dice, facts)
    elif t == "buy":
        procurement.buy(s, w, a, facts)
    elif t == "buy_camp":
        procurement.buy_camp(s, w, a, facts)
    elif t == "relocate":
        roll = dice.roll(10, "12.11 relocation cost")
        procurement.relocate(s, w, a, roll, facts)
    elif t == "done":
        enter_movement(s, w, dice, facts)
    elif t == "abandon":
        missions.abandon(s, w, facts)
    elif t == "end_game":
        finish(s, w, facts, defeat=False, reason="the player ends the game (4.0, 5.0)")
    elif t == "begin_move":
        movement.begin(s, w, a["counter"])
    elif t == "join":
        movement.join(s, w, a["counter"])
    elif t == "drop":
        s["agenda"][0:0] = movement.drop(s, w, a["counter"], facts)
    elif t == "step":
        movement.step(s, w, a["hex"], facts)
    elif t == "end_move":
        s["agenda"][0:0] = movement.end(s, w, facts)
    elif t == "take":
        movement.take(s, w, a["item"], facts)
    elif t == "end_movement":
        s["agenda"].append({"t": "phase", "to": "combat"})
    elif t == "attack":
        s["attacked"].append(a["hex"])
        s["agenda"].insert(0, {"t": "combat", "attacker": "gb", "enemy": a["enemy"], "hex": a["hex"]})
    elif t == "jettison":
        s["gb"][a["item"]]["left"] = True
        facts.append(fact(f"{name(w, a['item'])} jettisoned in {s['gb'][a['item']]['hex']} before combat", "9.0",
                          "combat", item=a["item"]))
    elif t == "end_combat":
        s["agenda"].append({"t": "phase", "to": "enemy"})
    elif t == "suppress":
        s["suppress"].append({"item": a["item"], "enemy": a["enemy"]})
        facts.append(fact(f"Suppression declared: {name(w, a['item'])} at {name(w, a['enemy'])}", "15.0",
                          "suppression", item=a["item"], enemy=a["enemy"]))
    elif t == "end_suppression":
        start_enemy_resolution(s)
    elif t == "continue":
        next_turn(s, w, dice, facts)
    else:
        raise AssertionError(f"unhandled action {t}")


def explain(s: State, w: World, a: Action) -> IllegalAction:
    """Why an action that legal_actions does not list is refused, citing the rule."""
    t = a.get("type")
    if s["decision"] is not None:
        return IllegalAction(f"the game waits for a decision ({ask_decision(s, w)}); {t} is not an answer to it",
                             "GBV B.2")
    ph = s["phase"]
    if t in ("buy", "buy_camp", "relocate") and ph != "procurement":
        return IllegalAction("PP are spent only in the Mission Placement Phase (6.0, 12.10, 12.11)", "GBV 6.0")
    if t == "buy":
        return IllegalAction(procurement._buy_why(s, w, a), "GBV 6.0")
    if t == "buy_camp":
        return IllegalAction("a base camp cannot be bought there now: one per Mission Placement Phase, not on or next "
                             "to a village, airfield or full water, and a camp counter and the PP are needed (3.1, "
                             "12.10)", "GBV 12.10")
    if t == "abandon":
        return IllegalAction("there is no mission on the map to abandon (7.2)", "GBV 7.2")
    if ph == "movement" and s["moving"] is not None:
        mv = s["moving"]
        if t == "join":
            return IllegalAction(f"cannot join: {movement.join_problem(s, w, mv, a.get('counter', ''))}", "GBV 9.0")
        if t == "step":
            h = a.get("hex", "")
            if h not in w.neighbours(mv["hex"]):
                return IllegalAction(f"{h} is not next to {mv['hex']} (10.1)", "GBV 10.1")
            cost, why = movement.entry_cost(s, w, mv, h)
            if cost is None:
                return IllegalAction(f"cannot enter {h}: {why}", "GBV 11.0")
            return IllegalAction(f"{h} costs {cost} MP; {movement.remaining(s, w, mv)} left (10.3)", "GBV 10.3")
        if t == "drop":
            return IllegalAction(f"cannot drop: {movement.drop_problem(s, w, mv, a.get('counter', ''))}", "GBV 10.3")
        return IllegalAction("finish the move under way first (10.3: one move at a time)", "GBV 10.3")
    if t == "begin_move":
        return IllegalAction("that counter cannot start a move: it is not on the map, has moved this turn, or is a "
                             "minus counter (10.1, 10.2)", "GBV 10.2")
    if t == "attack":
        return IllegalAction("a GB stack attacks once per Friendly Combat Phase, an enemy unit in its own or an "
                             "adjacent hex (13.0)", "GBV 13.0")
    if t == "suppress":
        return IllegalAction("suppression uses a weapon with a '+' FP held by a detected team, once per phase, "
                             "against an enemy unit that could move (15.0)", "GBV 15.0")
    if t == "place_camp":
        return IllegalAction("the base camp cannot go on, or next to, a village, an airfield or full water (3.1)",
                             "GBV 3.1")
    return IllegalAction(f"{t} is not possible now ({PHASE_LABEL.get(ph, ph)})", "GBV 4.0")


PHASE_LABEL = {
    "setup_camp": "Set-up: place the base camp", "procurement": "Mission Placement Phase",
    "movement": "Friendly Movement Phase", "combat": "Friendly Combat Phase",
    "enemy": "Enemy Movement/Combat Phase", "victory": "Victory Determination Phase", "over": "Game over",
}


def ask_decision(s: State, w: World) -> str:
    d = s["decision"]
    k = d["kind"]
    if k == "evade":
        return (f"The noise in {d['hex']} was heard: evade to a base camp, abandoning every weapon and piece of "
                "equipment there (12.3), or stay and be detected")
    if k == "target":
        return f"{name(w, d['enemy'])} is equally far from detected teams at {', '.join(d['options'])}: which does it chase? (12.4)"
    if k == "pursuit_hex":
        return f"{name(w, d['enemy'])} may enter {' or '.join(d['options'])} (equal cost, equally close to a camp): choose (12.4)"
    if k == "naval":
        return f"{name(w, d['enemy'])} attacks {d['hex']}: use the naval gunfire (its scatter follows, 14.0) or hold it?"
    if k == "damage_team":
        return f"The stack in {d['hex']} lost: which team takes the damage marker? (13.1)"
    if k == "kill_leader":
        return f"Which leader in {d['hex']} is killed? (13.1)"
    if k == "lose_item":
        return f"Choose a weapon/equipment counter to lose in {d['hex']} ({d['left']} more) (13.0 step 8)"
    if k == "claim":
        return f"Claim the eliminated team's items in {d['hex']} (room for {d['room']}); the rest are eliminated (13.1)"
    if k == "relocate_to":
        return "Choose the new hex of the relocated base camp (12.11)"
    if k == "spend":
        return "Spend the assassination PP now, or keep them (16.0)"
    if k == "assassinate_team":
        return "Choose the Green Beret team lost to the leak (16.0)"
    if k == "assassinate_leader":
        return "Choose the commander or officer lost to the leak (16.0)"
    return str(k)


def ask(s: State, w: World) -> str:
    if s["phase"] == "over":
        r = s["result"]
        return f"The game is over: {r['level']} (net {r['net']}): {r['reason']}"
    if s["decision"] is not None:
        return ask_decision(s, w)
    ph = s["phase"]
    if ph == "setup_camp":
        return "Place your base camp (not on or next to a village, airfield or full water; with a PBR in full water)"
    if ph == "procurement":
        m = s["mission"]
        what = f"Mission {w.missions[m['id']].name} in {m['hex']}" if m else "the mission was accomplished"
        return f"Mission Placement Phase ({what}); {s['pp']} PP: buy, place a camp, relocate, or done"
    if ph == "movement":
        mv = s["moving"]
        if mv:
            return (f"Moving {', '.join(name(w, c) for c in mv['members'])} in {mv['hex']} "
                    f"({movement.remaining(s, w, mv)} MP left): step, drop, or end the move")
        return "Friendly Movement Phase: start a move, take up left items, or end the movement"
    if ph == "combat":
        return "Friendly Combat Phase: attack an adjacent enemy unit (optional), or end combat"
    if ph == "enemy":
        return "Suppression fire: assign weapons of detected teams to enemy units, then resolve (15.0)"
    if ph == "victory":
        return f"Victory Determination: net {net_score(s)} ({w.level(net_score(s)).name}); continue or end the game"
    return str(ph)

