"""Remaining worked examples and vectors of the digest (Part VI): T3, T6, T9, T13, S6, S23, M11."""

from __future__ import annotations

import pytest

from rules.vietnam_battles.data import data_present
from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.support import allotment
from tests.vietnam_battles.fixtures.boys_map import boys_world
from tests.vietnam_battles.vb_helpers import play, state, unit, world


def test_t3_3_0_counter_5_6_8_reads_attack_defense_ma() -> None:
    from rules.vietnam_battles.data import _unit_from_json

    d = _unit_from_json("x", {"attack": 5, "defense": 6, "ma": 8, "side": "us"})
    assert (d.attack, d.defense, d.ma) == (5, 6, 8) and d.steps == 1


@pytest.mark.skipif(not data_present(), reason="the shipped data is not there")
def test_t6_t9_24_0_turn_13_allotment_ten_five_and_after_it() -> None:
    g = VietnamBattles()
    s = {"scenario": "iron_triangle", "turn": 13, "captures": []}
    assert (allotment(s, g.iron, "us"), allotment(s, g.iron, "vc")) == (10, 5)
    s["turn"] = 16
    assert (allotment(s, g.iron, "us"), allotment(s, g.iron, "vc")) == (10, 5)


def test_t13_5_1_2_mechanized_ma5_infiltration_surcharge_is_two() -> None:
    units = {"m": unit("m", "us", 3, 5, 5, mech=True), "vc": unit("vc", "vc", 3, 5, 6)}
    w = world(units=units)
    g = VietnamBattles(w)
    s = play(g, state(w, {"m": "0510", "vc": "0610"}), "us", {"type": "select", "unit": "m"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0511"}).state
    assert s["moving"]["spent"] == 2 * (1 + 2)


def test_s6_8_3_a_marker_used_in_the_us_combat_phase_is_gone_for_the_vc_phase() -> None:
    w = world()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0510", "vc-514-1": "0610", "us-4-47-b": "0101"}, phase="combat",
              hands={"us": ["us-4", "us-1"], "vc": ["vc-1"]})
    s = play(g, s, "us", {"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}).state
    s = play(g, s, "us", {"type": "support", "marker": "us-4"}).state
    s = play(g, s, "vc", {"type": "pass"}).state
    s = play(g, s, "us", {"type": "pass"}).state
    s = play(g, s, "vc", {"type": "pass"}, [4]).state  # 3 + 4 - 5 = +2: C8, die 4: Ex
    assert "us-4" in s["spent"]["us"] and "us-4" not in s["hands"]["us"]
    while s["player"] == "us":
        s = play(g, s, g.active_seats(s)[0], g.legal_actions(s, g.active_seats(s)[0])[-1], [1] * 10).state
    assert "us-4" not in s["hands"]["us"]  # the VC's turn: still spent


def test_s23_21_0_an_arvn_loss_does_not_shorten_the_game() -> None:
    from rules.vietnam_battles.losses import eliminate

    units = {"arvn": unit("arvn", "us", 2, 4, 5, nationality="ARVN"), "vc": unit("vc", "vc", 3, 5, 6)}
    w = world(units=units)
    s = state(w, {"arvn": "0510", "vc": "0610"})
    eliminate(s, w, "arvn", [], "test")
    assert s["final_turn"] == 4


def test_m11_12_0_monitor_pays_one_mp_per_water_space() -> None:
    w = boys_world()
    g = VietnamBattles(w)
    s = state(w, {"us-mon-1": "0712/0811", "vc-514-1": "1519", "us-4-47-b": "0101"})
    s = play(g, s, "us", {"type": "select", "unit": "us-mon-1"}).state
    path = ["0712/0812", "0713/0812", "0713/0813", "0714/0813", "0714/0814", "0715/0814", "0715/0815",
            "0716/0815", "0716/0816", "0717/0816", "0717/0817"]
    for k in path:
        s = play(g, s, "us", {"type": "sail", "to": k}).state
    assert s["units"]["us-mon-1"]["at"] == "0717/0817" and s["moving"] is None  # 11 spaces: all 11 MP
