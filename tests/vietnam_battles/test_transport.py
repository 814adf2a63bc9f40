"""Helicopter and riverine transport (VB 10.0, 10.1, 11.0, 11.2; vectors T22, T23)."""

from __future__ import annotations

from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.fixtures.boys_map import boys_world
from tests.vietnam_battles.vb_helpers import play, state


def _w(slicks: int = 2, tangos: int = 1):
    w = boys_world()
    w.slicks, w.tangos = slicks, tangos
    return w


def test_t22_10_0_pickup_in_ezoc_costs_a_step_full_then_reduced() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0416", "vc-514-1": "0516", "us-4-47-b": "0101"})
    out = play(g, s, "us", {"type": "slick", "unit": "us-4-47-c"})
    assert out.state["units"]["us-4-47-c"]["reduced"] and out.state["chits"]["slick"] == 1
    s["units"]["us-4-47-c"]["reduced"] = True
    out = play(g, s, "us", {"type": "slick", "unit": "us-4-47-c"})
    assert out.state["units"]["us-4-47-c"]["status"] == "dead" and out.state["moving"] is None


def test_t23_10_0_landing_in_an_ezoc_costs_nothing_and_the_unit_stays_put() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0310", "vc-514-1": "1012", "us-4-47-b": "0101"})
    s = play(g, s, "us", {"type": "slick", "unit": "us-4-47-c"}).state
    acts = g.legal_actions(s, "us")
    assert {"type": "land", "hex": "1011"} in acts  # adjacent to the VC: allowed
    assert {"type": "land", "hex": "0717"} not in acts  # VB 10.0: not in jungle
    assert {"type": "land", "hex": "1012"} not in acts and {"type": "land", "hex": "0101"} not in acts  # no unit there
    s = play(g, s, "us", {"type": "land", "hex": "1011"}).state
    r = s["units"]["us-4-47-c"]
    assert r["at"] == "1011" and not r["reduced"] and r["transported"] == "slick"
    assert {"type": "select", "unit": "us-4-47-c"} not in g.legal_actions(s, "us")


def test_10_0_no_pickup_from_jungle_nor_of_mechanized_units_and_only_as_many_as_chits() -> None:
    w = _w(slicks=1)
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0816", "us-5-cav": "0310", "us-4-47-b": "0410", "vc-514-1": "1519"})
    acts = [a for a in g.legal_actions(s, "us") if a["type"] == "slick"]
    assert acts == [{"type": "slick", "unit": "us-4-47-b"}]
    s = play(g, s, "us", {"type": "slick", "unit": "us-4-47-b"}).state
    s = play(g, s, "us", {"type": "land", "hex": "0510"}).state
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "slick"]


def test_11_0_tango_goes_only_between_hexes_on_connected_rivers() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0712", "us-4-47-b": "0301", "vc-514-1": "0816"})
    acts = [a for a in g.legal_actions(s, "us") if a["type"] == "tango"]
    assert acts == [{"type": "tango", "unit": "us-4-47-c"}]  # 0301 touches no river
    s = play(g, s, "us", {"type": "tango", "unit": "us-4-47-c"}).state
    dest = {a["hex"] for a in g.legal_actions(s, "us")}
    assert "0718" in dest and "0817" in dest and "0816" not in dest  # no landing on a confirmed VC unit
    assert "0310" not in dest
    s = play(g, s, "us", {"type": "land", "hex": "0718"}).state
    assert s["units"]["us-4-47-c"]["transported"] == "tango"


def test_10_0_transport_only_in_the_us_movement_phase() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-b": "0410", "us-5-cav": "0310", "vc-514-1": "1519"}, phase="mech_movement")
    assert not [a for a in g.legal_actions(s, "us") if a["type"] in ("slick", "tango")]
