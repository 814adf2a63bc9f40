"""Scenario tests: sequences of actions played through `apply` on the synthetic map."""

from __future__ import annotations

import pytest
from aob_helpers import act, land, new_game, oob_doc, play, position, texts, world

from rules.core.dice import fixed_dice
from rules.core.game import IllegalAction

G, B = "germany", "belgium"


def moves(uid, *hexes, tank_battle=False):
    out = [(G, {"type": "select", "unit": uid}, [])]
    for i, h in enumerate(hexes):
        a = {"type": "move", "hex": h}
        if tank_battle and i == len(hexes) - 1:
            a["tank_battle"] = True
        out.append((G, a, []))
    return out


def illegal(g, s, seat, action):
    with pytest.raises(IllegalAction) as err:
        g.apply(s, seat, action, fixed_dice([]))
    return err.value


# -- set-up (AoB 2) ---------------------------------------------------------------------------

def test_setup_aob_2_place_unplace_standard_done():
    w = world()
    g, s = new_game(w)
    assert g.active_seats(s) == [B]
    assert {"type": "done_setup"} not in g.legal_actions(s, B)
    s = act(g, s, B, {"type": "select", "unit": "b_inf1"}).state
    e = illegal(g, s, B, {"type": "place", "hex": "0605"})
    assert e.rule == "AoB 2.1" and "sets up in Belgium" in e.message
    assert illegal(g, s, B, {"type": "place", "hex": "0101"}).rule == "AoB 5.7"
    s = act(g, s, B, {"type": "place", "hex": "0404"}).state
    s = act(g, s, B, {"type": "unplace", "unit": "b_inf1"}).state
    assert s["units"]["b_inf1"]["status"] == "unplaced"
    e = illegal(g, s, B, {"type": "done_setup"})
    assert e.rule == "AoB 2.1" and "still to place" in e.message
    s = act(g, s, B, {"type": "standard_setup"}).state
    assert s["units"]["b_inf1"]["hex"] == "0305"
    s = act(g, s, B, {"type": "done_setup"}).state
    assert g.active_seats(s) == [G] and s["phase"] == "setup_germany"
    e = illegal(g, s, B, {"type": "standard_setup"})
    assert "not belgium's turn" in e.message
    s = act(g, s, G, {"type": "select", "unit": "g_pz1"}).state
    assert illegal(g, s, G, {"type": "place", "hex": "0505"}).rule == "AoB 2.2"
    s, _ = play(g, s, [(G, {"type": "standard_setup"}, []), (G, {"type": "done_setup"}, [])])
    assert s["phase"] == "german_land_move"


def test_setup_stacking_aob_4_1():
    w = world()
    g, s = new_game(w)
    for u in ("b_inf1", "b_inf2", "b_inf3"):
        s, _ = play(g, s, [(B, {"type": "select", "unit": u}, []), (B, {"type": "place", "hex": "0404"}, [])])
    units = oob_doc()["units"] + [land("b_inf4", "belgium", "infantry", 2, 2, 4)]
    w2 = world(units=units)
    g2, s2 = new_game(w2)
    for u in ("b_inf1", "b_inf2", "b_inf3"):
        s2, _ = play(g2, s2, [(B, {"type": "select", "unit": u}, []), (B, {"type": "place", "hex": "0404"}, [])])
    s2 = act(g2, s2, B, {"type": "select", "unit": "b_inf4"}).state
    e = illegal(g2, s2, B, {"type": "place", "hex": "0404"})
    assert e.rule == "AoB 4.1" and "already holds 3 Belgian land units" in e.message
    # aircraft have no stacking limit
    s2 = act(g2, s2, B, {"type": "select", "unit": "b_ftr"}).state
    act(g2, s2, B, {"type": "place", "hex": "0404"})


# -- movement (AoB 5, 13) -------------------------------------------------------------------

