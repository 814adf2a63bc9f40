"""Scenario 25.0 The Boys of '67: set-up, turn-1 transport restrictions (A-39), body count (VB 21.0,
A-24) and every victory outcome (V1-V4)."""

from __future__ import annotations

from typing import Any

from rules.core.dice import fixed_dice
from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.fixtures.boys_map import boys_world
from tests.vietnam_battles.vb_helpers import play


def _setup(dice: list[int] | None = None) -> tuple[VietnamBattles, dict[str, Any]]:
    g = VietnamBattles(boys_world())
    s = g.setup("boys67", {}, fixed_dice(dice or [1] * 20))
    g.check_state(s)
    return g, s


def test_25_0_setup_positions_and_first_player() -> None:
    g, s = _setup()
    at = {u: r["at"] for u, r in s["units"].items()}
    assert at["vc-514-1"] == "0717" and at["vc-514-2"] == "0816" and at["us-mon-1"] == "0717/0718"
    assert at["us-mon-3"] == "0712/0811" and at["us-3-47-a"] == "1215"
    assert s["turn"] == 1 and s["final_turn"] == 4 and s["player"] == "us" and s["phase"] == "movement"
    assert g.active_seats(s) == ["us"]
    assert len(s["hands"]["us"]) == 4 and len(s["hands"]["vc"]) == 2  # the GTRT allotment, drawn (VB 14.1)


def test_a39_units_under_lz_and_beach_chits_cannot_move_on_turn_1() -> None:
    g, s = _setup()
    sel = {a["unit"] for a in g.legal_actions(s, "us") if a["type"] == "select"}
    assert not sel & {"us-3-47-a", "us-3-47-b", "us-3-47-c"}
    assert {"us-4-47-c", "us-4-47-b", "us-5-cav", "us-mon-1", "us-mon-3"} <= sel


def test_h6_view_hides_the_other_sides_hand() -> None:
    g, s = _setup()
    assert g.view(s, "vc")["hands"]["us"] == ["hidden"] * 4
    assert g.view(s, None)["hands"]["vc"] == ["hidden"] * 2
    assert g.view(s, "us")["hands"]["us"] == s["hands"]["us"]


def _end_of_game(g: VietnamBattles, s: dict[str, Any]) -> dict[str, Any]:
    s["turn"], s["player"], s["phase"] = 4, "vc", "mech_combat"
    s["defended"] = list(s["units"])  # nothing left to attack
    return play(g, s, "vc", {"type": "end_phase"}).state


def _kill(s: dict[str, Any], u: str) -> None:
    s["units"][u]["status"], s["units"][u]["at"] = "dead", None
    s["eliminated"].append(u)


def test_v1_25_0_both_vc_eliminated_us_victory_even_with_us_losses() -> None:
    g, s = _setup()
    for u in ("vc-514-1", "vc-514-2", "us-4-47-c", "us-4-47-b"):
        _kill(s, u)
    s = play(g, s, "us", {"type": "end_phase"}).state  # any action: the immediate check ends the game
    o = g.outcome(s)
    assert o is not None and o.winner == "us" and o.result == "US victory" and g.active_seats(s) == []


def test_v2_25_0_one_vc_eliminated_no_us_loss_draw() -> None:
    g, s = _setup()
    _kill(s, "vc-514-1")
    s = _end_of_game(g, s)
    o = g.outcome(s)
    assert o is not None and o.winner is None and o.result == "Draw"


def test_v3_25_0_both_reduced_but_a_us_unit_lost_us_loses() -> None:
    g, s = _setup()
    s["units"]["vc-514-1"]["reduced"] = s["units"]["vc-514-2"]["reduced"] = True
    _kill(s, "us-4-47-c")
    s = _end_of_game(g, s)
    o = g.outcome(s)
    assert o is not None and o.winner == "vc" and "US loss" in o.result


def test_v4_25_0_one_reduced_other_intact_vc_victory() -> None:
    g, s = _setup()
    s["units"]["vc-514-1"]["reduced"] = True
    s = _end_of_game(g, s)
    o = g.outcome(s)
    assert o is not None and o.winner == "vc" and o.result == "VC victory"


def test_t8_s21_21_0_body_count_shortens_and_ends_at_once() -> None:
    """T8: a US unit eliminated -> the last turn comes one earlier; S21: earlier than now -> the game ends."""
    from rules.vietnam_battles.losses import eliminate

    g, s = _setup()
    facts: list = []
    eliminate(s, g.world, "us-4-47-c", facts, "test")
    assert s["final_turn"] == 3 and any(f.rule == "VB 21.0" for f in facts)
    s["turn"] = 3
    eliminate(s, g.world, "us-4-47-b", facts, "test")
    assert s["final_turn"] == 2
    s = play(g, s, "us", {"type": "end_phase"}).state
    assert s["phase"] == "over" and g.outcome(s) is not None


def test_s22_21_0_final_turn_equal_to_current_turn_play_goes_on() -> None:
    from rules.vietnam_battles.losses import eliminate

    g, s = _setup()
    s["turn"] = 3
    eliminate(s, g.world, "us-4-47-c", [], "test")
    s = play(g, s, "us", {"type": "end_phase"}).state
    assert s["phase"] != "over" and s["final_turn"] == 3


def test_a24_monitor_counts_for_body_count() -> None:
    from rules.vietnam_battles.losses import eliminate

    g, s = _setup()
    eliminate(s, g.world, "us-mon-3", [], "test")
    assert s["final_turn"] == 3


def test_game_turn_sequence_us_then_vc_then_next_turn_with_a_new_draw() -> None:
    g, s = _setup()
    seen = []
    dice = fixed_dice([1] * 50)
    while s["turn"] == 1:
        seat = g.active_seats(s)[0]
        seen.append((s["player"], s["phase"]))
        s = g.apply(s, seat, {"type": "end_phase"}, dice).state
    assert seen[0] == ("us", "movement") and ("vc", "movement") in seen
    assert seen.index(("vc", "movement")) > seen.index(("us", "combat"))
    assert s["turn"] == 2 and s["player"] == "us" and len(s["hands"]["us"]) == 4
    assert all(not r["transported"] for r in s["units"].values())  # only turn 1


def test_h6_the_hand_draw_uses_secret_dice() -> None:
    g = VietnamBattles(boys_world())
    dice = fixed_dice([1] * 20)
    g.setup("boys67", {}, dice)
    draws = [r for r in dice.rolls if "support fire draw" in r.purpose]
    assert draws and all(r.secret for r in draws)
