"""Line of sight (LnL 10.0-10.3, T3, T5): every worked example of 10.x and each clause of 10.3 as a
named test, and reciprocity over the whole of board 1 and over random boards (hypothesis)."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.lock_n_load.data import load_world
from rules.lock_n_load.los import line_of_sight
from tests.lock_n_load.helpers import CODES, tiny

FIX = Path(__file__).parent / "fixtures"


def examples_text() -> str:
    return (FIX / "los_examples_ja.txt").read_text(encoding="utf-8")


# -- the printed examples (10.1, 10.3) ---------------------------------------------------------
def test_tv20_10_1_los_1m4_1j3_not_degraded_by_the_jungle_fragment_from_1m4_into_1l4() -> None:
    assert "1M4 から 1J3 への LOS は 1M4 から 1L4 から広がるジャングルの小さな断片には「妨害されません」" in examples_text()
    los = line_of_sight(load_world(), "1M4", "1J3")
    assert not los.blocked and los.obstacles == () and los.drm == 0
    assert los.hexes == ("1M4", "1L4", "1K3", "1J3")  # it leaves 1M4 across the fragment's hexside


def test_tv21_10_1_the_same_fragment_degrades_los_1l5_1m3() -> None:
    assert "同じ断片は 1L5 から 1M3 の LOS を妨害します" in examples_text()
    los = line_of_sight(load_world(), "1L5", "1M3")
    assert not los.blocked and los.drm == -1
    assert [o.where for o in los.obstacles] == ["S2"] and los.traced == ("1L4/1M4",)


def test_tv22_10_3_los_1c4_1c2_not_degraded_by_the_fragment_from_1c4_into_1c3() -> None:
    assert "1C4 から 1C2 までの LOS は 1C4 から 1C3" in examples_text()
    los = line_of_sight(load_world(), "1C4", "1C2")
    assert not los.blocked and los.obstacles == () and los.hexes == ("1C4", "1C3", "1C2")


def test_tv23_10_3_the_same_fragment_degrades_los_1b4_1d4() -> None:
    assert "LOS を 1B4 から 1D4 で妨害" in examples_text()
    los = line_of_sight(load_world(), "1B4", "1D4")
    assert not los.blocked and los.drm == -1 and [o.where for o in los.obstacles] == ["S1"]
    assert los.traced == ("1C3/1C4",)


def test_tv26_10_1_vc_in_jungle_two_hexes_away_is_in_los() -> None:
    # 10.1: LOS to a VC squad in jungle 2 hexes away exists (spotting is a separate matter).
    los = line_of_sight(load_world(), "1I6", "1I8")
    assert load_world().terrain("1I8") == "dense_jungle"
    assert not los.blocked


# -- the clauses of 10.3 on small boards (one column: the line runs down the column) --------
def test_10_3_same_level_blocking_terrain_blocks() -> None:
    los = line_of_sight(tiny(["o", "g", "o"]), "9A1", "9A3")
    assert los.blocked and los.blocked_by is not None and los.blocked_by.where == "9A2"
    assert los.blocked_by.rule == "LnL 10.3"


def test_10_3_same_level_degrading_terrain_degrades_minus_one() -> None:
    los = line_of_sight(tiny(["o", "l", "o"]), "9A1", "9A3")
    assert not los.blocked and los.drm == -1


def test_10_3_terrain_in_the_firer_s_or_target_s_hex_neither_blocks_nor_degrades() -> None:
    assert line_of_sight(tiny(["g", "o", "d"]), "9A1", "9A3").obstacles == ()
    assert line_of_sight(tiny(["l", "o", "w"]), "9A3", "9A1").obstacles == ()


def test_t5_a4_two_degrading_hexes_degrade_and_the_third_blocks() -> None:
    two = line_of_sight(tiny(["o", "l", "b", "o"]), "9A1", "9A4")
    assert not two.blocked and two.drm == -2
    three = line_of_sight(tiny(["o", "l", "b", "l", "o"]), "9A1", "9A5")
    assert three.blocked and "third degrading" in three.blocked_by.why  # type: ignore[union-attr]


def test_10_3_ground_higher_than_both_ends_blocks() -> None:
    los = line_of_sight(tiny(["o", "o", "o"], {"9A2": 1}), "9A1", "9A3")
    assert los.blocked and "higher than both" in los.blocked_by.why  # type: ignore[union-attr]


def test_10_3_terrain_lower_than_both_ends_does_not_count() -> None:
    w = tiny(["o", "d", "o"], {"9A1": 1, "9A3": 1})
    assert line_of_sight(w, "9A1", "9A3").obstacles == ()


def test_10_3_looking_down_blocking_on_the_higher_level_blocks_and_degrading_degrades() -> None:
    w = tiny(["o", "g", "o", "o"], {"9A1": 1, "9A2": 1})
    assert line_of_sight(w, "9A1", "9A4").blocked
    w = tiny(["o", "l", "o", "o"], {"9A1": 1, "9A2": 1})
    los = line_of_sight(w, "9A1", "9A4")
    assert not los.blocked and los.drm == -1


def test_10_3_looking_down_over_lower_obstacles_but_not_into_the_blind_hex_behind_them() -> None:
    w = tiny(["o", "o", "g", "o", "o"], {"9A1": 1})
    blind = line_of_sight(w, "9A1", "9A4")
    assert blind.blocked and "blind hex" in blind.blocked_by.why  # type: ignore[union-attr]
    assert not line_of_sight(w, "9A1", "9A5").blocked  # two hexes behind: seen over the grass
    assert line_of_sight(w, "9A4", "9A1").blocked  # and the same from below


def test_10_3_rising_ground_blinds_the_hex_directly_below_it() -> None:
    w = tiny(["o", "o", "o", "o"], {"9A1": 2, "9A2": 1})
    assert line_of_sight(w, "9A1", "9A3").blocked
    assert not line_of_sight(w, "9A1", "9A4").blocked


def test_10_3_brush_height_zero_makes_no_blind_hex() -> None:
    w = tiny(["o", "b", "o"], {"9A1": 1})
    assert line_of_sight(w, "9A1", "9A3").obstacles == ()


def test_a26_option_an_obstacle_taller_than_the_viewer_blocks() -> None:
    w = tiny(["o", "d", "o", "o"], {"9A1": 1})
    assert not line_of_sight(w, "9A1", "9A4").blocked
    assert line_of_sight(w, "9A1", "9A4", tall_obstacles_block=True).blocked


def test_7_0_t3_smoke_blocks_through_the_hex_and_along_its_edge_but_not_in_an_end_hex() -> None:
    w = tiny(["o", "o", "o"])
    los = line_of_sight(w, "9A1", "9A3", smoke={"9A2"})
    assert los.blocked and los.blocked_by.rule == "LnL 7.0, T3"  # type: ignore[union-attr]
    assert not line_of_sight(w, "9A1", "9A3", smoke={"9A1", "9A3"}).blocked
    edge = line_of_sight(load_world(), "1B4", "1D4", smoke={"1C3"})
    assert edge.blocked and edge.blocked_by.where == "1C3/1C4"  # type: ignore[union-attr]


def test_a_line_along_a_hexside_is_hindered_only_by_the_less_hindering_side() -> None:
    rows = ["oooo", "oooo", "oogo", "oooo", "oooo"]
    one = tiny(rows)
    assert one.terrain("9C3") == "grass" and line_of_sight(one, "9B4", "9D4").obstacles == ()
    both = tiny(["oooo", "oooo", "oogo", "oogo", "oooo"])
    los = line_of_sight(both, "9B4", "9D4")
    assert los.blocked and los.traced == ("9C3/9C4",)


# -- reciprocity and determinism ----------------------------------------------------------------
def test_10_0_los_is_reciprocal_for_every_pair_of_hexes_of_board_1() -> None:
    w = load_world()
    for a, b in itertools.combinations(w.board.hexes(), 2):
        ab, ba = line_of_sight(w, a, b), line_of_sight(w, b, a)
        assert ab.key() == ba.key(), (a, b)
        assert ab.hexes == tuple(reversed(ba.hexes))
        if w.board.adjacent(a, b):
            assert ab.obstacles == () and not ab.blocked


@settings(max_examples=150, deadline=None)
@given(terrain=st.lists(st.sampled_from(sorted(CODES)), min_size=36, max_size=36),
       levels=st.lists(st.integers(0, 2), min_size=36, max_size=36),
       pair=st.tuples(st.integers(0, 35), st.integers(0, 35)),
       smoke=st.sets(st.integers(0, 35), max_size=4), tall=st.booleans())
def test_10_0_los_is_reciprocal_and_deterministic_on_random_boards(terrain: list[str], levels: list[int],
                                                                   pair: tuple[int, int], smoke: set[int],
                                                                   tall: bool) -> None:
    rows = ["".join(terrain[r * 6:(r + 1) * 6]) for r in range(6)]
    ids = [f"9{chr(ord('A') + c)}{r + 1}" for r in range(6) for c in range(6)]
    w = tiny(rows, {ids[i]: levels[i] for i in range(36)},
             slivers=[{"id": "S", "hexside": "9C3/9C4", "from": "9C4", "terrain": "light_jungle"}])
    a, b = ids[pair[0]], ids[pair[1]]
    sm = {ids[i] for i in smoke}
    ab = line_of_sight(w, a, b, sm, tall_obstacles_block=tall)
    assert ab.key() == line_of_sight(w, b, a, sm, tall_obstacles_block=tall).key()
    assert ab == line_of_sight(w, a, b, sm, tall_obstacles_block=tall)
    assert ab.hexes[0] == a and ab.hexes[-1] == b
