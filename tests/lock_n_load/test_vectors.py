"""The digest's test vectors (TV1-TV41) that concern the rules engine, one named test each.
TV1, TV35 are in test_data.py; TV20-TV23, TV26 (LOS) in test_los.py. Not applicable to the demo
(board 1 has no multi-storey building, the demo no helicopter or hero counter): TV5, TV24, TV25,
TV27, TV28 (docs/games/lock-n-load.md)."""

from __future__ import annotations

from rules.core.dice import fixed_dice
from rules.lock_n_load import flow, melee, movement, rally
from rules.lock_n_load import units as U
from rules.lock_n_load.fire import apply_result, combine, dft, plan, resolve, unit_fire
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, texts, tiny
from tests.support.fuzzing import seeded_dice


def col(n: int = 8, **terrain: str) -> object:
    rows = ["o"] * n
    for h, t in terrain.items():
        rows[int(h[1:]) - 1] = t
    return tiny(rows)


def test_tv3_1_6_1_a_leader_fires_an_m60_at_one_fp() -> None:
    w = col()
    s = blank_state(w, {"ldr": ("us", "us-ldr-harlan", "9A1")}, {"m60": ("m60", "ldr")})
    f = unit_fire(s, w, "ldr", 2, oc_opp=False)
    assert f is not None and combine([f]) == 1


def test_tv4_1_6_1_the_same_leader_fires_a_captured_rpd_at_one_fp() -> None:
    w = col()
    s = blank_state(w, {"ldr": ("us", "us-ldr-harlan", "9A1")}, {"rpd": ("rpd", "ldr")})
    s["sws"]["rpd"]["side"] = "vc"  # captured
    f = unit_fire(s, w, "ldr", 2, oc_opp=False)
    assert f is not None and combine([f]) == 1


def test_tv8_4_0_a_squad_fires_only_its_lmg_beyond_its_own_range_and_is_then_done() -> None:
    w = col()
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A8")}, {"m60": ("m60", "us1")})
    assert w.board.distance("9A1", "9A8") == 7 > w.kinds["us-sq-264"].range
    dice = seeded_dice(8)
    s = g.apply(s, "us", {"type": "activate", "hex": "9A1"}, dice).state
    s = g.apply(s, "us", {"type": "select", "unit": "us1"}, dice).state
    out = g.apply(s, "us", {"type": "fire", "target": "9A8"}, dice)
    fire_fact = next(f for f in out.facts if f.kind == "fire")
    assert fire_fact.data["fp"] == 2  # the M-60 alone: inherent FP out of range
    assert out.state["units"]["us1"]["marker"] == "fired"
    assert not any(a.get("unit") == "us1" for a in g.legal_actions(out.state, "us"))


def _opp(w: object, firer_kind: str, marker: str) -> tuple[dict, list]:
    s = blank_state(w, {"f": ("vc", firer_kind, "9A1"), "usm": ("us", "us-sq-264", "9A3")})
    s["units"]["f"]["marker"] = marker
    facts: list = []
    resolve(s, w, ["f"], "9A3", fixed_dice([3, 4, 2]), facts, opportunity=True, movers=["usm"])
    return s, facts


def test_tv9_4_1_nva_squad_under_oc_opportunity_fires_with_2_fp_at_a_mover() -> None:
    w = col()
    s, facts = _opp(w, "nva-sq-254", "oc")
    assert facts[0].data["fp"] == 1  # 2 x 1/2
    assert "attack 5 vs defence 4" in texts(facts)[1]  # die 3 + 1 FP + 1 for the mover = "2 FP"


def test_tv10_4_1_vc_half_squad_0_fp_under_oc_fires_with_0_at_a_mover() -> None:
    w = col()
    s, facts = _opp(w, "vc-hs-033", "oc")
    assert facts[0].data["fp"] == -1  # 4.1: unmodified 0 FP fires at -1
    assert "attack 3 vs defence 4" in texts(facts)[1]  # die 3 - 1 + 1 = 3: "0 FP"


def test_tv11_5_3_one_attacker_die_plus_two_against_the_mover_plus_one_against_the_stationary_squad() -> None:
    w = col()
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "usm": ("us", "us-sq-264", "9A3"),
                        "uss": ("us", "us-sq-264", "9A3")})
    dice = fixed_dice([4, 3, 1, 1])
    facts: list = []
    resolve(s, w, ["vc1"], "9A3", dice, facts, opportunity=True, movers=["usm"])
    assert sum(1 for r in dice.rolls if "attacker's die" in r.purpose) == 1
    t = texts(facts)
    assert any("usm: attack 6 vs defence 3" in x for x in t)  # 4 + 1 FP + 1 moving
    assert any("uss: attack 5 vs defence 3" in x for x in t)  # 4 + 1 FP


