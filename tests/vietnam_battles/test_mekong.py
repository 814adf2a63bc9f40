"""Split Mekong hexes (VB 19.0; A-20; vector M10): land portions are separate positions."""

from __future__ import annotations

from rules.vietnam_battles.board import in_ezoc
from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.movement import entries
from tests.vietnam_battles.vb_helpers import play, state, unit, world


def _w(**kw):
    w = world(**kw)
    w.hexes["0510"] = {"terrain": "clear", "mekong": "split",
                       "portions": {"north": ["0409", "0509", "0609"], "south": ["0410", "0511", "0610"]}}
    return w


def test_19_0_portions_touch_only_their_own_neighbours() -> None:
    w = _w()
    assert "0510:north" in w.land_nbrs("0509") and "0510:south" not in w.land_nbrs("0509")
    assert "0510" not in w.land_nbrs("0509") and w.prohibited("0510")


def test_m10_19_0_leg_unit_crosses_the_mekong_with_all_its_ma_mech_may_not() -> None:
    units = {"inf": unit("inf", "us", 3, 4, 5), "mech": unit("mech", "us", 3, 5, 8, mech=True),
             "vc": unit("vc", "vc", 3, 5, 6)}
    w = _w(units=units)
    g = VietnamBattles(w)
    s = state(w, {"inf": "0510:north", "mech": "0510:south", "vc": "1519"})
    s = play(g, s, "us", {"type": "select", "unit": "inf"}).state
    assert "0510:south" not in entries(s, w)  # the mech sits there
    s = state(w, {"inf": "0510:north", "mech": "0309", "vc": "1519"})
    s = play(g, s, "us", {"type": "select", "unit": "inf"}).state
    assert "0510:south" in entries(s, w)
    s = play(g, s, "us", {"type": "enter", "hex": "0510:south"}).state
    assert s["units"]["inf"]["at"] == "0510:south" and s["moving"] is None
    s = state(w, {"inf": "0309", "mech": "0510:north", "vc": "1519"})
    s = play(g, s, "us", {"type": "select", "unit": "mech"}).state
    assert "0510:south" not in entries(s, w)
    s = state(w, {"inf": "0510:north", "mech": "0309", "vc": "1519"})
    s = play(g, s, "us", {"type": "select", "unit": "inf"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0509"}).state
    assert "0510:south" not in entries(s, w)  # only at the start of its move


def test_19_0_no_zoc_and_no_attack_across_the_mekong_portion() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0510:north", "vc-514-1": "0510:south", "us-4-47-b": "0101"}, phase="combat",
              hands={"us": [], "vc": []})
    assert not in_ezoc(s, w, "us", "0510:north")
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "declare"]
    s = state(w, {"us-4-47-c": "0509", "vc-514-1": "0510:south", "us-4-47-b": "0101"})
    assert not in_ezoc(s, w, "us", "0509") and in_ezoc(s, w, "us", "0511")


def test_18_3_engineer_bridge_over_the_mekong_portion_lets_mech_cross_at_land_cost() -> None:
    units = {"eng": unit("eng", "us", 1, 8, 4, engineer=True), "mech": unit("mech", "us", 3, 5, 8, mech=True),
             "vc": unit("vc", "vc", 3, 5, 6)}
    w = _w(units=units)
    g = VietnamBattles(w)
    s = state(w, {"eng": "0309", "mech": "0510:north", "vc": "1519"})
    a = {"type": "eng_bridge", "site": "0510"}
    assert a in g.legal_actions(s, "us")
    s = play(g, s, "us", a).state
    s = play(g, s, "us", {"type": "select", "unit": "mech"}).state
    assert "0510:south" in entries(s, w)
    s = play(g, s, "us", {"type": "enter", "hex": "0510:south"}).state
    assert s["moving"]["spent"] == 2 and s["units"]["mech"]["at"] == "0510:south"


def test_12_0_a_unit_in_a_split_hex_with_an_enemy_monitor_may_leave_from_either_side() -> None:
    units = {"vc": unit("vc", "vc", 3, 5, 6), "mon": unit("mon", "us", 1, 4, 11, monitor=True),
             "us": unit("us", "us", 3, 4, 5)}
    w = _w(units=units)
    g = VietnamBattles(w)
    s = state(w, {"vc": "0510:north", "mon": "0510", "us": "1519"}, player="vc")
    s = play(g, s, "vc", {"type": "select", "unit": "vc"}).state
    assert {"0509", "0511", "0410", "0610"} <= set(entries(s, w))


def test_a9_18_3_the_engineer_bridge_lapses_out_of_range() -> None:
    units = {"eng": unit("eng", "us", 1, 8, 4, engineer=True), "vc": unit("vc", "vc", 3, 5, 6)}
    w = _w(units=units)
    g = VietnamBattles(w)
    s = state(w, {"eng": "0309", "vc": "1519"})
    s = play(g, s, "us", {"type": "eng_bridge", "site": "0510"}).state
    s = play(g, s, "us", {"type": "select", "unit": "eng"}).state
    for h in ("0209", "0109"):
        s = play(g, s, "us", {"type": "enter", "hex": h}).state
    assert s["eng_bridge"] == "0510"  # 0109 -> 0510: 4 hexes
    s = play(g, s, "us", {"type": "enter", "hex": "0108"}).state
    assert s["eng_bridge"] == "0510"
    s = play(g, s, "us", {"type": "enter", "hex": "0107"}).state  # 5 hexes away: out of range
    assert s["eng_bridge"] is None
