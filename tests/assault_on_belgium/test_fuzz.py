"""Random-legal-play fuzzer: no crash, no dead end, termination, valid shapes, JSON state."""

from __future__ import annotations

import time

import pytest
from aob_fuzz import Stats, play_one
from aob_helpers import world

from rules.assault_on_belgium.data import load_world
from rules.assault_on_belgium.game import AssaultOnBelgium

GAMES_REAL = 300
GAMES_SYNTHETIC = 100


def _options(seed: int) -> dict[str, bool]:
    return {"no_entry_nl_france": seed % 3 == 0, "reaction_before_german_air": seed % 4 != 1}


@pytest.mark.slow
def test_fuzz_real_data():
    """Over the package's own map and OOB; missing data is a failure, not a skip."""
    w = load_world()
    g = AssaultOnBelgium(w)
    stats = Stats()
    t0 = time.perf_counter()
    for seed in range(GAMES_REAL):
        play_one(g, seed, stats, _options(seed), check_every=7, probe_every=0 if seed % 10 else 5)
    took = time.perf_counter() - t0
    print(f"\nfuzz (real data): {stats.games} games in {took:.1f}s, mean {stats.actions / stats.games:.1f} actions, "
          f"German wins {stats.winners['germany']}, battles {stats.battles}, pursuit battles {stats.pursuits}")
    assert stats.games == GAMES_REAL
    assert stats.battles > 0


def test_fuzz_synthetic_map():
    g = AssaultOnBelgium(world({"0404": {"terrain": "forest"}, "0504": {"fortress": True}}, rivers=["0505/0605"]))
    stats = Stats()
    for seed in range(GAMES_SYNTHETIC):
        play_one(g, seed, stats, _options(seed), probe_every=3)
    assert stats.games == GAMES_SYNTHETIC and stats.battles > 0
    print(f"\nfuzz (synthetic): {stats.actions / stats.games:.1f} actions/game, German wins "
          f"{stats.winners['germany']}, battles {stats.battles}, pursuits {stats.pursuits}, kinds {stats.kinds}")
