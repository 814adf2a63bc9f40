"""Seeded random legal play of The Boys of '67 (fixture map): no dead ends, no crash, every outcome
reachable, the state always well formed."""

from __future__ import annotations

import os

import pytest

from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.fixtures.boys_map import boys_world
from tests.vietnam_battles.vb_fuzz import Stats, play_one

GAMES = int(os.environ.get("VB_FUZZ_GAMES", "60"))


@pytest.mark.slow
def test_random_legal_play_of_the_boys_of_67() -> None:
    g = VietnamBattles(boys_world())
    stats = Stats()
    for seed in range(GAMES):
        play_one(g, seed, stats, probe_every=7 if seed < 10 else 0)
    print(f"\nVB fuzz: {stats.games} games, {stats.actions} actions, results {stats.results}")
    print(f"kinds {sorted(stats.kinds.items())}")
    print(f"facts {sorted(stats.facts.items())}")
    assert stats.games == GAMES
    assert {"combat", "retreat", "eliminated"} <= set(stats.facts)
