"""A deliberately small two-seat dice game used to test the ledger, worker, API and verify
independently of any real game's complexity. It exists only in the tests.

Each turn the active seat either rolls (a d6 added to its score; a 1 ends the turn and
scores nothing) or banks and passes the turn. First to `target` wins.
"""

from __future__ import annotations

import copy
from typing import Any

from rules import register
from rules.core.dice import DiceSource
from rules.core.game import Applied, Fact, Game, IllegalAction, InvalidState, OptionSpec, Outcome, Scenario
from validators.actions import StrictSchema, action_type, register_actions


class DiceDuel(Game):
    name = "dice-duel"
    title = "Dice Duel (test game)"
    version = "1"

    def scenarios(self) -> dict[str, Scenario]:
        return {"short": Scenario("short", "First to 10", ("north", "south")),
                "long": Scenario("long", "First to 30", ("north", "south"))}

    def options(self) -> dict[str, OptionSpec]:
        return {"north_starts": OptionSpec("north_starts", True, "north has the first turn")}

    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> dict[str, Any]:
        first = dice.roll(2, "who starts") if not options.get("north_starts", True) else 1
        return {"phase": "play", "turn": "north" if first == 1 else "south", "scores": {"north": 0, "south": 0},
                "pot": 0, "target": 10 if scenario == "short" else 30, "winner": None}

    def check_state(self, state: dict[str, Any]) -> None:
        if not isinstance(state, dict) or set(state) != {"phase", "turn", "scores", "pot", "target", "winner"}:
            raise InvalidState("a dice-duel state has exactly phase, turn, scores, pot, target, winner")
        if state["turn"] not in ("north", "south"):
            raise InvalidState("turn must be north or south")

    def active_seats(self, state: dict[str, Any]) -> list[str]:
        return [] if state["winner"] else [state["turn"]]

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        return [{"type": "roll"}, {"type": "bank"}]

    def prompt(self, state: dict[str, Any], seat: str) -> str:
        return f"{seat}: roll or bank (pot {state['pot']})"

    def apply(self, state: dict[str, Any], seat: str, action: dict[str, Any], dice: DiceSource) -> Applied:
        if seat not in self.active_seats(state):
            raise IllegalAction("not your turn", "DD 1")
        new = copy.deepcopy(state)
        other = "south" if seat == "north" else "north"
        if action["type"] == "roll":
            value = dice.roll(6, "roll")
            if value == 1:
                new["pot"], new["turn"] = 0, other
                return Applied(new, [Fact(f"{seat} rolls 1: pot lost", "DD 2", "roll")])
            new["pot"] += value
            facts = [Fact(f"{seat} rolls {value}", "DD 2", "roll")]
            if new["scores"][seat] + new["pot"] >= new["target"]:
                new["scores"][seat] += new["pot"]
                new["pot"], new["winner"] = 0, seat
                facts.append(Fact(f"{seat} wins", "DD 3", "victory"))
            return Applied(new, facts)
        if action["type"] == "bank":
            new["scores"][seat] += new["pot"]
            new["pot"], new["turn"] = 0, other
            return Applied(new, [Fact(f"{seat} banks", "DD 2", "bank")])
        raise IllegalAction(f"unknown action {action['type']}", "DD 2")

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return copy.deepcopy(state)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["winner"]:
            return Outcome(state["winner"], f"{state['winner']} wins", "reached the target", "DD 3")
        return None


class RollSchema(StrictSchema):
    type = action_type("roll")


class BankSchema(StrictSchema):
    type = action_type("bank")


_registered = False


def install() -> DiceDuel:
    global _registered
    game = DiceDuel()
    if not _registered:
        register(game)
        register_actions(game.name, {"roll": RollSchema, "bank": BankSchema})
        _registered = True
    return game
