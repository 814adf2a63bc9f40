"""The action schemas (validators/vietnam_battles.py) accept every action the engine lists and
refuse unknown keys, and the engine's own shape check agrees."""

from __future__ import annotations

import pytest

from rules.vietnam_battles.schema import ACTIONS
from validators.actions import ActionShapeError, validate_action
from validators.vietnam_battles import SCHEMAS


def test_one_schema_per_engine_action_type() -> None:
    assert set(SCHEMAS) == set(ACTIONS)


def test_unknown_keys_and_types_are_refused() -> None:
    with pytest.raises(ActionShapeError):
        validate_action("vietnam-battles", {"type": "pass", "extra": 1})
    with pytest.raises(ActionShapeError):
        validate_action("vietnam-battles", {"type": "teleport"})
    with pytest.raises(ActionShapeError):
        validate_action("vietnam-battles", {"type": "enter", "hex": "07-17"})
    assert validate_action("vietnam-battles", {"type": "retreat", "unit": "u", "path": ["0717", "0718"]})
    assert validate_action("vietnam-battles", {"type": "sail", "to": "0717/0718"})


def test_every_action_the_fuzzer_meets_passes_its_schema() -> None:
    from rules.vietnam_battles.game import VietnamBattles
    from tests.vietnam_battles.fixtures.boys_map import boys_world
    from tests.vietnam_battles.vb_fuzz import Stats, play_one

    g = VietnamBattles(boys_world())
    for seed in range(4):
        play_one(g, seed, Stats(), validate=lambda a: validate_action("vietnam-battles", a))


def test_every_action_type_has_a_description() -> None:
    from rules.vietnam_battles.schema import describe

    for t in ACTIONS:
        assert "=" not in describe({"type": t}), t


def test_actions_are_described_with_unit_names_values_and_marker_values() -> None:
    from rules import get_game

    g = get_game("vietnam-battles")
    assert g.describe_action({"type": "declare", "unit": "us-4-47-c", "defender": "vc-514-1"}) == \
        "4/47 C 3-4-5 attacks 514/1 3-5-6"
    said = g.describe_action({"type": "support", "marker": "us-5"})
    assert said.startswith("commit support fire +") and said.endswith("(us-5)")
    assert g.describe_action({"type": "support", "marker": "nobody-9"}) == "commit support fire nobody-9"
