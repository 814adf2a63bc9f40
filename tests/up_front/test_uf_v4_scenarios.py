"""Rules version 4's scenarios: K's two halves (UFM 11.e K, our structure HALF 1-2 in
rules/up_front/halves.py), and N and S in Jungle-covered mountains (UFM 9.3, 11.e N, S) with our
authored jungle core (JUNGLE 1-2). Version 3 stays without them."""

from __future__ import annotations

import pytest

from rules import get_game
from rules.core.game import IllegalAction
from rules.up_front import fire, prepare
from rules.up_front.data import world
from tests.support.fuzzing import seeded_dice
from tests.up_front.uf_helpers import GAME, W, act, check, give, playing, set_level, set_terrain


def _lose(s: dict, seat: str, n: int) -> None:
    """Mark n of a seat's men killed (as fire would)."""
    for m in sorted(m for m, rec in s["men"].items() if rec["seat"] == seat)[:n]:
        s["men"][m]["status"] = "kia"


def _half_one_ends(s: dict) -> dict:
    """The Germans (first player in K) discard a card: the end check runs after every action."""
    give(s, "germans", "fire", value=1)
    return act(s, "germans", {"type": "discard", "cards": [s["hands"]["germans"][-1]]})


def test_k_second_half_follows_when_the_second_line_troops_lose_UFM_11e_K() -> None:
    s = playing("K")
    assert s["half"] == {"no": 1, "first": None}
    set_level(s, "germans", "A", 2)
    set_level(s, "americans", "B", 1)
    set_terrain(s, "germans", "B", "brush")
    s["men"]["GE09"]["status"] = "kia"
    s["men"]["GE10"]["status"] = "pinned"
    _lose(s, "americans", 5)  # 5 of the 8 second-line men: more than half (UF C.6)
    alt_cards = [s["groups"]["germans"]["A"]["altitude"], s["groups"]["americans"]["B"]["altitude"]]
    r = _half_one_ends(s)
    t = r.state
    check(t)  # every card in exactly one place
    assert GAME.outcome(t) is None and t["half"]["no"] == 2 and "americans lost 5 of 8" in t["half"]["first"]
    assert [f for f in r.facts if f.kind == "half"] and t["phase"] == "prepare"
    # the altitude levels held at the end of the first half are lost (UFM 11.e K)
    assert all(c in t["deck"]["discard"] for c in alt_cards)
    assert all(g["altitude"] is None and g["terrain"] is None and g["range"] == 0
               for groups in t["groups"].values() for g in groups.values())
    # the second-line troops leave; the fresh force takes the table (HALF 2, ours)
    spec = W.scenarios["K"]["second_half"]
    assert {k: g["men"] for k, g in t["groups"]["americans"].items()} == spec["forces"]["americans"]
    assert "US01" not in t["men"] and "GE09" not in t["men"] and t["men"]["GE10"]["status"] == "ok"
    assert t["groups"]["germans"]["C"]["men"] == ["GE08", "GE10"]
    assert GAME.active_seats(t) == [spec["first"]] and t["passes"] == t["deck"]["pass"] + spec["passes"] - 1


def test_k_second_half_both_sides_may_place_new_altitude_cards_on_any_group_UFM_11e_K_4a() -> None:
    s = playing("K")
    _lose(s, "americans", 5)
    t = _half_one_ends(s).state
    for seat in ("americans", "germans"):
        t["turn"] = seat
        card = give(t, seat, "hill")
        placements = {(a["side"], a["group"]) for a in GAME.legal_actions(t, seat)
                      if a["type"] == "place" and a["card"] == card}
        assert placements == {(r, g) for r in t["roles"] for g in t["groups"][r]}  # friendly or enemy groups
        t["hands"][seat].remove(card)
        t["deck"]["discard"].append(card)


def test_k_ends_after_the_first_half_when_the_second_line_troops_win_or_draw_UFM_11e_K() -> None:
    s = playing("K")
    _lose(s, "germans", 6)
    t = _half_one_ends(s).state
    assert GAME.outcome(t).winner == "americans" and t["half"] == {"no": 1, "first": None}


