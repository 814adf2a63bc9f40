"""Random-legal-play fuzzer: no crash, no dead end, every game ends, valid shapes, plain JSON state.

The games' ledgers are verified in test_ledger_fuzz.py (the same player through the service).
"""

from __future__ import annotations

import time

import pytest

from rules.green_beret_vietnam.game import GreenBeretVietnam
from tests.green_beret_vietnam.gbv_fuzz import Stats, play_one

GAMES = 300


def options(seed: int) -> dict[str, bool]:
    return {"assassination": seed % 3 == 0, "leaders_count": seed % 5 != 4, "antitank_on_attack": seed % 7 == 3}


@pytest.mark.slow
def test_fuzz_real_data() -> None:
    g = GreenBeretVietnam()
    stats = Stats()
    t0 = time.perf_counter()
    for seed in range(GAMES):
        play_one(g, seed, stats, options(seed), check_every=9, probe_every=0 if seed % 25 else 40)
    took = time.perf_counter() - t0
    print(f"\nGBV fuzz: {stats.games} games in {took:.1f}s, mean {stats.actions / stats.games:.0f} actions and "
          f"{stats.turns / stats.games:.1f} turns; results {stats.results}; missions accomplished "
          f"{stats.accomplished}, abandoned {stats.abandoned}; teams lost {stats.teams_lost}; "
          f"decisions {stats.decisions}")
    assert stats.games == GAMES
    for kind in ("noise", "detection", "spawn", "scatter", "pursuit", "combat", "damage", "evade", "mission",
                 "suppression", "elimination", "victory"):
        assert stats.facts.get(kind), f"the fuzzer never saw a {kind} fact"
    for kind in ("evade", "target", "pursuit_hex", "damage_team", "lose_item", "relocate_to"):
        assert stats.decisions.get(kind), f"the fuzzer never met a {kind} decision"
    assert stats.accomplished > 0 and stats.abandoned > 0
    assert len(stats.results) >= 2
