"""The digest's worked examples TV-01..TV-20 (numbers stated in the text), one named test each.

Most run on the real counter mix over a synthetic all-grassland map (gbv_helpers.world), so
the terrain around each example is exactly what the example says.
"""

from __future__ import annotations

import pytest

from rules.core.game import IllegalAction
from rules.green_beret_vietnam import movement
from rules.green_beret_vietnam.board import gb_fp
from rules.green_beret_vietnam.combat import totals
from rules.green_beret_vietnam.detection import is_detected
from rules.green_beret_vietnam.game import GreenBeretVietnam
from tests.green_beret_vietnam.gbv_helpers import camp, dice, enemy, game, put, real, state, texts


def _group(g, s, *ids):
    g_members = list(ids)
    movement.begin(s, g.world, g_members[0])
    for c in g_members[1:]:
        movement.join(s, g.world, c)
    return s["moving"]


def _ma(g, s):
    return movement.remaining(s, g.world, s["moving"])


def test_tv01_d10_face_zero_is_ten() -> None:
    """2.1: a d10 showing 0 is 10: never a detection (12.0); a relocation on it costs 10 PP (12.11)."""
    assert not is_detected(10, 12)
    g = game()
    s = state(g, "procurement")
    k = camp(s, "1010")
    put(s, "a-team-1", "1010")
    out = g.apply(s, "player", {"type": "relocate", "camp": k}, dice(10))
    assert out.state["pp"] == s["pp"] - 10
    assert out.state["decision"]["kind"] == "relocate_to"


def test_tv02_teams_free_and_bought() -> None:
    g = game()
    s = g.setup("campaign", {}, dice(34, 33))
    out = g.apply(s, "player", {"type": "place_camp", "hex": "1010"}, dice(1, 1))
    s = out.state
    on_map = sorted(c for c, x in s["gb"].items() if x["status"] == "map")
    assert on_map == ["a-team-1", "b-team-1", "commander-1", "officer-1"]
    assert s["pp"] == 100  # nothing paid for them (3.2, 3.3)
    a = g.apply(s, "player", {"type": "buy", "kind": "a-team", "camp": "camp-1"}, dice())
    assert a.state["pp"] == 80 and a.state["gb"]["a-team-2"]["hex"] == "1010"
    b = g.apply(s, "player", {"type": "buy", "kind": "b-team", "camp": "camp-1"}, dice())
    assert b.state["pp"] == 85


def test_tv03_leaders_free_and_bought() -> None:
    g = game()
    s = g.setup("campaign", {}, dice(34, 33))
    s = g.apply(s, "player", {"type": "place_camp", "hex": "1010"}, dice(1, 1)).state
    assert g.apply(s, "player", {"type": "buy", "kind": "commander", "camp": "camp-1"}, dice()).state["pp"] == 92
    assert g.apply(s, "player", {"type": "buy", "kind": "officer", "camp": "camp-1"}, dice()).state["pp"] == 96


def test_tv04_new_game_has_100_pp() -> None:
    g = real()
    assert g.setup("campaign", {}, dice(1, 1))["pp"] == 100


def test_tv05_coastal_camp_bonus_and_none_for_relocation() -> None:
    g = real()
    w = g.world
    coastal = next(h for h in w.camp_hexes if h in w.coastal)
    inland = next(h for h in w.camp_hexes if h not in w.coastal)
    s = g.setup("campaign", {}, dice(1, 1))
    s = g.apply(s, "player", {"type": "place_camp", "hex": coastal}, dice(1, 1)).state
    assert s["pp"] == 110
    s2 = g.setup("campaign", {}, dice(1, 1))
    s2 = g.apply(s2, "player", {"type": "place_camp", "hex": inland}, dice(1, 1)).state
    assert s2["pp"] == 100
    # 12.11: relocating into the coastal zone never pays the bonus
    out = g.apply(s2, "player", {"type": "relocate", "camp": "camp-1"}, dice(3))
    out = g.apply(out.state, "player", {"type": "relocate_to", "hex": coastal}, dice())
    assert out.state["pp"] == 97 and out.state["camps"]["camp-1"]["hex"] == coastal


