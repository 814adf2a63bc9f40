"""The Iron Triangle (VB 22.0-24.0, 27.0): B-52 (S20), Ben Suc (T19, A-8), tunnels (A-21), the secret
victory condition and its rolls (T15-T18, V7; H1, H7), set-up order. On the shipped map."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.dice import fixed_dice
from rules.vietnam_battles.data import data_present
from tests.vietnam_battles.vb_helpers import play

pytestmark = pytest.mark.skipif(not data_present(), reason="the shipped data is not there")


def _game():
    from rules.vietnam_battles.game import VietnamBattles

    return VietnamBattles()


def _state(g, condition: str = "escape") -> dict[str, Any]:
    """Set up quickly: VC units and caches from the start of the VC area, US in their areas."""
    s = g.setup("iron_triangle", {}, fixed_dice([]))
    assert g.active_seats(s) == ["vc"] and s["phase"] == "setup"
    s = play(g, s, "vc", {"type": "choose_victory", "condition": condition}).state
    while s["phase"] == "setup":
        seat = g.active_seats(s)[0]
        acts = g.legal_actions(s, seat)
        s = play(g, s, seat, acts[-1] if acts[0]["type"] == "at" and seat == "vc" else acts[0], [1] * 80).state
    return s


def test_h1_27_0_secret_choice_first_and_hidden_from_the_us() -> None:
    g = _game()
    s = g.setup("iron_triangle", {}, fixed_dice([]))
    assert [a["condition"] for a in g.legal_actions(s, "vc")] == ["escape", "casualties", "hold"]
    out = play(g, s, "vc", {"type": "choose_victory", "condition": "hold"})
    assert out.state["secret"]["victory"] == "hold"
    assert g.view(out.state, "us")["secret"]["victory"] is None and g.view(out.state, None)["secret"]["victory"] is None
    assert all("hold" not in f.text for f in out.facts if f.visible_to is None)
    assert out.state["vc_setup"]["stage"] == "caches"


def test_27_0_setup_vc_then_us_then_turn_1() -> None:
    g = _game()
    s = _state(g)
    assert s["turn"] == 1 and s["player"] == "us" and s["phase"] == "movement"
    w = g.iron
    for u in w.scenarios["iron_triangle"]["vc_setup"]["units"]:
        assert s["units"][u]["at"] in w.regions["vc_setup"]
    assert s["units"]["us-mon-1"]["at"] == "4223/4323" and len(s["camps"]) == 3
    acts = g.legal_actions(s, "us")
    assert {"type": "tango", "unit": "arvn-5"} in acts
    assert any(a["type"] == "slick" for a in acts)
    assert any(a["type"] == "b52" for a in acts)


def test_s20_23_0_b52_reduces_then_eliminates_once_a_turn_not_on_villages() -> None:
    g = _game()
    s = _state(g)
    acts = [a for a in g.legal_actions(s, "us") if a["type"] == "b52"]
    assert all(s["units"][a["unit"]]["at"] != "1210" for a in acts)  # Ben Suc is a village
    u = acts[0]["unit"]
    out = play(g, s, "us", acts[0])
    assert out.state["units"][u]["reduced"] and not [a for a in g.legal_actions(out.state, "us") if a["type"] == "b52"]
    s = out.state
    s["turn"] = 14
    s["iron"]["b52_turn"] = None
    assert not [a for a in g.legal_actions(s, "us") if a["type"] == "b52"]  # T9: not from turn 14


def test_t19_24_0_ben_suc_roll_then_extend_or_shorten_once() -> None:
    g = _game()
    s = _state(g)
    w = g.iron
    occupant = next((u for u, r in s["units"].items() if r["at"] == "1210"), None)
    if occupant:
        s["units"][occupant]["at"] = "1311" if not any(r["at"] == "1311" for r in s["units"].values()) else "1410"
    us = next(u for u in w.scenarios["iron_triangle"]["setup"][0]["units"])
    s["units"][us]["at"] = "1210"
    out = play(g, s, "us", {"type": "end_phase"}, [4])
    s = out.state
    assert s["decision"]["kind"] == "ben_suc" and g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == []
    s = play(g, s, "vc", {"type": "ben_suc", "choice": "roll"}, [4]).state
    assert {a["choice"] for a in g.legal_actions(s, "vc")} == {"extend", "shorten"}
    s = play(g, s, "vc", {"type": "ben_suc", "choice": "extend"}).state
    assert s["final_turn"] == 17 and s["iron"]["ben_suc"] == "done" and s["decision"] is None


def test_t15_27_0_escape_roll_below_the_count_wins_and_every_trigger_rolls() -> None:
    g = _game()
    for cond, expect in (("escape", "vc"), ("hold", None)):
        s = _state(g, cond)
        s["iron"]["exited"] = 2
        s["player"], s["phase"] = "vc", "movement"
        u = next(x for x, r in s["units"].items() if r["status"] == "map" and g.iron.units[x].side == "vc")
        s["units"][u]["at"] = "0105"
        s = play(g, s, "vc", {"type": "select", "unit": u}).state
        assert {"type": "exit"} in g.legal_actions(s, "vc")
        out = play(g, s, "vc", {"type": "exit"}, [2, 1, 1, 1])  # 3 exited, die 2 < 3
        rolls = [f for f in out.facts if f.kind == "secret_roll"]
        assert len(rolls) == 1 and rolls[0].visible_to == ("vc",)  # H7: rolled whatever the choice
        o = g.outcome(out.state)
        assert (o.winner if o else None) == expect


def test_t16_t17_27_0_us_casualties_needs_more_losses_than_the_die() -> None:
    from rules.vietnam_battles.losses import eliminate

    g = _game()
    s = _state(g, "casualties")
    us = [u for u, r in s["units"].items() if r["status"] == "map" and g.iron.units[u].side == "us"]
    eliminate(s, g.iron, us[0], [], "test")
    out = play(g, s, "us", {"type": "end_phase"}, [1] * 20)
    assert g.outcome(out.state) is None  # T16: 1 < 1 is impossible
    s = out.state
    for u in us[1:7]:
        eliminate(s, g.iron, u, [], "test")
    s = play(g, s, g.active_seats(s)[0], g.legal_actions(s, g.active_seats(s)[0])[-1], [6] * 20).state
    o = g.outcome(s)
    assert o is not None and o.winner == "vc" and "casualties" in o.reason  # T17: 7 losses, any die wins


def test_t18_v7_27_0_hold_the_battlefield_at_the_end() -> None:
    g = _game()
    for die, winner in ((6, "us"), (1, "vc")):
        s = _state(g, "hold")
        vcs = [u for u, r in s["units"].items() if r["status"] == "map" and g.iron.units[u].side == "vc"]
        for u in vcs[5:]:  # V7: five VC units left inside the Iron Triangle
            s["units"][u]["status"], s["units"][u]["at"] = "dead", None
        s["turn"], s["player"], s["phase"] = 13, "vc", "mech_combat"
        s["defended"] = list(s["units"])
        out = play(g, s, "vc", {"type": "end_phase"}, [die])
        o = g.outcome(out.state)
        assert o is not None and o.winner == winner and "hold" in o.reason.lower()


def test_22_0_vc_ignore_us_zoc_in_tunnels_and_one_marker_against_them() -> None:
    from rules.vietnam_battles.movement import _ez

    g = _game()
    s = _state(g)
    w = g.iron
    vc = next(u for u, r in s["units"].items() if r["status"] == "map" and w.units[u].side == "vc")
    us = next(u for u, r in s["units"].items() if r["status"] == "map" and w.units[u].side == "us"
              and not w.units[u].monitor)
    s["units"][vc]["at"], s["units"][us]["at"] = "1213", "1214"
    assert _ez(s, w, us, "1212") and not _ez(s, w, vc, "1213")
    from rules.vietnam_battles.combat import _att_limit

    assert _att_limit(s, w, [us], vc) == 1
