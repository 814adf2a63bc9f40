"""The UP FRONT-structured core around the appendix: scenario set-ups, the reaction windows in
the other seat's turn, standing answers, a seat's view, and the data files' schema."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.core.game import IllegalAction
from rules.up_front import data as uf_data
from rules.up_front.data import world
from tests.support.fuzzing import seeded_dice
from tests.up_front.uf_helpers import GAME, W, act, check, give, playing, set_level

OPTS = {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}


@pytest.mark.parametrize("scenario", sorted(world().scenarios))
def test_each_scenario_sets_up_with_hands_by_nation_and_every_card_once(scenario):
    s = GAME.setup(scenario, OPTS, seeded_dice(11))
    check(s)
    sc = W.scenarios[scenario]
    for seat in sc["roles"]:
        assert len(s["hands"][seat]) >= W.nations[seat]["hand"]  # more after a draw-until procedure
        assert sorted(s["groups"][seat]) == sorted(sc["forces"][seat])
    assert GAME.active_seats(s) == [sc["first"]] and s["phase"] == "prepare"
    bare = "bare" in (sc["terrain_types"] or ["bare"])  # N: Jungle-covered only, set up in it (UFM 11.e N)
    assert ("minefield" in s["nf"]) is sc["minefield_nf"] and ("woods" in s["nf"]) is bare  # UFM 11.e, 9.1, 9.3
    assert s["level4"] is not sc["real_pillbox"]  # UFM 3.4, 11.c


@pytest.mark.parametrize("scenario", ["C", "O"])
def test_c_and_o_put_a_real_pillbox_and_an_altitude_card_on_defender_group_b(scenario):
    s = GAME.setup(scenario, OPTS, seeded_dice(5))
    b = s["groups"]["germans"]["B"]
    assert W.cards[b["terrain"]]["terrain"] == "pillbox"
    s["turn"] = "germans"
    assert {"type": "ready"} not in GAME.legal_actions(s, "germans")
    with pytest.raises(IllegalAction, match="group B must receive an altitude card"):
        act(s, "germans", {"type": "ready"})
    places = [a for a in GAME.legal_actions(s, "germans") if a["type"] == "place" and a["group"] == "B"
              and a["side"] == "germans" and W.cards[a["card"]]["terrain"] in ("hill", "marsh", "buildings2", "buildings3")]
    assert places, "the draw-until procedure gave the defender an altitude card (UFM 11.e)"
    assert not [a for a in GAME.legal_actions(s, "germans") if a["type"] == "place" and a["group"] != "B"
                and W.cards[a["card"]]["terrain"] in ("hill", "marsh", "buildings2", "buildings3")]
    s = act(s, "germans", places[0]).state
    assert {"type": "ready"} in GAME.legal_actions(s, "germans")


def test_not_adaptable_and_unbuilt_scenarios_are_listed_not_offered():
    assert set(W.not_playable) >= {"B", "G", "R"}  # UFM 11.a
    assert not set(W.not_playable) & set(GAME.scenarios())


def test_prepare_for_play_places_altitude_on_either_side_then_play_begins():
    s = GAME.setup("A", OPTS, seeded_dice(2))
    hill = give(s, "americans", "hill")
    s = act(s, "americans", {"type": "place", "card": hill, "side": "germans", "group": "C"}).state  # UFM 4.a
    assert s["groups"]["germans"]["C"]["altitude"] == hill
    s = act(s, "americans", {"type": "ready"}).state
    assert GAME.active_seats(s) == ["germans"]
    s = act(s, "germans", {"type": "ready"}).state
    assert s["phase"] == "play" and GAME.active_seats(s) == ["americans"]
    assert len(s["hands"]["americans"]) == 6 and len(s["hands"]["germans"]) == 5  # UF C.4
    check(s)


def _attack(s, strength_card=3):
    card = give(s, "americans", "fire", value=strength_card)
    return act(s, "americans", {"type": "fire", "group": "A", "card": card, "target": "A"})


def test_an_attack_opens_a_concealment_window_even_without_concealment_in_hand():
    """The window's opening is public, so it cannot depend on the defender's hand (rules.core.reactions)."""
    s = playing()
    s["hands"]["germans"] = []
    r = _attack(s)
    assert GAME.active_seats(r.state) == ["germans"]
    assert GAME.legal_actions(r.state, "germans") == [{"type": "decline"}]
    assert "play Concealment or decline" in GAME.prompt(r.state, "germans")
    done = act(r.state, "germans", {"type": "decline"})
    assert GAME.active_seats(done.state) == ["americans"] and any(f.kind == "fire" for f in done.facts)
    check(done.state)


def test_concealment_played_in_the_other_turn_lowers_the_strength():
    s = playing()
    conceal = give(s, "germans", "concealment", value=2)
    r = _attack(s)
    fs = r.state["reaction"]["context"]["strength"]
    done = act(r.state, "germans", {"type": "conceal", "card": conceal})
    assert any(f"strength {max(0, fs - 2)}" in f.text for f in done.facts if f.kind == "conceal")
    assert conceal in done.state["deck"]["discard"]


def test_a_secret_standing_answer_plays_concealment_for_small_groups_without_asking():
    """A standing answer: "always play concealment when a group with 2 or fewer men is attacked"
    (rules version 4: its answer in words, "conceal")."""
    s = playing()
    s["turn"] = "germans"
    s = act(s, "germans", {"type": "standing", "kind": "concealment", "answer": "conceal",
                           "when": [["men", "<=", 2]]}).state
    assert GAME.view(s, "americans")["standing"] == {  # rules v3: a face-down marker, its words hidden
        "americans": {}, "germans": {"concealment": {"answer": "hidden", "when": [["men", "<=", 2]]}}}
    assert GAME.view(s, "germans")["standing"]["germans"]["concealment"]["answer"] == "conceal"
    s["turn"] = "americans"
    conceal = give(s, "germans", "concealment")
    r = _attack(s)  # group A has 4 men: asked
    assert GAME.active_seats(r.state) == ["germans"]
    s2 = playing()
    s2["standing"] = s["standing"]
    for m in s2["groups"]["germans"]["A"]["men"][2:]:
        s2["men"][m]["status"] = "kia"
    conceal = give(s2, "germans", "concealment")
    r = _attack(s2)
    assert GAME.active_seats(r.state) == ["americans"]  # settled without asking
    assert conceal in r.state["deck"]["discard"]
    settled = [f for f in r.facts if f.kind == "standing"]  # public from rules v3 (it names no answer)
    assert settled and settled[0].visible_to is None and " conceal " not in settled[0].text


def test_terrain_discarded_onto_a_moving_group_is_accepted_or_rejected_by_its_owner():
    s = playing()
    mv = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "move", "group": "B", "card": mv, "mode": "forward"}).state
    s["turn"], s["acted"] = "germans", []
    brush = give(s, "germans", "brush")
    r = act(s, "germans", {"type": "discard_onto", "card": brush, "target": "B"})
    assert GAME.active_seats(r.state) == ["americans"]
    opts = GAME.legal_actions(r.state, "americans")
    assert opts[0] == {"type": "accept"}
    check(r.state)
    accepted = act(r.state, "americans", {"type": "accept"}).state
    g = accepted["groups"]["americans"]["B"]
    assert g["terrain"] == brush and g["range"] == 1 and not g["moves"]
    reject_with = give(r.state, "americans", "movement")
    rejected = act(r.state, "americans", {"type": "reject", "card": reject_with}).state
    assert brush in rejected["deck"]["discard"] and rejected["groups"]["americans"]["B"]["moves"]
    check(rejected)


def test_altitude_cards_are_not_discarded_onto_enemy_groups_during_play():
    s = playing()
    mv = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "move", "group": "B", "card": mv, "mode": "forward"}).state
    s["turn"], s["acted"] = "germans", []
    hill = give(s, "germans", "hill")
    with pytest.raises(IllegalAction, match="B.6-9"):
        act(s, "germans", {"type": "discard_onto", "card": hill, "target": "B"})


def test_a_seat_sees_its_own_hand_only_and_never_the_draw_pile():
    s = playing()
    give(s, "americans", "fire")
    give(s, "germans", "rally")
    v = GAME.view(s, "americans")
    assert v["hands"]["americans"] == s["hands"]["americans"] and v["hands"]["germans"] == {"count": 1}
    assert "draw" not in v["deck"] and v["deck"]["draw_count"] == len(s["deck"]["draw"])
    spectator = json.dumps(GAME.view(s, None))
    assert not [c for c in s["hands"]["americans"] + s["hands"]["germans"] if c in spectator]


def test_one_action_per_group_and_the_american_discard_only_without_actions():
    s = playing()
    f1, f2 = give(s, "americans", "fire"), give(s, "americans", "fire")
    s = act(s, "americans", {"type": "fire", "group": "A", "card": f1, "target": "A"}).state
    s = act(s, "germans", {"type": "decline"}).state
    with pytest.raises(IllegalAction, match="already acted"):
        act(s, "americans", {"type": "fire", "group": "A", "card": f2, "target": "B"})
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "discard", "cards": [f2]})
    assert err.value.rule == "UF C.4"


def test_a_turn_plays_or_discards_at_least_one_card_and_refills_the_hand():
    s = playing()
    give(s, "americans", "fire")
    with pytest.raises(IllegalAction):
        act(s, "americans", {"type": "end_turn"})
    card = s["hands"]["americans"][0]
    s = act(s, "americans", {"type": "discard", "cards": [card]}).state
    s = act(s, "americans", {"type": "end_turn"}).state
    assert len(s["hands"]["americans"]) == 6 and GAME.active_seats(s) == ["germans"]


def test_blocking_same_letter_groups_at_different_altitudes():
    """UFM 5.2.b: opposing groups with the same letter block each other whatever their altitude."""
    s = playing()
    set_level(s, "germans", "A", 2)
    s["groups"]["americans"]["A"]["range"], s["groups"]["germans"]["A"]["range"] = 3, 2
    mv = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "move", "group": "A", "card": mv, "mode": "forward"}).state
    s["acted"] = []
    any_card = give(s, "americans", "rally")
    r = act(s, "americans", {"type": "complete", "group": "A", "card": any_card, "as_open": True})
    assert r.state["groups"]["americans"]["A"]["range"] == 3
    assert any(f.rule == "UFM 5.2.b" for f in r.facts)


def test_the_deck_follows_the_public_core_composition():
    counts = Counter(c["type"] for c in W.cards.values())
    assert counts == {"fire": 48, "movement": 26, "rally": 19, "concealment": 14, "terrain": 35, "wire": 3}  # UF C.1
    rn = Counter(c["rn"] for c in W.cards.values())
    assert set(rn) == set(range(7)) and max(rn.values()) - min(rn.values()) <= 1


def test_a_malformed_card_transcription_is_refused_with_its_id():
    bad = {"cards": [{"id": "X1", "type": "fire", "value": 2, "rn": 9, "colour": "black", "rpn": [1] * 10}]}
    with pytest.raises(uf_data.DataError, match="X1.*rn 0..6"):
        uf_data._check_cards(bad, W.terrain)
    bad["cards"][0].update(rn=3, rpn=[1, 3, 1, 1, 1, 1, 1, 1, 1, 1])
    with pytest.raises(uf_data.DataError, match="rpn"):
        uf_data._check_cards(bad, W.terrain)


def test_a_group_transfers_laterally_to_the_adjacent_free_position():
    """CORE 5.7: a Movement card moves group C to position D, its range and altitude kept."""
    s = playing()
    s["groups"]["americans"]["C"]["range"] = 2
    set_level(s, "americans", "C", 1)
    mv = give(s, "americans", "movement")
    with pytest.raises(IllegalAction):
        act(s, "americans", {"type": "shift", "group": "B", "card": mv, "to": "C"})  # occupied
    assert {"type": "shift", "group": "C", "card": mv, "to": "D"} in GAME.legal_actions(s, "americans")
    r = act(s, "americans", {"type": "shift", "group": "C", "card": mv, "to": "D"})
    g = r.state["groups"]["americans"]["D"]
    assert "C" not in r.state["groups"]["americans"] and g["range"] == 2 and g["altitude"]
    assert all(r.state["men"][m]["group"] == "D" for m in g["men"])
    check(r.state)


def test_scenario_c_removes_the_first_stream_drawn_for_a_random_number_and_only_the_first():
    """UFM 11.e C: "the first Stream discarded unused, or drawn as an RPC/RNC and discarded"."""
    from tests.up_front.uf_helpers import free, only_card_on_top

    s = playing("C")
    stream = free(s, "stream")
    only_card_on_top(s, stream)
    s["hands"]["germans"] = []
    r = _attack(s)
    done = act(r.state, "germans", {"type": "decline"})
    assert stream in done.state["deck"]["removed"] and done.state["remove_first"] is None
    assert any(f.kind == "remove" for f in done.facts)
    check(done.state)
    done.state["acted"] = []  # a later turn of the Americans
    second = give(done.state, "americans", "stream")
    later = act(done.state, "americans", {"type": "discard", "cards": [second]}).state
    assert second in later["deck"]["discard"] and second not in later["deck"]["removed"]