def test_tv06_carrying_limits_team_six_leader_one() -> None:
    g = game()
    s = state(g)
    items = ["intel-1", "m21-1", "svd-1", "bribe-1", "radio-1", "flares-1", "tools-1"]
    put(s, "a-team-1", "1010")
    for c in items:
        put(s, c, "1010")
    _group(g, s, "a-team-1", *items[:6])
    with pytest.raises(IllegalAction):
        movement.join(s, g.world, items[6])
    s = state(g)
    put(s, "commander-1", "1010")
    put(s, "intel-1", "1010")
    put(s, "radio-1", "1010")
    _group(g, s, "commander-1", "intel-1")
    with pytest.raises(IllegalAction):
        movement.join(s, g.world, "radio-1")


def test_tv07_truck_alone_into_jungle_then_with_team_into_mountain() -> None:
    g = game({"1009": "jungle", "1008": "mountain"})
    s = state(g)
    put(s, "truck-1", "1010")
    put(s, "b-team-1", "2020")
    out = g.apply(s, "player", {"type": "begin_move", "counter": "truck-1"}, dice())
    out = g.apply(out.state, "player", {"type": "step", "hex": "1009"}, dice())
    assert out.state["moving"]["spent"] == 2 and _ma(g, out.state) == 4  # jungle = 2 MP (6 - 2)
    s = out.state
    s["moving"] = None
    # next turn: the Truck, a GB team and a Radio move together into a mountain hex
    put(s, "a-team-1", "1009")
    put(s, "radio-1", "1009")
    s["gb"]["truck-1"]["moved"] = False
    _group(g, s, "a-team-1", "truck-1", "radio-1")
    assert _ma(g, s) == 10
    out = g.apply(s, "player", {"type": "step", "hex": "1008"}, dice())
    assert out.state["moving"]["spent"] == 2  # paid once, by the stack; the Radio pays nothing
    assert _ma(g, out.state) == 8


def test_tv08_truck_carries_five_not_six_nor_a_jeep() -> None:
    g = game()
    s = state(g)
    items = ["intel-1", "m21-1", "svd-1", "bribe-1", "radio-1", "flares-1"]
    put(s, "truck-1", "1010")
    put(s, "jeep-1", "1010")
    for c in items:
        put(s, c, "1010")
    _group(g, s, "truck-1", *items[:5])
    with pytest.raises(IllegalAction, match="carrying limit"):
        movement.join(s, g.world, items[5])
    with pytest.raises(IllegalAction, match="black"):
        movement.join(s, g.world, "jeep-1")


def test_tv09_team_and_truck_carry_eleven() -> None:
    g = game()
    s = state(g)
    put(s, "a-team-1", "1010")
    put(s, "truck-1", "1010")
    assert movement.capacity(g.world, ["a-team-1", "truck-1"]) == (0, 11)


def test_tv10_truck_plus_six_with_team_four_is_ten() -> None:
    g = game()
    s = state(g)
    put(s, "a-team-1", "1010")
    put(s, "truck-1", "1010")
    _group(g, s, "a-team-1", "truck-1")
    assert _ma(g, s) == 10


def test_tv11_and_an_m2_makes_seven() -> None:
    g = game()
    s = state(g)
    for c in ("a-team-1", "truck-1", "m2-1"):
        put(s, c, "1010")
    _group(g, s, "a-team-1", "truck-1", "m2-1")
    assert _ma(g, s) == 7


def test_tv12_truck_moving_with_a_basic_four_team_is_ten() -> None:
    g = game()
    s = state(g)
    put(s, "b-team-1", "1010")
    put(s, "truck-1", "1010")
    _group(g, s, "truck-1", "b-team-1")  # whoever starts the move, the total is the same
    assert _ma(g, s) == 10


def test_tv13_h36_m2_and_team_is_26() -> None:
    g = game()
    s = state(g)
    for c in ("a-team-1", "h-36-1", "m2-1"):
        put(s, c, "1010")
    _group(g, s, "a-team-1", "h-36-1", "m2-1")
    assert _ma(g, s) == 26


