"""The sequence of play as a state machine (VB 4.0-4.1, Part V).

Game turn: TURN_START (support fire draw) -> US player turn -> VC player turn -> TURN_END.
Player turn: movement -> combat -> mech_movement -> mech_combat. Who acts is the phasing
player, unless a battle's support fire step or a decision names the other seat (V.14).
A phase in which the phasing player has nothing to do but end it is passed for him, with a fact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact
from rules.vietnam_battles import (
    bridges,
    combat,
    engineers,
    hidden,
    iron,
    iron_setup,
    movement,
    results,
    setup_vc,
    transport,
)
from rules.vietnam_battles.board import occupancy
from rules.vietnam_battles.data import World
from rules.vietnam_battles.support import draw_hands, return_all

State = dict[str, Any]
PHASES = ("movement", "combat", "mech_movement", "mech_combat")
PHASE_LABEL = {"setup": "secret set-up", "movement": "Movement Phase", "combat": "Combat Phase", "mech_movement": "Mechanized Movement Phase",
               "mech_combat": "Mechanized Combat Phase", "over": "Game over"}
PLAYER_FLAGS = ("moved", "attacked", "advanced", "retreated")


def acting(s: State) -> str | None:
    if s["phase"] == "over":
        return None
    if s["decision"] is not None:
        return str(s["decision"]["seat"])
    b = s["battle"]
    if b is not None and 1 <= b["step"] <= 4:
        return combat.step_side(b)
    return str(s["player"])


def legal(s: State, w: World) -> list[Action]:
    """Every legal action, in a fixed order (the `/actions` listing; `legal_check.is_legal`
    checks one action against the same rules without listing them all)."""
    return list(iter_legal(s, w))


def only(s: State, w: World, action: Action) -> bool:
    """Is `action` the one and only legal action? Stops listing at the second."""
    it = iter_legal(s, w)
    return next(it, None) == action and next(it, None) is None


def only_end_move(s: State, w: World) -> bool:
    """`only(s, w, {"type": "end_move"})` for a unit on the move, asking whether any place is left to
    enter rather than listing them all (the order below is iter_legal's)."""
    mv = s["moving"]
    if s["phase"] in ("over", "setup") or s["decision"] is not None or s["battle"] is not None or mv is None:
        return only(s, w, {"type": "end_move"})
    if mv.get("mode"):
        return False  # a transport on its way: iter_legal lists only its landings
    with occupancy(s, w):  # reads the state only: who is where answers from one index
        if not mv.get("stopped") and movement.has_entry(s, w):
            return False
        if movement.sail_targets(s, w) or (not mv.get("demolished") and bridges.demolish_actions(s, w)):
            return False
        return not iron.exit_actions(s, w) and movement.may_end_here(s, w)


def iter_legal(s: State, w: World) -> Iterator[Action]:
    if s["phase"] == "over":
        return
    if s["phase"] == "setup":
        yield from iron_setup.legal(s, w) if iron.on(s) else setup_vc.legal(s, w)
        return
    d = s["decision"]
    if d is not None:
        k = d["kind"]
        if k == "retreat":
            yield from results.retreat_actions(s, w)
        elif k == "displace":
            yield from results.displace_actions(s, w)
        elif k == "loss":
            yield from ({"type": "lose_step", "unit": u} for u in d["units"])
        elif k == "advance":
            yield from results.advance_actions(s, w)
        elif k == "errant":
            yield from ({"type": "errant", "unit": u} for u in d["units"])
        elif k == "ben_suc":
            yield from iron.ben_suc_actions(s)
        elif k in transport.DECISIONS:
            yield from transport.decision_actions(s, w)
        else:
            raise AssertionError(k)
        return
    b = s["battle"]
    if b is not None:
        yield from ({"type": "add", "unit": u} for u in combat.addable(s, w))
        yield from ({"type": "support", "marker": m} for m in combat.committable(s, w))
        yield {"type": "pass"}
        return
    mv = s["moving"]
    if mv is not None and mv.get("mode"):
        yield from transport.land_actions(s, w)
        return
    if mv is not None:
        if not mv.get("stopped"):
            yield from ({"type": "enter", "hex": h} for h in movement.entries(s, w))
        yield from ({"type": "sail", "to": t} for t in movement.sail_targets(s, w))
        if not mv.get("demolished"):
            yield from bridges.demolish_actions(s, w)
        yield from iron.exit_actions(s, w)
        if movement.may_end_here(s, w):
            yield {"type": "end_move"}
        return
    if s["phase"] in ("movement", "mech_movement"):
        yield from ({"type": "select", "unit": u} for u in sorted(s["units"]) if movement.can_select(s, w, u))
        yield from transport.phase_actions(s, w)
        yield from engineers.actions(s, w)
        yield from iron.b52_actions(s, w)
    else:
        for t in combat.bombard_targets(s, w):
            yield from ({"type": "bombard", "unit": t, "marker": m} for m in s["hands"][s["player"]])
        yield from ({"type": "declare", "defender": dft, "unit": a} for dft, a in combat.declarations(s, w))
    yield {"type": "end_phase"}


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact], victory: Callable[..., Any]) -> None:
    t = a["type"]
    if s["phase"] == "setup":
        (iron_setup if iron.on(s) else setup_vc).perform(s, w, a, dice, facts, start_turn)
    elif t == "select":
        movement.begin(s, w, a["unit"], facts)
    elif t == "enter":
        movement.enter(s, w, a["hex"], facts)
    elif t == "sail":
        movement.sail(s, w, a["to"], facts)
    elif t == "end_move":
        end_move(s, w, facts)
    elif t == "end_phase":
        facts.append(Fact(f"{s['player'].upper()} ends the {PHASE_LABEL[s['phase']]}", "VB 4.1", "phase"))
        next_phase(s, w, dice, facts)
    elif t == "declare":
        combat.declare(s, w, a["defender"], a["unit"], facts)
        combat.run_steps(s, w, dice, facts)
    elif t == "add":
        combat.add(s, w, a["unit"], facts)
        combat.run_steps(s, w, dice, facts)
    elif t == "support":
        combat.commit(s, w, a["marker"], dice, facts)
    elif t == "pass":
        combat.pass_step(s, w, dice, facts)
    elif t == "bombard":
        combat.bombard(s, w, a["unit"], a["marker"], dice, facts)
    elif t == "lose_step":
        results.choose_loss(s, w, a["unit"], facts)
    elif t == "hold":
        results.hold(s, w, a["unit"], dice, facts)
    elif t == "retreat":
        results.retreat(s, w, a["unit"], list(a["path"]), dice, facts)
    elif t == "displace":
        results.displace(s, w, a["hex"], dice, facts)
    elif t == "refuse":
        results.displace(s, w, None, dice, facts)
    elif t == "advance":
        results.advance(s, w, a["unit"], a["hex"], facts)
    elif t == "end_advance":
        facts.append(Fact("No further advance after combat", "VB 7.9", "advance"))
        results.end_battle(s)
    elif t == "errant":
        results.errant(s, w, a["unit"], facts)
    elif t == "b52":
        iron.b52(s, w, a["unit"], facts)
    elif t == "ben_suc":
        iron.ben_suc(s, w, a["choice"], dice, facts)
    elif t == "exit":
        iron.exit_map(s, w, facts)
    elif t in ("repair", "eng_bridge"):
        engineers.perform(s, w, a, dice, facts)
    elif t == "demolish":
        bridges.demolish(s, w, a["hexside"], facts)
        s["moving"]["demolished"] = True
    else:
        transport.perform(s, w, a, dice, facts)
        if t == "push":
            combat.run_steps(s, w, dice, facts)
    settle(s, w, dice, facts, victory)


