"""Scenario tests: sequences of actions through `apply`, from set-up to the victory check."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.game import IllegalAction
from rules.green_beret_vietnam import movement
from tests.green_beret_vietnam.gbv_helpers import camp, dice, enemy, game, mission, put, real, state, texts


def play(g: Any, s: dict[str, Any], *steps: tuple[dict[str, Any], tuple[int, ...]]) -> tuple[dict[str, Any], list]:
    facts: list = []
    for action, values in steps:
        out = g.apply(s, "player", action, dice(*values))
        g.check_state(out.state)
        facts += out.facts
        s = out.state
    return s, facts


def test_a_whole_mission_from_set_up_to_the_victory_check() -> None:
    """Real map: camp at 0509, Drop-off Agent drawn and placed in 0711 (d6 = 1); A Team 1 and the
    Commander walk 0609 → 0610 → 0711 (2 + 2 + 1 of 6 MP), stop there, are not heard (d10 = 0);
    the mission is accomplished (+5 PP); no enemy; net 1 = Demotion; the player ends the game."""
    g = real()
    s = g.setup("campaign", {}, dice(34, 33))
    assert g.legal_actions(s, "player")[0]["type"] == "place_camp"
    s, facts = play(g, s,
                    ({"type": "place_camp", "hex": "0509"}, (11, 1)),
                    ({"type": "done"}, ()),
                    ({"type": "begin_move", "counter": "a-team-1"}, ()),
                    ({"type": "join", "counter": "commander-1"}, ()),
                    ({"type": "step", "hex": "0609"}, ()),
                    ({"type": "step", "hex": "0610"}, ()),
                    ({"type": "step", "hex": "0711"}, ()),
                    ({"type": "end_move"}, (10,)),
                    ({"type": "end_movement"}, ()))
    text = texts(facts)
    assert "Mission drawn: Drop-off Agent" in text and "placed in 0711" in text
    drawn = next(f for f in facts if f.kind == "mission" and "die" in f.data)
    assert (drawn.data["pool_die"], drawn.data["die"], drawn.rule) == (11, 1, "GBV 7.0")
    assert "Mission Drop-off Agent accomplished by A Team 1 stopping in 0711: +5 PP (now 105)" in text
    assert "rolled 0 (10) on d10: not detected (a 0 never detects)" in text
    assert "Friendly Combat Phase: no team is next to an enemy, skipped" in text
    assert "no enemy on the map" in text
    assert s["phase"] == "victory" and "= 1: Demotion (降格)" in text
    s, facts = play(g, s, ({"type": "continue"}, (1, 3)))
    assert s["phase"] == "procurement" and s["turn"] == 2 and s["mission"]["id"] == "m01"
    s, facts = play(g, s, ({"type": "end_game"}, ()))
    o = g.outcome(s)
    assert o is not None and o.result == "Demotion (降格), net 1" and g.legal_actions(s, "player") == []
    with pytest.raises(IllegalAction, match="over"):
        g.apply(s, "player", {"type": "continue"}, dice())


def test_detection_pursuit_attack_and_back_to_the_sanctuary() -> None:
    """A noise check fails (d10 = 1 always detects), the player stays, an enemy appears and
    chases; it attacks and wins; the team is damaged, loses one item by choice, and combat noise
    brings another enemy; next turn the team walks into its base camp and every enemy goes home."""
    g = game({"1012": "jungle"})
    s = state(g)
    k = camp(s, "1015")
    mission(s, g.world, "Scout Location")
    for c in ("a-team-1", "radio-1", "intel-1"):
        put(s, c, "1013")
    s, facts = play(g, s,
                    ({"type": "begin_move", "counter": "a-team-1"}, ()),
                    ({"type": "join", "counter": "radio-1"}, ()),
                    ({"type": "join", "counter": "intel-1"}, ()),
                    ({"type": "step", "hex": "1012"}, ()),
                    ({"type": "end_move"}, (1,)))
    assert s["decision"] == {"kind": "evade", "hex": "1012", "options": [k]}
    assert "rolled 1 on d10: detected (a 1 always detects)" in texts(facts)
    p1 = s["enemy_pool"].index("vc-platoon-1") + 1
    s, facts = play(g, s, ({"type": "stay"}, (1, p1, 1, 3)))
    text = texts(facts)
    assert "1 enemy unit(s) appear near 1012 (rolled 1 on d6)" in text
    assert "VC Platoon (vc-platoon-1) scatters 1-3 (N, 3 hexes) from 1012 to 1009" in text
    sc = next(f for f in facts if f.kind == "scatter")
    # 3.6: the fact does not give the draw's place in the pool (it would point at the PP markers)
    assert (sc.rule, sc.data["pool_die"], sc.data["direction"], sc.data["distance"]) == ("GBV 12.8", None, 1, 3)
    assert s["gb"]["a-team-1"]["detected"]
    marker = s["damage_pool"].index("wounded-1") + 1
    # no weapon to suppress with: the enemy acts at once; it closes 1009 → 1010 → 1011 and attacks
    s, facts = play(g, s, ({"type": "end_movement"}, (6, 1, marker, 1)))
    text = texts(facts)
    assert "VC Platoon (vc-platoon-1) pursues the detected team at 1012: 1009 → 1010 → 1011 (2 of 4 MP left)" in text
    assert "6×10 + 10 + terrain -20 = 50 against 1×10 + 3 = 13: the attacker wins" in text
    assert s["gb"]["a-team-1"]["damage"] == ["wounded-1"]
    assert s["decision"]["kind"] == "lose_item" and s["decision"]["left"] == 1
    p2 = s["enemy_pool"].index("vc-squad-1") + 1
    s, facts = play(g, s, ({"type": "lose_item", "item": "intel-1"}, (1, p2, 4, 6)))
    assert s["gb"]["intel-1"]["status"] == "supply" and s["gb"]["radio-1"]["status"] == "map"
    assert "Combat noise: A Team 1 in 1012 detected" in texts(facts)
    assert s["enemies"]["vc-squad-1"]["hex"] == "1018" and s["phase"] == "victory"
    s, facts = play(g, s, ({"type": "continue"}, ()),
                    ({"type": "begin_move", "counter": "a-team-1"}, ()),
                    ({"type": "join", "counter": "radio-1"}, ()),
                    ({"type": "step", "hex": "1013"}, ()),
                    ({"type": "step", "hex": "1014"}, ()))
    assert movement.remaining(s, g.world, s["moving"]) == 1  # MA 4, wounded -1
    s, facts = play(g, s, ({"type": "step", "hex": "1015"}, ()))
    assert not s["enemies"] and not s["gb"]["a-team-1"]["detected"]
    assert "all 2 enemy unit(s) return to the pool" in texts(facts)


def test_kill_double_agent_abandoned_under_the_optional_rule_pays_and_is_spent_at_once() -> None:
    g = game()
    s = state(g, "procurement", assassination=True)
    k = camp(s, "1010")
    put(s, "a-team-1", "1010")
    mission(s, g.world, "Kill Double-Agent")
    s, facts = play(g, s, ({"type": "abandon"}, (2, 9)))  # d10 9 > d6 2: +11 PP
    assert s["pp"] == 111 and s["decision"] == {"kind": "spend"} and s["tally"]["abandoned"]
    assert "Assassination (abandoned): d10 9 > d6 2: +11 PP" in texts(facts)
    s, facts = play(g, s, ({"type": "buy", "kind": "m21", "camp": k}, ()))
    assert s["decision"] == {"kind": "spend"} and s["gb"]["m21-1"]["hex"] == "1010"
    s, facts = play(g, s, ({"type": "done_spending"}, ()))
    assert s["decision"] is None and s["phase"] == "procurement"


def test_no_mission_left_ends_the_game_at_its_level() -> None:
    g = game()
    s = state(g, "victory")
    put(s, "a-team-1", "1010")
    s["mission_pool"] = []
    s["tally"]["accomplished"] = [f"m{i:02d}" for i in range(1, 18)]
    s["tally"]["abandoned"] = [f"m{i:02d}" for i in range(18, 31)]
    s, facts = play(g, s, ({"type": "continue"}, ()))
    o = g.outcome(s)
    assert o is not None and o.result == "Reassignment (配置換え), net 4"
    assert "no mission is left in the pool" in o.reason


def test_a_pbr_camp_at_set_up() -> None:
    g = real()
    w = g.world
    h = next(x for x in w.pbr_hexes if x in w.coastal)
    s = g.setup("campaign", {}, dice(34, 33))
    s, facts = play(g, s, ({"type": "place_camp", "hex": h, "pbr": True}, (11, 1)))
    assert s["pp"] == 100 - 20 + 10
    assert s["camps"]["camp-1"]["pbr"] and s["gb"]["pbr-1"]["hex"] == h
    assert not any(a["type"] == "relocate" for a in g.legal_actions(s, "player"))  # AMBIG-4b
    # the second PBR can only come with a camp of its own
    buys = [a for a in g.legal_actions(s, "player") if a["type"] == "buy" and a["kind"] == "pbr"]
    assert buys == []


def test_naval_gunfire_held_in_defence_has_no_scatter() -> None:
    g = game()
    s = state(g, "enemy")
    for c in ("a-team-1", "naval-gunfire-1"):
        put(s, c, "1010")
    s["gb"]["a-team-1"]["detected"] = True
    enemy(s, "vc-platoon-1", "1011")
    s["agenda"] = [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}, {"t": "enemy_end"}]
    from rules.green_beret_vietnam import flow
    f: list = []
    flow.run(s, g.world, dice(), f)
    assert s["decision"]["kind"] == "naval"
    held, facts = play(g, s, ({"type": "hold_naval"}, (1, 6)))
    assert not any(x.kind == "naval" for x in facts) and held["gb"]["naval-gunfire-1"]["left"]
    used, facts = play(g, s, ({"type": "use_naval"}, (1, 6, 4)))
    assert any(x.kind == "naval" for x in facts)  # 14.0 after the combat, whatever its result


def test_claiming_the_items_of_an_eliminated_team() -> None:
    g = game()
    s = state(g, "enemy")
    items = ["radio-1", "intel-1", "m60-1", "rpk-1", "mines-1", "tools-1", "flares-1", "svd-1"]
    for c in ["a-team-1", "b-team-1"] + items:
        put(s, c, "1010")
    s["gb"]["a-team-1"]["damage"] = ["wounded-1"]
    s["damage_pool"].remove("wounded-1")
    s["gb"]["a-team-1"]["detected"] = True
    enemy(s, "nva-company-1", "1011")
    s["agenda"] = [{"t": "combat", "attacker": "enemy", "enemy": "nva-company-1", "hex": "1010"}, {"t": "enemy_end"}]
    from rules.green_beret_vietnam import flow
    flow.run(s, g.world, dice(6, 1), [])
    marker = s["damage_pool"].index("shaken-1") + 1
    s, _ = play(g, s, ({"type": "damage_team", "team": "a-team-1"}, (marker, 1)))
    s, _ = play(g, s, ({"type": "lose_item", "item": "svd-1"}, ()))
    assert s["decision"]["kind"] == "claim" and s["decision"]["room"] == 6  # B Team 1 carries 6
    for c in ("radio-1", "intel-1", "m60-1"):
        s, _ = play(g, s, ({"type": "claim", "item": c}, ()))
    s, facts = play(g, s, ({"type": "claim_done"}, (1,) * 20))
    assert [c for c in items if s["gb"][c]["status"] == "map"] == ["radio-1", "intel-1", "m60-1"]
    assert "not claimed" in texts(facts)


def test_last_team_lost_is_a_defeat_whatever_the_missions() -> None:
    g = game()
    s = state(g, "enemy")
    put(s, "a-team-1", "1010", detected=True)
    s["gb"]["a-team-1"]["damage"] = ["wounded-1"]
    s["damage_pool"].remove("wounded-1")
    s["tally"]["accomplished"] = ["m01", "m02", "m03"]
    for m in ("m01", "m02", "m03"):
        s["mission_pool"].remove(m)
    enemy(s, "vc-platoon-1", "1011")
    s["agenda"] = [{"t": "combat", "attacker": "enemy", "enemy": "vc-platoon-1", "hex": "1010"}, {"t": "enemy_end"}]
    from rules.green_beret_vietnam import flow
    f: list = []
    flow.run(s, g.world, dice(6, 1, s["damage_pool"].index("shaken-1") + 1), f)
    o = g.outcome(s)
    assert o is not None and o.result == "Defeat" and g.active_seats(s) == []
