"""Hidden VC units, base camps, ambush and degradation (VB 15.0, 16.0, 11.1, 14.0; S19, T21, H2, H3)."""

from __future__ import annotations

from typing import Any

from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.support import allotment
from tests.vietnam_battles.fixtures.boys_map import boys_world
from tests.vietnam_battles.vb_helpers import play, state


def _hide(s: dict[str, Any], units: dict[str, str], camps: dict[str, str] | None = None) -> dict[str, Any]:
    s["secret"] = {"hidden": dict(units), "camps": dict(camps or {})}
    for u in units:
        s["units"][u]["status"], s["units"][u]["at"] = "hidden", None
    s["camps"] = {c: {"hex": None, "status": "hidden"} for c in (camps or {})}
    return s


def test_15_0_a_us_unit_entering_an_adjacent_hex_reveals_and_stops() -> None:
    w = boys_world()
    g = VietnamBattles(w)
    s = _hide(state(w, {"us-4-47-c": "0310", "vc-514-1": "0610", "us-4-47-b": "0101", "vc-514-2": "1519"}),
              {"vc-514-1": "0610"})
    assert g.view(s, "us")["secret"]["hidden"] == {} and "0610" not in str(g.view(s, None)["units"])
    assert g.view(s, "vc")["secret"]["hidden"] == {"vc-514-1": "0610"}
    s = play(g, s, "us", {"type": "select", "unit": "us-4-47-c"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    assert s["units"]["vc-514-1"]["status"] == "hidden"
    out = play(g, s, "us", {"type": "enter", "hex": "0510"})
    s = out.state
    assert s["units"]["vc-514-1"]["status"] == "map" and s["units"]["vc-514-1"]["at"] == "0610"
    assert any(f.kind == "reveal" and f.rule == "VB 15.0" for f in out.facts)
    assert s["moving"] is None  # the revealed unit's ZOC stops the leg unit


def test_15_0_the_vc_player_moving_a_hidden_unit_reveals_it() -> None:
    w = boys_world()
    g = VietnamBattles(w)
    s = _hide(state(w, {"us-4-47-c": "0310", "vc-514-1": "1010", "vc-514-2": "1519"}, player="vc"),
              {"vc-514-1": "1010"})
    out = play(g, s, "vc", {"type": "select", "unit": "vc-514-1"})
    assert out.state["units"]["vc-514-1"]["at"] == "1010" and out.facts[0].kind == "reveal"


def test_16_0_camp_discovered_then_captured_and_t21_allotment_falls_next_turn() -> None:
    w = boys_world()
    g = VietnamBattles(w)
    s = _hide(state(w, {"us-4-47-c": "0310", "vc-514-1": "1519", "us-4-47-b": "0101"}), {}, {"c1": "0610"})
    s = play(g, s, "us", {"type": "select", "unit": "us-4-47-c"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0510"}).state
    assert s["camps"]["c1"] == {"hex": "0610", "status": "revealed"}
    out = play(g, s, "us", {"type": "enter", "hex": "0610"})
    assert out.state["camps"]["c1"]["status"] == "captured" and out.state["captures"] == [1]
    s = out.state
    before = allotment(s, w, "vc")
    s["turn"] = 2
    assert allotment(s, w, "vc") == before - 1  # T21


def test_16_0_a_monitor_does_not_capture() -> None:
    w = boys_world()
    g = VietnamBattles(w)
    s = _hide(state(w, {"us-mon-1": "0712/0811", "vc-514-1": "1519", "us-4-47-b": "0101"}), {}, {"c1": "0712"})
    s = play(g, s, "us", {"type": "select", "unit": "us-mon-1"}).state
    assert s["camps"]["c1"]["status"] == "revealed"
    s = play(g, s, "us", {"type": "sail", "to": "0712/0812"}).state
    assert s["camps"]["c1"]["status"] == "revealed"


def test_s19_11_1_ambush_vc_pushes_then_forced_attack_without_us_support() -> None:
    w = boys_world()
    w.tangos = 1
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0712", "vc-514-1": "0817", "vc-514-2": "1519", "us-4-47-b": "0101"},
              hands={"us": ["us-1"], "vc": ["vc-1"]})
    s = _hide(s, {"vc-514-1": "0817"})
    s = play(g, s, "us", {"type": "tango", "unit": "us-4-47-c"}).state
    assert {"type": "land", "hex": "0817"} in g.legal_actions(s, "us")  # the US cannot know
    out = play(g, s, "us", {"type": "land", "hex": "0817"})
    s = out.state
    assert s["decision"]["kind"] == "ambush" and g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == []
    pushes = g.legal_actions(s, "vc")
    assert pushes and all(not w.is_river("0817", a["hex"]) for a in pushes)
    s = play(g, s, "vc", pushes[0]).state
    b = s["battle"]
    assert b["ambush"] and b["units"] == ["us-4-47-c"] and b["step"] == 2 and g.active_seats(s) == ["vc"]
    s = play(g, s, "vc", {"type": "pass"}).state
    assert s["battle"]["step"] == 4  # step 3 is the US's: it may commit nothing (VB 11.1)
    out = play(g, s, "vc", {"type": "pass"}, [4])
    f = [x for x in out.facts if x.kind == "combat"][0]
    assert f.data["att_markers"] == [] and f.data["attack"] == 3
    assert out.state["units"]["us-4-47-c"]["attacked"] == ""  # extra to the Combat Phase
