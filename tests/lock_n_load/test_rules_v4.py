"""Rules version 4 of Lock 'n Load: the optional skill-card draw for leaders at set-up (11.12, 12.0,
T2) and the sniper's standing order, carried out by the judge "at any time" (11.4, digest A42).
Versions 1-3 judge exactly as before (tests/golden/ replays their recorded games)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core.dice import RecordingDice
from rules.core.game import IllegalAction
from rules.lock_n_load.game import LockNLoad, LockNLoadV3
from tests.lock_n_load.helpers import blank_state, tiny
from tests.lock_n_load.test_order_secrecy import _judged, _NoDice
from tests.support.fuzzing import seeded_dice


def _dice(two: int) -> RecordingDice:
    """Every two-faced die (the demo's two-card deck) shows `two`; every other die 1."""
    return RecordingDice(lambda i, faces: two if faces == 2 else 1)


# -- 11.12, 12.0: the optional draw -----------------------------------------------------------------
@pytest.mark.parametrize("die, card", [(1, "Bull"), (2, "Charismatic")])
def test_each_leader_with_a_positive_lm_and_no_card_draws_one_at_set_up(die: int, card: str) -> None:
    """11.12: "each leader with a positive LM draws one random skill card before the mission; a leader
    already assigned a card by the scenario does not get another; leaders with LM 0 cannot draw".
    The demo's leaders: Harlan (LM 1, Bull from the scenario), Okafor (LM 1, Charismatic), Pike (LM 0),
    Lam (LM 1, none), Hoa (LM 0): only Lam draws, a die over the deck (T2: Bull, Charismatic)."""
    g = LockNLoad()
    dice = _dice(die)
    s = g.setup("demo", {"skill_cards": True}, dice)
    g.check_state(s)
    assert s["units"]["lam"]["card"] == card
    assert [u for u, r in s["units"].items() if "card" in r] == ["lam"]
    assert [r.purpose for r in dice.rolls if r.faces == 2] == ["LnL 11.12, 12.0 skill card drawn by lam"]


def test_the_draw_is_optional_and_version_3_has_no_such_option() -> None:
    s = LockNLoad().setup("demo", {}, _dice(2))
    assert not any("card" in r for r in s["units"].values())  # off by default (an optional rule)
    with pytest.raises(IllegalAction):
        LockNLoadV3().setup("demo", {"skill_cards": True}, _dice(2))


def test_a_drawn_charismatic_card_rallies_the_adjacent_hex() -> None:
    """T2 "Charismatic": the leader rallies units in adjacent hexes as well as his own; a card drawn
    at set-up counts like one the scenario gives (3.0)."""
    g = LockNLoad(tiny(["oo"] * 4))
    s = blank_state(g.world, {"lam": ("vc", "vc-ldr-lam", "9A1"), "vc1": ("vc", "vc-sq-143", "9A2"),
                              "us1": ("us", "us-sq-264", "9B4")},
                    version="4", phase="rally", rally_side="vc", rally_done=[], player="vc", initiative="vc")
    s["units"]["vc1"]["shaken"] = True
    rally = {"type": "rally", "unit": "vc1"}
    assert rally not in g.legal_actions(s, "vc")  # no card: only his own hex
    s["units"]["lam"]["card"] = "Charismatic"
    g.check_state(s)
    assert rally in g.legal_actions(s, "vc")


def test_a_leaders_card_in_a_version_3_state_or_a_card_not_in_the_deck_is_refused() -> None:
    w = tiny(["oo"] * 4)
    s = blank_state(w, {"lam": ("vc", "vc-ldr-lam", "9A1")}, version="3")
    s["units"]["lam"]["card"] = "Bull"
    with pytest.raises(Exception, match="keys"):
        LockNLoadV3(w).check_state(s)
    s["version"], s["standing"] = "4", {}  # a version 4 state also holds the standing answers
    LockNLoad(w).check_state(s)
    s["units"]["lam"]["card"] = "Lucky"
    with pytest.raises(Exception, match="not a skill card"):
        LockNLoad(w).check_state(s)


# -- 11.4, A42: the sniper's standing order -----------------------------------------------------------
# 9A1-9A4 brush (degrading, TM 0: a unit there is spotted only when it moves, fires or is adjacent to
# an enemy, 10.1), 9C3 light jungle (TM +2 for the VC, T3): where the VC sniper may be placed (11.4).
ROWS = ["bbo", "bbo", "bbl", "bbo", "ooo"]


def _sniper_game(order: str | None, hex_: str = "9C3") -> tuple[LockNLoad, dict[str, Any]]:
    g = LockNLoad(tiny(ROWS))
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "9A1"), "sniper": ("vc", "vc-sniper", None)},
                    version="4", player="vc")
    if order is not None:
        s = g.apply(s, "vc", {"type": "sniper_order", "unit": "sniper", "hex": hex_, "order": order}, _NoDice()).state
    s["player"] = "us"
    return g, s


