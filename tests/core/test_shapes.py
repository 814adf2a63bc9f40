"""rules.core.shapes: the rules' own guard against malformed actions (each game's apply runs it)."""

from __future__ import annotations

import pytest

from rules.core.game import IllegalAction
from rules.core.shapes import check_shape

TABLE = {"move": {"hex": str}, "end": {}, "pick": {"n": int}}
FLAGS = {"tank_battle": (("move",), "AoB 15.4")}


@pytest.mark.parametrize("action, says", [
    ("move", "an object with a 'type'"),
    ({"hex": "0101"}, "an object with a 'type'"),
    ({"type": "fly"}, "unknown action type 'fly'; known: end, move, pick"),
    ({"type": "end", "hex": "0101"}, "end takes no field(s) hex"),
    ({"type": "move"}, "move needs a hex (str)"),
    ({"type": "pick", "n": True}, "pick needs a n (int)"),
    ({"type": "move", "hex": "0101", "tank_battle": False}, "tank_battle is either true or left out"),
    ({"type": "end", "tank_battle": True}, "end takes no field(s) tank_battle"),
])
def test_malformed_actions_are_refused_in_words(action, says) -> None:
    with pytest.raises(IllegalAction) as err:
        check_shape(action, TABLE, FLAGS)
    assert says in err.value.message


def test_well_formed_actions_pass_unchanged() -> None:
    for action in ({"type": "move", "hex": "0101"}, {"type": "move", "hex": "0101", "tank_battle": True},
                   {"type": "pick", "n": 3}, {"type": "end"}):
        assert check_shape(action, TABLE, FLAGS) is action


def test_a_flag_cites_its_rule() -> None:
    with pytest.raises(IllegalAction) as err:
        check_shape({"type": "move", "hex": "0101", "tank_battle": 1}, TABLE, FLAGS)
    assert err.value.rule == "AoB 15.4"
