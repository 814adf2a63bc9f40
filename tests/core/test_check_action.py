"""Judging checks an action's shape with `check_action`, which remembers its verdict per
distinct action. It must answer exactly as `validate_action` (accepted, or refused with the same
messages) for every action, however often it is asked, and a caller changing the messages it
was handed must not change the next answer."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import all_games
from tests.support.fuzzing import seeded_dice
from validators.actions import ActionShapeError, check_action, validate_action

GAMES = [g for g in all_games() if type(g).__module__.startswith("rules.")]


def _verdict(check: Any, game: str, action: Any) -> Any:
    try:
        check(game, action)
    except ActionShapeError as err:
        return err.messages
    return "ok"


def _listed(game: Any) -> list[dict[str, Any]]:
    """Some legal actions of each seat at the set-up: real shapes to vary."""
    s = game.setup(next(iter(game.scenarios())), game.resolve_options({}), seeded_dice(1))
    return [a for seat in game.active_seats(s) for a in game.legal_actions(s, seat)][:20]


VALUES = st.none() | st.booleans() | st.integers(-3, 3000) | st.text(max_size=6) | st.lists(st.integers(0, 9), max_size=3)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
@pytest.mark.slow
def test_check_action_answers_as_validate_action_every_time(game: Any, data: st.DataObject) -> None:
    listed = _listed(game)
    base = data.draw(st.sampled_from(listed)) if listed else {"type": "pass"}
    action = dict(base)
    for key in data.draw(st.lists(st.sampled_from([*base, "type", "extra"]), max_size=2)):
        if data.draw(st.booleans()):
            action[key] = data.draw(VALUES)
        else:
            action.pop(key, None)
    want = _verdict(validate_action, game.name, action)
    first = _verdict(check_action, game.name, action)
    assert first == want
    if isinstance(first, dict):
        first.clear()  # a caller spoiling what it was handed
    assert _verdict(check_action, game.name, action) == want


def test_an_action_that_is_not_canonical_json_is_still_checked() -> None:
    game = GAMES[0].name
    for action in ({"type": 1.5}, {1: "x"}, ["type"], "pass", None):
        assert _verdict(check_action, game, action) == _verdict(validate_action, game, action)
