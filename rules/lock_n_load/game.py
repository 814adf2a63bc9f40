"""The Game object: Warlog's interface (rules/core/game.py) over Lock 'n Load: Forgotten Heroes
Vietnam, demo rules. Two seats, "us" and "vc". Sections cited as "LnL n.m";
what is implemented and every reading taken: docs/games/lock-n-load.md.
"""

from __future__ import annotations

from typing import Any

from rules.core.admit import Admission, seat_of_two
from rules.core.dice import DiceSource
from rules.core.game import Action, Applied, Fact, Game, IllegalAction, OptionSpec, Outcome, Scenario, State
from rules.core.plaincopy import clone
from rules.lock_n_load import confirmations, flow, orders, positions, schema
from rules.lock_n_load.data import World
from rules.lock_n_load.events import new_unit

ROLES = ("us", "vc")
_V1_OPTIONS = {"tall_obstacles_block": OptionSpec(
    "tall_obstacles_block", False, "LnL 10.3 (digest A26): an obstacle whose top (ground level + obstacle "
    "height, e.g. dense jungle at 0 + 2) rises above the higher unit blocks LOS")}


class LockNLoad(Game):
    name = "lock-n-load"
    title = "Lock 'n Load: Forgotten Heroes Vietnam (demo)"
    # 2: the demo scenario rebalanced (tools/lnl_author_data.py, bench/lnl_balance.py); 3: a standing order
    # is a face-down marker whose presence is public, its content secret (rules/lock_n_load/orders.py)
    version = "3"
    solitaire = False
    secret_state = True  # event paragraphs are secret from both seats until activated (1.7)
    hidden_information = True  # standing orders are secret moves (rules/lock_n_load/orders.py)

    def __init__(self, world: World | None = None) -> None:
        self._world = world

    @property
    def world(self) -> World:
        if self._world is None:
            from rules.lock_n_load.data import load_world

            self._world = load_world(self.version)
        return self._world

    def scenarios(self) -> dict[str, Scenario]:
        out = {}
        for sid, sc in self.world.scenarios.items():
            out[sid] = Scenario(sid, sc["title"], ROLES, sc["description"])
        return out

    def options(self) -> dict[str, OptionSpec]:
        return {**_V1_OPTIONS, "heroes": OptionSpec(
            "heroes", False, "LnL 11.2 (optional; the demo has no hero counters): a squad or half squad rolling 1 on "
            "a damage check from enemy fire rolls again, and on an even die (ARVN: 1, 13.4) a hero appears in its hex")}

    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> State:
        w = self.world
        if scenario not in w.scenarios:
            raise IllegalAction(f"unknown scenario {scenario!r}; this game has {', '.join(sorted(w.scenarios))}")
        sc = w.scenarios[scenario]
        units: dict[str, Any] = {}
        sws: dict[str, Any] = {}
        for side, lst in sorted(sc["units"].items()):
            for u in lst:
                units[u["id"]] = new_unit(side, u["kind"], u["at"])
                for x in u.get("sws", []):
                    units[u["id"]]["sws"].append(x)
                    sws[x] = {"kind": sc["sws"][x], "side": side, "holder": u["id"], "at": None}
        s: State = {
            "game": self.name, "version": self.version, "scenario": scenario, "data_id": w.data_id,
            "options": self.resolve_options(options), "turn": 1, "turns": int(sc["turns"]), "phase": "rally",
            "initiative": sc["first_initiative"], "rally_side": sc["first_initiative"], "rally_done": [],
            "player": sc["first_initiative"], "passes": 0, "units": units, "sws": sws, "spotted": [], "smoke": {},
            "melee": {}, "impulse": None, "decision": None, "spot": None, "spot_used": False,
            "events": {e["id"]: {"type": e["type"], "hex": e["hex"], "side": e.get("side"), "revealed": False,
                                 "paragraph": None} for e in sc["event_markers"]},
            "secret": {"events": {e["id"]: e["paragraph"] for e in sc["event_markers"]},
                       "effects": {e["id"]: e["effect"] for e in sc["event_markers"] if e.get("effect")}},
            "objectives": list(sc["objectives"]), "cache": False, "pending": [], "drops": [], "eliminated": [],
            "orders": {"us": {}, "vc": {}}, "stats": {"opp_fire_prompts": 0, "order_fires": 0}, "result": None,
        }
        facts: list[Fact] = []
        flow.start_turn(s, w, dice, facts)
        return s

    def check_state(self, state: State) -> None:
        schema.check_state(state, self.world)

    def check_position(self, state: State) -> list[dict[str, Any]]:
        return positions.check_position(state, self.world)

    def active_seats(self, state: State) -> list[str]:
        seat = flow.acting(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        return flow.legal(state, self.world)

    def is_legal(self, state: State, seat: str, action: Action) -> bool:
        return seat in self.active_seats(state) and flow.is_legal(state, self.world, action)

    def confirm(self, state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
        return confirmations.confirm(state, action, legal)

    def prompt(self, state: State, seat: str) -> str:
        return schema.ask(state, self.world, seat)

    def admission(self) -> Admission:
        """The preamble of `apply` (rules/core/admit.py), in this game's words."""
        w = self.world
        return Admission(same_data=lambda s: s.get("data_id") == w.data_id,
                         other_data="the state was set up with other board or counter data", over_rule="LnL 9.0",
                         seat_check=seat_of_two(ROLES, flow.acting, "LnL 4.0"), shape=schema.check_action_shape,
                         legal=lambda s, a: flow.is_legal(s, w, a), refusal=lambda s, a: schema.explain(s, w, a))

    def apply(self, state: State, seat: str, action: Action, dice: DiceSource) -> Applied:
        s, action = self.admission().admit(state, seat, action)
        facts: list[Fact] = []
        flow.perform(s, self.world, action, dice, facts)
        return Applied(s, facts)

    def view(self, state: State, seat: str | None) -> State:
        """1.7: an event's paragraph is nobody's until it activates; a seat reads its own standing
        orders only (from version 3 it sees where the other side's lie, face down). Everything shows
        once the game is over."""
        v: State = clone(state)
        if state["phase"] != "over":
            v["secret"] = None
            v["orders"] = orders.view(state, seat)
        return v

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(r["winner"], r["result"], r["reason"], r.get("rule"))

    def phase(self, state: State) -> str:
        if state["phase"] == "over":
            return "Game over"
        if state["phase"] == "rally":
            return f"Turn {state['turn']}: {state['rally_side'].upper()} Rally Phase"
        d = state["decision"]
        if d is not None:
            what = {"melee_targets": "melee targets", "drop_sw": "support weapon to drop",
                    "retreat": "flamethrower retreat", "place_hero": "hero placement"}.get(d["kind"],
                                                                                            "opportunity fire")
            return f"Turn {state['turn']}: {d['seat'].upper()} {what}"
        return f"Turn {state['turn']}: {state['player'].upper()} impulse"

    def describe_action(self, action: Action) -> str:
        return schema.describe(action)


class LockNLoadV2(LockNLoad):
    """Rules version 2, kept runnable for the games recorded under it (tests/golden/): the same
    game as version 3, but a standing order left no public trace of its own, so the game's pauses,
    the move's `fired_from` and the judgement's rules list told the mover where secret orders lay
    and which declined (version 3 makes the marker public and what it says secret)."""

    version = "2"


class LockNLoadV1(LockNLoad):
    """Rules version 1, kept runnable for the games recorded under it (tests/golden/): the first
    demo scenario (rules/lock_n_load/data/scenarios_v1.json: 5 US squads against 4 VC squads and 2
    half squads, 7 turns). Everything else is version 2's code (standing orders as in version 2)."""

    version = "1"

    def options(self) -> dict[str, OptionSpec]:
        return dict(_V1_OPTIONS)

