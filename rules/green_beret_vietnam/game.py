"""The Game object: Warlog's interface over the phase table (rules/core/game.py).

Solitaire: one seat, "player". The engine draws the missions, hears the noise, places, moves
and fights the enemy, all inside `apply`, each step a Fact with its rule section and dice.
"""

from __future__ import annotations

from typing import Any

from rules.core.admit import Admission
from rules.core.chits import draw
from rules.core.dice import DiceSource
from rules.core.game import (
    Action,
    Applied,
    Fact,
    Game,
    IllegalAction,
    OptionSpec,
    Outcome,
    Scenario,
    State,
    listed,
)
from rules.core.plaincopy import clone
from rules.green_beret_vietnam import flow, positions, schema
from rules.green_beret_vietnam.board import net_score
from rules.green_beret_vietnam.data import World, load_world

SCENARIO = "campaign"
ROLES = ("player",)



def _only_the_player(state: State, seat: str) -> None:
    if seat != "player":
        raise IllegalAction(f"this is a solitaire game: the only seat is 'player', not {seat!r}", "GBV 1.1")

class GreenBeretVietnam(Game):
    name = "green-beret-vietnam"
    title = "Green Beret: Vietnam"
    version = "2"  # 2: the enemy pool's draws are secret dice (3.6)
    solitaire = True
    forced_dice_faces = (6, 10)  # the d6 and the d10 (GBV 2.0)
    secret_state = True  # 3.6: the PP-track markers; events are blinded, state hashes kept back
    secret_draws = True  # 3.6: blind draws from the enemy pool roll secret dice

    def __init__(self, world: World | None = None) -> None:
        self._world = world

    @property
    def world(self) -> World:
        if self._world is None:
            self._world = load_world()
        return self._world

    def forcible_dice(self) -> dict[str, int]:
        """The d6 and the d10 (2.0), and the cups' blind draws, whose die has as many faces as the
        cup holds (rules/core/chits.py): the enemy cup (3.6, 12.7), the damage markers (13.1) and the
        missions (7.0)."""
        w = self.world
        return {**super().forcible_dice(), "3.6/12.7 a draw from the enemy cup": len(w.enemies),
                "13.1 a damage marker draw": len(w.damage), "7.0 a mission draw": len(w.missions)}

    def scenarios(self) -> dict[str, Scenario]:
        return {SCENARIO: Scenario(SCENARIO, "Central Highlands campaign", ROLES,
                                   "Solitaire: command Green Beret teams through randomly drawn missions while the "
                                   "system plays the enemy; the victory level comes from missions accomplished, "
                                   "missions abandoned and teams lost (GBV 5.0).")}

    def options(self) -> dict[str, OptionSpec]:
        return {
            "assassination": OptionSpec("assassination", False,
                                        "Optional rule 16.0: after Kill Double-Agent is accomplished or abandoned, "
                                        "a d6 and a d10 decide a PP gain or the loss of a team and a leader"),
            "leaders_count": OptionSpec("leaders_count", True,
                                        "Eliminated commanders and officers also lower the victory level "
                                        "(13.1; AMBIG-9). False: teams only (5.0 literal)"),
            "antitank_on_attack": OptionSpec("antitank_on_attack", False,
                                             "Anti-tank weapons also double when the team attacks a circled-MA "
                                             "enemy (AMBIG-41 alternative; the default doubles only in defence, "
                                             "13.3)"),
        }

    # -- the flow ------------------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> State:
        """3.0: the three pools; 3.6: two enemy units drawn at random as hidden PP-track markers."""
        if scenario not in self.scenarios():
            raise IllegalAction(f"unknown scenario {scenario!r}; this game has {SCENARIO!r}")
        w = self.world
        gb: dict[str, Any] = {c: {"status": "supply", "hex": None, "moved": False, "left": False, "detected": False, "damage": [],
                  "flipped": False} for c in w.counters}
        pool = sorted(w.enemies)
        markers = []
        for _ in range(2):
            e, pool = draw(pool, dice, "3.6 enemy unit drawn as a PP-track marker", secret=self.secret_draws)
            markers.append(e)
        return {
            "game": self.name, "version": self.version, "scenario": scenario, "map_id": w.map_id,
            "counters_id": w.counters_id, "tables_id": w.tables_id, "options": self.resolve_options(options),
            "turn": 0, "phase": "setup_camp", "pp": w.start_pp, "gb": gb,
            "camps": {k: {"status": "supply", "hex": None, "pbr": False} for k in w.camp_ids}, "camp_bought": False,
            "enemy_pool": pool, "pp_markers": sorted(markers), "enemies": {}, "enemy_order": [],
            "damage_pool": sorted(w.damage), "mission_pool": sorted(w.missions), "mission": None,
            "tally": {"accomplished": [], "abandoned": [], "teams_lost": [], "leaders_lost": []},
            "moving": None, "attacked": [], "enemy_step": None, "suppress": [], "agenda": [], "decision": None,
            "result": None,
        }

    def check_state(self, state: State) -> None:
        schema.check_state(state, self.world)

    def check_position(self, state: State) -> list[dict[str, Any]]:
        return positions.check_position(state, self.world)

    def active_seats(self, state: State) -> list[str]:
        return [] if state["phase"] == "over" else ["player"]

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        return flow.legal(state, self.world)

    def is_legal(self, state: State, seat: str, action: Action) -> bool:
        """In the listing, as JSON; only the actions of its type are listed."""
        return seat in self.active_seats(state) and listed(action, flow.candidates_like(state, self.world, action))

    def confirm(self, state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
        """Ending the campaign is open at any time (GBV 4.0, 5.0), from the first turn on: it is
        confirmed, with the level it would end at."""
        if action.get("type") != "end_game":
            return None
        net = net_score(state)
        return (f"ends the game now, on turn {state['turn']}, at net {net}: {self.world.level(net).name} "
                "(GBV 4.0, 5.0)")

    def prompt(self, state: State, seat: str) -> str:
        return flow.ask(state, self.world)

    def admission(self) -> Admission:
        """The preamble of `apply` (rules/core/admit.py), in this game's words."""
        w = self.world
        return Admission(
            same_data=lambda s: (s.get("map_id"), s.get("counters_id"), s.get("tables_id")) == (w.map_id, w.counters_id,
                                                                                                 w.tables_id),
            other_data="the state was set up with other map or counter data", over_rule="GBV 5.0",
            seat_check=_only_the_player, shape=schema.check_action_shape,
            legal=lambda s, a: a in flow.candidates_like(s, w, a),  # `flow.legal`, only the action's type
            refusal=lambda s, a: flow.explain(s, w, a))

    def apply(self, state: State, seat: str, action: Action, dice: DiceSource) -> Applied:
        s, action = self.admission().admit(state, seat, action)
        facts: list[Fact] = []
        flow.perform(s, self.world, action, dice, facts)
        return Applied(s, facts)

    def reseal(self, state: State, dice: DiceSource) -> Applied | None:
        """3.6 again: a game reopened by a director after its end showed the two PP-track markers
        puts them back among the enemy units still in the pool and draws two again, face down."""
        if state["phase"] == "over":
            return None
        s = clone(state)
        pool = sorted(s["enemy_pool"] + s["pp_markers"])
        markers = []
        for _ in range(2):
            e, pool = draw(pool, dice, "3.6 enemy unit drawn again as a PP-track marker (game reopened)",
                            secret=self.secret_draws)
            markers.append(e)
        s["enemy_pool"], s["pp_markers"] = pool, sorted(markers)
        return Applied(s, [Fact("The game is reopened after its end showed the PP-track markers: they go back to the "
                                "pool and two are drawn again, face down", "GBV 3.6", "reseal")])

    def view(self, state: State, seat: str | None) -> State:
        """3.6: the two PP-track markers stay face down (and so does the pool, which would reveal
        them by elimination) until the game is over."""
        v: State = clone(state)
        if state["phase"] != "over":
            v["pp_markers"] = ["hidden", "hidden"]
            v["enemy_pool"] = [f"{len(state['enemy_pool'])} unit(s)"]
        return v

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        if r["defeat"]:
            return Outcome(None, "Defeat", r["reason"], "GBV 5.0")
        return Outcome(None, f"{r['level']} ({r['level_jp']}), net {r['net']}", r["reason"], "GBV 5.0")

    def victory_status(self, state: State) -> dict[str, Any] | None:
        """GBV 5.0: the level by net score (missions accomplished less abandoned, teams and
        leaders lost); losing every team is a defeat. `score` = [0 if defeated else 1, net]."""
        r = state.get("result")
        net = r["net"] if r else net_score(state)
        defeat = bool(r and r["defeat"])
        level = "Defeat" if defeat else self.world.level(net).name
        t = state["tally"]
        return {"summary": f"net {net}: {level}" + ("" if r else " if the game ended now"),
                "sides": {"player": f"{len(t['accomplished'])} mission(s) accomplished, {len(t['abandoned'])} "
                                    f"abandoned, {len(t['teams_lost'])} team(s) lost"},
                "rule": "GBV 5.0", "score": [0 if defeat else 1, net]}

    def phase(self, state: State) -> str:
        label = str(flow.PHASE_LABEL.get(state["phase"], state["phase"]))
        if state["phase"] in ("setup_camp", "over"):
            return label
        return f"Turn {state['turn']}: {label}"

    def describe_action(self, action: Action) -> str:
        return describe(action, self._world_or_none())

    def _world_or_none(self) -> World | None:
        try:
            return self.world
        except (OSError, ValueError):
            return None



def describe(a: Action, w: World | None) -> str:
    def nm(key: str) -> str:
        v = str(a.get(key, "?"))
        if w is not None:
            if v in w.counters:
                return w.counters[v].name
            if v in w.enemies:
                return f"{w.enemies[v].name} ({v})"
        return v

    t = a.get("type")
    hx = a.get("hex", "?")
    texts = {
        "place_camp": f"place the base camp in {hx}" + (" with a PBR" if a.get("pbr") else ""),
        "buy": f"buy a {a.get('kind')} at {a.get('camp')}",
        "buy_camp": f"buy a base camp in {hx}" + (" with a PBR" if a.get("pbr") else ""),
        "relocate": f"relocate {a.get('camp')}", "relocate_to": f"put the relocated camp in {hx}",
        "done": "done buying", "abandon": "abandon the mission", "end_game": "end the game",
        "begin_move": f"start moving {nm('counter')}", "join": f"add {nm('counter')} to the move",
        "drop": f"drop {nm('counter')}", "step": f"move to {hx}", "end_move": "end this move",
        "take": f"take up {nm('item')}", "end_movement": "end the movement phase",
        "attack": f"attack {nm('enemy')} from {hx}", "jettison": f"jettison {nm('item')}",
        "end_combat": "end the combat phase", "suppress": f"suppress {nm('enemy')} with {nm('item')}",
        "end_suppression": "resolve suppression and let the enemy act", "continue": "next turn",
        "evade": f"evade to {a.get('camp')}", "stay": "stay (detected)", "choose_target": f"the enemy chases {hx}",
        "choose_hex": f"the enemy enters {hx}", "use_naval": "use the naval gunfire", "hold_naval": "hold the naval gunfire",
        "damage_team": f"{nm('team')} takes the damage", "kill_leader": f"{nm('leader')} is killed",
        "lose_item": f"lose {nm('item')}", "claim": f"claim {nm('item')}", "claim_done": "claim no more",
        "done_spending": "keep the PP", "assassinate_team": f"{nm('team')} is lost",
        "assassinate_leader": f"{nm('leader')} is lost",
    }
    return texts.get(str(t), ", ".join(f"{k}={v}" for k, v in sorted(a.items())))



class GreenBeretVietnamV1(GreenBeretVietnam):
    """Rules version 1, kept runnable for the games recorded under it (tests/golden/): the enemy
    pool's draws were public dice and the scatter fact named the drawn unit's pool position, so
    events were not blinded. Everything else is version 2's code; the state records its version
    and the enemy's draws read it (enemy.spawn)."""

    version = "1"
    secret_state = False
    secret_draws = False