def test_tv12_tv13_8_0_melee_strengths_four_and_eleven() -> None:
    w = col()
    s = blank_state(w, {"a": ("us", "us-sq-264", "9A1"), "b": ("us", "us-sq-264", "9A1"),
                        "m1": ("us", "usmc-sq-364", "9A2"), "m2": ("us", "usmc-sq-364", "9A2"),
                        "m3": ("us", "usmc-sq-364", "9A2")}, {"m60": ("m60", "m1")})
    assert sum(melee.strength(s, w, u, defending=False) for u in ("a", "b")) == 4
    assert sum(melee.strength(s, w, u, defending=False) for u in ("m1", "m2", "m3")) == 11


def test_tv14_6_1_two_assault_moved_2_5_4_squads_fire_with_2_fp() -> None:
    w = col()
    s = blank_state(w, {"n1": ("vc", "nva-sq-254", "9A1"), "n2": ("vc", "nva-sq-254", "9A1")})
    for u in ("n1", "n2"):
        s["units"][u]["marker"] = "assault"
    shares = [unit_fire(s, w, u, 2, oc_opp=False) for u in ("n1", "n2")]
    assert combine([f for f in shares if f]) == 2


def test_tv15_7_0_dense_jungle_with_smoke_is_plus_3_for_a_us_squad_plus_4_for_vc() -> None:
    w = col(**{"A2": "d"})
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A2"), "vc1": ("vc", "vc-sq-143", "9A2")}, smoke={"9A2": 1})
    assert U.tm(s, w, "9A2", "us1") == 3 and U.tm(s, w, "9A2", "vc1") == 4


def _melee_state(w: object) -> dict:
    return blank_state(w, {"h1": ("vc", "vc-hs-033", "9A1"), "h2": ("vc", "vc-hs-033", "9A1"),
                           "us1": ("us", "us-sq-264", "9A1")})


def test_tv16_8_2_two_0_3_3_attack_a_2_6_4_at_1_1_minus_2_needing_10() -> None:
    w = col()
    s = _melee_state(w)
    ok, total, odds, kill = melee.side_roll(s, w, "9A1", ["h1", "h2"], ["us1"], fixed_dice([5, 5]), [], ambush=False)
    assert (odds, kill, total, ok) == ("1-1", 8, 8, True)
    ok, *_ = melee.side_roll(s, w, "9A1", ["h1", "h2"], ["us1"], fixed_dice([4, 5]), [], ambush=False)
    assert not ok


def test_tv17_8_2_the_2_6_4_attacks_both_at_1_1_plus_2_needing_6() -> None:
    w = col()
    s = _melee_state(w)
    ok, total, odds, kill = melee.side_roll(s, w, "9A1", ["us1"], ["h1", "h2"], fixed_dice([3, 3]), [], ambush=False)
    assert (odds, kill, total, ok) == ("1-1", 8, 8, True)
    assert not melee.side_roll(s, w, "9A1", ["us1"], ["h1", "h2"], fixed_dice([2, 3]), [], ambush=False)[0]


def _spot(terrain: str, die: int) -> bool:
    w = col(**{"A3": terrain})
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A3")})
    flow._spot(s, w, "us1", "9A3", fixed_dice([die]), [])
    assert s["units"]["us1"]["marker"] == "oc"  # 10.1: OC whatever the result
    return "9A3" in s["spotted"]


def test_tv18_10_1_morale_6_spotter_degrading_target_needs_3_or_less() -> None:
    assert _spot("b", 3) and not _spot("b", 4)


def test_tv19_10_1_morale_6_spotter_blocking_target_needs_less_than_3() -> None:
    assert _spot("g", 2) and not _spot("g", 3)


def test_tv26_10_1_vc_in_jungle_two_hexes_away_is_not_spotted_automatically() -> None:
    w = col(**{"A3": "l"})
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A3")})
    assert not U.spotted(s, w, "9A3", "us")
    s["units"]["vc1"]["marker"] = "fired"
    assert U.spotted(s, w, "9A3", "us")  # 10.1 (4): a Fired marker gives it away


