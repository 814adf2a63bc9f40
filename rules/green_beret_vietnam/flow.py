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
from rules.core.verbs import Verb, VerbTable
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
from rules.green_beret_vietnam.verbs import HEX, ID

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


# -- what the player may do: the verbs open now ----------------------------------------------------
_COMMON = ("abandon", "end_game")  # 4.0, 5.0: at any pause of a phase
_ANSWERS: dict[str, tuple[str, ...]] = {  # a decision's answers (digest Part B), by its kind
    "evade": ("evade", "stay"), "target": ("choose_target",), "pursuit_hex": ("choose_hex",),
    "naval": ("use_naval", "hold_naval"), "damage_team": ("damage_team",), "kill_leader": ("kill_leader",),
    "lose_item": ("lose_item",), "claim": ("claim", "claim_done"), "relocate_to": ("relocate_to",),
    "spend": ("buy", "done_spending"), "assassinate_team": ("assassinate_team",),
    "assassinate_leader": ("assassinate_leader",),
}


def open_verbs(s: State) -> tuple[str, ...]:
    """The verbs open now, in the order the listing gives their actions: a decision's answers, or
    the phase's (the Mission Placement Phase, a move under way or not, combat, suppression...)."""
    if s["phase"] == "over":
        return ()
    d = s["decision"]
    if d is not None:
        if d["kind"] not in _ANSWERS:
            raise AssertionError(f"unknown decision {d['kind']}")
        return _ANSWERS[d["kind"]]
    ph = s["phase"]
    if ph == "setup_camp":
        return ("place_camp",)
    if ph == "procurement":
        return ("buy", "buy_camp", "relocate", *_COMMON, "done")
    if ph == "movement":
        return ("begin_move", "take", *_COMMON, "end_movement") if s["moving"] is None else (
            "join", "drop", "step", "end_move")
    if ph == "combat":
        return ("attack", "jettison", *_COMMON, "end_combat")
    if ph == "enemy" and s["enemy_step"] == "suppression":
        return ("suppress", "end_suppression", *_COMMON)
    if ph == "victory":
        return ("continue", *_COMMON)
    return ()


def _at(s: State, h: str) -> list[str]:
    return [c for c, x in s["gb"].items() if x["status"] == "map" and x["hex"] == h]


def legal(s: State, w: World) -> list[Action]:
    return [a for t in open_verbs(s) for a in VERBS[t].legal(s, w)]


def candidates_like(s: State, w: World, a: Any) -> list[Action]:
    """The part of `legal(s, w)` that may equal `a`: only its own verb's actions, if it is open."""
    if not isinstance(a, dict) or a.get("type") not in open_verbs(s):
        return []
    if a["type"] in _NARROWED:  # only those naming the action's own hex or counter kind
        field, of = _NARROWED[a["type"]]
        return of(s, w, a.get(field))
    return VERBS[a["type"]].legal(s, w)


# The verbs whose actions naming one hex (a base camp's) or one counter kind (a purchase) are found
# without listing the others: the field, and the listing of the actions with that field's value.
_NARROWED: dict[str, tuple[str, Callable[[State, World, Any], list[Action]]]] = {
    "place_camp": ("hex", procurement.setup_candidates_at), "buy_camp": ("hex", procurement.camp_candidates_at),
    "buy": ("kind", procurement.buy_candidates_of)}


