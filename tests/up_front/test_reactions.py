"""Reaction windows and secret standing answers (rules/core/reactions.py)."""

from __future__ import annotations

import pytest

from rules.core import reactions
from rules.core.game import IllegalAction


def test_a_window_opens_once_and_closes_with_its_context():
    s: dict = {"reaction": None}
    reactions.open_window(s, "concealment", "germans", {"men": 2}, {"attack": 4})
    with pytest.raises(RuntimeError):
        reactions.open_window(s, "concealment", "germans", {"men": 2})
    assert reactions.current(s)["seat"] == "germans"
    closed = reactions.close(s)
    assert closed["resume"] == {"attack": 4} and reactions.current(s) is None


def test_a_standing_answer_settles_a_window_only_when_every_condition_holds():
    """A standing answer: "always play concealment when a group with 2 or fewer men is attacked"."""
    s: dict = {}
    reactions.set_standing(s, "germans", "concealment", "play", [["men", "<=", 2]])
    assert reactions.standing_answer(s, "germans", "concealment", {"men": 2}) == "play"
    assert reactions.standing_answer(s, "germans", "concealment", {"men": 3}) is None
    assert reactions.standing_answer(s, "germans", "concealment", {}) is None  # unknown field: ask
    assert reactions.standing_answer(s, "russians", "concealment", {"men": 1}) is None
    reactions.set_standing(s, "germans", "concealment", "ask", [])
    assert reactions.standing_answer(s, "germans", "concealment", {"men": 1}) is None


def test_a_standing_answer_is_its_owners_alone():
    s: dict = {}
    reactions.set_standing(s, "germans", "concealment", "decline", [])
    assert reactions.standing_view(s, "germans") == {"germans": {"concealment": {"answer": "decline", "when": []}}}
    assert reactions.standing_view(s, "russians") == {"russians": {}}
    assert reactions.standing_view(s, None) == {}


@pytest.mark.parametrize("kind,answer,when", [
    ("nope", "play", []), ("concealment", "maybe", []), ("concealment", "play", [["men", "~", 2]]),
    ("concealment", "play", [["colour", "==", "red"]]), ("concealment", "play", ["men"]),
])
def test_a_malformed_standing_answer_is_refused(kind, answer, when):
    with pytest.raises(IllegalAction):
        reactions.check_standing(kind, answer, when, ("concealment",), {"concealment": ("men",)})
