"""The worked examples of AoB 22 as named tests (TV-*), on small synthetic positions."""

from __future__ import annotations

import pytest
from aob_helpers import act, land, oob_doc, play, position, texts, world

from rules.assault_on_belgium import combat
from rules.assault_on_belgium.terrain import attack_strength, bomber_support, defense_strength, move_cost
from rules.core.dice import fixed_dice
from rules.core.game import IllegalAction

G, B = "germany", "belgium"


def to_combat(g, s, moves, air=(), belgian_air=()):
    """Play German moves (unit, [hexes], tank_battle on last?) then end the phases up to combat."""
    steps = []
    for uid, hexes, tb in moves:
        steps.append((G, {"type": "select", "unit": uid}, []))
        for i, h in enumerate(hexes):
            a = {"type": "move", "hex": h}
            if tb and i == len(hexes) - 1:
                a["tank_battle"] = True
            steps.append((G, a, []))
    s, facts = play(g, s, steps)
    return s, facts


def test_tv_l1_two_hits_make_5_4_6_a_3_2():
    w = world()
    u = w.units["b_inf1"]  # 5-4-6
    assert attack_strength(w, u, 2, "0505", "0605").value == 3
    assert defense_strength(w, u, 2, "0505").value == 2


def test_tv_l2_four_hits_eliminate_5_4_6():
    w = world()
    g, s = position(w, {"b_inf1": "0505", "g_pz1": "0605"})
    b = {"n": 1, "hex": "0505", "last_defender_exit": None}
    facts = []
    assert combat.add_hits(s, w, b, "b_inf1", 3, facts, "test") == 0
    assert s["units"]["b_inf1"]["status"] == "active"
    assert combat.add_hits(s, w, b, "b_inf1", 1, facts, "test") == 0
    assert s["units"]["b_inf1"]["status"] == "eliminated"
    assert "1st Infantry is eliminated" in texts(facts)


def test_tv_l3_excess_hits_go_to_the_other_defender():
    w = world()
    g, s = position(w, {"b_inf1": "0505", "b_inf3": "0505", "g_pz2": "0605"})
    s["units"]["b_inf1"]["hits"] = 3
    s, _ = to_combat(g, s, [("g_pz2", ["0505"], False)])
    # 7. Panzer 7 vs 1st Infantry 4-3 = 1: differential +6, die 6 -> 0-3R.
    s, facts = play(g, s, [(G, {"type": "end_movement"}, []),
                           (B, {"type": "choose_fighter", "unit": "b_inf1"}, [6])])
    t = texts(facts)
    assert any("differential +6, die 6 → 0-3R" in x for x in t)
    assert "1st Infantry is eliminated" in t
    assert s["units"]["b_inf3"]["hits"] == 2  # the two excess hits, assigned automatically (one candidate)


def test_tv_m1_rough_costs_2():
    w = world({"0505": {"terrain": "rough"}})
    assert move_cost(w, "0605", "0505") == 2


def test_tv_m2_forest_clear_hex_city_sea():
    w = world({"0505": {"terrain": "forest"}, "0504": {"terrain": "hex_city"}})
    assert move_cost(w, "0605", "0505") == 2
    assert move_cost(w, "0605", "0506") == 1
    assert move_cost(w, "0604", "0504") == 1
    assert move_cost(w, "0201", "0101") is None
    g, s = position(w, {"g_pz1": "0201", "b_inf1": "0909"})
    s = act(g, s, G, {"type": "select", "unit": "g_pz1"}).state
    with pytest.raises(IllegalAction) as err:
        g.apply(s, G, {"type": "move", "hex": "0101"}, fixed_dice([]))
    assert err.value.rule == "AoB 5.7"


def test_tv_t1_tank_with_5_mp_left_places_marker_4():
    units = oob_doc()["units"] + [land("g_pz6", "germany", "tank", 6, 5, 6, "6. Panzer")]
    w = world(units=units)
    g, s = position(w, {"g_pz6": "0605", "b_inf1": "0505"})
    s, facts = to_combat(g, s, [("g_pz6", ["0505"], True)])  # 6 MP - 1 clear = 5 left
    b = s["battles"][0]
    assert b["marker"] == 4
    assert any("marker shows 4" in x for x in texts(facts))


