"""Seeded random legal play of every playable mountain scenario (UFM 11.e): no dead end, no
crash, every card always in exactly one place, the game always ends (deck passes), unlisted
actions refused and the seat not asked unable to act. `UF_FUZZ_GAMES` games per scenario."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from rules.up_front.data import world
from tests.support.fuzzing import assert_seat_cannot_act, assert_unlisted_refused, seeded_dice
from tests.up_front.uf_helpers import GAME

GAMES = int(os.environ.get("UF_FUZZ_GAMES", "1"))
OPTIONS = [{"terrain_type": "bare", "condition": "dry", "mountain_troops": True},
           {"terrain_type": "forested", "condition": "mud", "mountain_troops": True},
           {"terrain_type": "bare", "condition": "heavy_snow", "mountain_troops": False},
           {"terrain_type": "forested", "condition": "frozen", "mountain_troops": True}]


def choose(rng: random.Random, acts: list[dict]) -> dict:
    """Random legal play that prefers playing cards to ending the turn."""
    plays = [a for a in acts if a["type"] not in ("end_turn", "standing")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return next((a for a in acts if a["type"] == "end_turn"), rng.choice(acts))


def play(scenario: str, seed: int, kinds: Counter, facts: Counter) -> dict:
    opts = OPTIONS[(seed + ord(scenario[0])) % len(OPTIONS)]
    s = GAME.setup(scenario, opts, seeded_dice(seed))
    rng = random.Random(seed)
    for n in range(4000):
        if GAME.outcome(s):
            return s
        (seat,) = GAME.active_seats(s)
        acts = GAME.legal_actions(s, seat)
        assert acts, f"{scenario} seed {seed}: dead end for {seat} in {GAME.phase(s)}"
        a = choose(rng, acts)
        if n % 25 == 0:
            probes = [{**x, "group": "D"} for x in acts if "group" in x][:3] + [{"type": "fire", "group": "A",
                      "card": "UF999", "target": "A"}, {"type": "ready"}, {"type": "end_turn"}]
            assert_unlisted_refused(GAME, s, seat, probes, acts, seed)
            assert_seat_cannot_act(GAME, s, [r for r in s["roles"] if r != seat][0], a, seed)
        r = GAME.apply(s, seat, a, seeded_dice(seed * 100_000 + n))
        kinds[a["type"]] += 1
        facts.update(f.kind for f in r.facts)
        s = r.state
        GAME.check_state(s)
    raise AssertionError(f"{scenario} seed {seed}: no end after 4000 actions")


@pytest.mark.parametrize("scenario", sorted(world().scenarios))
@pytest.mark.slow
def test_random_legal_play_ends_and_keeps_every_card(scenario: str) -> None:
    kinds: Counter = Counter()
    facts: Counter = Counter()
    for seed in range(GAMES):
        s = play(scenario, seed, kinds, facts)
        assert GAME.outcome(s) is not None
    assert kinds["end_turn"] > 10 and kinds["fire"] > 0
