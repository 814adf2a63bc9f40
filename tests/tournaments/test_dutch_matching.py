"""The incremental matching under the Dutch engine (warlog.tournaments.dutch_matching) finds a
matching of the same total weight as networkx's, with weights of hundreds of bits, after any
number of changed edges; and a library whose source the edits do not fit still pairs the round."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from tests.support import fide_vectors as fv
from warlog.tournaments import dutch_matching as dm


def _total(weights: dict[tuple[int, int], int], matching: set[tuple[int, int]]) -> int:
    return sum(weights[(min(u, v), max(u, v))] for u, v in matching)


def _networkx(weights: dict[tuple[int, int], int], n: int) -> int:
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((u, v, w) for (u, v), w in weights.items() if w > 0)
    return _total(weights, nx.max_weight_matching(g))


@pytest.mark.parametrize("seed", range(6))
def test_the_incremental_matching_has_networkx_weight_through_changes(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([9, 16, 23])
    table = dm.TrackedWeights()
    matcher = dm.IncrementalMatcher()
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < 0.7:  # the top bits count pairs, as the engine's weights do
                table[(u, v)] = (1 << 600) + (rng.getrandbits(rng.choice([3, 40, 300])) << rng.choice([0, 200]))
    for step in range(8):
        got = matcher.solve(table, n)
        assert all(table.get((u, v), 0) > 0 for u, v in got), "only edges of the graph"
        assert len({x for pair in got for x in pair}) == 2 * len(got), "a matching"
        assert _total(table, got) == _networkx(dict(table), n), f"step {step}"
        for _ in range(rng.randint(1, 3 * n)):  # finalize-like zeroing, new weights, a wider one
            u, v = sorted(rng.sample(range(n), 2))
            table[(u, v)] = rng.choice([0, 1, (1 << 600) + rng.getrandbits(500), rng.getrandbits(700)])
    assert matcher.solves == 8


def test_a_library_the_edits_do_not_fit_still_pairs_the_same_round(monkeypatch: pytest.MonkeyPatch,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    vector = next(v for v in fv.load() if 10 <= v["players"] <= 16)
    monkeypatch.setattr(dm, "_EDITS", (("a line no release has\n", ""),))
    dm._pair_iterative_code.cache_clear()
    from caissify_pairings.engines.dutch import DutchEngine

    with pytest.raises(dm.FastPairingUnavailable):
        dm._pair_iterative_code(DutchEngine)
    assert fv.paired(vector, 2) == fv.expected(vector, 2)
    assert "without the fast matcher" in caplog.text
    dm._pair_iterative_code.cache_clear()
