"""The Game object: Warlog's interface over the phase table (rules/core/game.py)."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium import battle_flow, confirmations, flow, positions, schema
from rules.assault_on_belgium import standing as aob_standing
from rules.assault_on_belgium.board import ATTACKER, DEFENDER, land_units
from rules.assault_on_belgium.data import World, load_world
from rules.core import standing
from rules.core.admit import Admission
from rules.core.dice import DiceSource
from rules.core.game import (
    Action,
    Applied,
    Fact,
    Game,
    IllegalAction,
    InvalidState,
    OptionSpec,
    Outcome,
    Scenario,
    State,
)
from rules.core.plaincopy import clone

SCENARIO = "may-1940"
ROLES = ("germany", "belgium")


class AssaultOnBelgium(Game):
    """Assault on Belgium: one German move, then every battle it made (AoB 3.2).

    `world` defaults to the package's map and OOB; tests pass a synthetic World.
    """

    name = "assault-on-belgium"
    title = "Assault on Belgium"
    version = "2"  # 2: secret standing answers for the combat decisions (rules/assault_on_belgium/standing.py)
    standing_answers = True  # version 2 on
    hidden_information = True  # version 2 on: a standing answer's words are the seat's hidden move

    def __init__(self, world: World | None = None) -> None:
        self._world = world

    @property
    def world(self) -> World:
        if self._world is None:
            self._world = load_world()
        return self._world

    # -- catalogue --------------------------------------------------------------------
    def scenarios(self) -> dict[str, Scenario]:
        return {SCENARIO: Scenario(SCENARIO, "May 1940", ROLES,
                                   "Germany must take Brussels and Antwerp in a single move (AoB 3).")}

    def options(self) -> dict[str, OptionSpec]:
        return {
            "no_entry_nl_france": OptionSpec("no_entry_nl_france", False,
                                             "Optional rule: the Netherlands and France cannot be entered (AoB 18.1)"),
            "reaction_before_german_air": OptionSpec(
                "reaction_before_german_air", True,
                "Belgian reaction before the German air missions (rule-text order, AoB 21); "
                "false = the translator's memo order (German air, Belgian air, then reaction)"),
        }

    # -- the flow ------------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> State:
        if scenario not in self.scenarios():
            raise IllegalAction(f"unknown scenario {scenario!r}; this game has {SCENARIO!r}")
        w = self.world
        units: dict[str, Any] = {}
        for uid, u in w.units.items():
            if u.is_land:
                units[uid] = {"hex": None, "status": "unplaced", "hits": 0, "mp": None, "moved": False, "done": False}
            else:
                units[uid] = {"hex": None, "status": "unplaced", "mission": None, "with": None}
        state: State = {"game": self.name, "version": self.version, "scenario": scenario, "map_id": w.map_id,
                "oob_id": w.oob_id, "options": self.resolve_options(options), "phase": "setup_belgium",
                "selected": None, "units": units, "battles": [], "next_battle": 1, "combat": None, "result": None}
        if self.standing_answers:
            state["standing"] = {}
        return state

    def check_state(self, state: State) -> None:
        steps = tuple(battle_flow.DECISIONS) + ("done",)  # a state never rests at an engine step
        schema.check_state(state, self.world, tuple(flow.PHASES), steps)

    def check_position(self, state: State) -> list[dict[str, Any]]:
        return positions.check_position(state, self.world)

    def active_seats(self, state: State) -> list[str]:
        seat = flow.PHASES[state["phase"]].seat(state)
        return [seat] if seat else []

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        return flow.legal(state, self.world)

    def is_legal(self, state: State, seat: str, action: Action) -> bool:
        """In the listing, as JSON; only the candidate equal to it is checked (a standing answer:
        any well-formed one, version 2 on)."""
        if seat not in self.active_seats(state):
            return False
        if isinstance(action, dict) and action.get("type") == "standing":
            if not self.standing_answers:
                return False
            try:
                schema.check_action_shape(action)
                standing.check(aob_standing.KINDS, action)
            except IllegalAction:
                return False
            return True
        return flow.is_legal(state, self.world, action)

    def confirm(self, state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
        return confirmations.confirm(state, self.world, action, legal)

    def prompt(self, state: State, seat: str) -> str:
        if state["phase"] == "over":
            r = state["result"]
            return f"The game is over: {r['winner'].capitalize()} wins ({r['reason']})"
        if seat not in self.active_seats(state):
            other = self.active_seats(state)[0]
            return f"Waiting for {other.capitalize()}: " + flow.PHASES[state["phase"]].ask(state, self.world)
        return flow.PHASES[state["phase"]].ask(state, self.world)

    def admission(self) -> Admission:
        """The preamble of `apply` (rules/core/admit.py), in this game's words: the shape is checked
        before the seat, and the phase's own check raises the specific reason."""
        w = self.world

        def seat_check(state: State, seat: str) -> None:
            active = self.active_seats(state)
            if seat not in active:
                raise IllegalAction(f"it is not {seat}'s turn: {active[0].capitalize()} must act now "
                                    f"({flow.PHASES[state['phase']].ask(state, w)})", "AoB 21")

        def legal(state: State, action: Action) -> bool:
            if action["type"] == "standing":  # only version 2 on lets the shape through
                standing.check(aob_standing.KINDS, action)
                return True
            flow.PHASES[state["phase"]].check(state, w, action)  # reads only; raises the specific reason
            return True

        return Admission(same_data=lambda s: s.get("map_id") == w.map_id and s.get("oob_id") == w.oob_id,
                         other_data="the state was set up with another map or order of battle", over_rule="AoB 17.2",
                         seat_check=seat_check,
                         shape=schema.check_action_shape if self.standing_answers else schema.check_action_shape_v1,
                         legal=legal, shape_first=True)

    def apply(self, state: State, seat: str, action: Action, dice: DiceSource) -> Applied:
        s, action = self.admission().admit(state, seat, action)
        facts: list[Fact] = []
        w = self.world
        if action["type"] == "standing":
            standing.record(s, aob_standing.KINDS, seat, action, facts)
        else:
            flow.PHASES[state["phase"]].perform(s, w, action, dice, facts)
        if self.standing_answers:  # version 2 on: the decisions a standing answer settles are not waited for
            standing.settle(s, lambda st: aob_standing.point(st, w),
                            lambda st, kind, answer: aob_standing.pick(st, w, kind, answer),
                            lambda st, a: flow.PHASES[st["phase"]].perform(st, w, a, dice, facts), facts)
        return Applied(s, facts)

    def view(self, state: State, seat: str | None) -> State:
        """Everything is open but the standing answers (version 2 on): the seat's own, the other
        seat's as face-down markers (rules/core/standing.py)."""
        seen: State = clone(state)
        if "standing" in state and state["phase"] != "over":
            seen["standing"] = standing.view(state, seat)
        return seen

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(r["winner"], f"{r['winner']} wins", r["reason"], "AoB 3")

    def victory_status(self, state: State) -> dict[str, Any] | None:
        """AoB 3: Germany wins iff Brussels and Antwerp each hold a German land unit and no
        Belgian one once every battle is over; otherwise Belgium wins."""
        w = self.world
        held = {k: bool(land_units(state, w, ATTACKER, w.objectives[k])) and not land_units(state, w, DEFENDER,
                                                                                              w.objectives[k])
                for k in ("brussels", "antwerp")}
        have = [k.capitalize() for k, v in held.items() if v]
        need = [k.capitalize() for k, v in held.items() if not v]
        return {"summary": (f"Germany holds {' and '.join(have) or 'neither objective'}"
                            + (f"; still needs {' and '.join(need)}" if need else "; would win if it ends now")),
                "sides": {ATTACKER: f"holds {', '.join(have) or 'no objective'}"
                                    + (f"; needs {', '.join(need)}" if need else ""),
                          DEFENDER: "wins unless Germany holds both objectives at the end"
                                    + (f" (still holds {', '.join(need)})" if need else "")},
                "rule": "AoB 3", "score": [len(have)]}

    def phase(self, state: State) -> str:
        ph = flow.PHASES[state["phase"]]
        if state["phase"] == "combat" and state["combat"]["battle"] is not None:
            return f"Combat: battle {state['combat']['battle']}"
        return ph.label

    def describe_action(self, action: Action) -> str:
        return describe(action, self._world_or_none())

    def _world_or_none(self) -> World | None:
        try:
            return self.world
        except (OSError, ValueError):
            return None



