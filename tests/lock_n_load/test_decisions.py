"""Decision points (digest W1-W9): the right seat is prompted, the other cannot act; and hidden
information (1.7 event paragraphs)."""

from __future__ import annotations

import pytest

from rules.core.game import IllegalAction
from rules.lock_n_load import events, flow
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, tiny
from tests.support.fuzzing import seeded_dice


def _moving(rows: list[str], vc_at: str = "9A6", marker: str = "", mode: str = "normal") -> tuple:
    w = tiny(rows)
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "us2": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", vc_at), "vc2": ("vc", "vc-hs-033", vc_at)})
    s["units"]["vc1"]["marker"] = marker
    s["units"]["vc2"]["marker"] = marker
    d = seeded_dice(1)
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": mode}):
        s = g.apply(s, "us", a, d).state
    return g, s, d


def test_w1_5_3_each_movement_point_in_los_and_range_prompts_the_non_moving_seat() -> None:
    g, s, d = _moving(["o"] * 6)
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state
    assert g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == []
    vc_legal = g.legal_actions(s, "vc")
    assert [a for a in vc_legal if a["type"] != "order"] == [{"type": "opp_fire", "hex": "9A6"}, {"type": "hold_fire"}]
    assert {"type": "order", "hex": "9A6", "order": "fire"} in vc_legal  # orders may be changed when prompted
    assert s["impulse"]["move"]["units"] == ["us1"]
    assert "opportunity fire from 9A6" in g.prompt(s, "vc")
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "step", "hex": "9A3"}, d)
    s = g.apply(s, "vc", {"type": "hold_fire"}, d).state
    assert g.active_seats(s) == ["us"] and {"type": "step", "hex": "9A3"} in g.legal_actions(s, "us")
    s = g.apply(s, "us", {"type": "step", "hex": "9A3"}, d).state  # a new MP: a new prompt
    assert g.active_seats(s) == ["vc"] and s["stats"]["opp_fire_prompts"] == 2
    out = g.apply(s, "vc", {"type": "opp_fire", "hex": "9A6"}, d)
    assert any(f.kind == "fire" and "Opportunity fire" in f.text for f in out.facts)
    s = out.state
    assert s["units"]["vc1"]["marker"] == s["units"]["vc2"]["marker"] == "fired"  # 5.3: all of the hex fired
    if s["units"]["us1"]["shaken"] or s["units"]["us1"]["at"] is None:
        return  # 5.3: a shaken mover stops
    s = g.apply(s, "us", {"type": "step", "hex": "9A4"}, d).state
    assert g.active_seats(s) == ["us"] and s["stats"]["opp_fire_prompts"] == 2  # nobody left to fire


def test_w1_no_prompt_when_no_enemy_can_fire() -> None:
    g, s, d = _moving(["o"] * 6, marker="fired")
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state
    assert g.active_seats(s) == ["us"] and s["stats"]["opp_fire_prompts"] == 0


def test_w1_6_3_a_low_crawler_is_fired_on_only_entering_a_spotted_hex() -> None:
    g, s, d = _moving(["o", "b", "o", "o", "o", "o"], mode="crawl")
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state  # brush, not spotted
    assert g.active_seats(s) == ["us"] and s["stats"]["opp_fire_prompts"] == 0
    g, s, d = _moving(["o"] * 6, mode="crawl")
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state  # open ground is spotted (10.1)
    assert g.active_seats(s) == ["vc"]


def test_w8_3_0_the_second_player_rallies_after_the_first_and_alone() -> None:
    w = tiny(["o"] * 4)
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A4"),
                        "lam": ("vc", "vc-ldr-lam", "9A4")}, turn=2, phase="rally", rally_done=[])
    s["units"]["vc1"]["shaken"] = True
    flow.start_turn(s, w, seeded_dice(3), [])
    assert g.active_seats(s) == ["vc"]  # the US had nothing to rally: its step ends by itself
    assert {"type": "rally", "unit": "vc1"} in g.legal_actions(s, "vc") and g.legal_actions(s, "us") == []
    assert {"type": "end_rally"} in g.legal_actions(s, "vc")
    out = g.apply(s, "vc", {"type": "rally", "unit": "vc1"}, seeded_dice(4))
    assert any(f.kind == "rally" for f in out.facts)
    s = out.state  # nothing left to do: the step ends by itself and the Operations Phase begins
    assert s["phase"] == "operations" and g.active_seats(s) == [s["initiative"]]