def test_tv_t1b_pursuit_into_clear_hex_leaves_marker_2():
    units = oob_doc()["units"] + [land("g_pz6", "germany", "tank", 6, 5, 6, "6. Panzer")]
    w = world(units=units)
    g, s = position(w, {"g_pz6": "0605", "b_inf1": "0505"})
    s, _ = to_combat(g, s, [("g_pz6", ["0505"], True)])
    # 6 vs 4: differential +2, die 6 -> 0-2R; Belgium retreats to the clear hex 0504.
    s, facts = play(g, s, [(G, {"type": "end_movement"}, [6]),
                           (B, {"type": "retreat", "hex": "0504"}, [])])
    assert s["units"]["b_inf1"]["hits"] == 2
    assert s["combat"]["step"] == "pursuit"
    assert {"type": "pursue", "hex": "0504"} in g.legal_actions(s, G)
    out = act(g, s, G, {"type": "pursue", "hex": "0504"}, [3])  # the next battle starts: die 3 at 0504
    nb = out.state["battles"][1]
    assert (nb["hex"], nb["origin"], nb["marker"], nb["parent"]) == ("0504", "0505", 2, 1)
    assert any("marker 4 − 2 = 2" in x for x in texts(out.facts))


def test_tv_aa1_brussels_str3_die4_bomber_tactical_4_to_3():
    w = world()
    g, s = position(w, {"g_inf1": "0405", "g_bmb": "0805", "b_inf1": "0305"})
    s, _ = to_combat(g, s, [("g_inf1", ["0305"], False)])
    s, facts = play(g, s, [(G, {"type": "end_movement"}, []),
                           (G, {"type": "fly", "unit": "g_bmb", "hex": "0305"}, []),
                           (G, {"type": "end_air"}, [4]),  # AA die 4
                           (G, {"type": "choose_bomber", "unit": "g_bmb"}, [4])])
    t = texts(facts)
    aa = next(i for i, x in enumerate(t) if x.startswith("AA fire"))
    assert t[aa] == "AA fire at Brussels (STR 3): die 4 → Ju 87 loses 1: tactical 4 → 3"
    land_ = next(i for i, x in enumerate(t) if x.startswith("Round 1"))
    assert aa < land_  # AoB 16.1: AA first
    # Infanterie 5 + 3 (bomber after AA) vs 4 + 2 (hex city) = 6: +2, die 4 -> 0-1.
    assert "+3 Ju 87" in t[land_] and "differential +2, die 4 → 0-1" in t[land_]


def test_tv_s1_stacking_3_or_5_in_a_tank_battle():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_pz2": "0605", "g_inf1": "0606", "g_inf2": "0604",
                        "b_inf1": "0505"})
    s["units"]["g_inf1"]["hex"] = "0505"  # pretend: two Germans already joined the battle
    s["units"]["g_inf2"]["hex"] = "0505"
    s["battles"].append({"n": 1, "hex": "0505", "origin": "0605", "status": "pending", "marker": None,
                         "marker_removed": False, "parent": None, "round": 0, "aa_loss": {}, "retreats": [],
                         "last_defender_exit": None, "winner": None})
    s["next_battle"] = 2
    for u in ("g_inf1", "g_inf2"):
        s["units"][u]["done"] = True
    s = act(g, s, G, {"type": "select", "unit": "g_pz1"}).state
    s = act(g, s, G, {"type": "move", "hex": "0505"}).state  # third unit: fine
    s = act(g, s, G, {"type": "select", "unit": "g_pz2"}).state
    with pytest.raises(IllegalAction) as err:
        g.apply(s, G, {"type": "move", "hex": "0505"}, fixed_dice([]))
    assert err.value.rule == "AoB 4.1" and "already holds 3 German land units" in err.value.message
    s["battles"][0]["marker"] = 2  # in a tank battle the hex holds 5
    act(g, s, G, {"type": "move", "hex": "0505"})


def test_tv_c1_tank_attacks_infantry_in_forest():
    w = world({"0505": {"terrain": "forest"}})
    g, s = position(w, {"g_pz1": "0605", "b_inf1": "0505"})
    s, _ = to_combat(g, s, [("g_pz1", ["0505"], False)])
    s, facts = play(g, s, [(G, {"type": "end_movement"}, [3])])
    assert any("attack 6 −1 forest = 5" in x and "defense 4 +1 forest = 5" in x and "differential +0, die 3 → R1-0"
               in x for x in texts(facts))
    assert s["units"]["g_pz1"]["hits"] == 1
    assert s["combat"]["step"] == "attacker_retreat"
    legal = g.legal_actions(s, G)
    assert {"type": "take_hit"} in legal and {"type": "retreat", "hex": "0605"} in legal
    taken = act(g, s, G, {"type": "take_hit"}).state
    assert taken["units"]["g_pz1"]["hits"] == 2  # a 2nd hit instead of retreating
    gone = act(g, s, G, {"type": "retreat", "hex": "0605"})
    assert gone.state["units"]["g_pz1"]["hex"] == "0605"
    assert gone.state["battles"][0]["winner"] == "belgium"


