"""`rules.core.plaincopy.clone`, the state copy every game's apply makes, is a deep copy:
equal to `copy.deepcopy` on JSON data, sharing no dict or list with its input, and copying dict
and list subclasses as plain dicts and lists (its leaf-only fast path included)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules import all_games
from rules.core.plaincopy import clone
from tests.support.fuzzing import random_play, seeded_dice

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=3), kids, max_size=4),
                    max_leaves=40)


def _containers(x: Any) -> list[Any]:
    if isinstance(x, dict):
        return [x] + [c for v in x.values() for c in _containers(v)]
    if isinstance(x, list):
        return [x] + [c for v in x for c in _containers(v)]
    return []


def _shape(x: Any) -> Any:
    """Types as well as values (so True is not 1 and a subclass shows)."""
    if isinstance(x, dict):
        return (type(x).__name__, {k: _shape(v) for k, v in x.items()})
    if isinstance(x, list):
        return (type(x).__name__, [_shape(v) for v in x])
    return (type(x).__name__, x)


@given(JSON)
def test_the_copy_equals_deepcopy_and_shares_no_container(x: Any) -> None:
    got = clone(x)
    assert _shape(got) == _shape(copy.deepcopy(x))
    assert not {id(c) for c in _containers(got)} & {id(c) for c in _containers(x)}


class Sub(dict):  # type: ignore[type-arg]
    pass


class Items(list):  # type: ignore[type-arg]
    pass


def test_subclasses_are_copied_as_plain_dicts_and_lists_even_when_they_hold_only_leaves() -> None:
    x = {"a": Sub(b=1), "c": Items([1, 2]), "d": [Sub(e=[3])], "leaves": {"f": 1}}
    got = clone(x)
    assert got == x
    assert type(got["a"]) is dict and type(got["c"]) is list and type(got["d"][0]) is dict
    assert got["a"] is not x["a"] and got["d"][0]["e"] is not x["d"][0]["e"] and got["leaves"] is not x["leaves"]
    assert type(clone(Sub(b=1))) is dict and type(clone(Items([1]))) is list


def test_the_copy_of_real_states_of_every_game_shares_no_container() -> None:
    for g in (g for g in all_games() if type(g).__module__.startswith("rules.")):
        scenario = sorted(g.scenarios())[0]
        dice = seeded_dice(3)
        start = g.setup(scenario, g.resolve_options({}), dice)
        for s, _, _ in random_play(g, start, dice, 25, lambda s, legal: legal[len(legal) // 2]):
            got = clone(s)
            assert _shape(got) == _shape(s)
            assert not {id(c) for c in _containers(got)} & {id(c) for c in _containers(s)}