def test_tv29_11_4_a_sniper_attacks_one_random_unit_of_the_hex() -> None:
    w = col()
    s = blank_state(w, {"sn": ("vc", "vc-sniper", "9A1"), "harlan": ("us", "us-ldr-harlan", "9A3"),
                        "us1": ("us", "us-sq-264", "9A3")})
    dice = fixed_dice([1, 1, 6, 2])
    facts: list = []
    resolve(s, w, ["sn"], "9A3", dice, facts)
    assert [r.purpose for r in dice.rolls][1] == "LnL 11.4 sniper's second die"
    assert dice.rolls[3].faces == 2 and "random target" in dice.rolls[3].purpose
    hit = [f.data["unit"] for f in facts if f.kind in ("damage", "no_effect")]
    assert hit == ["us1"]


def test_tv30_to_tv33_13_3_13_4_casualty_reduces_to_the_printed_half_squad_shaken() -> None:
    w = col()
    pairs = {"usmc-sq-364": "usmc-hs-254", "usmc-sq-264": "usmc-hs-154", "arvn-sq-244": "arvn-hs-134",
             "arvn-sq-144": "arvn-hs-034"}
    for big, half in pairs.items():
        s = blank_state(w, {"u": ("us", big, "9A1")})
        apply_result(s, w, "u", "casualty", [])
        assert s["units"]["u"]["kind"] == half and s["units"]["u"]["shaken"]
        apply_result(s, w, "u", "casualty", [])
        assert s["units"]["u"]["at"] is None  # a half squad is eliminated (5.1)


def test_tv34_8_0_a_leader_with_an_lmg_defends_with_half_its_fp() -> None:
    w = col()
    s = blank_state(w, {"l": ("us", "us-ldr-harlan", "9A1"), "f": ("us", "us-ldr-okafor", "9A1")},
                    {"m60": ("m60", "l"), "fl": ("m2-flame", "f")})
    assert melee.strength(s, w, "l", defending=True) == 1 and melee.strength(s, w, "f", defending=True) == 2
    assert U.melee_eligible(s, w, "l")


def test_tv36_4_1_three_passes_in_a_row_end_the_operations_phase() -> None:
    w = col()
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A8")})
    dice = seeded_dice(36)
    for seat in ("us", "vc"):
        s = g.apply(s, seat, {"type": "pass"}, dice).state
        assert s["turn"] == 1 and s["passes"] in (1, 2)
    out = g.apply(s, "us", {"type": "pass"}, dice)
    assert out.state["turn"] == 2 and "Three passes in a row: the Operations Phase ends" in texts(out.facts)


def test_tv37_tv38_t4_dft_bands() -> None:
    assert dft(5 + 2, 6, smc=False, shaken=False) == "shaken"
    assert [dft(d, 6, smc=False, shaken=False) for d in (6, 11, 12, 17, 18)] == [
        "none", "shaken", "casualty", "casualty", "eliminated"]
    assert [dft(d, 6, smc=False, shaken=True) for d in (7, 12)] == ["casualty", "casualty"]
    assert [dft(d, 5, smc=True, shaken=False) for d in (6, 10, 15)] == ["shaken", "wounded", "eliminated"]
    assert dft(6, 5, smc=True, shaken=True) == "wounded"


def test_tv39_4_1_a_1_fp_mmc_under_oc_fires_at_0_not_minus_1() -> None:
    w = col()
    s = blank_state(w, {"v": ("vc", "vc-sq-143", "9A1")})
    s["units"]["v"]["marker"] = "oc"
    f = unit_fire(s, w, "v", 2, oc_opp=True)
    assert f is not None and f.inherent == 0 and combine([f]) == 0


def test_tv40_t6_three_to_one_kills_on_5() -> None:
    assert melee.odds(3, 1) == ("3-1", 5)
    assert melee.odds(5, 2) == ("2-1", 6) and melee.odds(2, 3) == ("1-2", 10)  # A28: rounded down
    assert melee.odds(1, 9) == ("1-3", 11) and melee.odds(12, 1) == ("5-1", 3)


def test_tv41_6_1_assault_move_mf_4_spends_2_or_3_with_double_time() -> None:
    w = col()
    s = blank_state(w, {"n": ("vc", "nva-sq-254", "9A1")})
    assert movement.allowance(s, w, "n", "assault", None) == 2
    assert movement.allowance(s, w, "n", "double", 5) == 5 and (5 + 1) // 2 == 3
    assert movement.allowance(s, w, "n", "assault", None) == (4 + 1) // 2


def test_tv2_1_3_a_stack_may_not_move_through_a_hex_it_would_overstack() -> None:
    w = col(3)
    s = blank_state(w, {"a": ("us", "us-sq-264", "9A2"), "b": ("us", "us-sq-264", "9A2"),
                        "c": ("us", "us-sq-264", "9A2"), "m": ("us", "us-sq-264", "9A1")})
    mv = {"units": ["m"], "at": "9A1", "mode": "normal", "steps": 0, "fired_from": [], "path": ["9A1"],
          "mp": {"m": 4}, "start": "9A1"}
    assert "9A2" not in movement.legal_steps(s, w, mv)
    del s["units"]["c"]
    assert "9A2" in movement.legal_steps(s, w, mv)


