"""Every worked example of the digest's B.3 that the infantry core can play, as a named test
(UF-n), against the rules of the appendix "In the Mountains" (UFM n). The source's own text
examples (UF-1..3) and the entrenchment numbers are checked against the seed's words in
tests/up_front/fixtures/mountains_excerpts.md. UF-18..20 (ordnance, AFVs) play on the vehicle
core of rules version 4: tests/up_front/test_uf_vehicles.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.core.game import IllegalAction
from rules.up_front import altitude as alt
from rules.up_front import fire
from rules.up_front.geometry import altitude_modifier, gully_may_fire, relative_altitude, relative_range
from rules.up_front.table import in_cover
from tests.up_front.uf_helpers import (
    GAME,
    W,
    act,
    cards_of,
    check,
    free,
    give,
    only_card_on_top,
    playing,
    pull,
    set_level,
    set_terrain,
)

EXCERPTS = (Path(__file__).parent / "fixtures" / "mountains_excerpts.md").read_text(encoding="utf-8")


def _fire_parts(s, seat="americans", group="A", target="A"):
    card = give(s, seat, "fire", value=3)
    return fire.strength(s, W, seat, group, "germans" if seat == "americans" else "americans", target, card)


# -- 6.1-6.3: relative altitude, range and fire --------------------------------------------------

def test_uf1_relative_altitude_of_levels_3_and_1_is_2():
    assert "相対高度は2レベル" in EXCERPTS  # the seed's own example (6.1)
    assert relative_altitude(3, 1) == 2 == relative_altitude(1, 3)


def test_uf2_b_at_level_3_and_c_at_level_1_at_rr5_becomes_rr4():
    assert "相対距離は4に減少" in EXCERPTS
    assert relative_range(2, 3, "B", "C", 3, 1) == 4


def test_uf3_a_level_3_target_gets_minus_3_2_1_from_levels_0_1_2():
    for n in (3, 2, 1):
        assert f"-{n}の修正" in EXCERPTS
    assert [altitude_modifier(f, 3, False)[0] for f in (0, 1, 2)] == [-3, -2, -1]


def test_uf4_fire_from_the_same_or_a_higher_level_gives_the_target_no_altitude_modifier():
    s = playing()
    set_level(s, "germans", "A", 3)
    for firer in (3, 4):
        set_level(s, "americans", "A", firer)
        _, parts = _fire_parts(s)
        assert not [p for p in parts if p[2] == "UFM 6.2"]


def test_uf5_firing_down_two_levels_adds_1_and_the_range_drops_by_1():
    s = playing()
    s["groups"]["americans"]["A"]["range"], s["groups"]["germans"]["A"]["range"] = 2, 2
    set_level(s, "americans", "A", 2)
    _, parts = _fire_parts(s)
    assert ("altitude: level 2 fires at level 0", 1, "UFM 6.3") in parts
    assert parts[0][0] == "firepower at RR 3"  # 2 + 2 = 4, −1 for Δ 2


def test_uf6_no_plus_1_against_a_pillbox_but_the_range_still_drops():
    assert "トーチカへの攻撃には適用されない" in EXCERPTS
    s = playing("C")  # the Pillbox is real in C; germans group B sits in it
    s["groups"]["americans"]["B"]["range"], s["groups"]["germans"]["B"]["range"] = 2, 2
    set_level(s, "americans", "B", 4 - 1)
    set_level(s, "germans", "B", 1)
    _, parts = _fire_parts(s, group="B", target="B")
    assert not [p for p in parts if p[2] == "UFM 6.3"]
    assert parts[0][0] == "firepower at RR 3"
    assert ("target in Pillbox", -4, "CORE 3") in parts


def test_uf7_the_range_never_drops_below_0():
    assert relative_range(0, 0, "A", "A", 3, 0) == 0


def test_uf8_lateral_and_altitude_reductions_add_up():
    assert relative_range(2, 3, "A", "C", 2, 0) == 3


def test_uf9_one_level_apart_adjacent_letters_keep_rr5_and_give_1():
    assert relative_range(2, 3, "B", "C", 1, 2) == 5
    assert altitude_modifier(1, 2, False) == (-1, "UFM 6.2")
    assert altitude_modifier(2, 1, False) == (1, "UFM 6.3")


# -- 5.1: changing altitude --------------------------------------------------------------------

def _two_cards_down(s, seat="americans", letter="A"):
    """Two Movement cards on a group, over two turns (the second turn faked), now a later turn."""
    c1, c2 = give(s, seat, "movement"), give(s, seat, "movement", colour="black")
    s = act(s, seat, {"type": "alt_step", "group": letter, "card": c1, "mode": "sideways", "one_card": False}).state
    s["acted"] = []
    s = act(s, seat, {"type": "alt_step", "group": letter, "card": c2, "mode": "forward", "one_card": False}).state
    s["acted"], s["turn_no"] = [], s["turn_no"] + 1
    return s


def test_uf10_an_altitude_change_is_exactly_one_level():
    s = playing()
    g = s["groups"]["americans"]["A"]
    set_level(s, "americans", "A", 2)
    four, three, one = (give(s, "americans", k) for k in ("pillbox", "buildings3", "marsh"))
    with pytest.raises(IllegalAction) as err:
        alt.new_level(s, W, g, four)
    assert err.value.rule == "UFM 5.1.e"
    assert alt.new_level(s, W, g, three) == 3 and alt.new_level(s, W, g, one) == 1


def test_uf11_down_to_level_0_places_no_card_but_a_terrain_card_and_the_hill_goes():
    s = playing()
    set_level(s, "americans", "A", 1)
    hill = s["groups"]["americans"]["A"]["altitude"]
    s = _two_cards_down(s)
    brush = give(s, "americans", "brush")
    r = act(s, "americans", {"type": "altitude", "group": "A", "altitude": None, "card": brush, "as_open": False})
    g = r.state["groups"]["americans"]["A"]
    assert g["altitude"] is None and g["terrain"] == brush and hill in r.state["deck"]["discard"]
    assert g["range"] == 1  # the second card went forward (UFM 5.1.c)
    check(r.state)


def test_uf12_the_altitude_card_needs_a_terrain_card_the_same_turn():
    s = playing()
    s = _two_cards_down(s)
    hill = give(s, "americans", "hill")
    legal = GAME.legal_actions(s, "americans")
    assert all(a["card"] not in (None, a["altitude"]) for a in legal if a["type"] == "altitude")
    with pytest.raises(IllegalAction):  # the altitude card cannot also be its own terrain card
        act(s, "americans", {"type": "altitude", "group": "A", "altitude": hill, "card": hill, "as_open": False})


def test_the_altitude_card_waits_for_a_later_turn():
    s = playing()
    c1, c2 = give(s, "americans", "movement"), give(s, "americans", "movement")
    s = act(s, "americans", {"type": "alt_step", "group": "A", "card": c1, "mode": "sideways", "one_card": False}).state
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "alt_step", "group": "A", "card": c2, "mode": "sideways", "one_card": False})
    assert err.value.rule == "UF C.3"  # one action per group per turn (B.6-7)
    s["acted"] = []
    s = act(s, "americans", {"type": "alt_step", "group": "A", "card": c2, "mode": "sideways", "one_card": False}).state
    s["acted"] = []
    hill, brush = give(s, "americans", "hill"), give(s, "americans", "brush")
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "altitude", "group": "A", "altitude": hill, "card": brush, "as_open": False})
    assert err.value.rule == "UFM 5.1.d"


def test_the_first_movement_card_of_an_altitude_change_is_sideways():
    s = playing()
    c1 = give(s, "americans", "movement")
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "alt_step", "group": "A", "card": c1, "mode": "forward", "one_card": False})
    assert err.value.rule == "UFM 5.1.b"


def test_uf13_level_4_makes_no_normal_move_but_clears_wire():
    s = playing()
    set_level(s, "americans", "A", 4)
    mv = give(s, "americans", "movement")
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "move", "group": "A", "card": mv, "mode": "forward"})
    assert err.value.rule == "UFM 5.4"
    s["groups"]["americans"]["A"]["wire"] = give(s, "germans", "wire")
    s["hands"]["germans"].remove(s["groups"]["americans"]["A"]["wire"])
    r = act(s, "americans", {"type": "remove", "group": "A", "card": mv})
    assert r.state["groups"]["americans"]["A"]["wire"] is None
    check(r.state)


def test_uf14_infiltration_by_relative_altitude():
    s = playing()
    g, t = s["groups"]["americans"]["A"], s["groups"]["germans"]["A"]
    assert alt.infiltration_allowed(W, g, t)  # Δ 0
    set_level(s, "germans", "A", 1)
    assert not alt.infiltration_allowed(W, g, t)  # Δ 1, no cards down (INFERRED)
    g["moves"] = [{"card": "x", "mode": "sideways", "alt": True}, {"card": "y", "mode": "forward", "alt": True}]
    assert alt.infiltration_allowed(W, g, t)  # Δ 1, two cards, the first sideways
    g["moves"][0]["mode"] = "forward"
    assert not alt.infiltration_allowed(W, g, t)
    set_level(s, "germans", "A", 2)
    g["moves"][0]["mode"] = "sideways"
    assert not alt.infiltration_allowed(W, g, t)  # Δ 2 (INFERRED)


def test_uf15_individual_transfer_needs_the_same_altitude():
    s = playing()
    set_level(s, "americans", "A", 1)
    set_level(s, "americans", "B", 2)
    mv = give(s, "americans", "movement")
    man = s["groups"]["americans"]["A"]["men"][0]
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "transfer", "group": "A", "to": "B", "man": man, "card": mv})
    assert err.value.rule == "UFM 5.5"
    set_level(s, "americans", "B", 1)
    r = act(s, "americans", {"type": "transfer", "group": "A", "to": "B", "man": man, "card": mv})
    assert man in r.state["groups"]["americans"]["B"]["men"]


def test_uf16_reinforcements_enter_no_higher_than_the_highest_friendly_group():
    s = playing()
    assert not alt.reinforcement_level_allowed(s, W, [0, 2, 1], 3)
    assert alt.reinforcement_level_allowed(s, W, [0, 2, 1], 2)


def test_uf17_a_gully_fires_up_or_at_rr5_only():
    s = playing()
    set_level(s, "americans", "A", 1)
    set_terrain(s, "americans", "A", "gully")
    set_level(s, "germans", "A", 2)
    s["groups"]["germans"]["B"]["altitude"] = None
    set_level(s, "germans", "B", 1)
    s["groups"]["americans"]["A"]["range"], s["groups"]["germans"]["A"]["range"] = 1, 2
    s["groups"]["germans"]["B"]["range"] = 2
    _fire_parts(s, target="A")  # level 2, RR 3: allowed
    with pytest.raises(IllegalAction) as err:
        _fire_parts(s, target="B")  # level 1, RR 3
    assert err.value.rule == "UFM 6.6"
    assert gully_may_fire(1, 0, 5) and not gully_may_fire(1, 1, 3) and gully_may_fire(1, 1, 3, mortar=True)


# -- 9, 10: entrenchment, environment --------------------------------------------------------------

def _entrench(s, rn):
    card = next(c for c in cards_of("fire") if W.cards[c]["rn"] == rn and (c in s["deck"]["draw"]
                                                                             or c in s["deck"]["discard"]))
    only_card_on_top(s, card)
    return act(s, "americans", {"type": "entrench", "group": "A"}, dice=[]).state["groups"]["americans"]["A"]


@pytest.mark.parametrize("rn,ok", [(0, False), (1, True), (2, False)])
def test_uf21_bare_mountains_dry_entrench_on_1(rn, ok):
    assert "1のRNCを引いた場合だけ成功" in EXCERPTS
    assert _entrench(playing(), rn)["entrenched"] is ok


@pytest.mark.parametrize("rn,ok", [(1, False), (2, True)])
def test_uf22_bare_mountains_mud_entrench_on_2(rn, ok):
    assert "2のRNCを引くと成功" in EXCERPTS
    assert _entrench(playing(condition="mud"), rn)["entrenched"] is ok


@pytest.mark.parametrize("terrain", ["bare", "forested"])
@pytest.mark.parametrize("rn,ok", [(5, True), (4, False), (6, True)])
def test_uf23_frozen_entrench_on_5_or_6(terrain, rn, ok):
    assert "5か6のRNC" in EXCERPTS
    assert _entrench(playing(condition="frozen", terrain_type=terrain), rn)["entrenched"] is ok


def test_the_entrenchment_table_is_b13():
    assert alt.entrenchment_numbers(W, "forested", "dry") == [0]
    assert alt.entrenchment_numbers(W, "bare", "heavy_snow") == [0, 1]
    assert alt.entrenchment_numbers(W, "forested", "mud") == [1]
    assert alt.entrenchment_numbers(W, "bare", "light") == [1]  # INFERRED: as Dry


def test_uf24_heavy_snow_avalanche_on_red_6_only():
    assert "赤6" in EXCERPTS
    assert alt.avalanche(6, "red") and not alt.avalanche(6, "black") and not alt.avalanche(5, "red")


def test_uf24_an_avalanche_at_the_end_of_the_pile_ends_the_game_everyone_losing():
    """The entrenchment draw finds the pile empty: the discards (a lone red 6) are reshuffled, and
    the avalanche check at that end of the pile draws the red 6 (UFM 10.4)."""
    s = playing(condition="heavy_snow")
    red6 = next(c for c in sorted(W.cards) if W.cards[c]["rn"] == 6 and W.cards[c]["colour"] == "red"
                and c in s["deck"]["draw"])
    rest = [c for c in s["deck"]["draw"] + s["deck"]["discard"] if c != red6]
    s["hands"]["germans"].extend(rest)  # every other card out of the way, still accounted for
    s["deck"]["draw"], s["deck"]["discard"] = [], [red6]
    check(s)
    r = act(s, "americans", {"type": "entrench", "group": "A"}, dice=[])
    assert r.state["over"]["result"] == "all lose" and r.state["over"]["rule"] == "UFM 10.4"
    assert GAME.outcome(r.state).winner is None
    assert [f.kind for f in r.facts].count("avalanche") == 1


def test_uf25_mountain_troops_change_altitude_with_one_black_movement_card():
    assert "黒のRNCの移動カード1枚" in EXCERPTS
    s = playing()
    s["turn"] = "germans"
    black, red = give(s, "germans", "movement", colour="black"), give(s, "germans", "movement", colour="red")
    with pytest.raises(IllegalAction):
        act(s, "germans", {"type": "alt_step", "group": "A", "card": red, "mode": "sideways", "one_card": True})
    r = act(s, "germans", {"type": "alt_step", "group": "A", "card": black, "mode": "sideways", "one_card": True})
    assert r.state["groups"]["germans"]["A"]["alt_stage"] == 2
    mud = playing(condition="mud")
    mud["turn"] = "germans"
    black = give(mud, "germans", "movement", colour="black")
    with pytest.raises(IllegalAction) as err:
        act(mud, "germans", {"type": "alt_step", "group": "A", "card": black, "mode": "sideways", "one_card": True})
    assert err.value.rule == "UFM 12.13"
    us = give(s, "americans", "movement", colour="black")
    s["turn"] = "americans"
    with pytest.raises(IllegalAction):  # the Americans of scenario A are line troops here
        act(s, "americans", {"type": "alt_step", "group": "A", "card": us, "mode": "sideways", "one_card": True})


def test_mud_the_second_altitude_card_must_be_black():
    s = playing(condition="mud")
    c1, red = give(s, "americans", "movement"), give(s, "americans", "movement", colour="red")
    s = act(s, "americans", {"type": "alt_step", "group": "A", "card": c1, "mode": "sideways", "one_card": False}).state
    s["acted"] = []
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "alt_step", "group": "A", "card": red, "mode": "forward", "one_card": False})
    assert err.value.rule == "UFM 10.3"


def test_uf26_dyo_elite_on_a_red_number_are_not_mountain_troops():
    assert not alt.dyo_mountain_troops("red") and alt.dyo_mountain_troops("black")


def test_uf27_woods_are_non_functional_in_bare_mountains():
    s = playing()
    mv = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "move", "group": "A", "card": mv, "mode": "forward"}).state
    s["acted"] = []
    woods = give(s, "americans", "woods")
    with pytest.raises(IllegalAction):
        act(s, "americans", {"type": "complete", "group": "A", "card": woods, "as_open": False})
    r = act(s, "americans", {"type": "complete", "group": "A", "card": woods, "as_open": True})
    assert r.state["groups"]["americans"]["A"]["as_open"]  # any card serves as Open Ground (UF C.2)
    forested = playing(terrain_type="forested")
    mv = give(forested, "americans", "movement")
    forested = act(forested, "americans", {"type": "move", "group": "A", "card": mv, "mode": "forward"}).state
    forested["acted"] = []
    woods = give(forested, "americans", "woods")
    act(forested, "americans", {"type": "complete", "group": "A", "card": woods, "as_open": False})


def test_uf28_scenario_c_draws_until_an_altitude_card_and_puts_the_rest_back():
    from rules.core.dice import fixed_dice
    from rules.up_front import prepare

    s = playing("C")
    s["hands"]["germans"] = []
    f, r, h = (pull(s, c) for c in (free(s, "fire"), free(s, "rally"), free(s, "hill")))
    s["deck"]["discard"].extend(s["deck"]["draw"])
    s["deck"]["draw"] = sorted([f, r, h])
    order = sorted([f, r, h])
    dice = fixed_dice([order.index(f) + 1, sorted([r, h]).index(r) + 1])
    prepare.draw_until(s, W, "germans", 1, dice)
    assert s["hands"]["germans"] == [h] and sorted(s["deck"]["draw"]) == sorted([f, r])
    assert s["deck"]["reshuffles"][-1]["why"].startswith("germans's draw-until")


def test_uf29_scenario_v_defender_groups_at_level_0_and_only_the_attacker_draws_altitude():
    from rules.up_front import prepare
    from tests.support.fuzzing import seeded_dice

    s = GAME.setup("V", {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}, seeded_dice(3))
    assert all(g["altitude"] is None for g in s["groups"]["americans"].values())
    s["hands"]["americans"].append(pull(s, free(s, "hill")))
    s["turn"] = "americans"
    assert not [a for a in prepare.prepare_actions(s, W, "americans") if a["type"] == "place"
                and W.cards[a["card"]]["terrain"] == "hill" and a["side"] == "americans"]
    assert not [a for a in prepare.prepare_actions(s, W, "americans") if a["type"] == "draw_altitude"]
    assert not [a for a in prepare.prepare_actions(s, W, "americans", appendix=False) if a["type"] == "place"
                and W.cards[a["card"]]["terrain"] == "hill"]  # rules version 2
    s["hands"]["germans"].append(pull(s, free(s, "hill")))
    s["turn"] = "germans"
    places = [a for a in prepare.prepare_actions(s, W, "germans") if a["type"] == "place"
              and W.cards[a["card"]].get("terrain") == "hill"]
    assert places and all(a["side"] == "germans" for a in places)
    assert {"type": "draw_altitude", "count": 2} in prepare.prepare_actions(s, W, "germans")


def test_uf30_light_conditions_take_1_from_the_fire_strength():
    s = playing(condition="light")
    fs, parts = _fire_parts(s)
    assert ("light conditions", -1, "UFM 10.5") in parts
    dry = playing()
    fs_dry, _ = fire.strength(dry, W, "americans", "A", "germans", "A", give(dry, "americans", "fire", value=3))
    assert fs == max(0, fs_dry - 1)


def test_uf31_open_ground_up_the_mountain_is_not_cover():
    s = playing()
    set_level(s, "americans", "A", 3)
    g = s["groups"]["americans"]["A"]
    assert not in_cover(W, g)
    g["entrenched"] = True
    assert in_cover(W, g)  # "or at least entrench" (UFM 11.d)


def test_uf32_a_stream_onto_a_group_changing_altitude_removes_both_movement_cards():
    s = playing()
    set_level(s, "americans", "A", 1)
    s = _two_cards_down(s)
    s["turn"], s["acted"], s["discarded"] = "germans", [], 0
    stream = give(s, "germans", "stream")
    r = act(s, "germans", {"type": "discard_onto", "card": stream, "target": "A"})
    g = r.state["groups"]["americans"]["A"]
    assert g["moves"] == [] and g["alt_stage"] == 0 and stream in r.state["deck"]["discard"]
    assert g["altitude"] and W.cards[g["altitude"]]["terrain"] == "hill"  # still level 1
    check(r.state)


def test_a_minefield_attack_takes_no_altitude_modifier_and_asks_for_the_altitude_card():
    """UFM 6.7 and 5.1.j: the owner of the group changing altitude places the new level's card."""
    s = playing("I")  # scenario I: no Minefield NF line; partisans move first
    set_level(s, "partisans", "A", 2)
    s = _two_cards_down(s, "partisans")
    s["turn"], s["acted"], s["discarded"] = "germans", [], 0
    mine = give(s, "germans", "minefield")
    b3 = give(s, "partisans", "buildings3")
    r = act(s, "germans", {"type": "discard_onto", "card": mine, "target": "A"})
    attack = [f for f in r.facts if f.kind == "fire"]
    assert attack and all(f.data["strength"] == 4 for f in attack)
    assert GAME.active_seats(r.state) == ["partisans"]
    assert {"type": "mine_altitude", "card": b3} in GAME.legal_actions(r.state, "partisans")
    assert {"type": "decline"} in GAME.legal_actions(r.state, "partisans")
    done = act(r.state, "partisans", {"type": "mine_altitude", "card": b3})
    g = done.state["groups"]["partisans"]["A"]
    assert g["altitude"] == b3 and g["minefield"] == mine and g["moves"] == []
    assert GAME.active_seats(done.state) == ["germans"]
    check(done.state)