def _move(g: LockNLoad, s: dict[str, Any], path: list[str], dice: RecordingDice | None = None
          ) -> tuple[dict[str, Any], list[Any]]:
    """US activates 9A1, moves us1 and steps along `path`: the state and every fact."""
    facts: list[Any] = []
    dice = dice or seeded_dice(3)
    for a in [{"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": "normal"}]:
        out = g.apply(s, "us", a, dice)
        s, facts = out.state, facts + list(out.facts)
    for h in path:
        if s["decision"] is not None or s["impulse"] is None or s["impulse"]["move"] is None:
            break
        out = g.apply(s, "us", {"type": "step", "hex": h}, dice)
        s, facts = out.state, facts + list(out.facts)
    return s, facts


def test_the_order_is_offered_for_every_placeable_hex_and_form_and_not_in_version_3() -> None:
    g, s = _sniper_game(None)
    s["player"] = "vc"
    offered = [a for a in g.legal_actions(s, "vc") if a["type"] == "sniper_order"]
    assert {a["hex"] for a in offered} == {"9C3"}  # the one hex with a positive TM for the VC (11.4)
    assert sorted(a["order"] for a in offered) == ["fire", "within1", "within2", "within3"]
    s3 = dict(s, version="3")
    assert not [a for a in LockNLoadV3(g.world).legal_actions(s3, "vc") if a["type"] == "sniper_order"]
    with pytest.raises(IllegalAction):
        g.apply(s, "vc", {"type": "sniper_order", "unit": "sniper", "hex": "9A3", "order": "fire"}, _NoDice())


def test_the_sniper_is_placed_and_fires_the_moment_its_target_comes_without_a_prompt() -> None:
    """11.4: "the owner may at any time place the sniper ... and it may immediately attack a spotted
    enemy hex in its LOS". The US squad in brush is not spotted; once it moves it is (its Moved
    marker, 5.3, 10.1): the judge places the sniper in 9C3 and fires (2d6, 11.4) inside the mover's
    own impulse, asking nobody; the order is used up."""
    g, s = _sniper_game("fire")
    assert s["units"]["sniper"]["at"] is None  # no target yet: the unmoved squad in brush is unspotted
    dice = seeded_dice(3)
    s, facts = _move(g, s, ["9A2"], dice)
    assert s["units"]["sniper"]["at"] == "9C3" and s["units"]["sniper"]["marker"] == "fired"
    placed = next(f for f in facts if f.kind == "sniper")
    assert placed.data == {"hex": "9C3", "unit": "sniper", "order": "fire", "target": "9A1", "standing": True}
    fire = next(f for f in facts if f.kind == "fire")
    assert fire.data["firers"] == ["sniper"]
    assert "LnL 11.4 sniper's second die" in [r.purpose for r in dice.rolls]  # the sniper's 2d6 (11.4)
    assert "sniper:sniper" not in s["orders"]["vc"]
    assert s["decision"] is None or s["decision"]["seat"] == "vc"  # the mover was never stopped to ask


@pytest.mark.parametrize("order, fires_at", [("within1", "9B3"), ("within2", "9A2"), ("within3", "9A1")])
def test_within_n_waits_until_a_target_is_that_close(order: str, fires_at: str) -> None:
    """From 9C3 the mover is 3 hexes away in 9A1, 2 in 9A2, 1 in 9B3: "within1" lets the start of
    the move and its first step go by and fires at the second."""
    g, s = _sniper_game(order)
    s, facts = _move(g, s, ["9A2", "9B3"])
    placed = [f for f in facts if f.kind == "sniper"]
    assert [f.data["target"] for f in placed] == [fires_at]