def test_tv14_minus_zero_item_does_not_slow() -> None:
    g = game()
    s = state(g)
    put(s, "a-team-1", "1010")
    put(s, "radio-1", "1010")  # printed -0
    _group(g, s, "a-team-1", "radio-1")
    assert g.world.counters["radio-1"].ma == 0 and _ma(g, s) == 4


def test_tv15_three_enemies_appear_on_a_three() -> None:
    g = game()
    s = state(g)
    put(s, "a-team-1", "1010")
    s["agenda"] = [{"t": "detected", "hex": "1010", "evade": False}]
    from rules.green_beret_vietnam import flow
    facts: list = []
    n = len(s["enemy_pool"])
    # d6 = 3; then per enemy: the pool draw, direction, distance
    d = dice(3, 1, 1, 2, 1, 3, 3, 1, 4, 4)
    flow.run(s, g.world, d, facts)
    assert len(s["enemies"]) == 3 and len(s["enemy_pool"]) == n - 3
    assert "3 enemy unit(s) appear" in texts(facts)


@pytest.mark.parametrize("die,base", [(1, 10), (2, 20), (3, 30), (4, 40), (5, 50), (6, 60)])
def test_tv16_base_values(die: int, base: int) -> None:
    assert totals(die, 0, 0, 1, 0)[0] == base


def test_tv17_jungle_penalty_minus_twenty() -> None:
    a, _, _ = totals(2, 3, -20, 1, 0)  # attack total 23 against a jungle hex
    assert a == 3


def test_tv18_the_combat_example_of_13_5() -> None:
    g = game()
    s = state(g, "combat")
    for c in ("b-team-1", "officer-1", "lmg-1", "ac-47-1"):
        put(s, c, "1010")
    enemy(s, "vc-platoon-1", "1011")
    s["gb"]["b-team-1"]["detected"] = True  # enemies are on the map only while a team is detected
    fp, parts = gb_fp(s, g.world, "1010")
    assert fp == 21 and parts == {"b-team-1": 2, "officer-1": 1, "lmg-1": 3, "ac-47-1": 15}
    out = g.apply(s, "player", {"type": "attack", "hex": "1010", "enemy": "vc-platoon-1"}, dice(2, 3))
    f = next(x for x in out.facts if x.kind == "combat" and "attack_total" in x.data)
    assert (f.data["attack_total"], f.data["defend_total"], f.data["result"]) == (41, 40, "attacker")
    assert "vc-platoon-1" not in out.state["enemies"] and "vc-platoon-1" in out.state["enemy_pool"]
    assert not out.state["gb"]["b-team-1"]["damage"]
    assert not any(x.kind in ("spawn", "scatter") for x in out.facts)  # no combat noise (12.4)
    assert "no combat noise" in texts(out.facts)


def test_tv19_the_h34_of_the_play_example() -> None:
    g = game()
    s = state(g)
    load = ["commander-1", "m2-1", "m1919-1", "m60-1", "rpk-1", "radio-1", "intel-1", "grenades-1",
            "medical-kit-1"]
    for c in ["a-team-1", "h-34-1", "jeep-1", "animals-1"] + load:
        put(s, c, "1010")
    _group(g, s, "a-team-1", "h-34-1", *load)  # Commander + 8 other counters
    assert movement.capacity(g.world, s["moving"]["members"]) == (9, 17)
    assert movement.total_ma(s, g.world, ["a-team-1", "h-34-1"], 0) == 29
    assert _ma(g, s) == 22  # 29 - (3 + 2 + 1 + 1)
    for c in ("jeep-1", "animals-1"):
        with pytest.raises(IllegalAction):
            movement.join(s, g.world, c)
    s["moving"] = None
    assert movement.can_begin(s, g.world, "jeep-1") and movement.can_begin(s, g.world, "animals-1")


def test_tv20_zero_never_one_always() -> None:
    assert not is_detected(10, 12)
    assert is_detected(1, 0) and is_detected(1, -3)
    assert isinstance(GreenBeretVietnam().title, str)