def test_k_second_half_result_is_the_games_and_counts_its_own_men() -> None:
    s = playing("K")
    _lose(s, "americans", 5)
    t = _half_one_ends(s).state
    for seat in (t["first"], [r for r in t["roles"] if r != t["first"]][0]):
        t = act(t, seat, {"type": "ready"}).state
    assert t["phase"] == "play"
    fresh = sorted(m for m, rec in t["men"].items() if rec["seat"] == "americans")
    assert len(fresh) == sum(len(v) for v in W.scenarios["K"]["second_half"]["forces"]["americans"].values())
    for m in fresh[: len(fresh) // 2 + 1]:
        t["men"][m]["status"] = "kia"
    seat = t["turn"]
    give(t, seat, "fire", value=1)
    r = act(t, seat, {"type": "discard", "cards": [t["hands"][seat][-1]]})
    o = GAME.outcome(r.state)
    assert o is not None and o.winner == "germans" and f"of {len(fresh)} men" in o.reason


def test_n_is_jungle_covered_only_and_s_pacific_terrain_types_UFM_9_11e() -> None:
    for bad in ("bare", "forested"):
        with pytest.raises(IllegalAction, match="jungle"):
            GAME.check_options("N", {"terrain_type": bad})
    GAME.check_options("N", {"terrain_type": "jungle"})
    assert prepare.terrain_types(W, "S") == ["bare", "jungle"]  # Pacific: 9.1 anywhere, 9.3 in the Pacific
    with pytest.raises(IllegalAction):
        GAME.check_options("S", {"terrain_type": "forested"})  # 9.2: European theatre only
    with pytest.raises(IllegalAction):
        GAME.check_options("A", {"terrain_type": "jungle"})  # 9.3: Pacific theatre only


def test_jungle_has_no_non_functional_terrain_and_entrenches_on_0_UFM_9_3() -> None:
    s = GAME.setup("N", {"terrain_type": "jungle", "condition": "dry"}, seeded_dice(3))
    assert s["nf"] == ["minefield"]  # 11.e N: Minefield NF; 9.3: no terrain card NF (Woods works)
    assert W.tables["entrenchment"]["dry"]["jungle"] == [0]


def test_jungle_core_fire_modifiers_JUNGLE_1_2() -> None:
    s = playing("N", terrain_type="jungle")
    card = give(s, "americans", "fire", value=3)
    s["groups"]["japanese"]["A"]["range"] = 3  # RR 3 (same letter, chits summed)
    fs, parts = fire.strength(s, W, "americans", "A", "japanese", "A", card)
    rules = [p[2] for p in parts]
    assert "JUNGLE 1" in rules and "JUNGLE 2" in rules  # RR 3+, target on Open Ground
    set_terrain(s, "japanese", "A", "brush")
    s["groups"]["japanese"]["A"]["range"] = 0
    fs2, parts2 = fire.strength(s, W, "americans", "A", "japanese", "A", card)
    assert not {"JUNGLE 1", "JUNGLE 2"} & {p[2] for p in parts2}
    bare = playing("A")  # the same attack outside the jungle: neither modifier
    c = give(bare, "americans", "fire", value=3)
    bare["groups"]["germans"]["A"]["range"] = 3
    assert not {"JUNGLE 1", "JUNGLE 2"} & {p[2] for p in fire.strength(bare, W, "americans", "A", "germans", "A",
                                                                          c)[1]}


def test_s_defender_draws_until_enough_altitude_cards_UFM_11e_S() -> None:
    s = GAME.setup("S", {"terrain_type": "jungle"}, seeded_dice(5))
    s["turn"] = "japanese"
    acts = GAME.legal_actions(s, "japanese")
    assert {"type": "draw_altitude", "count": 2} in acts
    assert not [a for a in GAME.legal_actions({**s, "turn": "americans"}, "americans") if a["type"] == "draw_altitude"]


def test_version_3_has_neither_k_n_s_nor_the_jungle() -> None:
    v3 = get_game("up-front", "3")
    assert not {"K", "N", "S"} & set(v3.scenarios()) and {"K", "N", "S"} <= set(world("3").not_playable)
    assert {"K", "N", "S"} <= set(GAME.scenarios()) and not {"K", "N", "S"} & set(W.not_playable)
    assert "jungle" not in v3.options()["terrain_type"].choices
    s = v3.setup("A", {}, seeded_dice(1))
    v3.check_state(s)
    assert "half" not in s and GAME.setup("A", {}, seeded_dice(1))["half"] is None


def test_dyo_mountain_troops_draw_black_or_red_UFM_12_14() -> None:
    seen = set()
    for seed in range(12):
        s = GAME.setup("A", {"mountain_troops": True, "dyo_mountain_troops": True}, seeded_dice(seed))
        check(s)
        (note,) = [n for n in s["notes"] if "UFM 12.14" in n]
        drawn = s["deck"]["discard"][-1]  # the card drawn for the random number is discarded (UF C.1)
        black = W.cards[drawn]["colour"] == "black"
        assert (s["mountain_troops"] == ["germans"]) is black and drawn in note
        seen.add(black)
    assert seen == {True, False}
    assert GAME.setup("A", {"mountain_troops": True}, seeded_dice(1))["mountain_troops"] == ["germans"]
    assert "dyo_mountain_troops" not in get_game("up-front", "3").options()
    off = GAME.setup("A", {"mountain_troops": False, "dyo_mountain_troops": True}, seeded_dice(1))
    assert off["mountain_troops"] == [] and not [n for n in off["notes"] if "12.14" in n]  # no elite: no draw
