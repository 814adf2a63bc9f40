"""Scenario 26.0 Snoopy's Nose on the shipped data: the VC's secret set-up (2d6, open then hidden,
jungle camps; T20, H2, H3), what the US seat sees, reinforcements, victory (V5, V6)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.dice import fixed_dice
from rules.vietnam_battles.data import data_present
from tests.vietnam_battles.vb_helpers import play

pytestmark = pytest.mark.skipif(not data_present(), reason="the shipped data is not there")


def _game():
    from rules.vietnam_battles.game import VietnamBattles
    from rules.vietnam_battles.loader import load_world

    return VietnamBattles(load_world())


def _setup(g, roll=(4, 5)) -> dict[str, Any]:
    s = g.setup("snoopys_nose", {}, fixed_dice(list(roll)))
    g.check_state(s)
    return s


def _camps(g, s, hexes=("0717", "0816", "0817", "0718", "0311")):
    for h in hexes:
        s = play(g, s, "vc", {"type": "camp", "hex": h}).state
    return s


def test_26_0_vc_sets_up_first_camps_in_jungle_only() -> None:
    g = _game()
    s = _setup(g)
    assert g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == [] and s["vc_setup"]["roll"] == 9
    acts = g.legal_actions(s, "vc")
    assert {"type": "camp", "hex": "0717"} in acts and {"type": "camp", "hex": "0616"} not in acts  # 0616 paddy
    out = play(g, s, "vc", {"type": "camp", "hex": "0717"})
    assert [f.visible_to for f in out.facts] == [("vc",), None] and "0717" not in out.facts[1].text
    assert g.view(out.state, "us")["secret"]["camps"] == {} and g.view(out.state, None)["secret"]["camps"] == {}


def test_t20_26_0_hide_only_after_open_attack_reaches_the_2d6() -> None:
    g = _game()
    s = _camps(g, _setup(g))
    assert not [a for a in g.legal_actions(s, "vc") if a["type"] == "hide"]
    placed = 0
    for u, h in (("vc-263-1", "0920"), ("vc-263-2", "1020"), ("vc-263-3", "1120")):
        s = play(g, s, "vc", {"type": "place", "unit": u}).state
        assert {"type": "at", "hex": "1606"} not in g.legal_actions(s, "vc")  # VB 26.0: not at the C.P.
        s = play(g, s, "vc", {"type": "at", "hex": h}).state
        placed += g.world.units[u].attack
    assert placed == 12 >= 9
    assert [a for a in g.legal_actions(s, "vc") if a["type"] == "hide"]
    s = play(g, s, "vc", {"type": "hide", "unit": "vc-514-1"}).state
    spots = {a["hex"] for a in g.legal_actions(s, "vc")}
    assert spots and all(g.world.terrain_of(h) == "jungle" for h in spots)
    out = play(g, s, "vc", {"type": "at", "hex": "0717"})
    s = out.state
    assert s["units"]["vc-514-1"]["status"] == "hidden" and s["secret"]["hidden"]["vc-514-1"] == "0717"
    assert g.view(s, "us")["secret"]["hidden"] == {}
    assert all("0717" not in f.text for f in out.facts if f.visible_to is None)


def _finish_setup(g, s):
    """Place every other VC unit openly in a row of paddy far from 1606."""
    free = iter(["2010", "2012", "2014", "2016", "2018", "2020", "2022", "2024", "1910", "1912", "1914"])
    while s["phase"] == "setup":
        acts = g.legal_actions(s, "vc")
        place = [a for a in acts if a["type"] == "place"]
        if place:
            s = play(g, s, "vc", place[0]).state
            continue
        h = next(free)
        s = play(g, s, "vc", {"type": "at", "hex": h}, [1] * 60).state
    return s


def test_26_0_after_setup_the_us_moves_first_and_reinforcements_arrive() -> None:
    g = _game()
    s = _finish_setup(g, _camps(g, _setup(g)))
    assert s["turn"] == 1 and s["player"] == "us" and g.active_seats(s) == ["us"]
    acts = g.legal_actions(s, "us")
    assert {"type": "slick", "unit": "us-4-47-b"} in acts  # group C by helicopter
    assert {"type": "tango", "unit": "us-3-60-a"} in acts  # group B by river from 0734/0833
    assert {"type": "select", "unit": "us-mon-1"} in acts and {"type": "select", "unit": "us-rngr"} in acts
    assert {"type": "select", "unit": "arvn-7"} not in acts  # turn 9
    s = play(g, s, "us", {"type": "select", "unit": "us-mon-1"}).state
    assert {a["to"] for a in g.legal_actions(s, "us") if a["type"] == "sail"} == {"0734", "0833"}


def test_v5_v6_26_0_victory_all_camps_or_nothing() -> None:
    g = _game()
    s = _finish_setup(g, _camps(g, _setup(g)))
    cids = sorted(s["secret"]["camps"])
    for c in cids[:4]:
        s["camps"][c] = {"hex": s["secret"]["camps"].pop(c), "status": "captured"}
    for u in list(s["units"]):
        if g.world.units[u].side == "vc":
            s["units"][u]["status"], s["units"][u]["at"] = "dead", None
    s["turn"], s["player"], s["phase"] = s["final_turn"], "vc", "mech_combat"
    end = play(g, s, "vc", {"type": "end_phase"}).state
    o = g.outcome(end)
    assert o is not None and o.winner == "vc" and "4 of 5" in o.reason  # V6: even with no VC unit left
    s2 = dict(s)
    s2["camps"] = dict(s["camps"])
    s2["secret"] = {"hidden": {}, "camps": {}}
    s2["camps"][cids[4]] = {"hex": "0311", "status": "captured"}
    end = play(g, s2, "vc", {"type": "end_phase"}).state
    o = g.outcome(end)
    assert o is not None and o.winner == "us"  # V5


def test_h5_16_0_designers_variant_eight_open_chits_one_secretly_real() -> None:
    g = _game()
    s = g.setup("snoopys_nose", {"real_chit": True}, fixed_dice([4, 5]))
    hexes = ["0920", "1020", "1120", "1220", "1320", "1420", "1520", "1620"]
    for h in hexes:
        s = play(g, s, "vc", {"type": "camp", "hex": h}).state
    assert len(s["camps"]) == 8 and all(c["status"] == "revealed" for c in s["camps"].values())
    assert {a["camp"] for a in g.legal_actions(s, "vc")} == set(s["camps"])
    out = play(g, s, "vc", {"type": "designate", "camp": "cache-2"})
    s = out.state
    assert g.view(s, "us")["secret"]["real"] is None and s["secret"]["real"] == "cache-2"
    assert all("cache-2" not in f.text for f in out.facts if f.visible_to is None)
    s = _finish_setup(g, s)
    s["camps"]["camp-1"]["status"] = "captured"
    s["turn"], s["player"], s["phase"] = s["final_turn"], "vc", "mech_combat"
    s["defended"] = list(s["units"])
    o = g.outcome(play(g, s, "vc", {"type": "end_phase"}).state)
    assert o is not None and o.winner == "vc" and "cache-2" in o.reason
    s["camps"]["cache-2"]["status"] = "captured"
    o = g.outcome(play(g, s, "vc", {"type": "end_phase"}).state)
    assert o is not None and o.winner == "us"


def test_26_0_the_fifth_camp_captured_ends_the_game_at_once() -> None:
    g = _game()
    s = _finish_setup(g, _camps(g, _setup(g)))
    cids = sorted(s["secret"]["camps"])
    for c in cids[:4]:
        s["camps"][c] = {"hex": s["secret"]["camps"].pop(c), "status": "captured"}
    last = cids[4]
    s["secret"]["camps"][last] = "0311"
    eng = "us-15-eng"
    s["units"][eng]["at"] = "0211"
    s = play(g, s, "us", {"type": "select", "unit": eng}, [1] * 10).state
    assert s["camps"][last]["status"] == "revealed"  # discovered on being adjacent
    out = play(g, s, "us", {"type": "enter", "hex": "0311"}, [1] * 10)
    o = g.outcome(out.state)
    assert o is not None and o.winner == "us" and out.state["turn"] == 1
