"""Bridge repair and engineer bridging (VB 18.2, 18.3; T12), reinforcements' entry (VB 26.0, G13)."""

from __future__ import annotations

from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.movement import base_cost
from tests.vietnam_battles.vb_helpers import play, state, unit, world

SIDES = {"0610/0710": {"river": "Rach Ba Rai", "kind": "river", "bridge": True, "road": True},
         "0611/0711": {"river": "Rach Ba Rai", "kind": "river"}}


def _w():
    units = {"eng": unit("eng", "us", 1, 8, 4, engineer=True), "inf": unit("inf", "us", 3, 4, 5),
             "vc": unit("vc", "vc", 3, 5, 6)}
    return world(units=units, sides=SIDES)


def test_t12_18_2_repair_roll_five_or_six() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"eng": "0410", "inf": "0101", "vc": "1519"})
    s["bridges_down"] = ["0610/0710"]
    a = {"type": "repair", "unit": "eng", "hexside": "0610/0710"}
    assert a in g.legal_actions(s, "us")
    out = play(g, s, "us", a, [4])
    assert out.state["bridges_down"] == ["0610/0710"] and a not in g.legal_actions(out.state, "us")  # one try
    out = play(g, s, "us", a, [5])
    assert out.state["bridges_down"] == []


def test_18_2_no_repair_next_to_a_vc_unit_or_out_of_range() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"eng": "0410", "inf": "0101", "vc": "0810"})
    s["bridges_down"] = ["0610/0710"]
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "repair"]
    s = state(w, {"eng": "0110", "inf": "0101", "vc": "1519"})
    s["bridges_down"] = ["0610/0710"]
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "repair"]


def test_18_3_engineer_bridge_removes_the_river_cost_once_per_turn() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"eng": "0410", "inf": "0101", "vc": "1519"})
    assert base_cost(s, w, "0611", "0711") == 4
    a = {"type": "eng_bridge", "site": "0611/0711"}
    assert a in g.legal_actions(s, "us")
    s = play(g, s, "us", a).state
    assert s["eng_bridge"] == "0611/0711" and base_cost(s, w, "0611", "0711") == 2
    assert not [x for x in g.legal_actions(s, "us") if x["type"] == "eng_bridge"]  # not two in a game turn


def test_g13_reinforcement_enters_at_the_edge_paying_the_first_hex() -> None:
    w = _w()
    w.edges = {"east": ["1601", "1602", "1603"]}
    w.scenarios = {"boys67": {"reinforcements": [{"turn": 1, "units": ["inf"], "entry": {"kind": "edge",
                                                                                            "edge": "east"}}]}}
    g = VietnamBattles(w)
    s = state(w, {"eng": "0410", "inf": "0101", "vc": "0101"})
    s["units"]["inf"]["status"], s["units"]["inf"]["at"] = "off", None
    s["units"]["vc"]["at"] = "0115"
    s = play(g, s, "us", {"type": "select", "unit": "inf"}).state
    assert {a["hex"] for a in g.legal_actions(s, "us") if a["type"] == "enter"} == {"1601", "1602", "1603"}
    s = play(g, s, "us", {"type": "enter", "hex": "1602"}).state
    assert s["units"]["inf"]["at"] == "1602" and s["moving"]["spent"] == 2
    s = play(g, s, "us", {"type": "enter", "hex": "1502"}).state
    assert s["moving"]["spent"] == 4
