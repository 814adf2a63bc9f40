"""A tiny two-seat game WITH hidden information, to prove the pages never show a seat's
secret to anyone else while the game runs. Each seat rolls a secret d6 at set-up; each in
turn may `peek` (a fact only it can read), `reroll` its secret (a die, the new value told
only to it) or `pass`; the game ends when both have passed."""

from __future__ import annotations

import copy
from typing import Any

from rules import register
from rules.core.dice import DiceSource
from rules.core.game import Applied, Fact, Game, IllegalAction, Outcome, Scenario
from validators.actions import StrictSchema, action_type, register_actions

SEATS = ("north", "south")


class SecretGame(Game):
    name = "secret-test"
    title = "Secret numbers (test game)"
    version = "1"
    hidden_information = True

    def scenarios(self) -> dict[str, Scenario]:
        return {"only": Scenario("only", "Only", SEATS)}

    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> dict[str, Any]:
        return {"secrets": {s: f"zq-{s}-{dice.roll(6, f'{s} secret')}" for s in SEATS}, "turn": "north",
                "passed": [], "over": False}

    def check_state(self, state: dict[str, Any]) -> None:
        pass

    def active_seats(self, state: dict[str, Any]) -> list[str]:
        return [] if state["over"] else [state["turn"]]

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        return [{"type": "peek"}, {"type": "reroll"}, {"type": "pass"}] if seat in self.active_seats(state) else []

    def prompt(self, state: dict[str, Any], seat: str) -> str:
        return "peek or pass"

    def apply(self, state: dict[str, Any], seat: str, action: dict[str, Any], dice: DiceSource) -> Applied:
        if seat not in self.active_seats(state):
            raise IllegalAction("not your turn", "S 1")
        new = copy.deepcopy(state)
        if action["type"] == "peek":
            return Applied(new, [Fact(f"{seat}'s secret is {state['secrets'][seat]}", "S 2", "peek",
                                      visible_to=(seat,))])
        if action["type"] == "reroll":
            new["secrets"][seat] = f"zq-{seat}-{dice.roll(6, 'a reroll')}"
            return Applied(new, [Fact(f"{seat}'s secret is now {new['secrets'][seat]}", "S 2", "roll",
                                      {"die": True}, visible_to=(seat,))])
        new["passed"].append(seat)
        new["turn"] = "south" if seat == "north" else "north"
        new["over"] = len(new["passed"]) >= 2
        return Applied(new, [Fact(f"{seat} passes", "S 3", "pass")])

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        out = copy.deepcopy(state)
        out["secrets"] = {s: (v if s == seat else "hidden") for s, v in state["secrets"].items()}
        return out

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(None, "draw", "both passed", "S 3") if state["over"] else None


class PeekSchema(StrictSchema):
    type = action_type("peek")


class RerollSchema(StrictSchema):
    type = action_type("reroll")


class PassSchema(StrictSchema):
    type = action_type("pass")


_installed = False


def install() -> None:
    global _installed
    if not _installed:
        register(SecretGame())
        register_actions(SecretGame.name, {"peek": PeekSchema, "reroll": RerollSchema, "pass": PassSchema})
        _installed = True