def test_tv6_tv7_3_0_a_leader_rallies_only_his_own_background_colour() -> None:
    w = col()
    s = blank_state(w, {"nva": ("vc", "nva-ldr-vinh", "9A1"), "vc1": ("vc", "vc-sq-143", "9A1"),
                        "reyes": ("us", "usmc-ldr-reyes", "9A2"), "army": ("us", "us-sq-264", "9A2"),
                        "harlan": ("us", "us-ldr-harlan", "9A2")})
    s["units"]["vc1"]["shaken"] = True
    s["units"]["army"]["shaken"] = True
    assert rally.rallier(s, w, "vc1") == (None, 0)  # TV6
    assert rally.rallier(s, w, "army") == ("harlan", 1)  # the Army leader, not the Marine (TV7)
    del s["units"]["harlan"]
    assert rally.rallier(s, w, "army") == (None, 0)


def test_5_0_the_leader_checks_first_and_then_helps_the_others_damage_checks() -> None:
    w = col()
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "harlan": ("us", "us-ldr-harlan", "9A3"),
                        "us1": ("us", "us-sq-264", "9A3")})
    # attacker 6 + 1 = 7 vs defender 1: diff 6; leader's check 1 + 6 = 7 > 6: shaken, so no help;
    facts: list = []
    resolve(s, w, ["vc1"], "9A3", fixed_dice([6, 1, 1, 1]), facts)
    assert s["units"]["harlan"]["shaken"] and "- leader" not in texts(facts)[-1]
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "harlan": ("us", "us-ldr-harlan", "9A3"),
                        "us1": ("us", "us-sq-264", "9A3")})
    facts = []
    resolve(s, w, ["vc1"], "9A3", fixed_dice([2, 1, 1, 5]), facts)  # diff 2; leader 1 + 2 = 3: passes
    assert "- leader 1" in texts(facts)[-1]  # the squad's check: 5 + 2 - 1 = 6


def test_t5_adjacent_plus_two_and_degrading_minus_one_in_the_plan() -> None:
    w = col(**{"A2": "b"})
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "us1": ("us", "us-sq-264", "9A3"),
                        "us2": ("us", "us-sq-264", "9A2")})
    s["units"]["us1"]["marker"] = "fired"
    far = plan(s, w, ["vc1"], "9A3", opportunity=False)
    assert far is not None and far.drm == -1  # brush in 9A2 between
    near = plan(s, w, ["vc1"], "9A2", opportunity=False)
    assert near is not None and near.drm == 2


def test_3_0_half_squads_combine_and_a_squad_splits_with_a_go_leader() -> None:
    w = col()
    s = blank_state(w, {"h1": ("us", "us-hs-154", "9A1"), "h2": ("us", "us-hs-154", "9A1"),
                        "ldr": ("us", "us-ldr-harlan", "9A1"), "sq": ("us", "us-sq-264", "9A2")},
                    {"m60": ("m60", "h2")}, phase="rally", rally_done=[])
    acts = rally.legal(s, w, "us")
    assert {"type": "combine", "unit": "h1", "with": "h2"} in acts
    assert not any(a.get("unit") == "sq" for a in acts)  # no leader in 9A2
    rally.perform(s, w, "us", {"type": "combine", "unit": "h1", "with": "h2"}, fixed_dice([]), [])
    assert s["units"]["h1"]["kind"] == "us-sq-264" and "h2" not in s["units"]
    assert s["units"]["h1"]["sws"] == ["m60"] and s["sws"]["m60"]["holder"] == "h1"
    rally.perform(s, w, "us", {"type": "split", "unit": "h1"}, fixed_dice([]), [])
    assert s["units"]["h1"]["kind"] == s["units"]["h1-2"]["kind"] == "us-hs-154"


def test_11_6_an_advisor_raises_stacked_arvn_morale_by_one() -> None:
    w = col()
    s = blank_state(w, {"a": ("us", "arvn-sq-244", "9A1"), "cole": ("us", "us-advisor-cole", "9A1")})
    assert U.morale(s, w, "a") == w.kinds["arvn-sq-244"].morale[0] + 1
    s["units"]["cole"]["shaken"] = True
    assert U.morale(s, w, "a") == w.kinds["arvn-sq-244"].morale[0]
