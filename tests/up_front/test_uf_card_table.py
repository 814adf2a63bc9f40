"""The card table drawn from the full state, as the pages show it once the game has ended (every
hand revealed, the draw pile as a list): it must draw, not fail (it once raised KeyError on the
full deck's missing `draw_count`, a 500 on every ended game's page)."""

from __future__ import annotations

from rules.up_front.game import UpFrontMountains
from tests.support.fuzzing import seeded_dice
from warlog.render import Scene
from warlog.render.up_front.board import board_svg


def test_the_card_table_draws_the_full_state_of_an_ended_game() -> None:
    g = UpFrontMountains()
    s = g.setup("A", {"terrain_type": "bare", "condition": "frozen"}, seeded_dice(3))
    s["over"] = {"winner": None, "result": "draw", "reason": "test", "rule": "CORE 10"}
    svg = board_svg(Scene(s))
    assert f"Draw pile {len(s['deck']['draw'])} cards" in svg
    seen = board_svg(Scene(g.view(s, "germans")))  # and a seat's view during play
    assert f"Draw pile {len(s['deck']['draw'])} cards" in seen
    assert all(f'data-unit="{c}"' in seen for c in s["hands"]["germans"])
    assert not [c for c in s["hands"]["americans"] if f'data-unit="{c}"' in seen]
