"""The enemy as the system plays it: pursuit tie-breaks, streams, minimum move, placement (10.6,
11.0, 12.4, 12.8, 12.9; AMBIG-24, AMBIG-31, AMBIG-32, AMBIG-33)."""

from __future__ import annotations

from typing import Any

from rules.green_beret_vietnam import flow
from tests.green_beret_vietnam.gbv_helpers import camp, dice, enemy, game, put, state, texts


def chase(g: Any, s: dict[str, Any], e: str, *values: int) -> list[Any]:
    s["enemies"][e]["mp"] = g.world.enemies[e].ma
    s["agenda"] = [{"t": "enemy_move", "enemy": e}] + s["agenda"]
    facts: list[Any] = []
    flow.run(s, g.world, dice(*values), facts)
    return facts


def test_equally_direct_hexes_lower_cost_first() -> None:
    g = game({"1211": "jungle"})
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1212")  # 1211 (jungle, 2) and 1112 (grassland, 1) both close in
    chase(g, s, "vc-platoon-1")
    # at 1112 the next two (1111, 1011) cost the same and there is no camp: the player chooses
    assert s["decision"] == {"kind": "pursuit_hex", "enemy": "vc-platoon-1", "options": ["1111", "1011"]}
    out = g.apply(s, "player", {"type": "choose_hex", "hex": "1011"}, dice())
    f = next(x for x in out.facts if x.kind == "pursuit")
    assert f.data["path"][0]["hex"] == "1112" and "12.9 footnote" in f.data["path"][0]["why"]
    assert "1112: lower MP cost than 1211 (12.9 footnote)" in f.text
    assert out.state["enemies"]["vc-platoon-1"]["hex"] == "1011"  # next to the team: it stops (AMBIG-33)  # then 1111, next to the team: it stops (AMBIG-33)


def test_equal_cost_closer_to_a_camp_then_the_player() -> None:
    g = game()
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1212")
    w = g.world
    near = next(h for h in ("1411", "1510", "1410", "1309") if w.distance(h, "1211") != w.distance(h, "1112"))
    camp(s, near)
    want = min(("1211", "1112"), key=lambda h: w.distance(h, near))
    facts = chase(g, s, "vc-platoon-1")
    f = next(x for x in facts if x.kind == "pursuit")
    assert f.data["path"][0]["hex"] == want and "closer to a base camp" in f.text
    t = state(g, "enemy")
    put(t, "a-team-1", "1010", detected=True)
    enemy(t, "vc-platoon-1", "1212")
    chase(g, t, "vc-platoon-1")  # no camp at all: the player chooses (12.4 note)
    assert t["decision"] == {"kind": "pursuit_hex", "enemy": "vc-platoon-1", "options": ["1211", "1112"]}
    out = g.apply(t, "player", {"type": "choose_hex", "hex": "1211"}, dice())
    assert out.state["enemies"]["vc-platoon-1"]["hex"] == "1111"
    assert "the player chose 1211" in texts(out.facts)


def test_equally_distant_teams_the_player_chooses_the_target() -> None:
    g = game()
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    put(s, "b-team-1", "1018", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    chase(g, s, "vc-platoon-1")
    assert s["decision"] == {"kind": "target", "enemy": "vc-platoon-1", "options": ["1010", "1018"]}
    out = g.apply(s, "player", {"type": "choose_target", "hex": "1018"}, dice())
    assert out.state["enemies"]["vc-platoon-1"]["hex"] == "1017"


def test_circled_enemy_stops_at_a_stream_but_crosses_a_bridge() -> None:
    g = game({"1013": "stream"})
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "pt-76-1", "1014")
    facts = chase(g, s, "pt-76-1")
    assert s["enemies"]["pt-76-1"]["hex"] == "1014" and "no detour (11.0)" in texts(facts)
    g2 = game({"1013": ("stream", ["road", "bridge"])})
    s2 = state(g2, "enemy")
    put(s2, "a-team-1", "1010", detected=True)
    enemy(s2, "pt-76-1", "1014")
    chase(g2, s2, "pt-76-1")
    assert s2["enemies"]["pt-76-1"]["hex"] == "1011"
    g3 = game({"1013": "stream"})
    s3 = state(g3, "enemy")
    put(s3, "a-team-1", "1010", detected=True)
    enemy(s3, "vc-platoon-1", "1014")  # not circled: streams are fine
    chase(g3, s3, "vc-platoon-1")
    assert s3["enemies"]["vc-platoon-1"]["hex"] == "1011"