def test_an_order_whose_target_is_already_there_is_carried_out_at_once() -> None:
    g = LockNLoad(tiny(ROWS))
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "9A5"), "sniper": ("vc", "vc-sniper", None)},
                    version="4", player="vc")  # 9A5 is open ground: spotted (10.1)
    out = g.apply(s, "vc", {"type": "sniper_order", "unit": "sniper", "hex": "9C3", "order": "fire"}, seeded_dice(2))
    assert out.state["units"]["sniper"]["at"] == "9C3"
    assert [f.kind for f in out.facts][:3] == ["sniper_order", "order_marker", "sniper"]


def test_a_hex_an_enemy_holds_is_no_place_for_the_sniper_so_the_order_waits() -> None:
    g, s = _sniper_game("fire", hex_="9C3")
    s["units"]["us2"] = dict(s["units"]["us1"], at="9C3")
    s, facts = _move(g, s, ["9A2"])
    assert s["units"]["sniper"]["at"] is None and "sniper:sniper" in s["orders"]["vc"]


def test_the_order_is_a_face_down_marker_its_hex_and_words_the_owners_until_carried_out() -> None:
    g = LockNLoad(tiny(ROWS))
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "9A1"), "sniper": ("vc", "vc-sniper", None)},
                    version="4", player="vc")
    s2, judged = _judged(g, s, "vc", {"type": "sniper_order", "unit": "sniper", "hex": "9C3", "order": "within2"}, 4)
    shown = judged["us"]
    assert judged["spectator"] == shown
    assert [f["text"] for f in shown["facts"]] == ["VC puts down a face-down sniper order (the sniper is off the map)"]
    assert "9C3" not in json.dumps(shown) and "within2" not in json.dumps(shown)
    for seat in ("us", None):
        assert g.view(s2, seat)["orders"]["vc"] == {"sniper:sniper": "hidden"}
        assert "9C3" not in json.dumps(g.view(s2, seat))
    assert g.view(s2, "vc")["orders"]["vc"] == {"sniper:sniper": "9C3:within2"}
    assert g.view(dict(s2, phase="over"), "us")["orders"]["vc"] == {"sniper:sniper": "9C3:within2"}  # the end
    s3 = g.apply(s2, "vc", {"type": "sniper_order", "unit": "sniper", "hex": "9C3", "order": "ask"}, _NoDice())
    assert s3.state["orders"]["vc"] == {}
    assert [f.text for f in s3.facts if f.visible_to is None] == [
        "VC takes the face-down sniper order off (the sniper is off the map)"]


def test_version_3_offers_the_sniper_only_when_its_side_is_asked() -> None:
    """The version-3 reading kept for its recorded games: the same position judged by version 3
    lets the mover's step go by without the sniper."""
    g, s = _sniper_game(None)
    s3 = dict(s, version="3")
    s3, facts = _move(LockNLoadV3(g.world), s3, ["9A2"])
    assert s3["units"]["sniper"]["at"] is None and not [f for f in facts if f.kind == "sniper"]


def test_a_sniper_placed_by_hand_takes_its_standing_order_with_it() -> None:
    g, s = _sniper_game("within1")
    s["player"] = "vc"
    s = g.apply(s, "vc", {"type": "place_sniper", "unit": "sniper", "hex": "9C3"}, _NoDice()).state
    assert s["orders"]["vc"] == {} and g.view(s, "us")["orders"]["vc"] == {}


def test_a_standing_sniper_order_that_kills_every_mover_ends_the_move() -> None:
    """11.4, A42: a face-down sniper order carried out during a move, whose attack kills every
    moving unit, ends that move: the opportunity fire the move had opened has nothing left to fire
    at (once an IndexError while judging: the game could not go on). Seeded random legal play
    reaches it (seed 39, the 69th step)."""
    from tests.i18n.test_facts_in_japanese import lines

    facts = [line for kind, line in lines("lock-n-load", "demo", {}, 39) if kind == "fact"]
    assert any("sniper order is carried out" in f for f in facts)
