"""bench/exchanges.py's short run: the scripted players' standing answers at least halve the
exchanges (one seat's consecutive decisions are one) of a game of Assault on Belgium, Vietnam
Battles, Lock 'n Load and UP FRONT (with its conditional turns), seeded; the whole table is the bench's (docs/benchmarks.md)."""

from __future__ import annotations

import pytest

from bench.exchanges import play


@pytest.mark.parametrize("name, scenario, most", [
    ("assault-on-belgium", "may-1940", 0.5), ("vietnam-battles", "boys67", 0.5), ("lock-n-load", "demo", 0.5),
    ("up-front", "D", 0.5)])
def test_standing_answers_halve_the_exchanges(name: str, scenario: str, most: float) -> None:
    """UP FRONT's standing answers settle its reaction windows, and its conditional turns (CORE
    11.2) the alternating turns that were left (docs/benchmarks.md)."""
    without = [play(name, scenario, seed, False) for seed in (1, 2, 3, 4)]
    with_ = [play(name, scenario, seed, True) for seed in (1, 2, 3, 4)]
    a, b = sum(e for e, _ in without), sum(e for e, _ in with_)
    assert b <= a * most, (name, scenario, without, with_)
    assert all(n > 20 for _, n in without + with_)  # whole games, not a stop at the first decision


def test_an_exchange_is_a_run_of_one_seats_decisions() -> None:
    """Green Beret is solitaire: a whole game is one exchange, however many decisions it takes."""
    from bench import exchanges

    exchanges.PLAYERS["green-beret-vietnam"] = _gbv
    try:
        e, n = play("green-beret-vietnam", "campaign", 1, False)
    finally:
        del exchanges.PLAYERS["green-beret-vietnam"]
    assert e == 1 and n > 1


def _gbv(g, s, seat, legal, rng, n, answers):  # type: ignore[no-untyped-def]
    from tests.green_beret_vietnam.gbv_fuzz import choose

    return choose(g, s, legal, rng, n, careful=True, patience=4)