def test_move_not_enough_mp_and_stop_in_enemy_hex():
    w = world({"0505": {"terrain": "forest"}, "0604": {"terrain": "rough"}})
    g, s = position(w, {"g_inf2": "0705", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_inf2", "0704", "0604"))  # 1 + 2: 1 MP left of 4
    e = illegal(g, s, G, {"type": "move", "hex": "0505"})
    assert (e.message, e.rule) == ("not enough movement points: entering 0505 (forest) costs 2, 1 left", "AoB 5.3")
    e = illegal(g, s, G, {"type": "move", "hex": "0405"})
    assert e.rule == "AoB 5.2"
    s = act(g, s, G, {"type": "move", "hex": "0504"}).state
    assert s["units"]["g_inf2"]["done"] is True  # 0 MP left: the unit's move is over
    e = illegal(g, s, G, {"type": "select", "unit": "g_inf2"})
    assert e.rule == "AoB 5.3"


def test_enemy_hex_stops_the_unit_aob_5_4_and_vector_aob_5_5():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_pz2": "0606", "b_inf1": "0505"})
    s, facts = play(g, s, moves("g_pz1", "0505"))
    b = s["battles"][0]
    assert (b["n"], b["hex"], b["origin"]) == (1, "0505", "0605")
    e = illegal(g, s, G, {"type": "select", "unit": "g_pz1"})
    assert (e.message, e.rule) == ("1. Panzer entered an enemy-occupied hex and must stop", "AoB 5.4")
    s, facts = play(g, s, moves("g_pz2", "0506", "0505"))  # joins battle 1; the first vector stays
    assert len(s["battles"]) == 1 and s["battles"][0]["origin"] == "0605"
    assert "7. Panzer joins battle 1 at 0505" in texts(facts)


def test_river_costs_1_and_gives_attacker_minus_1():
    w = world(rivers=["0505/0605"])
    g, s = position(w, {"g_pz1": "0605", "b_inf1": "0505"})
    s, facts = play(g, s, moves("g_pz1", "0505"))
    assert "1. Panzer moves 0605 → 0505 (2 MP, 3 left)" in texts(facts)
    s, facts = play(g, s, [(G, {"type": "end_movement"}, [4])])
    assert any("attack 6 −1 river (Meuse) = 5" in x and "differential +1" in x for x in texts(facts))


def test_optional_rule_refuses_nl_and_france():
    w = world()
    g, s = position(w, {"g_pz1": "0805", "b_inf1": "0505"}, no_entry_nl_france=True)
    s = act(g, s, G, {"type": "select", "unit": "g_pz1"}).state
    e = illegal(g, s, G, {"type": "move", "hex": "0905"})
    assert e.rule == "AoB 18.1" and "Netherlands" in e.message
    g, s = position(w, {"g_pz1": "0805", "b_inf1": "0505"})
    s = act(g, s, G, {"type": "select", "unit": "g_pz1"}).state
    s = act(g, s, G, {"type": "move", "hex": "0905"}).state
    s = act(g, s, G, {"type": "move", "hex": "1005"}).state  # France, allowed by default (AoB 5.8)
    assert s["units"]["g_pz1"]["hex"] == "1005"


def test_tank_battle_needs_1_mp_left_aob_15_4():
    w = world({"0505": {"terrain": "forest"}})
    g, s = position(w, {"g_pz1": "0805", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0705", "0605", "0604"))  # 2 MP left; forest costs 2
    assert {"type": "move", "hex": "0505"} in g.legal_actions(s, G)
    assert {"type": "move", "hex": "0505", "tank_battle": True} not in g.legal_actions(s, G)
    e = illegal(g, s, G, {"type": "move", "hex": "0505", "tank_battle": True})
    assert e.rule == "AoB 15.4" and "at least 1 MP left" in e.message
    g, s = position(w, {"g_inf1": "0605", "b_inf1": "0505"})
    s = act(g, s, G, {"type": "select", "unit": "g_inf1"}).state
    assert illegal(g, s, G, {"type": "move", "hex": "0505", "tank_battle": True}).rule == "AoB 15.1"


# -- reaction (AoB 6) -----------------------------------------------------------------------

def test_reaction_must_end_next_to_a_battle_and_never_enters_one():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_inf2": "0703", "b_inf1": "0505", "b_inf3": "0302"})
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    assert s["phase"] == "belgian_reaction" and g.active_seats(s) == [B]
    legal = g.legal_actions(s, B)
    assert {"type": "select", "unit": "b_inf1"} not in legal  # in battle: cannot react
    assert illegal(g, s, B, {"type": "select", "unit": "b_inf1"}).rule == "AoB 6.1"
    s = act(g, s, B, {"type": "select", "unit": "b_inf3"}).state
    s = act(g, s, B, {"type": "move", "hex": "0402"}).state  # 0302 -> 0402: not yet next to 0505
    assert {"type": "end_unit_move"} not in g.legal_actions(s, B)
    assert {"type": "end_reaction"} not in g.legal_actions(s, B)
    e = illegal(g, s, B, {"type": "end_unit_move"})
    assert e.rule == "AoB 6.1" and "next to a battle hex" in e.message
    s = act(g, s, B, {"type": "move", "hex": "0403"}).state
    s = act(g, s, B, {"type": "move", "hex": "0404"}).state  # next to 0505
    e = illegal(g, s, B, {"type": "move", "hex": "0505"})
    assert e.rule == "AoB 6.2"
    s = act(g, s, B, {"type": "end_unit_move"}).state
    assert s["units"]["b_inf3"]["hex"] == "0404"


def test_reaction_cannot_enter_german_hex():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_inf2": "0404", "b_inf1": "0505", "b_inf3": "0403"})
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    s = act(g, s, B, {"type": "select", "unit": "b_inf3"}).state
    e = illegal(g, s, B, {"type": "move", "hex": "0404"})
    assert e.rule == "AoB 6.2" and "German units" in e.message


def test_reaction_order_option_air_first():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_bmb": "0805", "b_inf1": "0505", "b_inf3": "0302"},
                    reaction_before_german_air=False)
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    assert s["phase"] == "german_air"
    s = act(g, s, G, {"type": "end_air"}).state
    assert s["phase"] == "belgian_reaction"  # Belgian air had nothing to fly: skipped


# -- land combat ------------------------------------------------------------------------------

def test_defender_r_result_retreat_choice_excludes_vector_origin():
    w = world()
    g, s = position(w, {"g_pz2": "0605", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz2", "0505") + [(G, {"type": "end_movement"}, [6])])  # 7 vs 4: +3, 6 -> 0-2R
    assert s["combat"]["step"] == "defender_retreat" and g.active_seats(s) == [B]
    legal = g.legal_actions(s, B)
    assert {"type": "retreat", "hex": "0605"} not in legal
    assert {"type": "retreat", "hex": "0504"} in legal and {"type": "take_hit"} in legal
    e = illegal(g, s, B, {"type": "retreat", "hex": "0605"})
    assert e.rule == "AoB 14.2"
    s = act(g, s, B, {"type": "take_hit"}).state  # stays, 3 hits
    assert s["units"]["b_inf1"]["hits"] == 3
    s = act(g, s, G, {"type": "continue"}).state
    out = act(g, s, B, {"type": "continue"}, [5])  # next round: 7 vs 1: +6, die 5 -> 0-2
    assert "1st Infantry is eliminated" in texts(out.facts)
    assert out.state["phase"] == "over" and out.state["battles"][0]["winner"] == G


def test_excess_hits_assigned_by_belgium_one_at_a_time():
    w = world()
    g, s = position(w, {"g_pz2": "0605", "b_inf1": "0505", "b_inf2": "0505", "b_inf3": "0505"})
    s["units"]["b_inf3"]["hits"] = 2
    s, _ = play(g, s, moves("g_pz2", "0505") + [(G, {"type": "end_movement"}, [])])
    # 7 vs 3rd Infantry 3-2 = 1: +6, die 6 -> 0-3R: 1 hit eliminates, 2 excess.
    s, facts = play(g, s, [(B, {"type": "choose_fighter", "unit": "b_inf3"}, [6])])
    assert s["combat"]["step"] == "assign_hits" and s["combat"]["pending_hits"] == 2
    assert g.legal_actions(s, B) == [{"type": "assign_hit", "unit": "b_inf1"}, {"type": "assign_hit", "unit": "b_inf2"}]
    s, _ = play(g, s, [(B, {"type": "assign_hit", "unit": "b_inf1"}, []),
                       (B, {"type": "assign_hit", "unit": "b_inf2"}, [])])
    assert s["units"]["b_inf1"]["hits"] == 1 and s["units"]["b_inf2"]["hits"] == 1
    assert s["combat"]["step"] == "attacker_withdraw"


def test_voluntary_withdrawal_aob_11_9():
    w = world()
    g, s = position(w, {"g_pz2": "0605", "g_inf1": "0605", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz2", "0505") + moves("g_inf1", "0505")
                + [(G, {"type": "end_movement"}, [])])
    s, _ = play(g, s, [(G, {"type": "choose_fighter", "unit": "g_pz2"}, [4])])  # +3, 4 -> 0-1
    assert s["combat"]["step"] == "attacker_withdraw"
    s = act(g, s, G, {"type": "withdraw", "unit": "g_inf1", "hex": "0605"}).state
    assert s["combat"]["step"] == "attacker_withdraw"  # asked again
    s = act(g, s, G, {"type": "continue"}).state
    assert s["combat"]["step"] == "defender_withdraw"
    s = act(g, s, B, {"type": "withdraw", "unit": "b_inf1", "hex": "0504"}).state
    assert s["battles"][0]["winner"] == G


# -- tank battles (AoB 15) ----------------------------------------------------------------

def test_infantry_as_fighting_unit_removes_the_marker_aob_15_10():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_inf1": "0606", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0505", tank_battle=True) + moves("g_inf1", "0506", "0505")
                + [(G, {"type": "end_movement"}, [])])
    assert s["battles"][0]["marker"] == 3
    s, facts = play(g, s, [(G, {"type": "choose_fighter", "unit": "g_inf1"}, [6])])  # 5 vs 4: +1, 6 -> 0-1R
    assert any(f.rule == "AoB 15.10" for f in facts)
    s, facts = play(g, s, [(B, {"type": "retreat", "hex": "0504"}, [])])
    assert s["battles"][0]["winner"] == G and s["battles"][0]["marker_removed"]
    assert s["phase"] == "over"  # no pursuit


def test_pursuit_and_attack_with_two_groups_aob_15_11_15_12():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_pz2": "0606", "b_inf1": "0505", "b_inf3": "0404"})
    s, _ = play(g, s, moves("g_pz1", "0505", tank_battle=True) + moves("g_pz2", "0506", "0505")
                + [(G, {"type": "end_movement"}, [])])
    assert s["phase"] == "belgian_reaction" or s["phase"] == "combat"
    while s["phase"] != "combat":
        s = act(g, s, g.active_seats(s)[0], {"type": "end_reaction"} if s["phase"] == "belgian_reaction"
                else {"type": "end_air"}).state
    s, _ = play(g, s, [(G, {"type": "choose_fighter", "unit": "g_pz2"}, [6])])  # 7 vs 4: +3, 6 -> 0-2R
    s = act(g, s, B, {"type": "retreat", "hex": "0506"}).state
    assert s["combat"]["step"] == "pursuit"
    legal = g.legal_actions(s, G)
    assert {"type": "pursue", "hex": "0506"} in legal and {"type": "attack", "hex": "0404"} in legal
    assert illegal(g, s, G, {"type": "attack", "hex": "0506"}).rule == "AoB 15.6"
    s = act(g, s, G, {"type": "pursuit_toggle", "unit": "g_pz2"}).state
    assert s["combat"]["pursuit"]["selected"] == ["g_pz1"]
    s = act(g, s, G, {"type": "pursue", "hex": "0506"}).state
    assert s["combat"]["step"] == "pursuit"  # 7. Panzer is left: another group
    out = act(g, s, G, {"type": "attack", "hex": "0404"}, [1])  # battle 2 starts at once: 6 vs 2, die 1
    s = out.state
    b2, b3 = s["battles"][1], s["battles"][2]
    assert (b2["hex"], b2["marker"], b2["origin"]) == ("0506", 1, "0505")
    assert (b3["hex"], b3["marker"]) == ("0404", 1)
    assert s["combat"]["battle"] == 2 and s["combat"]["queue"] == [3]


def test_pursuit_group_infantry_needs_same_movement_aob_15_9():
    units = oob_doc()["units"] + [land("g_inf9", "germany", "infantry", 3, 3, 4, "Infanterie 9")]
    w = world(units=units)
    g, s = position(w, {"g_pz1": "0605", "g_inf1": "0606", "g_inf9": "0604", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0505", tank_battle=True) + moves("g_inf1", "0506", "0505")
                + moves("g_inf9", "0505") + [(G, {"type": "end_movement"}, [])])  # pz 6 vs 4: +2, 6 -> 0-2R
    # the single-choice fighting units were decided automatically? Germany has three units: it chooses.
    assert s["combat"]["step"] == "attacker_unit"
    s = act(g, s, G, {"type": "choose_fighter", "unit": "g_pz1"}, [6]).state
    s = act(g, s, B, {"type": "retreat", "hex": "0504"}).state
    assert s["combat"]["step"] == "pursuit"
    legal = g.legal_actions(s, G)
    assert {"type": "pursuit_toggle", "unit": "g_inf1"} in legal  # movement 5, like 1. Panzer
    assert {"type": "pursuit_toggle", "unit": "g_inf9"} not in legal  # movement 4
    assert illegal(g, s, G, {"type": "pursuit_toggle", "unit": "g_inf9"}).rule == "AoB 15.9"
    s = act(g, s, G, {"type": "pursuit_toggle", "unit": "g_inf1"}).state
    s = act(g, s, G, {"type": "pursue", "hex": "0504"}).state  # two units: Germany picks the fighter
    assert s["units"]["g_inf1"]["hex"] == "0504" and s["units"]["g_inf9"]["hex"] == "0505"


def test_no_pursuit_when_defender_eliminated():
    w = world()
    g, s = position(w, {"g_pz2": "0605", "b_inf3": "0505"})
    s["units"]["b_inf3"]["hits"] = 2
    s, _ = play(g, s, moves("g_pz2", "0505", tank_battle=True) + [(G, {"type": "end_movement"}, [5])])
    assert s["phase"] == "over"


# -- air (AoB 8-10, 16) -------------------------------------------------------------------

def test_escort_and_interception_bomber_round():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_ftr": "0805", "g_bmb": "0805", "b_ftr": "0303", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    s, facts = play(g, s, [(G, {"type": "fly", "unit": "g_ftr", "hex": "0505"}, []),
                           (G, {"type": "fly", "unit": "g_bmb", "hex": "0505"}, []),
                           (G, {"type": "end_air"}, []),
                           (B, {"type": "fly", "unit": "b_ftr", "hex": "0505"}, []),
                           # fighters: 6+6 and 6+6 (no effect); Gladiator engages Ju 87: 1+1 = 2 at +1 -> E;
                           # Ju 87 fires back: 6+6 -> -; the land round needs one die: 4.
                           (B, {"type": "end_air"}, [6, 6, 6, 6, 1, 1, 6, 6, 4])])
    t = texts(facts)
    assert "Gladiator engages Ju 87" in t
    assert "Air combat: Gladiator (3) vs Ju 87 (2), column +1, 2d6=2 → E: Ju 87 eliminated, removed from the game" in t
    assert "Air combat: Ju 87 (2) vs Gladiator (3), column -1, 2d6=12 → - (no effect)" in t
    assert s["units"]["g_bmb"]["status"] == "removed"


def test_aa_nd_result_removes_the_bomber():
    w = world({"0305": {"city": {"name": "Brussels", "kind": "hex_city", "aa": 5}}})
    g, s = position(w, {"g_inf1": "0405", "g_bmb": "0805", "b_inf1": "0305"})
    s, facts = play(g, s, moves("g_inf1", "0305") + [
        (G, {"type": "end_movement"}, []), (G, {"type": "fly", "unit": "g_bmb", "hex": "0305"}, []),
        (G, {"type": "end_air"}, [6, 4])])  # AA 6 -> 4D; land: 5 vs 6: -1, die 4 -> R1-0
    assert s["units"]["g_bmb"]["status"] == "removed"
    assert any("removed from the game" in x and x.startswith("AA fire") for x in texts(facts))


def test_belgian_bomber_defensive_support():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "b_bmb": "0303", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    s, facts = play(g, s, [(B, {"type": "fly", "unit": "b_bmb", "hex": "0505"}, []),
                           (B, {"type": "end_air"}, []),
                           (B, {"type": "choose_bomber", "unit": "b_bmb"}, [3])])  # 6 vs 4 + 3 = 7: -1, 3 -> 2-2
    assert any("+3 Fairey Battle" in x and "differential -1" in x for x in texts(facts))


def test_fly_beyond_range_refused():
    units = [u if u["id"] != "g_bmb" else {**u, "range": 2} for u in oob_doc()["units"]]
    w = world(units=units)
    g, s = position(w, {"g_pz1": "0605", "g_bmb": "0805", "g_ftr": "0805", "b_inf1": "0505"})
    s, _ = play(g, s, moves("g_pz1", "0505") + [(G, {"type": "end_movement"}, [])])
    assert s["phase"] == "german_air"
    assert {"type": "fly", "unit": "g_ftr", "hex": "0505"} in g.legal_actions(s, G)
    e = illegal(g, s, G, {"type": "fly", "unit": "g_bmb", "hex": "0505"})
    assert (e.message, e.rule) == ("0505 is 3 hexes from Ju 87's base 0805, beyond its range 2", "AoB 9.1")
    e = illegal(g, s, G, {"type": "fly", "unit": "g_ftr", "hex": "0504"})
    assert e.rule == "AoB 8.2"


# -- victory (AoB 3) --------------------------------------------------------------------------

def test_germany_wins_holding_brussels_and_antwerp():
    w = world()
    g, s = position(w, {"g_pz1": "0405", "g_pz2": "0402", "b_inf3": "0909"})
    s, facts = play(g, s, moves("g_pz1", "0305") + moves("g_pz2", "0302") + [(G, {"type": "end_movement"}, [])])
    assert s["phase"] == "over"
    o = g.outcome(s)
    assert (o.winner, o.rule) == (G, "AoB 3")
    assert g.active_seats(s) == [] and g.legal_actions(s, G) == []


def test_belgium_wins_when_germany_does_nothing():
    w = world()
    g, s = position(w, {"g_pz1": "0705", "b_inf1": "0305", "b_inf2": "0302"})
    s = act(g, s, G, {"type": "end_movement"}).state
    assert g.outcome(s).winner == B and "Brussels and Antwerp" in g.outcome(s).reason
    assert illegal(g, s, G, {"type": "end_movement"}).rule == "AoB 17.2"


def test_germany_wins_brussels_by_battle():
    w = world()
    g, s = position(w, {"g_pz2": "0405", "g_pz1": "0402", "b_inf3": "0305"})
    # 7 -2 hex city = 5 vs 3 + 2 = 5: 0, die 6 -> 0-1 (three times: eliminated)
    s, _ = play(g, s, moves("g_pz1", "0302") + moves("g_pz2", "0305") + [(G, {"type": "end_movement"}, [6])])
    while s["phase"] != "over":
        seat = g.active_seats(s)[0]
        legal = g.legal_actions(s, seat)
        a = {"type": "continue"} if {"type": "continue"} in legal else legal[0]
        s = g.apply(s, seat, a, fixed_dice([6])).state
    assert g.outcome(s).winner == G


# -- more edge cases --------------------------------------------------------------------------

def test_attackers_excess_hits_are_lost_aob_11_8_reading():
    w = world()
    g, s = position(w, {"g_inf2": "0605", "b_inf1": "0505"})
    s["units"]["g_inf2"]["hits"] = 3
    # 2. Infanterie 4-3 = 1 vs 4: -3, die 1 -> R2-0: one hit eliminates, the second is lost.
    s, facts = play(g, s, moves("g_inf2", "0505") + [(G, {"type": "end_movement"}, [1])])
    t = texts(facts)
    assert "2. Infanterie is eliminated" in t and "1 excess hit(s) on the attacker are lost" in t
    assert s["battles"][0]["winner"] == B and s["units"]["b_inf1"]["hits"] == 0


def test_no_retreat_hex_means_the_extra_hit_aob_14_4():
    sea = {"terrain": "sea", "country": "SEA"}
    w = world({"0504": sea, "0506": sea, "0405": sea, "0404": sea})
    g, s = position(w, {"g_pz2": "0605", "g_inf2": "0604", "b_inf1": "0505"})
    s["units"]["g_inf2"]["done"] = True
    # 7 vs 4: +3, die 6 -> 0-2R; every retreat hex is sea, German-held or the vector's base.
    s, facts = play(g, s, moves("g_pz2", "0505") + [(G, {"type": "end_movement"}, [6])])
    assert s["units"]["b_inf1"]["hits"] == 3 and s["units"]["b_inf1"]["hex"] == "0505"
    assert "1st Infantry takes 1 hit (instead of retreating, AoB 11.6): now 2-1-6" in texts(facts)


def test_aircraft_retreat_with_the_unit_and_fight_again_after_pursuit_aob_14_5_15_8():
    w = world()
    g, s = position(w, {"g_pz1": "0605", "g_ftr": "0805", "b_inf1": "0505", "b_bmb": "0303"})
    s, _ = play(g, s, moves("g_pz1", "0505", tank_battle=True) + [(G, {"type": "end_movement"}, [])])
    assert s["battles"][0]["marker"] == 3
    s, facts = play(g, s, [(G, {"type": "fly", "unit": "g_ftr", "hex": "0505"}, []),
                           (G, {"type": "end_air"}, []),
                           (B, {"type": "fly", "unit": "b_bmb", "hex": "0505"}, []),
                           (B, {"type": "end_air"}, [6, 6, 6, 6]),  # Bf 109 engages the Battle: no effect
                           (B, {"type": "no_bomber"}, [6]),  # 6 vs 4: +2, die 6 -> 0-2R
                           (B, {"type": "retreat", "hex": "0504"}, [])])
    assert "Fairey Battle leaves the battle with 1st Infantry" in texts(facts)
    assert s["units"]["b_bmb"]["mission"] is None and s["units"]["b_bmb"]["with"] == "b_inf1"
    out = act(g, s, G, {"type": "pursue", "hex": "0504"}, [6, 6, 6, 6])
    t = texts(out.facts)
    assert "Bf 109 goes along to battle 2" in t
    assert "Fairey Battle is with the pursued unit: a new air combat round will follow" in t
    assert t.count("Bf 109 engages Fairey Battle") == 1
    assert out.state["units"]["b_bmb"]["mission"] == 2
    assert out.state["combat"]["step"] == "defender_bomber"
