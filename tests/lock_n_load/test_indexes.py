"""Lock 'n Load's units-by-hex index (units.indexed) answers units_in as a scan of every
unit does, over random play (LnL 1.3 stacks, 10.1 spotting, 5.2 opportunity fire all ask who is in
a hex), and a read-only scope that moves a unit fails loudly."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.plaincopy import clone
from rules.lock_n_load import units as U
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.lnl_fuzz import choose
from tests.support.fuzzing import random_play, seeded_dice

GAME = LockNLoad()


def _play(seed: int, steps: int) -> Any:
    """Random legal play of the demo (the fuzzer's weights): yields each state before its action."""
    rng, dice = random.Random(seed), seeded_dice(seed)
    for s, _, _ in random_play(GAME, GAME.setup("demo", {}, dice), dice, steps,
                               lambda s, legal: choose(s, legal, rng, GAME)):
        yield s


def _all_answers(s: dict[str, Any], hexes: list[Any]) -> dict[tuple[Any, Any], list[str]]:
    return {(h, side): U.units_in(s, h, side) for h in hexes for side in (None, "us", "vc", "nobody")}


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_units_in_from_the_index_equals_the_scan(seed: int) -> None:
    hexes: list[Any] = GAME.world.board.hexes() + [None, "ZZ99"]
    states = 0
    for s in _play(seed, 150):
        want = _all_answers(s, hexes)  # outside a scope: every unit scanned (U.scan_units_in)
        for copy in (s, clone(s)):  # the same places: the copy is served by the index built for s
            with U.indexed(copy):
                assert _all_answers(copy, hexes) == want, (seed, s["turn"] if "turn" in s else None)
        states += 1
    assert states > 0


def test_a_scope_that_moves_a_unit_fails_loudly() -> None:
    s = next(_play(1, 1))
    u = next(u for u, r in s["units"].items() if r["at"] is not None)
    with pytest.raises(RuntimeError, match="stale"), U.indexed(s):
        s["units"][u]["at"] = None


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_memoised_los_keyed_on_the_smoke_it_meets_equals_a_fresh_trace(data: st.DataObject) -> None:
    """LnL 7.0, T3: smoke anywhere else on the map does not change a LOS, so the memo keyed on the
    smoke the line meets answers as line_of_sight traced afresh with all the smoke."""
    from rules.lock_n_load.los import cached_los, line_of_sight

    hexes = GAME.world.board.hexes()
    a, b = data.draw(st.sampled_from(hexes)), data.draw(st.sampled_from(hexes))
    near = [h for h in hexes if GAME.world.board.distance(a, h) <= 3 or GAME.world.board.distance(b, h) <= 3]
    smoke = data.draw(st.lists(st.sampled_from(near), max_size=5)) + data.draw(st.lists(st.sampled_from(hexes),
                                                                                        max_size=3))
    tall = data.draw(st.booleans())
    assert cached_los(GAME.world, a, b, smoke, tall_obstacles_block=tall) == \
        line_of_sight(GAME.world, a, b, smoke, tall_obstacles_block=tall)
