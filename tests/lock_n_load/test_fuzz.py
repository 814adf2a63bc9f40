"""Seeded random legal play of the demo scenario: no dead end, no crash, the state always well
formed, every action the rules list passes the API's action schemas (validators/lock_n_load.py)."""

from __future__ import annotations

import os

import pytest

from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.lnl_fuzz import Stats, play_one
from validators.actions import validate_action

GAMES = int(os.environ.get("LNL_FUZZ_GAMES", "8"))


@pytest.mark.slow
def test_random_legal_play_of_the_demo_reaches_the_end() -> None:
    g = LockNLoad()
    stats = Stats()
    for seed in range(GAMES):
        play_one(g, seed, stats, probe_every=13 if seed < 2 else 0,
                 validate=(lambda a: validate_action("lock-n-load", a)) if seed < 1 else None)
    print(f"\nLnL fuzz: {stats.games} games, {stats.actions} actions, results {stats.results}, "
          f"opp-fire prompts {stats.prompts}")
    print(f"kinds {sorted(stats.kinds.items())}")
    print(f"facts {sorted(stats.facts.items())}")
    assert stats.games == GAMES
    assert {"fire", "damage", "step", "melee", "phase"} <= set(stats.facts)
    assert {"opp_fire", "hold_fire", "move", "fire"} <= set(stats.kinds)
