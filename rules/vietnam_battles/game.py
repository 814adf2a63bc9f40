"""The Game object: Warlog's interface over the sequence of play (rules/core/game.py).

Two seats, "us" (US, ARVN and the river flotilla) and "vc". The US is the first player in
every scenario (VB 25.0-27.0).
"""

from __future__ import annotations

from typing import Any

from rules.core import standing
from rules.core.admit import Admission, seat_of_two
from rules.core.dice import DiceSource, RecordingDice
from rules.core.game import Action, Applied, Fact, Game, IllegalAction, OptionSpec, Outcome, Scenario, State
from rules.core.plaincopy import clone
from rules.vietnam_battles import confirmations, flow, hidden, legal_check, positions, scenarios, schema
from rules.vietnam_battles import standing as vb_standing
from rules.vietnam_battles.data import World

ROLES = ("us", "vc")
SCENARIOS = {
    "boys67": Scenario("boys67", "The Boys of '67 (practice scenario, 15 May 1967)", ROLES,
                       "Two battalions of the US 9th Division against a VC force in an L-shaped ambush between the "
                       "Rach Ba Rai and Rach Tra Tan; 4 game turns (VB 25.0)."),
    "snoopys_nose": Scenario("snoopys_nose", "Snoopy's Nose (May-September 1967)", ROLES,
                             "The 9th Division's riverine and airmobile sweeps between the Rach Ba Rai and the Rach "
                             "Tra Tan: the US must capture all five secret VC base camps in 13 turns, shortened by "
                             "every US unit lost (VB 26.0)."),
    "iron_triangle": Scenario("iron_triangle", "The Iron Triangle (January-February 1967)", ROLES,
                              "Operation Cedar Falls: the US converges on the Iron Triangle while the VC, with a secret "
                              "victory condition (escape, US casualties or hold the battlefield), avoids or fights; "
                              "13 turns, changed by Ben Suc (VB 27.0)."),
}