def end_move(s: State, w: World, facts: list[Fact]) -> None:
    mv = s["moving"]
    u = mv["unit"]
    s["units"][u]["moved"] = s["phase"]
    s["moving"] = None
    facts.append(Fact(f"{w.units[u].name} ends its move in {s['units'][u]['at']}", "VB 5.1", "move_end",
                      {"unit": u, "hex": s["units"][u]["at"]}))


def next_phase(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    s["eng"]["done"] = []
    i = PHASES.index(s["phase"])
    if i + 1 < len(PHASES):
        s["phase"] = PHASES[i + 1]
        if s["phase"] in ("combat", "mech_combat"):
            s["defended"], s["attacks_made"] = [], 0  # VB 7.2, A-29: once per combat phase
        return
    if s["player"] == "us":
        start_player_turn(s, "vc")
        return
    end_turn(s, w, dice, facts)


def start_player_turn(s: State, side: str) -> None:
    s["player"], s["phase"] = side, "movement"
    for r in s["units"].values():
        for k in PLAYER_FLAGS:
            r[k] = "" if k in ("moved", "attacked") else False


def end_turn(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """V.12: markers back to the pools; the last turn ends the game, else the next begins."""
    return_all(s)
    facts.append(Fact(f"End of game turn {s['turn']}", "VB 4.1", "turn"))
    if s["turn"] >= s["final_turn"]:
        s["phase"] = "over"
        return
    s["turn"] += 1
    start_turn(s, w, dice, facts)


def start_turn(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """V.4: allotment and random draw (VB 14.1), chits and transport flags reset."""
    facts.append(Fact(f"Game turn {s['turn']} of {s['final_turn']}", "VB 4.0", "turn", {"turn": s["turn"]}))
    s["bombarded"] = []
    for r in s["units"].values():
        r["transported"] = ""
    transport.reset_chits(s)
    draw_hands(s, w, dice, facts)
    start_player_turn(s, "us")


def settle(s: State, w: World, dice: DiceSource, facts: list[Fact], victory: Callable[..., Any]) -> None:
    """After every action: immediate ends, moves that cannot go on, phases with nothing to do."""
    for _ in range(64):
        if s["phase"] in ("over", "setup"):
            break
        hidden.reveal_check(s, w, facts)
        engineers.check_site(s, w, facts)
        if iron.on(s):
            iron.roll_pending(s, dice, facts)
        if victory(s, w, facts, immediate=True):
            s["phase"] = "over"
            break
        if s["final_turn"] < s["turn"]:
            facts.append(Fact(f"The game ends at once: its last turn is now {s['final_turn']}", "VB 21.0", "game_end"))
            s["phase"] = "over"
            break
        mv = s["moving"]
        if mv is not None:
            if only_end_move(s, w):
                end_move(s, w, facts)
                continue
            break
        if iron.on(s) and not s["iron"]["won"]:
            iron.ben_suc_check(s, w)
        if s["battle"] is not None or s["decision"] is not None:
            break
        if only(s, w, {"type": "end_phase"}):
            facts.append(Fact(f"{s['player'].upper()} has nothing to do in the {PHASE_LABEL[s['phase']]}", "VB 4.1",
                              "phase"))
            next_phase(s, w, dice, facts)
            continue
        break
    if s["phase"] == "over" and s["result"] is None:
        s["moving"], s["battle"], s["decision"] = None, None, None
        if iron.on(s):
            iron.roll_pending(s, dice, facts)
            iron.hold_roll(s, dice)
        s["result"] = victory(s, w, facts, immediate=False)