def test_enemies_stop_at_full_water() -> None:
    g = game({"1013": "full_water"})
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    chase(g, s, "vc-platoon-1")
    assert s["enemies"]["vc-platoon-1"]["hex"] == "1014"


def test_enemy_minimum_move() -> None:
    g = game({"1013": "jungle_mountain"})
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-1", "1014")
    s["agenda"] = [{"t": "enemy_move", "enemy": "vc-platoon-1"}]
    s["enemies"]["vc-platoon-1"]["mp"] = 2  # a 3-MP hex with 2 MP: one hex for all of them (AMBIG-24)
    facts: list[Any] = []
    flow.run(s, g.world, dice(), facts)
    assert s["enemies"]["vc-platoon-1"]["hex"] == "1013" and "minimum move: 1013 costs 3 MP" in texts(facts)


def test_placement_on_another_team_detects_it_without_more_enemies() -> None:
    g = game()
    s = state(g, "movement")
    put(s, "a-team-1", "1010", detected=True)
    put(s, "b-team-1", "1013")
    e = s["enemy_pool"][0]
    s["agenda"] = [{"t": "spawn", "hex": "1010", "why": "noise"}]
    facts: list[Any] = []
    flow.run(s, g.world, dice(1, 1, 4, 3), facts)  # one enemy, S 3: onto B Team 1
    assert s["enemies"][e]["hex"] == "1013" and s["gb"]["b-team-1"]["detected"]
    assert sum(1 for f in facts if f.kind == "spawn") == 1 and "detected at once" in texts(facts)


def test_a_failed_friendly_attack_makes_combat_noise() -> None:
    g = game()
    s = state(g, "combat")
    put(s, "a-team-1", "1010", detected=True)
    put(s, "radio-1", "1010")
    enemy(s, "vc-platoon-1", "1011")
    marker = s["damage_pool"].index("wounded-1") + 1
    out = g.apply(s, "player", {"type": "attack", "hex": "1010", "enemy": "vc-platoon-1"},
                  dice(1, 6, marker, 1, 1, 1, 4, 6))
    text = texts(out.facts)
    assert "Combat noise: A Team 1 in 1010 detected" in text and "1 enemy unit(s) appear" in text
    assert out.state["gb"]["radio-1"]["status"] == "supply"  # 1 item lost, the only one


def test_mp_never_carried_and_enemy_order_kept() -> None:
    g = game()
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    enemy(s, "vc-platoon-2", "1020")
    enemy(s, "vc-platoon-1", "1030")
    s["enemy_step"] = "resolve"
    s["agenda"] = [{"t": "enemy_moves"}, {"t": "enemy_combats"}, {"t": "enemy_end"}]
    for e in s["enemy_order"]:
        s["enemies"][e]["mp"] = 0
    from rules.green_beret_vietnam.enemy import start_phase
    start_phase(s, g.world)
    facts: list[Any] = []
    flow.run(s, g.world, dice(), facts)
    moves = [f.data["enemy"] for f in facts if f.kind == "pursuit"]
    assert moves == ["vc-platoon-2", "vc-platoon-1"]  # the order they appeared (GAP-19)
    assert s["enemies"]["vc-platoon-2"]["hex"] == "1016" and s["phase"] == "victory"
