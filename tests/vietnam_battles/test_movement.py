"""Movement (VB 5.0-5.3, 6.1) and the movement vectors M1-M9 of the digest (Part VI.4)."""

from __future__ import annotations

from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.movement import entries
from tests.vietnam_battles.vb_helpers import play, state, unit, world


def _mover(g, s, u):
    return play(g, s, "us", {"type": "select", "unit": u}).state


def test_m1_5_2_leg_ma5_all_clear_enters_five_hexes() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0310", "us-4-47-b": "0301", "vc-514-1": "1510"}), "us-4-47-c")
    for h in ("0410", "0510", "0610", "0710", "0810"):
        s = play(g, s, "us", {"type": "enter", "hex": h}).state
    assert s["moving"] is None  # no MP left: the move ends by itself
    assert s["units"]["us-4-47-c"]["at"] == "0810" and s["units"]["us-4-47-c"]["moved"] == "movement"


def test_m2_5_2_1_road_costs_half() -> None:
    hexes = ["0310", "0410", "0510", "0610"]
    sides = {f"{a}/{b}": {"road": True} for a, b in zip(hexes, hexes[1:])}
    w = world(terrain={h: "jungle" for h in hexes}, sides=sides)
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0310", "vc-514-1": "1519"}), "us-4-47-c")
    for h in hexes[1:]:
        s = play(g, s, "us", {"type": "enter", "hex": h}).state
    assert s["moving"]["spent"] == 3  # 3 x ½ MP, in half points


def test_m3_5_2_2_trail_into_jungle_costs_one() -> None:
    w = world(terrain={"0410": "jungle"}, sides={"0310/0410": {"trail": True}})
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0310", "vc-514-1": "1519"}), "us-4-47-c")
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    assert s["moving"]["spent"] == 2


def test_m4_5_2_no_minimum_move_with_river_hexside() -> None:
    w = world(sides={"0310/0410": {"river": "Rach Ba Rai", "kind": "river"}})
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0210", "vc-514-1": "1519"})
    s = _mover(g, s, "us-4-47-c")
    for h in ("0310", "0311", "0312", "0313"):
        s = play(g, s, "us", {"type": "enter", "hex": h}).state
    # 1 MP left; 0410 would cost 1 + 1 (river): refused
    s2 = state(w, {"us-4-47-c": "0310", "vc-514-1": "1519"})
    s2 = _mover(g, s2, "us-4-47-c")
    for h in ("0309", "0308", "0307"):
        s2 = play(g, s2, "us", {"type": "enter", "hex": h}).state
    s2 = play(g, s2, "us", {"type": "enter", "hex": "0308"}).state
    assert s2["moving"]["spent"] == 8
    s3 = state(w, {"us-4-47-c": "0310", "vc-514-1": "1519"})
    s3 = _mover(g, s3, "us-4-47-c")
    for h in ("0309", "0310", "0309"):
        s3 = play(g, s3, "us", {"type": "enter", "hex": h}).state
    s3 = play(g, s3, "us", {"type": "enter", "hex": "0310"}).state
    assert "0410" not in entries(s3, w)  # 1 MP left, 2 needed


def test_m5_5_1_1_leg_unit_stops_on_entering_ezoc() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0310", "vc-514-1": "0610"}), "us-4-47-c")
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    out = play(g, s, "us", {"type": "enter", "hex": "0510"})
    assert out.state["moving"] is None and out.state["units"]["us-4-47-c"]["at"] == "0510"


def test_m6_5_1_2_leg_infiltration_spends_all_ma() -> None:
    w = world(terrain={"0511": "jungle"})
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0510", "vc-514-1": "0610"}), "us-4-47-c")
    assert "0511" in entries(s, w)  # EZOC -> EZOC: infiltration
    out = play(g, s, "us", {"type": "enter", "hex": "0511"})
    assert out.state["moving"] is None and "infiltration" in out.facts[0].text


def test_5_1_2_leg_infiltration_only_as_first_hex() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0510", "vc-514-1": "0710"}), "us-4-47-c")
    s = play(g, s, "us", {"type": "enter", "hex": "0509"}).state  # 0509 not adjacent to 0710: free
    assert s["moving"] is not None


def test_m7_m8_m9_5_1_1_mechanized_ezoc_surcharge() -> None:
    units = {"mech": unit("mech", "us", 3, 5, 8, mech=True), "vc": unit("vc", "vc", 3, 5, 6),
             "vc2": unit("vc2", "vc", 3, 5, 6)}
    w = world(units=units, terrain={"0511": "jungle"})
    g = VietnamBattles(w)
    # M7: starts in EZOC, enters adjacent EZOC jungle (2): 2 + 4 = 6, 2 left, may continue
    s = _mover(g, state(w, {"mech": "0510", "vc": "0610", "vc2": "1519"}), "mech")
    s = play(g, s, "us", {"type": "enter", "hex": "0511"}).state
    assert s["moving"]["spent"] == 12
    # M8/M9: starts outside, enters EZOC for 1, then EZOC again for 1 + 4
    w = world(units=units)
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"mech": "0310", "vc": "0610", "vc2": "1519"}), "mech")
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    s = play(g, s, "us", {"type": "enter", "hex": "0510"}).state
    assert s["moving"]["spent"] == 4 and s["moving"] is not None  # M8: 1 + 1, no stop
    s = play(g, s, "us", {"type": "enter", "hex": "0511"}).state
    assert s["moving"]["spent"] == 4 + 10  # M9: 1 + 4


