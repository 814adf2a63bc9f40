"""The Boys of '67 on the shipped data (rules/vietnam_battles/data/): the named hexes and hexsides
exist with the terrain their use needs, the set-up loads, and seeded random games reach the end."""

from __future__ import annotations

import os

import pytest

from rules.vietnam_battles.data import data_present

pytestmark = pytest.mark.skipif(not data_present(), reason="the map and counter data are not there yet")

GAMES = int(os.environ.get("VB_REAL_GAMES", "20"))


def _game():
    from rules.vietnam_battles.game import VietnamBattles
    from rules.vietnam_battles.loader import load_world

    return VietnamBattles(load_world())


def test_25_0_named_hexes_and_hexsides_fit_their_use() -> None:
    g = _game()
    w = g.world
    assert w.grid.shifted == "even"
    for k in ("0717/0718", "0712/0811"):
        a, b = k.split("/")
        assert w.distance(a, b) == 1 and w.is_river(a, b) and not w.side(a, b).get("no_monitor")
    for h in ("0917", "1215"):
        assert w.terrain_of(h) != "jungle" and not w.prohibited(h)  # VB 10.0: LZ not jungle
    assert w.slicks >= 3 and w.tangos >= 1 and w.gtrt["boys67"] and len(w.gtrt["boys67"]) == 4


def test_25_0_setup_on_the_shipped_data() -> None:
    from rules.core.dice import fixed_dice

    g = _game()
    s = g.setup("boys67", {}, fixed_dice([1] * 40))
    g.check_state(s)
    assert s["units"]["us-mon-3"]["at"] == "0712/0811" and s["units"]["us-3-47-b"]["transported"] == "slick"
    assert s["chits"] == {"slick": 2, "tango": 1}


def test_random_legal_play_on_the_shipped_data() -> None:
    from tests.vietnam_battles.vb_fuzz import Stats, play_one

    g = _game()
    stats = Stats()
    for seed in range(GAMES):
        play_one(g, 1000 + seed, stats, probe_every=9 if seed < 3 else 0)
    print(f"\nVB real data: {stats.games} games, {stats.actions} actions, {stats.results}")
    assert stats.games == GAMES


@pytest.mark.parametrize("scenario", ["snoopys_nose", "iron_triangle"])
@pytest.mark.slow
def test_random_legal_play_of_the_full_scenarios(scenario: str) -> None:
    from rules.vietnam_battles.game import VietnamBattles
    from tests.vietnam_battles.vb_fuzz import Stats, play_one

    g = VietnamBattles()
    stats = Stats()
    for seed in range(int(os.environ.get("VB_FULL_GAMES", "1"))):
        play_one(g, 2000 + seed, stats, probe_every=25 if seed == 0 else 0, scenario=scenario)
    print(f"\nVB {scenario}: {stats.games} games, {stats.actions} actions, {stats.results}")
