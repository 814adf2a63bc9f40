"""Bombardment, counter-battery and errant fire (VB 8.4, 8.4.1, 8.4.2, 8.6; vectors T7, S7-S10)."""

from __future__ import annotations

from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.vb_helpers import play, state, world


def _w(**kw):
    return world(pools={"us": [6, 4, 3, 1], "vc": [6, 2]}, **kw)


def test_t7_8_4_1_counter_battery_plus6_cancels_bombardment_plus6() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0310", "vc-514-1": "0810"}, phase="combat",
              hands={"us": ["us-1"], "vc": ["vc-1"]})
    s = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-1"}).state
    assert g.active_seats(s) == ["vc"] and s["battle"]["step"] == 2  # counter-battery: the target's owner decides
    out = play(g, s, "vc", {"type": "support", "marker": "vc-1"}, [3])
    f = [x for x in out.facts if x.kind == "bombardment"][0]
    assert f.data["strength"] == 0 and f.data["differential"] == -5


def test_s10_8_4_bombardment_ex_hits_only_the_target() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0310", "vc-514-1": "0810"}, phase="combat", hands={"us": ["us-1", "us-2"], "vc": []})
    s = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-1"}).state
    out = play(g, s, "us", {"type": "support", "marker": "us-2"}, [3])  # 6 + 4 - 5 = +5: C9, die 3: Ex
    assert out.state["units"]["vc-514-1"]["reduced"] and not out.state["units"]["us-4-47-c"]["reduced"]


def test_s7_s8_8_4_8_6_two_markers_and_one_bombardment_per_hex_per_game_turn() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0310", "vc-514-1": "0810", "vc-514-2": "1010"}, phase="combat",
              hands={"us": ["us-1", "us-2", "us-3"], "vc": []})
    s = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-3"}).state
    out = play(g, s, "us", {"type": "support", "marker": "us-2"}, [6])  # 7 - 5 = +2: C8, die 6: A1 errant
    s = out.state
    assert s["battle"] is None or s["decision"] is not None
    assert "0810" in s["bombarded"]
    if s["decision"] is not None:  # errant A1 on us-4-47-c: hold it
        s = play(g, s, "us", {"type": "hold", "unit": "us-4-47-c"}).state
    assert not any(a["type"] == "bombard" and a["unit"] == "vc-514-1" for a in g.legal_actions(s, "us"))
    assert {"type": "bombard", "unit": "vc-514-2", "marker": "us-1"} in g.legal_actions(s, "us")


def test_8_4_no_bombardment_after_the_first_attack() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0510", "vc-514-1": "0610", "vc-514-2": "1010"}, phase="combat",
              hands={"us": ["us-1"], "vc": []})
    s = play(g, s, "us", {"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}).state
    s = play(g, s, "us", {"type": "pass"}, [1]).state  # 3 - 5 = -2: C4 "-"
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "bombard"]


def test_s9_8_4_2_errant_fire_hits_the_bombarders_nearest_unit() -> None:
    w = _w(terrain={"0810": "jungle"})
    g = VietnamBattles(w)
    # +4 vs defense 5 in jungle: -1, C3; die 3: (A) -> the nearest US unit loses a step
    s = state(w, {"us-4-47-c": "0310", "us-4-47-b": "0610", "vc-514-1": "0810"}, phase="combat",
              hands={"us": ["us-2"], "vc": []})
    out = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-2"}, [3])
    assert out.state["units"]["us-4-47-b"]["reduced"] and not out.state["units"]["us-4-47-c"]["reduced"]
    assert any(f.kind == "errant" and f.rule == "VB 8.4.2" for f in out.facts)
    # die 1: A2 (A-3 reading i): the nearest unit retreats 2 or holds — its owner (the bombarder) decides
    out = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-2"}, [1])
    d = out.state["decision"]
    assert d["kind"] == "retreat" and d["seat"] == "us" and d["units"] == ["us-4-47-b"]


def test_8_4_bombardment_d2_target_owner_chooses_and_retreats_away_from_the_nearest_enemy() -> None:
    w = _w()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0310", "vc-514-1": "0810"}, phase="combat", hands={"us": ["us-1", "us-2"], "vc": []})
    s = play(g, s, "us", {"type": "bombard", "unit": "vc-514-1", "marker": "us-1"}).state
    out = play(g, s, "us", {"type": "support", "marker": "us-2"}, [2])  # +5: C9, die 2: D2
    s = out.state
    assert s["decision"]["kind"] == "retreat" and g.active_seats(s) == ["vc"]
    for a in g.legal_actions(s, "vc"):
        if a["type"] == "retreat":
            assert w.distance(a["path"][-1], "0310") >= w.distance("0810", "0310")
