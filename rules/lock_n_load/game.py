"""The Game object: Warlog's interface (rules/core/game.py) over Lock 'n Load: Forgotten Heroes
Vietnam, demo rules. Two seats, "us" and "vc". Sections cited as "LnL n.m";
what is implemented and every reading taken: docs/games/lock-n-load.md.
"""

from __future__ import annotations

from typing import Any

from rules.core import standing
from rules.core.admit import Admission, seat_of_two
from rules.core.dice import DiceSource
from rules.core.game import Action, Applied, Fact, Game, IllegalAction, OptionSpec, Outcome, Scenario, State
from rules.core.plaincopy import clone
from rules.lock_n_load import cards, confirmations, flow, orders, positions, schema
from rules.lock_n_load.data import World
from rules.lock_n_load.events import new_unit

ROLES = ("us", "vc")
_V1_OPTIONS = {"tall_obstacles_block": OptionSpec(
    "tall_obstacles_block", False, "LnL 10.3 (digest A26): an obstacle whose top (ground level + obstacle "
    "height, e.g. dense jungle at 0 + 2) rises above the higher unit blocks LOS")}

_V2_OPTIONS = {**_V1_OPTIONS, "heroes": OptionSpec(
    "heroes", False, "LnL 11.2 (optional; the demo has no hero counters): a squad or half squad rolling 1 on "
    "a damage check from enemy fire rolls again, and on an even die (ARVN: 1, 13.4) a hero appears in its hex")}


class LockNLoad(Game):
    name = "lock-n-load"
    title = "Lock 'n Load: Forgotten Heroes Vietnam (demo)"
    # 2: the demo scenario rebalanced (tools/lnl_author_data.py, bench/lnl_balance.py); 3: a standing order
    # is a face-down marker whose presence is public, its content secret (rules/lock_n_load/orders.py);
    # 4: the optional skill-card draw for leaders (rules/lock_n_load/cards.py) and the sniper's standing
    # order, placed and fired by the judge at any time (11.4, A42: rules/lock_n_load/orders.py), standing answers
    # (a side passes its impulse unasked, rules/lock_n_load/standing.py) and no stop for a side whose only
    # action is to pass because it could also change its standing orders
    version = "4"
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

    def forcible_dice(self) -> dict[str, int]:
        """The d6 (1.2), and the draws whose die has as many faces as there are things to draw from:
        the sniper's random target among the units of a hex (11.4: at most 8, six half squads and two
        SMCs, 1.3) and a skill card from the deck (11.2, 11.12, 12.0)."""
        return {**super().forcible_dice(), "LnL 11.4 the sniper's random target": 8,
                "LnL 11.2, 11.12 a skill card draw": len(self.world.skill_cards)}

    def scenarios(self) -> dict[str, Scenario]:
        out = {}
        for sid, sc in self.world.scenarios.items():
            out[sid] = Scenario(sid, sc["title"], ROLES, sc["description"])
        return out

    def options(self) -> dict[str, OptionSpec]:
        return {**_V2_OPTIONS, "skill_cards": OptionSpec(
            "skill_cards", False, "LnL 11.12, 12.0 (optional): at set-up each leader with a positive LM and no card from "
            "the scenario draws one skill card at random (the demo's deck: Bull, Charismatic, T2)")}

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
        if s["version"] not in ("1", "2", "3"):
            s["standing"] = {}  # version 4: the sides' standing answers (rules/lock_n_load/standing.py)
        facts: list[Fact] = []
        if s["options"].get("skill_cards"):  # 11.12, 12.0 (rules version 4 on): before the first turn
            facts += cards.draw_for_leaders(s, w, dice)
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
            if "standing" in state:
                v["standing"] = standing.view(state, seat)
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


class LockNLoadV3(LockNLoad):
    """Rules version 3, kept runnable for the games recorded under it (tests/golden/): version 4
    without the optional skill-card draw for leaders (no option `skill_cards`) and without the
    sniper's standing order (its sniper is placed and fires only when its side is asked: at the
    start of its impulses and at its opportunity-fire prompts)."""

    version = "3"

    def options(self) -> dict[str, OptionSpec]:
        return dict(_V2_OPTIONS)


class LockNLoadV2(LockNLoadV3):
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