# -- doing it ------------------------------------------------------------------------------------
def perform(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    """Apply a legal action to the private copy `s` (its verb's handler), then run the system until
    the player is needed."""
    handle = VERBS[a["type"]].handle if a["type"] in VERBS else None
    if handle is None:
        raise AssertionError(f"unhandled action {a['type']}")
    handle(s, w, a, dice, facts)
    triggers(s, w, facts)
    run(s, w, dice, facts)


# -- the verbs: each one's generator beside its handler, then the table -----------------------------
# A decision's answer is taken with the decision cleared (`_answered`), and the task that asked
# for it (the agenda's first) reads the answer.
def _answered(s: State) -> Task:
    s["decision"] = None
    task: Task | None = s["agenda"][0] if s["agenda"] else None
    assert task is not None
    return task


def _options(verb: str, key: str) -> Callable[[State, World], list[Action]]:
    """A decision answered by one of its options."""
    def gen(s: State, w: World) -> list[Action]:
        return [{"type": verb, key: o} for o in s["decision"]["options"]]
    return gen


def _only(verb: str) -> Callable[[State, World], list[Action]]:
    def gen(s: State, w: World) -> list[Action]:
        return [{"type": verb}]
    return gen


def _do_evade(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    """Evade to a camp ("evade") or stay ("stay"): the task that asked reads it."""
    _answered(s)["evade"] = a["camp"] if a["type"] == "evade" else False


def _do_choose_target(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    enemy.answer_target(s, w, a["hex"])
    s["decision"] = None


def _do_choose_hex(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    enemy.answer_hex(s, w, a["hex"])
    s["decision"] = None


def _do_naval(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    combat.answer_naval(s, w, a["type"] == "use_naval", facts)
    s["decision"] = None


def _do_damage_team(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    _answered(s)["team"] = a["team"]


def _do_kill_leader(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    _answered(s)["victim"] = a["leader"]


def _do_lose_item(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["decision"] = None
    combat.answer_lose_item(s, w, a["item"], facts)


def _gen_claim_done(s: State, w: World) -> list[Action]:
    return [{"type": "claim_done"}]


def _do_claim(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["decision"] = None
    combat.answer_claim(s, w, a["item"], facts)


def _do_claim_done(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["decision"] = None
    combat.answer_claim(s, w, None, facts)
    s["agenda"].pop(0)


def _gen_relocate_to(s: State, w: World) -> list[Action]:
    return [{"type": "relocate_to", "hex": h} for h in procurement.relocate_hexes(s, w, s["decision"]["camp"])]


def _do_relocate_to(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    procurement.relocate_to(s, w, a["hex"], facts)
    s["decision"] = None


def _gen_buy(s: State, w: World) -> list[Action]:
    return procurement.buy_candidates(s, w)


def _do_buy(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    """6.0, 16.0: buy in the Mission Placement Phase, or while spending at the end of a mission
    (the decision is kept: spending goes on until done)."""
    d = s["decision"]
    s["decision"] = None
    procurement.buy(s, w, a, facts)
    s["decision"] = d


def _do_done_spending(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["decision"] = None


def _do_assassinate(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    _answered(s)["choice"] = a["team"] if a["type"] == "assassinate_team" else a["leader"]


def _gen_place_camp(s: State, w: World) -> list[Action]:
    return procurement.setup_candidates(s, w)


def _do_place_camp(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    procurement.place_start(s, w, a, facts)
    s["turn"] = 1
    enter_procurement(s, w, dice, facts)


def _gen_buy_camp(s: State, w: World) -> list[Action]:
    return procurement.camp_candidates(s, w)


def _do_buy_camp(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    procurement.buy_camp(s, w, a, facts)


def _gen_relocate(s: State, w: World) -> list[Action]:
    return procurement.relocate_candidates(s, w)


def _do_relocate(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    roll = dice.roll(10, "12.11 relocation cost")
    procurement.relocate(s, w, a, roll, facts)


def _do_done(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    enter_movement(s, w, dice, facts)


def _gen_abandon(s: State, w: World) -> list[Action]:
    return [{"type": "abandon"}] if s["mission"] is not None else []


def _do_abandon(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    missions.abandon(s, w, facts)


def _do_end_game(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    finish(s, w, facts, defeat=False, reason="the player ends the game (4.0, 5.0)")


def _gen_begin_move(s: State, w: World) -> list[Action]:
    return [{"type": "begin_move", "counter": c} for c in movement.movers(s, w)]


def _do_begin_move(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    movement.begin(s, w, a["counter"])


def _gen_take(s: State, w: World) -> list[Action]:
    return [{"type": "take", "item": c} for c in movement.takeable(s, w)]


def _do_take(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    movement.take(s, w, a["item"], facts)


def _do_end_movement(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["agenda"].append({"t": "phase", "to": "combat"})


def _gen_join(s: State, w: World) -> list[Action]:
    mv = s["moving"]
    if mv["steps"] != 0:
        return []
    return [{"type": "join", "counter": c} for c in _at(s, mv["hex"]) if movement.join_problem(s, w, mv, c) is None]


def _do_join(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    movement.join(s, w, a["counter"])


def _gen_drop(s: State, w: World) -> list[Action]:
    mv = s["moving"]
    return [{"type": "drop", "counter": c} for c in mv["members"] if movement.drop_problem(s, w, mv, c) is None]


def _do_drop(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["agenda"][0:0] = movement.drop(s, w, a["counter"], facts)


def _gen_step(s: State, w: World) -> list[Action]:
    return [{"type": "step", "hex": h} for h in movement.legal_steps(s, w, s["moving"])]


def _do_step(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    movement.step(s, w, a["hex"], facts)


def _do_end_move(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["agenda"][0:0] = movement.end(s, w, facts)


def _gen_attack(s: State, w: World) -> list[Action]:
    return attack_candidates(s, w)


def _do_attack(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["attacked"].append(a["hex"])
    s["agenda"].insert(0, {"t": "combat", "attacker": "gb", "enemy": a["enemy"], "hex": a["hex"]})


def _gen_jettison(s: State, w: World) -> list[Action]:
    """9.0: an item in a hex whose teams may attack now may be left behind first."""
    ready = {a["hex"] for a in attack_candidates(s, w)}
    return [{"type": "jettison", "item": c} for h in sorted(ready) for c in items_at(s, w, h) if not s["gb"][c]["left"]]


def _do_jettison(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["gb"][a["item"]]["left"] = True
    facts.append(fact(f"{name(w, a['item'])} jettisoned in {s['gb'][a['item']]['hex']} before combat", "9.0",
                      "combat", item=a["item"]))


def _do_end_combat(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["agenda"].append({"t": "phase", "to": "enemy"})


def _gen_suppress(s: State, w: World) -> list[Action]:
    return [{"type": "suppress", "item": c, "enemy": e} for c in combat.suppressors(s, w)
            for e in combat.suppression_targets(s, w, c)]


def _do_suppress(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    s["suppress"].append({"item": a["item"], "enemy": a["enemy"]})
    facts.append(fact(f"Suppression declared: {name(w, a['item'])} at {name(w, a['enemy'])}", "15.0",
                      "suppression", item=a["item"], enemy=a["enemy"]))


def _do_end_suppression(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    start_enemy_resolution(s)


def _do_continue(s: State, w: World, a: Action, dice: DiceSource, facts: Facts) -> None:
    next_turn(s, w, dice, facts)


# Every field is required except the `pbr` flag (a base camp placed or bought in full water, 3.1).
# `rule` None: a refusal cites the rule of the situation (`explain`).
VERBS: VerbTable[World] = VerbTable(
    # 3.1 set-up
    Verb("place_camp", None, {"hex": HEX}, _gen_place_camp, _do_place_camp, flags=("pbr",)),
    # 6.0 the Mission Placement Phase (procurement), and 16.0 spending at a mission's end
    Verb("buy", None, {"kind": ID, "camp": ID}, _gen_buy, _do_buy),
    Verb("buy_camp", None, {"hex": HEX}, _gen_buy_camp, _do_buy_camp, flags=("pbr",)),
    Verb("relocate", None, {"camp": ID}, _gen_relocate, _do_relocate),
    Verb("relocate_to", None, {"hex": HEX}, _gen_relocate_to, _do_relocate_to),
    Verb("done", None, {}, _only("done"), _do_done),
    Verb("done_spending", None, {}, _only("done_spending"), _do_done_spending),
    # at any pause (4.0, 5.0)
    Verb("abandon", None, {}, _gen_abandon, _do_abandon),
    Verb("end_game", None, {}, _only("end_game"), _do_end_game),
    # 7.0 movement
    Verb("begin_move", None, {"counter": ID}, _gen_begin_move, _do_begin_move),
    Verb("join", None, {"counter": ID}, _gen_join, _do_join),
    Verb("drop", None, {"counter": ID}, _gen_drop, _do_drop),
    Verb("step", None, {"hex": HEX}, _gen_step, _do_step),
    Verb("end_move", None, {}, _only("end_move"), _do_end_move),
    Verb("take", None, {"item": ID}, _gen_take, _do_take),
    Verb("end_movement", None, {}, _only("end_movement"), _do_end_movement),
    # 8.0-9.0 combat, 15.0 suppression, the Victory Phase
    Verb("attack", None, {"hex": HEX, "enemy": ID}, _gen_attack, _do_attack),
    Verb("jettison", None, {"item": ID}, _gen_jettison, _do_jettison),
    Verb("end_combat", None, {}, _only("end_combat"), _do_end_combat),
    Verb("suppress", None, {"item": ID, "enemy": ID}, _gen_suppress, _do_suppress),
    Verb("end_suppression", None, {}, _only("end_suppression"), _do_end_suppression),
    Verb("continue", None, {}, _only("continue"), _do_continue),
    # the decisions' answers
    Verb("evade", None, {"camp": ID}, _options("evade", "camp"), _do_evade),
    Verb("stay", None, {}, _only("stay"), _do_evade),
    Verb("choose_target", None, {"hex": HEX}, _options("choose_target", "hex"), _do_choose_target),
    Verb("choose_hex", None, {"hex": HEX}, _options("choose_hex", "hex"), _do_choose_hex),
    Verb("use_naval", None, {}, _only("use_naval"), _do_naval),
    Verb("hold_naval", None, {}, _only("hold_naval"), _do_naval),
    Verb("damage_team", None, {"team": ID}, _options("damage_team", "team"), _do_damage_team),
    Verb("kill_leader", None, {"leader": ID}, _options("kill_leader", "leader"), _do_kill_leader),
    Verb("lose_item", None, {"item": ID}, _options("lose_item", "item"), _do_lose_item),
    Verb("claim", None, {"item": ID}, _options("claim", "item"), _do_claim),
    Verb("claim_done", None, {}, _gen_claim_done, _do_claim_done),
    Verb("assassinate_team", None, {"team": ID}, _options("assassinate_team", "team"), _do_assassinate),
    Verb("assassinate_leader", None, {"leader": ID}, _options("assassinate_leader", "leader"), _do_assassinate),
)


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

