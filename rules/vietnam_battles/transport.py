"""Helicopter (slick, VB 10.0-10.1) and riverine (tango, VB 11.0-11.2) transport.

Chits: `s["chits"] = {"slick": used_count, "tango": used_count}` this game turn; the counts
available come from the counter data (`World.slicks`, `World.tangos`).
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.vietnam_battles.data import World

State = dict[str, Any]
DECISIONS: tuple[str, ...] = ()


def reset_chits(s: State) -> None:
    """VB 10.0 (INFERRED): LZ and Landing Beach chits turn back to their unused side each game turn."""
    s["chits"] = {"slick": 0, "tango": 0}


def phase_actions(s: State, w: World) -> list[Action]:
    return []


def decision_actions(s: State, w: World) -> list[Action]:
    return []


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    raise IllegalAction(f"unknown action {a.get('type')!r}")
