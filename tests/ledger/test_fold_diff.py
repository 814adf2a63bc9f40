"""The worker's patch (`ledger.fold.make_patch`, a structural diff) is a valid
RFC 6902 patch that both `ledger.fold.apply_patch` and jsonpatch fold to exactly `after`: equal
in every type (True is not 1, -0.0 is not 0.0), over arbitrary JSON pairs, over pairs that share
parts (as the rules' copies share leaves) and over real before/after pairs from random play of
every game. No database needed."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.fold import apply_patch, make_patch
from rules import all_games
from tests.support.fuzzing import seeded_dice

KEYS = st.sampled_from(["a", "b", "c", "-", "0", "1", "", "x/y", "t~1", "~", "/"])
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, -0.0, 1.0, 1.5]),
                 st.text("ab", max_size=2))
DOC = st.recursive(LEAF, lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(KEYS, kids, max_size=4)),
                   max_leaves=16)
GAMES = sorted((g for g in all_games() if type(g).__module__.startswith("rules.")), key=lambda g: g.name)


def strict(x: Any) -> Any:
    """`x` with every value tagged by its type, so == tells True from 1 and -0.0 from 0.0."""
    if type(x) is dict:
        return ("dict", {k: strict(v) for k, v in x.items()})
    if type(x) is list:
        return ("list", [strict(v) for v in x])
    return (type(x).__name__, repr(x))


def assert_folds_exactly(before: Any, after: Any) -> list[dict[str, Any]]:
    kept_before, kept_after = copy.deepcopy(before), copy.deepcopy(after)
    patch = make_patch(before, after)
    assert strict(before) == strict(kept_before) and strict(after) == strict(kept_after)  # nothing changed
    json.dumps(patch, allow_nan=False)  # plain JSON, recordable
    ours = apply_patch(copy.deepcopy(before), copy.deepcopy(patch))
    theirs = jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(copy.deepcopy(before), in_place=False)
    assert strict(ours) == strict(after)
    assert strict(theirs) == strict(after)
    return patch


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=DOC, after=DOC)
@pytest.mark.slow
def test_the_patch_folds_to_after_over_arbitrary_json(before: Any, after: Any) -> None:
    assert_folds_exactly(before, after)


def _edit(doc: Any, rng: random.Random, leaf: Any) -> Any:
    """A copy of `doc` that shares its leaves (as the rules' `clone` does) with a few edits."""
    if type(doc) is dict:
        out = {k: _edit(v, rng, leaf) for k, v in doc.items()}
        if rng.random() < 0.2 and out:
            out.pop(rng.choice(sorted(out)))
        if rng.random() < 0.2:
            out[rng.choice(["a", "z", "x/y", "~"])] = leaf
        return out
    if type(doc) is list:
        out_l = [_edit(v, rng, leaf) for v in doc]
        r = rng.random()
        if r < 0.15:
            out_l.append(leaf)
        elif r < 0.3 and out_l:
            del out_l[rng.randrange(len(out_l))]
        elif r < 0.4:
            out_l.insert(0, leaf)
        return out_l
    return leaf if rng.random() < 0.15 else doc


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=DOC, seed=st.integers(0, 2**32), leaf=st.one_of(LEAF, DOC))
@pytest.mark.slow
def test_the_patch_folds_to_after_when_the_documents_share_parts(before: Any, seed: int, leaf: Any) -> None:
    assert_folds_exactly(before, _edit(before, random.Random(seed), leaf))


def test_true_where_1_was_and_minus_zero_where_zero_was_are_changes() -> None:
    assert make_patch({"a": [1, {"b": 0.0}]}, {"a": [True, {"b": -0.0}]}) == [
        {"op": "replace", "path": "/a/0", "value": True}, {"op": "replace", "path": "/a/1/b", "value": -0.0}]


def test_equal_documents_give_an_empty_patch_and_names_are_escaped() -> None:
    doc = {"x/y": {"t~1": [1, 2]}}
    assert make_patch(doc, copy.deepcopy(doc)) == []
    assert make_patch(doc, {"x/y": {"t~1": [1, 3]}}) == [{"op": "replace", "path": "/x~1y/t~01/1", "value": 3}]


def test_the_patch_shares_no_object_with_after() -> None:
    after = {"a": {"b": [1]}, "c": [[2]]}
    patch = make_patch({"c": []}, after)
    after["a"]["b"].append(9)
    after["c"][0].append(9)
    assert patch == [{"op": "add", "path": "/a", "value": {"b": [1]}}, {"op": "add", "path": "/c/0", "value": [2]}]


@pytest.mark.slow
def test_the_patch_folds_to_after_over_random_play_of_every_game() -> None:
    """Every game module, every scenario, random legal play: each move's patch is exact."""
    assert GAMES
    moves = 0
    for g in GAMES:
        for scenario in sorted(g.scenarios()):
            rng, dice = random.Random(scenario), seeded_dice(len(scenario))
            s = g.setup(scenario, g.resolve_options({}), dice)
            for _ in range(40):
                if g.outcome(s) is not None or not g.active_seats(s):
                    break
                seat = g.active_seats(s)[0]
                legal = g.legal_actions(s, seat)
                if not legal:
                    break
                after = g.apply(s, seat, rng.choice(legal), dice).state
                if assert_folds_exactly(s, after):
                    moves += 1
                s = after
    assert moves > 100 * len(GAMES)