def test_8_0_entering_an_enemy_hex_fights_a_melee_round_and_locks_the_survivors() -> None:
    for seed in range(6):
        g, s, _ = _moving(["o", "o", "o"], vc_at="9A2", marker="fired")
        s["units"]["vc3"] = dict(s["units"]["vc2"], at="9A3")  # keeps the VC able to act
        s["units"]["vc3"]["marker"] = ""
        dice = seeded_dice(seed)
        out = g.apply(s, "us", {"type": "step", "hex": "9A2"}, dice)
        while out.state["decision"] and out.state["decision"]["kind"] == "melee_targets":
            seat = out.state["decision"]["seat"]
            out = g.apply(out.state, seat, g.legal_actions(out.state, seat)[-1], dice)  # all of them
        melees = [f for f in out.facts if f.kind == "melee"]
        assert [f.data["side"] for f in melees] == ["us", "vc"]  # simultaneous: both sides roll
        s = out.state
        both = [u for u in ("us1", "vc1", "vc2") if s["units"][u]["at"] == "9A2"]
        sides = {s["units"][u]["side"] for u in both}
        assert all(s["units"][u]["melee_locked"] == (len(sides) == 2) for u in both)
        if len(sides) == 2:
            assert s["melee"]["9A2"]["fought"] == 1


def test_1_7_event_paragraphs_are_hidden_from_both_seats_until_activated() -> None:
    g = LockNLoad()
    s = g.setup("demo", {}, seeded_dice(7))
    for seat in ("us", "vc", None):
        v = g.view(s, seat)
        assert v["secret"] is None and all(e["paragraph"] is None for e in v["events"].values())
    s["units"]["us1"]["at"] = "1K4"
    s["units"]["vc2"]["at"] = "1L4"
    facts: list = []
    events.check(s, g.world, facts)
    assert s["events"]["E1"]["revealed"] and s["cache"]
    assert "Rice cache" in g.view(s, "vc")["events"]["E1"]["paragraph"]
    assert g.view(s, "vc")["events"]["E2"]["paragraph"] is None and g.view(s, "vc")["secret"] is None


def test_w3_8_0_the_attacker_then_the_defender_choose_their_melee_targets() -> None:
    w = tiny(["o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "us2": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", "9A2"), "vc2": ("vc", "vc-hs-033", "9A2"),
                        "vc3": ("vc", "vc-sq-143", "9A3")})
    for u in ("vc1", "vc2"):
        s["units"][u]["marker"] = "fired"
    d = seeded_dice(3)
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"},
              {"type": "select", "unit": "us2"}, {"type": "move", "mode": "normal"}):
        s = g.apply(s, "us", a, d).state
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state
    assert g.active_seats(s) == ["us"] and s["decision"]["kind"] == "melee_targets"
    assert g.legal_actions(s, "us") == [{"type": "melee_targets", "units": u}
                                        for u in (["vc1"], ["vc2"], ["vc1", "vc2"])]
    assert g.legal_actions(s, "vc") == []
    s = g.apply(s, "us", {"type": "melee_targets", "units": ["vc2"]}, d).state
    assert g.active_seats(s) == ["vc"] and "as the defender" in g.prompt(s, "vc")
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "melee_targets", "units": ["vc1"]}, d)
    out = g.apply(s, "vc", {"type": "melee_targets", "units": ["us1"]}, d)
    rolls = [f.data for f in out.facts if f.kind == "melee"]
    assert [r["targets"] for r in rolls] == [["vc2"], ["us1"]]
    assert out.state["decision"] is None


def test_w2_8_0_withdrawing_the_last_units_ends_the_melee_and_opens_fire_at_them() -> None:
    w = tiny(["o", "o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A2"), "vc1": ("vc", "vc-sq-143", "9A2"),
                        "vc2": ("vc", "vc-sq-143", "9A4")}, melee={"9A2": {"fought": 0}})
    for u in ("us1", "vc1"):
        s["units"][u]["melee_locked"] = True
    s = g.apply(s, "us", {"type": "activate", "hex": "9A2"}, seeded_dice(1)).state
    assert {"type": "withdraw", "hex": "9A2"} in g.legal_actions(s, "us")
    from rules.core.dice import fixed_dice

    s = g.apply(s, "us", {"type": "withdraw", "hex": "9A2"}, fixed_dice([1, 1])).state  # 2 <= 6: out
    assert s["impulse"]["move"]["units"] == ["us1"] and not s["units"]["us1"]["melee_locked"]
    s = g.apply(s, "us", {"type": "step", "hex": "9A1"}, seeded_dice(2)).state
    assert "9A2" not in s["melee"] and not s["units"]["vc1"]["melee_locked"]
    assert g.active_seats(s) == ["vc"] and {"type": "opp_fire", "hex": "9A2"} in g.legal_actions(s, "vc")