class VietnamBattles(Game):
    name = "vietnam-battles"
    title = "Vietnam Battles: Iron Triangle & Snoopy's Nose"
    version = "2"  # 2: secret standing answers for the off-turn decisions (rules/vietnam_battles/standing.py)
    standing_answers = True  # version 2 on
    solitaire = False
    hidden_information = True  # support fire hands (H6) and, in Snoopy's Nose, hidden units and camps

    def __init__(self, world: World | None = None, iron: World | None = None) -> None:
        self._world = world
        self._iron = iron
        self._scenario_units: dict[str, set[str]] = {}  # scenario -> its units (from its own setup)

    @property
    def world(self) -> World:
        """The Snoopy's Nose map's world (The Boys of '67, Snoopy's Nose)."""
        if self._world is None:
            from rules.vietnam_battles.loader import load_world

            self._world = load_world()
        return self._world

    @property
    def iron(self) -> World:
        """The Iron Triangle map's world (VB 27.0)."""
        if self._iron is None:
            from rules.vietnam_battles.loader import load_world

            self._iron = load_world("iron-triangle-map.json")
        return self._iron

    def forcible_dice(self) -> dict[str, int]:
        """The d6, and each side's support-fire draw (VB 14.1), whose die has as many faces as the
        side's pool holds (rules/core/chits.py)."""
        out = dict(super().forcible_dice())
        for side in ("us", "vc"):
            size = max(len(w.pools.get(side, [])) for w in (self.world, self.iron))
            if size > 1:
                out[f"VB 14.1 a {side.upper()} support fire draw"] = size
        return out

    def w(self, state_or_scenario: Any) -> World:
        sc = state_or_scenario if isinstance(state_or_scenario, str) else state_or_scenario.get("scenario")
        return self.iron if sc == "iron_triangle" else self.world

    def scenarios(self) -> dict[str, Scenario]:
        return dict(SCENARIOS)

    def options(self) -> dict[str, OptionSpec]:
        return {"real_chit": OptionSpec(
            "real_chit", False, "Snoopy's Nose, the designer's variant of VB 16.0: the VC places all 5 base camps and "
            "3 supply caches openly and secretly designates one as real; the US wins only by capturing it")}

    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> State:
        if scenario not in SCENARIOS:
            raise IllegalAction(f"unknown scenario {scenario!r}; this game has {', '.join(SCENARIOS)}")
        w = self.w(scenario)
        if scenario == "boys67":
            placed, transported = scenarios.boys67_setup(w)
            off: list[str] = []
        elif scenario == "iron_triangle":
            placed, off = scenarios.iron_units(w)
            transported = {}
        else:
            placed, off = scenarios.snoopy_units(w)
            transported = {}
        units = {u: {"at": at, "status": "map", "reduced": False, "moved": "", "attacked": "", "advanced": False,
                     "retreated": False, "transported": ""} for u, at in placed.items()}
        for u in off:
            units[u] = {**units.get(u, {}), "at": None, "status": "off", "reduced": False, "moved": "", "attacked": "",
                        "advanced": False, "retreated": False, "transported": ""}
        missing = sorted(u for u in units if u not in w.units)
        if missing:
            raise IllegalAction(f"the counter data lacks {', '.join(missing)}")
        s: State = {
            "game": self.name, "version": self.version, "scenario": scenario, "map_id": w.map_id,
            "data_id": w.data_id, "options": self.resolve_options(options), "rules": dict(scenarios.BOYS67_RULES),
            "turn": 1, "final_turn": 4, "phase": "movement", "player": "us", "units": units, "moving": None,
            "battle": None, "decision": None, "hands": {"us": [], "vc": []}, "spent": {"us": [], "vc": []},
            "bombarded": [], "defended": [], "attacks_made": 0, "eliminated": [], "chits": {"slick": 0, "tango": 0},
            "bridges_down": [], "eng_bridge": None, "eng": {"done": [], "bridge_turn": None}, "vc_setup": None, "iron": None,
            "secret": None, "camps": {}, "captures": [], "result": None,
        }
        if self.standing_answers:
            s["standing"] = {}
        facts: list[Fact] = []
        if scenario == "iron_triangle":
            s.update({"phase": "setup", "player": "vc", "final_turn": 13, "rules": {},
                      "vc_setup": {"stage": "victory", "pending": None, "roll": None},
                      "secret": {"hidden": {}, "camps": {}, "victory": None},
                      "iron": {"b52_turn": None, "ben_suc": None, "ben_suc_roll": None, "exited": 0, "us_lost": 0,
                               "pending": [], "won": None, "hold_roll": None}})
            return s
        if scenario == "snoopys_nose":
            roll = dice.roll(6, "VB 26.0 open VC strength") + dice.roll(6, "VB 26.0 open VC strength")
            s.update({"phase": "setup", "player": "vc", "final_turn": 13, "rules": dict(scenarios.SNOOPY_RULES),
                      "vc_setup": {"roll": roll, "pending": None}, "secret": {"hidden": {}, "camps": {}}})
            if s["options"]["real_chit"]:
                s["secret"]["real"] = None
            return s
        flow.start_turn(s, w, dice, facts)
        for u, how in transported.items():
            s["units"][u]["transported"] = how
            s["chits"][how] += 1
        return s

    def check_state(self, state: State) -> None:
        schema.check_state(state, self.w(state))

    def check_position(self, state: State) -> list[dict[str, Any]]:
        sc = state["scenario"]
        if sc not in self._scenario_units:
            self._scenario_units[sc] = set(self.setup(sc, self.resolve_options({}), RecordingDice(lambda i, f: 1)).get("units", {}))
        return positions.check_position(state, self.w(state), self._scenario_units[sc])

    def active_seats(self, state: State) -> list[str]:
        seat = flow.acting(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        return flow.legal(state, self.w(state))

    def _standing_ok(self, state: State, action: Action) -> bool:
        if not self.standing_answers or state["phase"] in ("setup", "over"):
            return False
        try:
            standing.check(vb_standing.KINDS, action)
        except IllegalAction:
            return False
        return True

    def is_legal(self, state: State, seat: str, action: Action) -> bool:
        if seat not in self.active_seats(state):
            return False
        if isinstance(action, dict) and action.get("type") == "standing":
            try:
                schema.check_action_shape(action)
            except IllegalAction:
                return False
            return self._standing_ok(state, action)
        return legal_check.is_legal(state, self.w(state), action)

    def confirm(self, state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
        return confirmations.confirm(state, action, legal)

    def prompt(self, state: State, seat: str) -> str:
        return schema.ask(state, self.w(state), seat)

    def admission(self, w: World) -> Admission:
        """The preamble of `apply` (rules/core/admit.py) in this game's words, for the scenario's world `w`."""
        return Admission(same_data=lambda s: s.get("map_id") == w.map_id and s.get("data_id") == w.data_id,
                         other_data="the state was set up with other map or counter data", over_rule="VB 4.0",
                         seat_check=seat_of_two(ROLES, flow.acting, "VB 4.1"),
                         shape=schema.check_action_shape if self.standing_answers else schema.check_action_shape_v1,
                         legal=lambda s, a: (self._standing_ok(s, a) if a["type"] == "standing"
                                             else legal_check.is_legal(s, w, a)),  # targeted; `legal_actions` lists all
                         refusal=lambda s, a: self._refusal(s, w, a))

    def _refusal(self, s: State, w: World, a: Action) -> IllegalAction:
        if a["type"] == "standing" and s["phase"] != "setup":
            try:
                standing.check(vb_standing.KINDS, a)
            except IllegalAction as err:
                return err
        return schema.explain(s, w, a)

    def apply(self, state: State, seat: str, action: Action, dice: DiceSource) -> Applied:
        w = self.w(state)
        s, action = self.admission(w).admit(state, seat, action)
        facts: list[Fact] = []
        if action["type"] == "standing":
            standing.record(s, vb_standing.KINDS, seat, action, facts)
        else:
            flow.perform(s, w, action, dice, facts, scenarios.victory)
        if self.standing_answers:  # version 2 on: the decisions a standing answer settles are not waited for
            standing.settle(s, lambda st: vb_standing.point(st, w),
                            lambda st, kind, answer: vb_standing.pick(st, w, kind, answer),
                            lambda st, a: flow.perform(st, w, a, dice, facts, scenarios.victory), facts)
        return Applied(s, facts)

    def view(self, state: State, seat: str | None) -> State:
        """H6: a side's support fire hand is its own; the other seat and spectators see only how many."""
        v: State = clone(state)
        if state["phase"] != "over":
            for side in ROLES:
                if side != seat:
                    v["hands"][side] = ["hidden"] * len(state["hands"][side])
            hidden.redact(v, seat)
            if "standing" in state:  # version 2 on: the other seat's as face-down markers
                v["standing"] = standing.view(state, seat)
        return v

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(r.get("winner"), r["result"], r["reason"], r.get("rule", "VB 25.0"))

    def victory_status(self, state: State) -> dict[str, Any] | None:
        """VB 25.0 (The Boys of '67) and 26.0 (Snoopy's Nose): the end-of-game check as if the game
        ended now, on a copy (it rolls no die). The Iron Triangle's condition is a secret die roll
        (VB 27.0; H1): nothing is said of it before the end."""
        if state.get("result"):
            r = state["result"]
            return {"summary": f"{r['result']}: {r['reason']}", "sides": {}, "rule": r.get("rule", "VB 25.0")}
        if state.get("scenario") == "iron_triangle":
            return {"summary": "the VC's victory condition is secret until the end (VB 27.0; H1)",
                    "sides": {}, "rule": "VB 27.0"}
        r = scenarios.victory(clone(state), self.w(state), [], immediate=False) or {}
        return {"summary": f"if the game ended now: {r.get('result', 'undecided')} ({r.get('reason', '')})",
                "sides": {}, "rule": r.get("rule", "VB 25.0" if state.get("scenario") == "boys67" else "VB 26.0")}

    def phase(self, state: State) -> str:
        if state["phase"] == "over":
            return "Game over"
        if state["phase"] == "setup":
            return "VC secret set-up"
        return f"Turn {state['turn']}: {state['player'].upper()} {flow.PHASE_LABEL[state['phase']]}"

    def describe_action(self, action: Action) -> str:
        return schema.describe(action, self.world)  # both maps share the counters and the markers


class VietnamBattlesV1(VietnamBattles):
    """Rules version 1, kept so that games recorded under it are judged and verified by it
    (tests/golden/*--v1.jsonl): no standing answers."""

    version = "1"
    standing_answers = False
