"""Skill cards (LnL 11.12, 12.0, T2): the optional draw for leaders at set-up (rules version 4 on,
option `skill_cards`). The deck is the demo's two cards (T2, rulebook), one copy of each (ours:
rules/lock_n_load/data/skill_cards.json); a draw is one die of the game's seeded dice over the deck,
recorded in the ledger like every roll. A hero's draw when he appears is rules/lock_n_load/fire.py
`hero_check` (11.2)."""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact
from rules.lock_n_load.data import World

State = dict[str, Any]


def may_draw(w: World, r: dict[str, Any]) -> bool:
    """11.12, 12.0: a leader with a positive LM draws one card, unless the scenario already gave him
    one (his counter's card, or one he holds); a leader with LM 0 draws none (A33: at random)."""
    k = w.kinds[r["kind"]]
    return k.cls == "leader" and k.lm > 0 and k.card is None and "card" not in r


def draw_for_leaders(s: State, w: World, dice: DiceSource) -> list[Fact]:
    """Each eligible leader on the scenario's roster draws, in unit id order (11.12, 12.0)."""
    facts: list[Fact] = []
    deck = w.skill_cards
    for uid, r in sorted(s["units"].items()):
        if not may_draw(w, r):
            continue
        die = dice.roll(len(deck), f"LnL 11.12, 12.0 skill card drawn by {uid}")
        card = r["card"] = deck[die - 1]
        facts.append(Fact(f"{uid} draws the {card} card (die {die} of {len(deck)})", "LnL 11.12, 12.0",
                          "skill_card", {"unit": uid, "card": card, "die": die}))
    return facts
