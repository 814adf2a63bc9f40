"""The digest's derived vectors DV-01..DV-40 (a stated rule applied to chosen numbers), one test each."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.game import IllegalAction
from rules.green_beret_vietnam import flow, missions, movement
from rules.green_beret_vietnam.board import gb_fp, net_score, noise_total, requirement_met, walk_wrapped
from rules.green_beret_vietnam.combat import suppression_succeeds, suppression_targets, suppressors
from rules.green_beret_vietnam.detection import is_detected
from rules.green_beret_vietnam.missions import assassination_wins
from tests.green_beret_vietnam.gbv_helpers import camp, dice, enemy, game, mission, put, real, state, texts

W0 = real().world


def run(g: Any, s: dict[str, Any], tasks: list[dict[str, Any]], *values: int) -> list[Any]:
    facts: list[Any] = []
    s["agenda"] = tasks + s["agenda"]
    flow.run(s, g.world, dice(*values), facts)
    return facts


def pool_die(s: dict[str, Any], key: str, chit: str) -> int:
    return s[key].index(chit) + 1


# -- 7.0 placement -----------------------------------------------------------------------------
def test_dv01_assassinate_potentate_by_die() -> None:
    m = next(m for m in W0.missions.values() if m.name == "Assassinate Potentate")
    assert [m.hex_for(d) for d in range(1, 7)] == ["2636", "2636", "1221", "1221", "1031", "1031"]


def test_dv02_train_the_new_guys_on_six() -> None:
    m = next(m for m in W0.missions.values() if m.name == "Train the New Guys")
    assert m.hex_for(6) == "1023"


def test_dv03_mission_on_a_base_camp_is_accomplished() -> None:
    g = game()
    s = state(g, "procurement")
    put(s, "a-team-1", "1010")
    camp(s, "2636")  # Assassinate Potentate (m01) on 1-2
    facts: list[Any] = []
    missions.draw_and_place(s, g.world, dice(1, 2), facts)
    assert s["mission"] is None and s["tally"]["accomplished"] == ["m01"] and s["pp"] == 112
    assert "accomplished automatically" in texts(facts)


def test_dv04_mission_on_a_detected_team_is_accomplished() -> None:
    g = game()
    s = state(g, "procurement")
    put(s, "a-team-1", "1221", detected=True)  # m01 on 3-4, no items at all
    facts: list[Any] = []
    missions.draw_and_place(s, g.world, dice(1, 3), facts)
    assert s["tally"]["accomplished"] == ["m01"]


# -- 6.1 requirements ----------------------------------------------------------------------------
def test_dv05_interdict() -> None:
    g = game()
    s = state(g)
    h = mission(s, g.world, "Interdict")
    for c in ("a-team-1", "rpk-1", "mines-1", "booby-trap-1"):
        put(s, c, h)
    assert requirement_met(s, g.world, s["mission"]["id"], h)[0]
    s["gb"]["mines-1"].update(status="supply", hex=None)
    ok, missing = requirement_met(s, g.world, s["mission"]["id"], h)
    assert not ok and missing == ["Mines"]


def test_dv06_gather_intel_needs_night_vision() -> None:
    g = game()
    s = state(g)
    h = mission(s, g.world, "Gather Intel")
    put(s, "a-team-1", h)
    put(s, "night-vision-1", h)
    assert requirement_met(s, g.world, s["mission"]["id"], h)[0]


def test_dv07_passing_through_does_not_accomplish() -> None:
    g = game()
    s = state(g)
    h = mission(s, g.world, "Demolish Infrastructure")  # 1236
    put(s, "a-team-1", "1235")
    put(s, "demo-1", "1235")
    s = g.apply(s, "player", {"type": "begin_move", "counter": "a-team-1"}, dice()).state
    s = g.apply(s, "player", {"type": "join", "counter": "demo-1"}, dice()).state
    s = g.apply(s, "player", {"type": "step", "hex": h}, dice()).state
    out = g.apply(s, "player", {"type": "step", "hex": "1136"}, dice()).state
    out = g.apply(out, "player", {"type": "end_move"}, dice(10))
    assert out.state["mission"] is not None and not out.state["tally"]["accomplished"]
    # stopping in the hex does
    back = g.apply(s, "player", {"type": "end_move"}, dice(10))
    assert back.state["mission"] is None and back.state["tally"]["accomplished"] == [s["mission"]["id"]]


# -- 12.0 noise ----------------------------------------------------------------------------------
def test_dv08_noise_five() -> None:
    assert is_detected(5, 5) and not is_detected(6, 5)


def test_dv09_two_teams_leaders_items_in_jungle() -> None:
    g = game({"1010": "jungle"})
    s = state(g)
    for c in ("a-team-1", "b-team-1", "commander-1", "officer-1", "radio-1", "m60-1", "night-vision-1"):
        put(s, c, "1010")
    a, b = g.world.counters["a-team-1"].noise, g.world.counters["b-team-1"].noise
    items = 1 + 1 - 1
    total, _ = noise_total(s, g.world, "1010", quiet=False)
    assert total == a + b + 2 + items + 1


def test_dv10_quiet_move_on_a_road_has_no_terrain_noise() -> None:
    g = game({"1009": ("grassland", ["road"])})
    s = state(g)
    put(s, "a-team-1", "1009")
    assert noise_total(s, g.world, "1009", quiet=True)[1]["terrain"] == 0
    assert noise_total(s, g.world, "1009", quiet=False)[1]["terrain"] == 3


def test_dv11_quiet_move_into_a_stream_keeps_minus_one() -> None:
    g = game({"1009": "stream"})
    s = state(g)
    put(s, "a-team-1", "1009")
    assert noise_total(s, g.world, "1009", quiet=True)[1]["terrain"] == -1


# -- movement --------------------------------------------------------------------------------------
def _ma1_team(terrain: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    g = game(terrain)
    s = state(g)
    for c in ("a-team-1", "m1919-1", "demo-1"):  # 4 - 2 - 1 = 1
        put(s, c, "1010")
    movement.begin(s, g.world, "a-team-1")
    movement.join(s, g.world, "m1919-1")
    movement.join(s, g.world, "demo-1")
    return g, s


def test_dv12_minimum_move_into_jungle() -> None:
    g, s = _ma1_team({"1009": "jungle"})
    assert movement.remaining(s, g.world, s["moving"]) == 1
    out = g.apply(s, "player", {"type": "step", "hex": "1009"}, dice())
    assert movement.remaining(out.state, g.world, out.state["moving"]) == 0
    assert "Minimum move" in texts(out.facts)
    end = g.apply(out.state, "player", {"type": "end_move"}, dice(10))
    noise = next(f for f in end.facts if f.kind == "noise")
    assert noise.data["quiet"] is True and noise.data["parts"]["terrain"] == 0


def test_dv13_minimum_move_cannot_enter_full_water() -> None:
    g, s = _ma1_team({"1009": "full_water"})
    assert "1009" not in movement.legal_steps(s, g.world, s["moving"])
    with pytest.raises(IllegalAction, match="blue hexagon"):
        g.apply(s, "player", {"type": "step", "hex": "1009"}, dice())


def test_dv14_highest_cost_only() -> None:
    g = game({"1009": ("jungle_mountain", ["road"]), "1008": ("stream", ["road", "bridge"])})
    assert g.world.hexes["1009"].mp == 3  # {3, 1} -> 3
    assert g.world.hexes["1008"].mp == 2  # {2, 1, 1} -> 2, not 4


def test_dv15_raft_pays_one_per_water_hex() -> None:
    g = game({"1009": "stream", "1008": "stream", "1007": "full_water"})
    s = state(g)
    put(s, "a-team-1", "1010")
    put(s, "raft-1", "1010")
    movement.begin(s, g.world, "a-team-1")
    movement.join(s, g.world, "raft-1")
    start = movement.remaining(s, g.world, s["moving"])
    for h in ("1009", "1008", "1007"):
        s = g.apply(s, "player", {"type": "step", "hex": h}, dice()).state
    assert s["moving"]["spent"] == 3 and movement.remaining(s, g.world, s["moving"]) == start - 3
    t = state(g)
    put(t, "a-team-1", "1010")
    movement.begin(t, g.world, "a-team-1")
    assert movement.entry_cost(t, g.world, t["moving"], "1009")[0] == 2
    t["moving"]["hex"] = "1008"
    assert movement.entry_cost(t, g.world, t["moving"], "1007")[0] is None


def test_dv16_pbr_on_water_only_and_never_carried() -> None:
    g = game({h: "full_water" for h in ("1010", "1009", "1008", "1007", "1006", "1005")} | {"1110": "grassland"})
    s = state(g)
    put(s, "pbr-1", "1010")
    put(s, "b-team-1", "1110")
    s = g.apply(s, "player", {"type": "begin_move", "counter": "pbr-1"}, dice()).state
    for h in ("1009", "1008", "1007", "1006", "1005"):
        s = g.apply(s, "player", {"type": "step", "hex": h}, dice()).state
    assert s["moving"]["spent"] == 5
    assert "1105" not in movement.legal_steps(s, g.world, s["moving"])  # land: illegal (11.2)
    t = state(g)
    put(t, "pbr-1", "1010")
    put(t, "truck-1", "1010")
    movement.begin(t, g.world, "truck-1")
    with pytest.raises(IllegalAction):
        movement.join(t, g.world, "pbr-1")  # no plus counter carries the PBR
    u = state(g)
    put(u, "pbr-1", "1010")
    put(u, "a-team-1", "1010")
    movement.begin(u, g.world, "a-team-1")
    movement.join(u, g.world, "pbr-1")  # the PBR carries the team on the water...
    assert "1110" not in movement.legal_steps(u, g.world, u["moving"])  # ...never the team the PBR onto land


# -- 12.8 scatter ----------------------------------------------------------------------------------
def test_dv17_direction_one_distance_three_is_due_north() -> None:
    assert walk_wrapped(W0, "1015", 0, 3) == "1012"
    g = game()
    s = state(g)
    put(s, "a-team-1", "1015", detected=True)
    e = s["enemy_pool"][0]
    facts = run(g, s, [{"t": "spawn", "hex": "1015", "why": "noise"}], 1, 1, 1, 3)
    assert s["enemies"][e]["hex"] == "1012" and "scatters 1-3 (N, 3 hexes)" in texts(facts)


def test_dv18_full_water_returns_the_unit_without_redraw() -> None:
    g = game({"1012": "full_water"})
    s = state(g)
    put(s, "a-team-1", "1015", detected=True)
    n = len(s["enemy_pool"])
    facts = run(g, s, [{"t": "spawn", "hex": "1015", "why": "noise"}], 2, 1, 1, 3, 1, 4, 1)
    assert len(s["enemies"]) == 1 and len(s["enemy_pool"]) == n - 1
    assert "full water, back to the pool, not redrawn" in texts(facts)


def test_dv19_circled_unit_on_a_stream_returns() -> None:
    g = game({"1012": "stream"})
    s = state(g)
    put(s, "a-team-1", "1015", detected=True)
    tank = "pt-76-1"
    facts = run(g, s, [{"t": "spawn", "hex": "1015", "why": "noise"}], 1, pool_die(s, "enemy_pool", tank), 1, 3)
    assert tank in s["enemy_pool"] and not s["enemies"]
    assert "circled" in texts(facts)


def test_dv20_wrap_from_the_north_edge() -> None:
    assert walk_wrapped(W0, "1002", 0, 4) == "1034"  # 1001, then 1036, 1035, 1034
    g = game()
    s = state(g)
    put(s, "a-team-1", "1002", detected=True)
    facts = run(g, s, [{"t": "spawn", "hex": "1002", "why": "noise"}], 1, 1, 1, 4)
    assert list(s["enemies"].values())[0]["hex"] == "1034" and "opposite edge" in texts(facts)
    assert walk_wrapped(W0, "2610", 2, 1) == "0111"  # off the east edge, back in from the west


# -- 13.0 combat and 13.1 damage ---------------------------------------------------------------------
def _fight(terrain: dict[str, Any] | None = None, gb: tuple[str, ...] = ("b-team-1",), foe: str = "vc-platoon-1",
           at: str = "1011", phase: str = "combat") -> tuple[Any, dict[str, Any]]:
    g = game(terrain)
    s = state(g, phase)
    for c in gb:
        put(s, c, "1010")
    s["gb"][gb[0]]["detected"] = True
    enemy(s, foe, at)
    return g, s


def test_dv21_equal_totals_both_lose() -> None:
    g, s = _fight(gb=("b-team-1", "officer-1", "m1919-1", "radio-1"), phase="enemy")  # FP 2 + 1 + 7 = 10
    marker = pool_die(s, "damage_pool", "wounded-1")
    facts = run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}],
                3, 3, marker, 1)  # 30 + 10 + 0 = 40 against 30 + 10 = 40
    f = next(x for x in facts if "attack_total" in x.data)
    assert f.data["attack_total"] == f.data["defend_total"] == 40 and f.data["result"] == "both"
    assert "vc-platoon-1" not in s["enemies"]
    assert s["gb"]["b-team-1"]["damage"] == ["wounded-1"]
    assert s["decision"]["kind"] == "lose_item" and s["decision"]["left"] == 1  # d6 = 1 of the 2 items
    assert "no combat noise" in texts(facts)


def test_dv22_first_damage_and_two_items_lost_by_choice() -> None:
    g, s = _fight(gb=("a-team-1", "radio-1", "intel-1", "m60-1"), phase="enemy")
    marker = pool_die(s, "damage_pool", "carrying-wounded-1")
    run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}], 6, 1, marker, 2)
    assert s["gb"]["a-team-1"]["damage"] == ["carrying-wounded-1"]
    assert s["decision"] == {"kind": "lose_item", "hex": "1010", "options": ["intel-1", "radio-1", "m60-1"],
                             "left": 2}
    s = g.apply(s, "player", {"type": "lose_item", "item": "radio-1"}, dice(1, 1, 1, 1)).state
    s = g.apply(s, "player", {"type": "lose_item", "item": "m60-1"}, dice(1, 1, 1, 1, 1, 1, 1, 1, 1)).state
    assert s["gb"]["radio-1"]["status"] == "supply" and s["gb"]["m60-1"]["status"] == "supply"
    assert s["gb"]["intel-1"]["status"] == "map"


def test_dv23_second_damage_eliminates_and_the_other_team_claims() -> None:
    g, s = _fight(gb=("a-team-1", "b-team-1", "radio-1", "intel-1", "m60-1"), phase="enemy")
    s["gb"]["a-team-1"]["damage"] = ["wounded-1"]
    s["damage_pool"].remove("wounded-1")
    marker = pool_die(s, "damage_pool", "shaken-1")
    run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}], 6, 1)
    assert s["decision"]["kind"] == "damage_team"
    s = g.apply(s, "player", {"type": "damage_team", "team": "a-team-1"}, dice(marker, 1, 1, 1, 1, 1)).state
    assert s["gb"]["a-team-1"]["status"] == "supply" and s["tally"]["teams_lost"] == ["a-team-1"]
    assert "wounded-1" in s["damage_pool"] and "shaken-1" in s["damage_pool"]
    # d6 = 1: one item lost by choice, then B Team 1 claims the rest within its limits
    assert s["decision"]["kind"] == "lose_item"
    s = g.apply(s, "player", {"type": "lose_item", "item": "radio-1"}, dice(1, 1, 1, 1, 1, 1, 1, 1, 1)).state
    assert s["gb"]["intel-1"]["status"] == "map" and s["gb"]["m60-1"]["status"] == "map"


def test_dv24_officer_killed_without_officer() -> None:
    g, s = _fight(gb=("a-team-1", "radio-1"), phase="enemy")
    marker = pool_die(s, "damage_pool", "officer-killed-1")
    facts = run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}], 6, 1, marker,
                1, 1, 1, 1)
    assert not s["gb"]["a-team-1"]["damage"] and "officer-killed-1" in s["damage_pool"]
    assert s["gb"]["radio-1"]["status"] == "map"  # no item loss
    assert "no effect" in texts(facts)


def test_dv25_commander_killed_spares_a_damaged_team() -> None:
    g, s = _fight(gb=("a-team-1", "commander-1"), phase="enemy")
    s["gb"]["a-team-1"]["damage"] = ["wounded-1"]
    s["damage_pool"].remove("wounded-1")
    marker = pool_die(s, "damage_pool", "commander-killed-1")
    run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}], 6, 1, marker,
        1, 1, 1, 1)
    assert s["gb"]["commander-1"]["status"] == "supply" and s["tally"]["leaders_lost"] == ["commander-1"]
    assert s["gb"]["a-team-1"]["status"] == "map" and s["gb"]["a-team-1"]["damage"] == ["wounded-1"]


def test_dv26_anti_tank_doubles_against_a_circled_attacker() -> None:
    g, s = _fight(gb=("a-team-1", "m72-1"), foe="pt-76-1", phase="enemy")
    assert gb_fp(s, g.world, "1010", vs_circled=True)[0] == 3 + 8
    facts = run(g, s, [{"t": "combat", "attacker": "enemy", "enemy": "pt-76-1", "hex": "1010"}], 1, 6, 1, 1, 1, 1)
    f = next(x for x in facts if "attack_total" in x.data)
    assert f.data["gb_fp"] == 11 and f.data["anti_tank"] == ["m72-1"]
    assert gb_fp(s, g.world, "1010", vs_circled=False)[0] == 7  # not when it attacks (AMBIG-41)


# -- 15.0 suppression ------------------------------------------------------------------------------
def _suppression() -> tuple[Any, dict[str, Any]]:
    g = game()
    s = state(g, "enemy")
    s["enemy_step"] = "suppression"
    for c in ("a-team-1", "officer-1", "m60-1"):
        put(s, c, "1010")
    s["gb"]["a-team-1"]["detected"] = True
    enemy(s, "vc-platoon-1", "1013")  # 3 hexes
    enemy(s, "vc-platoon-2", "1016")  # 6 hexes
    return g, s


@pytest.mark.parametrize("die,ok", [(4, True), (3, False)])
def test_dv27_suppression_roll_against_distance(die: int, ok: bool) -> None:
    g, s = _suppression()
    s = g.apply(s, "player", {"type": "suppress", "item": "m60-1", "enemy": "vc-platoon-1"}, dice()).state
    out = g.apply(s, "player", {"type": "end_suppression"}, dice(die, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    f = next(x for x in out.facts if x.kind == "suppression" and "die" in x.data)
    assert f.data["success"] is ok and f.data["distance"] == 3
    moves = [x for x in out.facts if x.kind == "pursuit" and x.data.get("enemy") == "vc-platoon-1"]
    assert ("suppressed" in moves[0].text) is ok


def test_dv28_six_hexes_never_suppressed() -> None:
    assert not suppression_succeeds(6, 6)
    g, s = _suppression()
    assert "vc-platoon-2" not in suppression_targets(s, g.world, "m60-1")


def test_dv29_officers_never_suppress() -> None:
    g, s = _suppression()
    assert "officer-1" not in suppressors(s, g.world)
    with pytest.raises(IllegalAction, match="15.0"):
        g.apply(s, "player", {"type": "suppress", "item": "officer-1", "enemy": "vc-platoon-1"}, dice())


# -- 16.0 assassination -----------------------------------------------------------------------------
def _assassination(outcome: str, d6: int, d10: int) -> dict[str, Any]:
    g = game()
    s = state(g, "movement", assassination=True)
    put(s, "a-team-1", "1010")
    put(s, "b-team-1", "1212")
    put(s, "officer-1", "1212")
    run(g, s, [{"t": "assassination", "outcome": outcome}], d6, d10, 1, 1, 1, 1, 1, 1)
    return s


def test_dv30_accomplished_d6_5_d10_3_gains_8() -> None:
    assert assassination_wins("accomplished", 5, 3)
    s = _assassination("accomplished", 5, 3)
    assert s["pp"] == 108 and s["decision"] == {"kind": "spend"}


def test_dv31_accomplished_tie_loses_a_team_and_a_leader() -> None:
    assert not assassination_wins("accomplished", 3, 3)
    s = _assassination("accomplished", 3, 3)
    assert s["decision"]["kind"] == "assassinate_team"


def test_dv32_abandoned_d10_zero_beats_six() -> None:
    assert assassination_wins("abandoned", 6, 10)
    assert _assassination("abandoned", 6, 10)["pp"] == 116


def test_dv33_abandoned_tie_loses() -> None:
    assert not assassination_wins("abandoned", 4, 4)
    g = game()
    s = _assassination("abandoned", 4, 4)
    s = g.apply(s, "player", {"type": "assassinate_team", "team": "b-team-1"}, dice(1, 1, 1)).state
    assert s["tally"]["teams_lost"] == ["b-team-1"] and s["tally"]["leaders_lost"] == ["officer-1"]


# -- 5.0 ----------------------------------------------------------------------------------------------
def test_dv34_net_score_with_and_without_leaders() -> None:
    g = game()
    s = state(g)
    s["tally"] = {"accomplished": [f"m{i:02d}" for i in range(1, 13)], "abandoned": ["m13", "m14"],
                  "teams_lost": ["a-team-2"], "leaders_lost": []}
    assert net_score(s) == 9 and g.world.level(9).name == "Commendation"
    s["tally"]["leaders_lost"] = ["officer-2"]
    assert net_score(s) == 8 and g.world.level(8).name == "Sufficient record"
    s["options"]["leaders_count"] = False
    assert net_score(s) == 9


def test_dv35_the_victory_table() -> None:
    names = [W0.level(n).name for n in (0, 2, 4, 6, 8, 10, 14, 20, 27, 29, 30)]
    assert names == ["Court-martial", "Demotion", "Reassignment", "Insufficient record", "Sufficient record",
                     "Commendation", "Promotion", "Decorated", "Decorated and promoted", "National hero",
                     "Medal of Honor"]


# -- 12.11, 12.4, 12.10, 10.4, 14.0 ---------------------------------------------------------------------
def test_dv36_relocation_pays_seven_and_leaves_the_counters() -> None:
    g = game()
    s = state(g, "procurement")
    k = camp(s, "1010")
    put(s, "a-team-1", "1010")
    put(s, "radio-1", "1010")
    s = g.apply(s, "player", {"type": "relocate", "camp": k}, dice(7)).state
    assert s["pp"] == 93
    s = g.apply(s, "player", {"type": "relocate_to", "hex": "2020"}, dice()).state
    assert s["camps"][k]["hex"] == "2020"
    assert s["gb"]["a-team-1"]["hex"] == "1010" and s["gb"]["radio-1"]["hex"] == "1010"


def test_dv37_the_only_detected_team_reaches_a_camp() -> None:
    g = game()
    s = state(g)
    camp(s, "1009")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    enemy(s, "checkpoint-1", "2020")
    s = g.apply(s, "player", {"type": "begin_move", "counter": "a-team-1"}, dice()).state
    out = g.apply(s, "player", {"type": "step", "hex": "1009"}, dice())
    assert not out.state["gb"]["a-team-1"]["detected"] and not out.state["enemies"]
    assert "all 2 enemy unit(s) return to the pool" in texts(out.facts)


def test_dv38_enemy_enters_an_empty_camp() -> None:
    g = game()
    s = state(g, "enemy")
    k = camp(s, "1012")
    put(s, "radio-1", "1012")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    s["enemies"]["vc-platoon-1"]["mp"] = 4
    facts = run(g, s, [{"t": "enemy_move", "enemy": "vc-platoon-1"}])
    assert s["enemies"]["vc-platoon-1"]["hex"] == "1011"
    assert s["camps"][k]["status"] == "destroyed" and s["gb"]["radio-1"]["status"] == "supply"
    assert "eliminated for good" in texts(facts)


def test_dv39_enemy_enters_a_lone_jeep() -> None:
    g = game()
    s = state(g, "enemy")
    put(s, "jeep-1", "1012")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    s["enemies"]["vc-platoon-1"]["mp"] = 4
    run(g, s, [{"t": "enemy_move", "enemy": "vc-platoon-1"}])
    assert s["gb"]["jeep-1"]["status"] == "supply"


def test_dv40_naval_gunfire_scatter_hits_the_firing_stack() -> None:
    g, s = _fight(gb=("a-team-1", "naval-gunfire-1", "radio-1", "commander-1"))
    # the enemy is in 1011, the firing team in 1010: north of it, scatter die 1
    out = g.apply(s, "player", {"type": "attack", "hex": "1010", "enemy": "vc-platoon-1"}, dice(6, 1, 1))
    st = out.state
    assert all(st["gb"][c]["status"] == "supply" for c in ("a-team-1", "naval-gunfire-1", "radio-1", "commander-1"))
    assert "naval" in {f.kind for f in out.facts} and st["phase"] == "over"  # the last team: defeat (5.0)
    assert out.state["result"]["defeat"]