def test_5_3_no_stacking_may_pass_through_friends() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0310", "us-4-47-b": "0410", "vc-514-1": "1519"}), "us-4-47-c")
    s = play(g, s, "us", {"type": "enter", "hex": "0410"}).state
    acts = g.legal_actions(s, "us")
    assert {"type": "end_move"} not in acts
    s = play(g, s, "us", {"type": "enter", "hex": "0510"}).state
    assert {"type": "end_move"} in g.legal_actions(s, "us")


def test_5_1_may_not_enter_enemy_hex_nor_move_twice() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _mover(g, state(w, {"us-4-47-c": "0510", "us-4-47-b": "0101", "vc-514-1": "0610"}), "us-4-47-c")
    assert "0610" not in entries(s, w)
    s = play(g, s, "us", {"type": "end_move"}).state
    assert {"type": "select", "unit": "us-4-47-c"} not in g.legal_actions(s, "us")


def test_4_1_other_player_may_not_move() -> None:
    import pytest

    from rules.core.game import IllegalAction

    w = world()
    g = VietnamBattles(w)
    s = state(w, {"us-4-47-c": "0510", "vc-514-1": "0810"})
    assert g.active_seats(s) == ["us"] and g.legal_actions(s, "vc") == []
    with pytest.raises(IllegalAction):
        g.apply(s, "vc", {"type": "select", "unit": "vc-514-1"}, None)  # type: ignore[arg-type]


def test_m12_18_0_demolish_a_bridge_on_entering_ends_the_move() -> None:
    w = world(sides={"0610/0710": {"river": "Rach Ba Rai", "kind": "river", "bridge": True, "road": True}})
    g = VietnamBattles(w)
    s = state(w, {"vc-514-1": "0410", "us-4-47-c": "1519", "vc-514-2": "0101"}, player="vc")
    s = play(g, s, "vc", {"type": "select", "unit": "vc-514-1"}).state
    assert not [a for a in g.legal_actions(s, "vc") if a["type"] == "demolish"]  # not where it starts
    s = play(g, s, "vc", {"type": "enter", "hex": "0510"}).state
    s = play(g, s, "vc", {"type": "enter", "hex": "0610"}).state
    assert {"type": "demolish", "hexside": "0610/0710"} in g.legal_actions(s, "vc")
    out = play(g, s, "vc", {"type": "demolish", "hexside": "0610/0710"})
    s = out.state
    assert s["moving"] is None and s["bridges_down"] == ["0610/0710"] and s["units"]["vc-514-1"]["moved"]
    # VB 18.1: now a river hexside: +1 MP to cross, no road rate, river row in combat
    from rules.vietnam_battles.movement import base_cost

    assert base_cost(s, w, "0610", "0710") == 4


def test_18_0_and_5_3_no_demolition_while_passing_through_a_friend() -> None:
    """Demolition ends the move at once (VB 18.0) and no move may end stacked (VB 5.3): a unit passing
    through a friend's hex beside a bridge is not offered the bridge (it was, and was then left
    with no legal action at all: the game could never go on)."""
    w = world(sides={"0610/0710": {"river": "Rach Ba Rai", "kind": "river", "bridge": True, "road": True}})
    g = VietnamBattles(w)
    s = state(w, {"vc-514-1": "0410", "vc-514-2": "0610", "us-4-47-c": "1519"}, player="vc")
    s = play(g, s, "vc", {"type": "select", "unit": "vc-514-1"}).state
    s = play(g, s, "vc", {"type": "enter", "hex": "0510"}).state
    s = play(g, s, "vc", {"type": "enter", "hex": "0610"}).state  # the friend's hex, beside the bridge
    acts = g.legal_actions(s, "vc")
    assert acts and not [a for a in acts if a["type"] == "demolish"], acts


def test_5_3_passing_through_a_crowd_of_friends_is_decided_quickly() -> None:
    import time

    units = {f"u{i}": unit(f"u{i}", "us", 2, 4, 12, mech=True) for i in range(40)}
    units["vc"] = unit("vc", "vc", 3, 5, 6)
    w = world(units=units)
    g = VietnamBattles(w)
    hexes = [f"{c:02d}{r:02d}" for c in range(3, 11) for r in range(5, 10)]
    s = state(w, {**{f"u{i}": h for i, h in enumerate(hexes)}, "vc": "1519"})
    t0 = time.monotonic()
    s = play(g, s, "us", {"type": "select", "unit": "u22"}).state
    acts = g.legal_actions(s, "us")
    assert time.monotonic() - t0 < 5 and any(a["type"] == "enter" for a in acts)