def describe(a: Action, w: World | None) -> str:
    """Short English for an action: "move 7. Panzer to 1415 (tank battle)"."""

    def un(key: str = "unit") -> str:
        uid = a.get(key, "?")
        return w.units[uid].name if w is not None and uid in w.units else str(uid)

    kind = a.get("type")
    hx = a.get("hex", "?")
    texts = {
        "select": f"select {un()}", "place": f"place the selected unit in {hx}", "unplace": f"pick up {un()}",
        "standard_setup": "use the standard set-up", "done_setup": "finish setting up",
        "move": f"move to {hx}" + (" (tank battle)" if a.get("tank_battle") else ""),
        "end_unit_move": "end this unit's move", "end_movement": "end the movement",
        "end_reaction": "end the reaction", "fly": f"fly {un()} to {hx}", "unfly": f"keep {un()} at its base",
        "end_air": "end the air missions", "resolve_battle": f"resolve battle {a.get('battle')}",
        "choose_fighter": f"fight with {un()}", "choose_bomber": f"support with {un()}",
        "no_bomber": "no bomber support", "assign_hit": f"give the excess hit to {un()}",
        "retreat": f"retreat to {hx}", "take_hit": "take an extra hit instead of retreating",
        "continue": "continue the battle", "withdraw": f"withdraw {un()} to {hx}",
        "pursuit_toggle": f"add or remove {un()} from the pursuit", "pursue": f"pursue into {hx}",
        "attack": f"tanks attack {hx}", "no_pursuit": "do not pursue",
        "standing": f"standing answer to {a.get('kind')}: {a.get('answer')}"
                    + (f" when {standing.conditions(a['when'])}" if isinstance(a.get("when"), list) and a["when"]
                       and all(isinstance(c, list) and len(c) == 3 for c in a["when"]) else ""),
    }
    return texts.get(str(kind), ", ".join(f"{k}={v}" for k, v in sorted(a.items())))


class AssaultOnBelgiumV1(AssaultOnBelgium):
    """Rules version 1, kept so that games recorded under it are judged and verified by it
    (tests/golden/*--v1.jsonl): no standing answers, no hidden information."""

    version = "1"
    standing_answers = False
    hidden_information = False


__all__ = ["AssaultOnBelgium", "AssaultOnBelgiumV1", "InvalidState"]
