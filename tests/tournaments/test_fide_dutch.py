"""Swiss pairings identical to the FIDE-endorsed Dutch engine's (C.04.3), sides included.

The expected pairings were made by bbpPairings on random tournaments of 8–48 players with draws,
forfeits (double forfeits too) and players who retire (tests/fixtures/pairings, written by
tools/fide_dutch_vectors.py); every round from the second is re-paired by Warlog from the rounds
before it. The suite replays the tournaments of up to 20 players (each round well under a second);
`bench/fide_dutch_check.py` replays all of them (852 rounds) and prints the figures.

The large tournaments (64–256 players, tests/fixtures/pairings/fide-dutch-large.json) are paired
by feed 3, whose matchings run on bbpPairings' own matching computer
(warlog.tournaments.dutch_matching); the fast lane re-pairs a few of their rounds, the slow lane
all of them. Their speed is printed by `bench/dutch_speed.py`.

Feed 1, how tournaments created before feed 2 were paired (and still are, so that they verify),
differs on colour allocation (E.4/E.5 ranked by pairing number alone, byes and absences read as a
side "none") and on forfeits (read as played games): it stays runnable, not FIDE-exact.
"""

from __future__ import annotations

import pytest

from tests.support import fide_vectors as fv

VECTORS = fv.load()
SMALL = [(i, v) for i, v in enumerate(VECTORS) if v["players"] <= 20]
LARGE = fv.load(fv.LARGE)  # 64–256 players (feed 3: the matchings on bbpPairings' matching computer)
ACCELERATED = fv.load(fv.ACCELERATED)  # Baku acceleration (C.04.5.1), 12–101 players, from round 1


def test_the_recorded_tournaments_cover_what_a_swiss_meets() -> None:
    games = [g for v in VECTORS for r in v["rounds"] for g in r["games"]]
    assert len(VECTORS) >= 150 and sum(len(v["rounds"]) for v in VECTORS) >= 800
    assert {g[2] for g in games} >= {"10", "01", "==", "+-", "-+"}, "played results and forfeits both ways"
    assert any(r["pab"] for v in VECTORS for r in v["rounds"]), "odd fields: pairing-allocated byes"
    assert any(r["absent"] for v in VECTORS for r in v["rounds"]), "players who retire or miss a round"
    assert len(SMALL) >= 30


@pytest.mark.parametrize("index", [i for i, _ in SMALL])
@pytest.mark.slow
def test_every_round_is_paired_as_the_fide_endorsed_engine_pairs_it(index: int) -> None:
    vector = VECTORS[index]
    for number in range(2, len(vector["rounds"]) + 1):
        assert fv.paired(vector, number) == fv.expected(vector, number), f"round {number} of vector {index}"


def test_feed_1_is_not_fide_exact_on_sides_after_a_bye() -> None:
    """The defect feed 2 fixes, on the recorded data: some round of the small tournaments is
    paired differently when byes and absences enter the side history as "none"."""
    assert any(fv.paired(v, n, feed=1) != fv.expected(v, n) for _, v in SMALL for n in range(2, len(v["rounds"]) + 1))


def test_the_large_recorded_tournaments_reach_256() -> None:
    sizes = [v["players"] for v in LARGE]
    assert {64, 128, 256} <= set(sizes) and any(n % 2 for n in sizes), "even and odd fields up to 256"
    assert any(r["absent"] for v in LARGE for r in v["rounds"]) and any(r["pab"] for v in LARGE for r in v["rounds"])


@pytest.mark.parametrize(("index", "number"), [(0, 2), (0, 3), (2, 2), (3, 2), (7, 2)])
def test_rounds_of_large_fields_are_paired_as_the_fide_endorsed_engine_pairs_them(index: int, number: int) -> None:
    """The fast lane's share: 64, 97 (an entrant below 18 absent in round 2: pairing numbers must
    not close up, or E.5 gives the other side), 128 and 256 players."""
    vector = LARGE[index]
    assert fv.paired(vector, number) == fv.expected(vector, number)


@pytest.mark.parametrize("index", range(len(LARGE)))
@pytest.mark.slow
def test_every_round_of_the_large_fields_is_paired_as_the_fide_endorsed_engine_pairs_it(index: int) -> None:
    vector = LARGE[index]
    for number in range(2, len(vector["rounds"]) + 1):
        assert fv.paired(vector, number) == fv.expected(vector, number), f"round {number} of large vector {index}"


@pytest.mark.parametrize("index", range(len(ACCELERATED)))
def test_accelerated_rounds_are_paired_as_the_fide_endorsed_engine_pairs_them(index: int) -> None:
    """Baku acceleration (C.04.5.1), bbpPairings given the virtual points as XXA lines: every
    round from the first (round 1 seeded by rating in pairing-number order)."""
    vector = ACCELERATED[index]
    rounds = range(1, len(vector["rounds"]) + 1) if vector["players"] <= 64 else (1, 2, 3)
    for number in rounds:
        assert fv.paired(vector, number) == fv.expected(vector, number), f"round {number} of accelerated {index}"


def test_the_accelerated_data_is_not_what_an_unaccelerated_swiss_pairs() -> None:
    """The acceleration test can fail: without the virtual points round 1 pairs the top half
    against the bottom half, not group A within itself."""
    vector = {**ACCELERATED[0], "accelerated": False}
    assert fv.paired(vector, 1) != fv.expected(vector, 1)
