"""Rules versions of the UP FRONT-structured game: version 2 tunes OUR values only (v2.json) and
keeps version 1 runnable for the games recorded under it; the real Pillbox of scenarios C and O
(UFM 11.e) is never dealt into a hand in version 2, and version 1 no longer fails when both
Pillboxes were dealt."""

from __future__ import annotations

import pytest

from rules import get_game
from rules.core.dice import fixed_dice
from rules.up_front.data import world
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV1

PILLBOXES = ["UF138", "UF139"]


def test_version_4_is_current_and_versions_1_to_3_are_kept_with_their_own_data() -> None:
    assert get_game("up-front").version == "4" and get_game("up-front", "1").version == "1"
    assert get_game("up-front", "3").version == "3" and get_game("up-front", "3").world() is world("3")
    assert get_game("up-front", "2").version == "2" and get_game("up-front", "2").world() is world("2")
    assert UpFrontMountainsV1().world() is world("1") and UpFrontMountains().world() is world()
    assert world("1").soldiers["GE02"]["fp"] == [2, 2, 3, 3, 3, 4] and world().soldiers["GE02"]["fp"] == [3, 3, 3, 4, 4, 5]
    assert world("1").nations["partisans"]["hand"] == 4 and world().nations["partisans"]["hand"] == 6


@pytest.mark.parametrize("tuned", ["2", "3", "4"])
def test_the_tuning_changes_no_appendix_or_public_core_value(tuned: str) -> None:
    v1, v2 = world("1"), world(tuned)
    assert v1.cards == v2.cards and v1.terrain == v2.terrain and v1.wire == v2.wire
    assert v1.tables == v2.tables  # entrenchment (B.1.3), environment (10.5, 10.6), victory points (C.6)
    for nation in ("germans", "americans"):  # hands and discards of the public core (C.4)
        assert v1.nations[nation] == v2.nations[nation]
    for sid, sc in v1.scenarios.items():  # the appendix's adjustments (11.e) stay as they were
        for key in ("appendix", "minefield_nf", "real_pillbox", "remove_first", "altitude_setup", "terrain_types"):
            assert sc[key] == v2.scenarios[sid][key], (sid, key)


def _deal_both_pillboxes() -> list[int]:
    """Dice for scenario C's set-up whose first two draws are UF138 and UF139 (the pile is sorted)."""
    return [138, 138] + [1] * 400


def test_version_1_places_the_real_pillbox_even_when_both_were_dealt_UFM_11e() -> None:
    g = UpFrontMountainsV1()
    s = g.setup("C", {}, fixed_dice(_deal_both_pillboxes()))
    g.check_state(s)  # every card in exactly one place
    assert s["groups"]["germans"]["B"]["terrain"] == "UF138"
    assert "UF139" in s["hands"]["americans"] and len(s["hands"]["americans"]) == 6


def test_version_2_takes_the_real_pillbox_out_before_dealing_UFM_11e() -> None:
    g = UpFrontMountains()
    for scenario in ("C", "O"):
        s = g.setup(scenario, {}, fixed_dice(_deal_both_pillboxes()))
        g.check_state(s)
        assert s["groups"]["germans"]["B"]["terrain"] == "UF138"
        assert "UF138" not in s["hands"]["americans"] + s["hands"]["germans"]


def test_version_3_retunes_scenario_l_only_for_its_starting_altitude_cards() -> None:
    v2, v3 = world("2"), world("3")
    assert v3.soldiers == v2.soldiers and v3.nations == v2.nations
    changed = [sid for sid in v2.scenarios if v2.scenarios[sid] != v3.scenarios[sid]]
    assert changed == ["L"] and v3.scenarios["L"]["forces"]["germans"]["B"] == ["GE05", "GE06", "GE07", "GE08"]