def test_8_0_a_failed_withdrawal_stays_locked_and_is_not_tried_again_this_turn() -> None:
    from rules.core.dice import fixed_dice

    w = tiny(["o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A2"), "vc1": ("vc", "vc-sq-143", "9A2")},
                    melee={"9A2": {"fought": 1}})
    for u in ("us1", "vc1"):
        s["units"][u]["melee_locked"] = True
    s = g.apply(s, "us", {"type": "activate", "hex": "9A2"}, seeded_dice(1)).state
    out = g.apply(s, "us", {"type": "withdraw", "hex": "9A2"}, fixed_dice([6, 6]))
    assert s["units"]["us1"]["at"] == "9A2" and out.state["units"]["us1"]["melee_locked"]
    assert any(f.kind == "withdraw" and not f.data["success"] for f in out.facts)


def test_w7_11_4_the_sniper_is_placed_and_snipes_at_an_opportunity_fire_prompt() -> None:
    w = tiny(["o", "o", "l", "o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "us2": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", "9A6"), "sn": ("vc", "vc-sniper", None)})
    d = seeded_dice(5)
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": "normal"},
              {"type": "step", "hex": "9A2"}):
        s = g.apply(s, "us", a, d).state
    assert g.active_seats(s) == ["vc"]
    assert {"type": "place_sniper", "unit": "sn", "hex": "9A3"} in g.legal_actions(s, "vc")  # light jungle: TM +2
    s = g.apply(s, "vc", {"type": "place_sniper", "unit": "sn", "hex": "9A3"}, d).state
    assert s["units"]["sn"]["at"] == "9A3" and g.active_seats(s) == ["vc"]
    assert {"type": "snipe", "unit": "sn", "target": "9A2"} in g.legal_actions(s, "vc")
    out = g.apply(s, "vc", {"type": "snipe", "unit": "sn", "target": "9A2"}, d)
    assert any(r.purpose == "LnL 11.4 sniper's second die" for r in d.rolls)
    assert out.state["units"]["sn"]["marker"] == "fired"


def test_w5_1_6_1_the_owner_of_a_reduced_squad_with_two_sws_chooses_the_one_to_drop() -> None:
    from rules.core.dice import fixed_dice

    w = tiny(["o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "us1": ("us", "us-sq-264", "9A3")},
                    {"a": ("m60", "us1"), "b": ("m2-flame", "us1")}, player="vc")
    d = fixed_dice([6, 1, 6])  # 6 + 1 FP vs 1: difference 6; damage check 6 + 6 = 12 >= 2 x 6: casualty
    s = g.apply(s, "vc", {"type": "activate", "hex": "9A1"}, d).state
    s = g.apply(s, "vc", {"type": "select", "unit": "vc1"}, d).state
    s = g.apply(s, "vc", {"type": "fire", "target": "9A3"}, d).state
    assert s["units"]["us1"]["kind"] == "us-hs-154"
    assert g.active_seats(s) == ["us"] and g.legal_actions(s, "vc") == []
    assert g.legal_actions(s, "us") == [{"type": "drop_sw", "unit": "us1", "sw": "a"},
                                        {"type": "drop_sw", "unit": "us1", "sw": "b"}]
    s = g.apply(s, "us", {"type": "drop_sw", "unit": "us1", "sw": "b"}, d).state
    assert s["units"]["us1"]["sws"] == ["a"] and s["sws"]["b"] == {"kind": "m2-flame", "side": "us", "holder": None,
                                                                    "at": "9A3"}
    assert s["decision"] is None and s["drops"] == []  # the VC impulse resumed (and, nothing left, ended)


def _flamed(w, extra=None):
    from rules.core.dice import fixed_dice

    g = LockNLoad(w)
    units = {"us1": ("us", "us-sq-264", "9B1"), "vc1": ("vc", "vc-sq-143", "9B2"), **(extra or {})}
    s = blank_state(w, units, {"f": ("m2-flame", "us1")})
    d = fixed_dice([1, 6, 4] + [3] * 30)  # 1 + FP 6 + adjacent 2 = 9 vs 6 + TM 0: damage check 4 + 3 = 7 vs morale 5: Shaken
    for a in ({"type": "activate", "hex": "9B1"}, {"type": "select", "unit": "us1"}, {"type": "fire", "target": "9B2"}):
        out = g.apply(s, "us", a, d)
        s = out.state
    return g, s, out.facts, d


def test_w4_1_6_2_a_unit_shaken_by_flamethrower_fire_retreats_to_the_hex_its_owner_chooses() -> None:
    """1.6.2 (A9, W4): farther from the flamethrower, no nearer any other enemy; the owner (VC)
    chooses among 9A2, 9B3, 9C2; the US cannot act meanwhile; the retreat is marked Moved and the
    game goes on (here, nothing left to do, to the end of the phase)."""
    g, s, facts, d = _flamed(tiny(["ooo", "ooo", "ooo", "ooo"]))
    assert s["units"]["vc1"]["shaken"] and s["units"]["vc1"]["at"] == "9B2"
    assert g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == []
    assert g.legal_actions(s, "vc") == [{"type": "retreat", "unit": "vc1", "hex": h} for h in ("9A2", "9B3", "9C2")]
    assert "flamethrower retreat" in g.phase(s) and "1.6.2" in g.prompt(s, "vc")
    with pytest.raises(IllegalAction):
        g.apply(s, "vc", {"type": "retreat", "unit": "vc1", "hex": "9A1"}, d)  # nearer the flamethrower
    out = g.apply(s, "vc", {"type": "retreat", "unit": "vc1", "hex": "9A2"}, d)
    assert out.facts[0].text == "VC squad vc1 retreats from 9B2 to 9A2 (Moved)" and out.facts[0].rule == "LnL 1.6.2"
    assert out.state["units"]["vc1"]["at"] == "9A2" and out.state["decision"] is None
    g.check_state(out.state)


def test_1_6_2_a_single_retreat_hex_is_taken_unasked_and_none_eliminates() -> None:
    """Another US unit in 9C3: 9B3 and 9C2 would come nearer it, so 9A2 is the only hex; on a
    one-column board nothing is farther from 9A1 than 9A2: eliminated (1.6.2)."""
    g, s, facts, _ = _flamed(tiny(["ooo", "ooo", "ooo", "ooo"]), {"us2": ("us", "us-sq-264", "9C3")})
    assert s["units"]["vc1"]["at"] == "9A2" and s["decision"]["kind"] == "opp_fire"  # unasked; then W9 (below)
    assert any("retreats from 9B2 to 9A2" in f.text and f.rule == "LnL 1.6.2" for f in facts)
    w = tiny(["o", "o"])
    g = LockNLoad(w)
    from rules.core.dice import fixed_dice

    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A2")},
                    {"f": ("m2-flame", "us1")})
    d = fixed_dice([1, 6, 4] + [3] * 30)
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "fire", "target": "9A2"}):
        out = g.apply(s, "us", a, d)
        s = out.state
    assert s["units"]["vc1"]["dead"] and any("no hex to retreat into" in f.text for f in out.facts)