def test_entrenchment_numbers_match_the_seed_text():
    """9.1-9.3 and 10.2-10.4 as the seed words them (the fixture) give table B.1.3."""
    lines = {m.group(1): m.group(0) for m in re.finditer(r"^(9\.[123]|10\.[234]) .*$", EXCERPTS, re.M)}
    assert "1のRNCを引いた場合だけ" in lines["9.1"] and alt.entrenchment_numbers(W, "bare", "dry") == [1]
    assert "0のRNCを引いた場合だけ" in lines["9.2"] and alt.entrenchment_numbers(W, "forested", "dry") == [0]
    assert "0のRNCを引いた場合だけ" in lines["9.3"] and alt.entrenchment_numbers(W, "jungle", "dry") == [0]
    assert "5か6のRNC" in lines["10.2"]
    assert "0−1のRNC" in lines["10.4"]


def test_uf16_a_reinforcement_group_enters_up_to_the_highest_friendly_level_with_its_cards():
    """UFM 5.6.a-c in play: scenario D's German reinforcements (deck pass 2, OURS)."""
    s = playing("D")
    s["turn"] = "germans"
    assert not [a for a in GAME.legal_actions(s, "germans") if a["type"] == "reinforce"]  # pass 1
    s["deck"]["pass"] = 2
    set_level(s, "germans", "A", 2)
    b3, b2, mv = give(s, "germans", "buildings3"), give(s, "germans", "buildings2"), give(s, "germans", "movement")
    base = {"type": "reinforce", "conceal": None, "terrain": None}
    with pytest.raises(IllegalAction) as err:
        act(s, "germans", {**base, "altitude": b3, "card": mv})
    assert err.value.rule == "UFM 5.6.a"
    with pytest.raises(IllegalAction) as err:
        act(s, "germans", {**base, "altitude": b2, "card": None})
    assert err.value.rule == "UFM 5.6.b"
    assert {**base, "altitude": b2, "card": mv} in GAME.legal_actions(s, "germans")
    r = act(s, "germans", {**base, "altitude": b2, "card": mv})
    g = r.state["groups"]["germans"]["C"]
    assert g["altitude"] == b2 and mv in r.state["deck"]["discard"] and g["range"] == 0
    assert g["men"] == ["GE08", "GE09"]  # scenario D's reinforcements in rules v2 (OURS; 3 men in v1)
    assert [r.state["men"][m]["status"] for m in g["men"]] == ["ok"] * 2
    check(r.state)
    conceal, brush = give(s, "germans", "concealment"), give(s, "germans", "brush")
    r0 = act(s, "germans", {"type": "reinforce", "altitude": None, "card": None, "conceal": conceal, "terrain": brush})
    g0 = r0.state["groups"]["germans"]["C"]
    assert g0["altitude"] is None and g0["terrain"] == brush and conceal in r0.state["deck"]["discard"]
    check(r0.state)


def test_5_1_i_a_group_transfer_combines_with_an_altitude_change_under_way():
    s = playing()
    c1 = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "alt_step", "group": "C", "card": c1, "mode": "sideways", "one_card": False}).state
    s["acted"] = []
    mv = give(s, "americans", "movement")
    r = act(s, "americans", {"type": "shift", "group": "C", "card": mv, "to": "D"})
    g = r.state["groups"]["americans"]["D"]
    assert g["alt_stage"] == 1 and any(f.rule == "UFM 5.1.i" for f in r.facts)
    set_level(s, "americans", "C", 4)
    s["groups"]["americans"]["C"].update({"moves": [], "alt_stage": 0})
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "shift", "group": "C", "card": mv, "to": "D"})
    assert err.value.rule == "UFM 5.4"