def test_tv_c2_bomber_support_capped_at_the_units_strength():
    w = world()
    assert bomber_support(w, w.units["g_bmb"], 0, "0505", 3).value == 3  # tactical 4, attack 3 -> 3


def test_tv_c3_fortress_aa_then_halve_rounding_down():
    w = world({"0505": {"city": {"name": "Namur", "kind": "small_city", "aa": 3}, "fortress": True}})
    m = bomber_support(w, w.units["g_bmb"], 1, "0505", 99)  # 4 - 1 AA = 3, halved = 1 (1.5 rounded down)
    assert m.value == 1
    assert m.text == "4 −1 AA, halved (fortress, rounded down) = 1"
    w2 = world({"0505": {"terrain": "forest", "fortress": True}})
    assert bomber_support(w2, w2.units["g_bmb"], 0, "0505", 99).value == 1  # (4 - 1 forest) // 2


def test_tv_e1_defender_in_hex_city_ignores_0_2R():
    w = world()
    g, s = position(w, {"g_inf1": "0405", "g_bmb": "0805", "b_inf1": "0305"})
    s, _ = to_combat(g, s, [("g_inf1", ["0305"], False)])
    # AA die 1: no loss. 5 + 4 vs 4 + 2: +3, die 6 -> 0-2R.
    s, facts = play(g, s, [(G, {"type": "end_movement"}, []),
                           (G, {"type": "fly", "unit": "g_bmb", "hex": "0305"}, []),
                           (G, {"type": "end_air"}, [1]),
                           (G, {"type": "choose_bomber", "unit": "g_bmb"}, [6])])
    t = texts(facts)
    assert any("differential +3, die 6 → 0-2R" in x for x in t)
    assert "1st Infantry defends a hex city: it ignores the retreat" in t
    assert s["units"]["b_inf1"]["hits"] == 2 and s["units"]["b_inf1"]["hex"] == "0305"


def test_tv_e1_fortress_also_ignores_retreat():
    units = oob_doc()["units"] + [land("g_big", "germany", "infantry", 12, 6, 4, "Sturm")]
    w = world({"0505": {"fortress": True}}, units=units)
    g, s = position(w, {"g_big": "0605", "b_inf1": "0505"})
    s, _ = to_combat(g, s, [("g_big", ["0505"], False)])
    # 12 vs 4 + 2 fortress: +6, die 6 -> 0-3R: hits 3, no retreat.
    s, facts = play(g, s, [(G, {"type": "end_movement"}, [6])])
    assert "1st Infantry defends a fortress: it ignores the retreat" in texts(facts)
    assert s["units"]["b_inf1"]["hex"] == "0505" and s["units"]["b_inf1"]["hits"] == 3


def test_tv_a1_fighter_6_vs_3():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_ftr": "0805", "g_bmb": "0805", "b_ftr": "0303", "b_inf1": "0505"})
    s, _ = to_combat(g, s, [("g_pz1", ["0505"], False)])
    s, facts = play(g, s, [(G, {"type": "end_movement"}, []),
                           (G, {"type": "fly", "unit": "g_ftr", "hex": "0505"}, []),
                           (G, {"type": "fly", "unit": "g_bmb", "hex": "0505"}, []),
                           (G, {"type": "end_air"}, []),
                           (B, {"type": "fly", "unit": "b_ftr", "hex": "0505"}, []),
                           # German shot 4+4 = 8, Belgian shot 3+3 = 6; no bomber round follows.
                           (B, {"type": "end_air"}, [4, 4, 3, 3])])
    t = texts(facts)
    assert "Air combat: Bf 109 (6) vs Gladiator (3), column +3, 2d6=8 → A: Gladiator aborts, removed from the game" in t
    assert "Air combat: Gladiator (3) vs Bf 109 (6), column -3, 2d6=6 → - (no effect)" in t
    assert s["units"]["b_ftr"]["status"] == "removed"
    assert s["units"]["g_ftr"]["status"] == "active" and s["units"]["g_bmb"]["status"] == "active"
    assert not any("engages" in x for x in t)  # the aborted Gladiator cannot reach the Ju 87