def test_w9_1_6_2_the_active_player_may_opportunity_fire_at_a_unit_retreating_from_flamethrower_fire() -> None:
    """W9 (1.6.2, 5.3, role reversal): vc1, shaken by us1's flamethrower, retreats to 9A2 (the only
    hex: 9B3 and 9C2 come nearer us2 in 9C3); the US, the active player, is prompted to
    opportunity-fire at it from 9C3 (us1 has fired); the VC cannot act; firing ends the prompt."""
    g, s, facts, d = _flamed(tiny(["ooo", "ooo", "ooo", "ooo"]), {"us2": ("us", "us-sq-264", "9C3")})
    assert s["units"]["vc1"]["at"] == "9A2"
    assert g.active_seats(s) == ["us"] and g.legal_actions(s, "vc") == []
    acts = g.legal_actions(s, "us")
    assert [a for a in acts if a["type"] != "order"] == [{"type": "opp_fire", "hex": "9C3"}, {"type": "hold_fire"}]
    assert "retreats from flamethrower fire into 9A2" in g.prompt(s, "us") and "1.6.2" in g.prompt(s, "us")
    out = g.apply(s, "us", {"type": "opp_fire", "hex": "9C3"}, d)
    fired = [f for f in out.facts if f.kind == "fire"]
    assert fired and fired[0].data["from"] == "9C3" and fired[0].data["target"] == "9A2"
    assert out.state["decision"] is None and fired[0].data["firers"] == ["us2"]
    g.check_state(out.state)


def test_w9_standing_orders_answer_the_retreat_opportunity_fire_without_a_prompt() -> None:
    """W9 with standing orders (W1): 9C3 ordered to fire fires at once; ordered to hold, nobody is
    asked and the US impulse goes on."""
    w = tiny(["ooo", "ooo", "ooo", "ooo"])
    for order, fires in (("fire", True), ("hold", False)):
        from rules.core.dice import fixed_dice

        g = LockNLoad(w)
        s = blank_state(w, {"us1": ("us", "us-sq-264", "9B1"), "vc1": ("vc", "vc-sq-143", "9B2"),
                            "us2": ("us", "us-sq-264", "9C3")}, {"f": ("m2-flame", "us1")})
        s["orders"]["us"]["9C3"] = order
        d = fixed_dice([1, 6, 4] + [3] * 30)
        for a in ({"type": "activate", "hex": "9B1"}, {"type": "select", "unit": "us1"},
                  {"type": "fire", "target": "9B2"}):
            out = g.apply(s, "us", a, d)
            s = out.state
        assert s["decision"] is None and s["units"]["vc1"]["at"] == "9A2"
        assert any(f.kind == "fire" and f.data["from"] == "9C3" for f in out.facts) is fires
        assert any(f.kind == "standing_order" and f.rule.startswith("LnL 1.6.2") for f in out.facts) is fires
