"""Combat, support fire and their decision points (VB 7.0-7.9, 8.3; vectors S1-S5, S11-S18, T10)."""

from __future__ import annotations

import pytest

from rules.core.game import IllegalAction
from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.vb_helpers import play, state, texts, unit, world

HANDS = {"us": ["us-1", "us-2", "us-3", "us-4"], "vc": ["vc-1", "vc-2"]}  # values +1 +2 +3 +4 / +1 +2


def _combat(w, at, **kw):
    kw.setdefault("hands", {k: list(v) for k, v in HANDS.items()})
    return state(w, at, phase="combat", **kw)


def _declare(g, s, dft, *units, dice=None, facts=None):
    """Declare and add; the last call gets `dice` (a battle with nothing left to choose resolves at once)."""
    acts = [{"type": "declare", "defender": dft, "unit": units[0]}] + [{"type": "add", "unit": u} for u in units[1:]]
    for i, a in enumerate(acts):
        out = play(g, s, "us", a, dice if i == len(acts) - 1 else None)
        s = out.state
        if facts is not None:
            facts.extend(out.facts)
    return s


def test_s1_8_3_alternation_attacker_defender_attacker_defender() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _declare(g, _combat(w, {"us-4-47-c": "0510", "vc-514-1": "0610"}), "vc-514-1", "us-4-47-c")
    s = play(g, s, "us", {"type": "support", "marker": "us-3"}).state
    assert g.active_seats(s) == ["vc"] and g.legal_actions(s, "us") == []  # step 2: the defender decides
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "support", "marker": "us-2"}, None)  # type: ignore[arg-type]
    s = play(g, s, "vc", {"type": "pass"}).state
    s = play(g, s, "us", {"type": "support", "marker": "us-2"}).state
    assert g.active_seats(s) == ["vc"]
    out = play(g, s, "vc", {"type": "support", "marker": "vc-2"}, [3])  # hmm: vc-2 is +2
    f = [x for x in out.facts if x.kind == "combat"][0]
    assert f.data["attack"] == 3 + 5 and f.data["defense"] == 5 + 2 and f.data["differential"] == 1


def test_s2_8_3_attacker_may_play_at_step3_after_passing_step1() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _declare(g, _combat(w, {"us-4-47-c": "0510", "vc-514-1": "0610"}), "vc-514-1", "us-4-47-c")
    s = play(g, s, "us", {"type": "pass"}).state
    s = play(g, s, "vc", {"type": "support", "marker": "vc-2"}).state
    s = play(g, s, "us", {"type": "support", "marker": "us-4"}).state
    out = play(g, s, "vc", {"type": "pass"}, [3])
    f = [x for x in out.facts if x.kind == "combat"][0]
    assert f.data["attack"] == 3 + 4 and f.data["defense"] == 5 + 2


def test_s3_s4_8_3_one_marker_per_step_and_nothing_after_step4() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _declare(g, _combat(w, {"us-4-47-c": "0510", "vc-514-1": "0610"}), "vc-514-1", "us-4-47-c")
    s = play(g, s, "us", {"type": "support", "marker": "us-1"}).state
    s = play(g, s, "vc", {"type": "pass"}).state
    s = play(g, s, "us", {"type": "pass"}).state
    acts = g.legal_actions(s, "vc")
    assert {"type": "support", "marker": "vc-1"} in acts  # one marker at step 4 despite the pass at step 2
    out = play(g, s, "vc", {"type": "support", "marker": "vc-1"}, [1])  # 4 - 6 = -2: C4, die 1 "-"
    assert out.state["battle"] is None and [f for f in out.facts if f.kind == "combat"]  # resolved (S4)
    assert "vc-1" in out.state["spent"]["vc"] and "vc-2" in out.state["hands"]["vc"]


def test_s5_10_1_slick_delivered_attacker_limited_to_one_marker() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _combat(w, {"us-3-47-b": "0510", "vc-514-1": "0610"})
    s["units"]["us-3-47-b"]["transported"] = "slick"
    s = _declare(g, s, "vc-514-1", "us-3-47-b")
    s = play(g, s, "us", {"type": "support", "marker": "us-1"}).state
    s = play(g, s, "vc", {"type": "pass"}).state
    # step 3 has nothing the US may commit: passed for it; the defender (unlimited, A-7) is at step 4
    assert g.active_seats(s) == ["vc"] and s["battle"]["step"] == 4


def test_7_2_each_unit_attacks_once_and_is_attacked_once_per_phase() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _combat(w, {"us-4-47-c": "0510", "us-4-47-b": "0611", "vc-514-1": "0610", "vc-514-2": "0612"},
                hands={"us": [], "vc": []})
    s = play(g, s, "us", {"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}).state
    out = play(g, s, "us", {"type": "pass"}, [1])  # -2: C4, die 1 "-"
    assert out.state["battle"] is None
    acts = g.legal_actions(out.state, "us")
    assert [a for a in acts if a["type"] == "declare"] == [{"type": "declare", "defender": "vc-514-2",
                                                            "unit": "us-4-47-b"}]


def test_a29_defender_attacked_in_combat_may_be_attacked_again_in_mech_combat() -> None:
    units = {"inf": unit("inf", "us", 3, 4, 5), "mech": unit("mech", "us", 3, 5, 8, mech=True),
             "vc": unit("vc", "vc", 3, 5, 6)}
    w = world(units=units)
    g = VietnamBattles(w)
    s = state(w, {"inf": "0510", "mech": "0611", "vc": "0610"}, phase="combat")
    s = play(g, s, "us", {"type": "declare", "defender": "vc", "unit": "inf"}).state
    s = play(g, s, "us", {"type": "pass"}, [1]).state  # 3 - 5 = -2: C4 "-"
    assert s["phase"] == "mech_movement"  # nothing else to attack: the Combat Phase passed by itself
    s = play(g, s, "us", {"type": "end_phase"}).state
    assert s["phase"] == "mech_combat"
    assert {"type": "declare", "defender": "vc", "unit": "mech"} in g.legal_actions(s, "us")


def test_t10_7_4_jungle_behind_river_uses_jungle_only() -> None:
    w = world(terrain={"0610": "jungle"}, sides={"0510/0610": {"river": "Rach Ba Rai", "kind": "river"}})
    g = VietnamBattles(w)
    out = play(g, _combat(w, {"us-4-47-c": "0510", "vc-514-1": "0610"}, hands={"us": [], "vc": []}), "us",
               {"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}, [3])
    assert [f for f in out.facts if f.kind == "combat"][0].data["row"] == "jungle"


def test_7_4_river_benefit_only_if_every_attacker_is_across_the_river() -> None:
    w = world(sides={"0510/0610": {"river": "Rach Ba Rai", "kind": "river"}})
    g = VietnamBattles(w)
    s = _combat(w, {"us-4-47-c": "0510", "us-4-47-b": "0611", "vc-514-1": "0610"}, hands={"us": [], "vc": []})
    s1 = play(g, s, "us", {"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}).state
    out = play(g, s1, "us", {"type": "pass"}, [3])
    assert [f for f in out.facts if f.kind == "combat"][0].data["row"] == "village"  # the river row
    facts: list = []
    _declare(g, s, "vc-514-1", "us-4-47-c", "us-4-47-b", dice=[3], facts=facts)
    assert [f for f in facts if f.kind == "combat"][0].data["row"] == "clear"


def test_s11_7_6_ex_attacker_chooses_which_unit_loses_the_step() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _combat(w, {"us-4-47-c": "0510", "us-3-47-c": "0611", "vc-514-1": "0610"}, hands={"us": [], "vc": []},
                reduced=("us-3-47-c",))
    # 3 + 1 - 5 = -1: clear C5, die 1 = Ex
    s = _declare(g, s, "vc-514-1", "us-4-47-c", "us-3-47-c", dice=[1])
    assert s["units"]["vc-514-1"]["reduced"] and s["decision"]["kind"] == "loss"
    assert g.active_seats(s) == ["us"]
    s = play(g, s, "us", {"type": "lose_step", "unit": "us-3-47-c"}).state
    assert s["units"]["us-3-47-c"]["status"] == "dead" and not s["units"]["us-4-47-c"]["reduced"]


def _d2(g, w, at, attackers=("us-4-47-c",), dice=None, **kw):
    """An attack that yields D2 (clear, die 1 at C7..C9)."""
    s = _combat(w, at, hands={"us": ["us-4"], "vc": []}, **kw)
    s = _declare(g, s, "vc-514-1", *attackers)
    out = play(g, s, "us", {"type": "support", "marker": "us-4"}, dice or [1])
    assert [f for f in out.facts if f.kind == "combat"][0].data["result"] == "D2"
    return out.state


def test_7_7_defender_decides_retreat_or_hold_the_attacker_cannot_act() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "vc-514-1": "0610"})
    assert s["decision"]["kind"] == "retreat" and g.active_seats(s) == ["vc"]
    assert g.legal_actions(s, "us") == []
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "end_phase"}, None)  # type: ignore[arg-type]
    acts = g.legal_actions(s, "vc")
    assert {"type": "hold", "unit": "vc-514-1"} in acts
    paths = [a["path"] for a in acts if a["type"] == "retreat"]
    assert paths and all(len(p) == 2 and w.distance(p[1], "0610") == 2 for p in paths)


def test_7_7_retreat_may_not_enter_ezoc() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "us-4-47-b": "0810", "vc-514-1": "0610"})
    for a in g.legal_actions(s, "vc"):
        if a["type"] == "retreat":
            assert not any(h in w.neighbours("0810") or h in w.neighbours("0510") for h in a["path"]), a


def test_s12_7_7_incomplete_retreat_loses_a_step_at_the_last_hex() -> None:
    # The defender in 0610 can go 1 hex to 0609 but no further: 0608's ring is blocked by ZOC.
    w = world(terrain={h: "all_water" for h in ("0611", "0711", "0709", "0809", "0810")})
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "vc-514-1": "0610", "us-4-47-b": "0407"})
    acts = [a for a in g.legal_actions(s, "vc") if a["type"] == "retreat"]
    assert acts and all(len(a["path"]) == 1 for a in acts)
    out = play(g, s, "vc", acts[0])
    assert out.state["units"]["vc-514-1"]["reduced"] and "could not complete" in texts(out)


def test_s13_7_7_no_retreat_at_all_eliminated_or_hold() -> None:
    w = world(terrain={h: "all_water" for h in ("0709", "0710", "0711", "0611", "0511", "0609")})
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "vc-514-1": "0610"})
    acts = g.legal_actions(s, "vc")
    assert {"type": "retreat", "unit": "vc-514-1", "path": []} in acts
    assert {"type": "hold", "unit": "vc-514-1"} in acts
    out = play(g, s, "vc", {"type": "retreat", "unit": "vc-514-1", "path": []})
    assert out.state["units"]["vc-514-1"]["status"] == "dead"
    out = play(g, s, "vc", {"type": "hold", "unit": "vc-514-1"})
    assert out.state["units"]["vc-514-1"]["reduced"] and out.state["battle"] is None  # S17: no advance


def test_s14_s15_7_7_2_displacement_only_when_no_empty_hex() -> None:
    # Only one way out: 0610 -> 0710 -> 0810 where a VC friend sits.
    water = ("0609", "0611", "0511", "0709", "0711", "0809", "0811", "0710x")
    w = world(terrain={h: "all_water" for h in water if len(h) == 4})
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "vc-514-1": "0610", "vc-514-2": "0810"})
    acts = [a for a in g.legal_actions(s, "vc") if a["type"] == "retreat"]
    assert acts == [{"type": "retreat", "unit": "vc-514-1", "path": ["0710", "0810"]}]
    s = play(g, s, "vc", acts[0]).state
    assert s["decision"]["kind"] == "displace" and g.active_seats(s) == ["vc"]
    opts = g.legal_actions(s, "vc")
    assert {"type": "refuse"} in opts and {"type": "displace", "hex": "0710"} not in opts
    dest = [a for a in opts if a["type"] == "displace"][0]
    s = play(g, s, "vc", dest).state
    assert s["units"]["vc-514-1"]["at"] == "0810" and s["units"]["vc-514-2"]["at"] == dest["hex"]
    assert s["units"]["vc-514-2"]["retreated"]
    # S15: with an empty hex available, no displacement is offered
    w2 = world()
    s2 = _d2(g := VietnamBattles(w2), w2, {"us-4-47-c": "0510", "vc-514-1": "0610", "vc-514-2": "0810"})
    assert all(a["path"][-1] != "0810" for a in g.legal_actions(s2, "vc") if a["type"] == "retreat")


def test_s16_7_9_advance_along_the_path_of_retreat() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _d2(g, w, {"us-4-47-c": "0510", "us-4-47-b": "0611", "vc-514-1": "0610"}, ("us-4-47-c", "us-4-47-b"))
    path = [a for a in g.legal_actions(s, "vc") if a["type"] == "retreat"][0]["path"]
    s = play(g, s, "vc", {"type": "retreat", "unit": "vc-514-1", "path": path}).state
    assert s["decision"]["kind"] == "advance" and g.active_seats(s) == ["us"]
    acts = g.legal_actions(s, "us")
    assert {"type": "advance", "unit": "us-4-47-c", "hex": "0610"} in acts
    assert {"type": "advance", "unit": "us-4-47-c", "hex": path[0]} in acts
    assert all(a["hex"] in ["0610", path[0]] for a in acts if a["type"] == "advance")
    s = play(g, s, "us", {"type": "advance", "unit": "us-4-47-c", "hex": path[0]}).state
    out = play(g, s, "us", {"type": "advance", "unit": "us-4-47-b", "hex": "0610"})
    s = out.state
    assert s["battle"] is None and s["units"]["us-4-47-c"]["at"] == path[0] and s["units"]["us-4-47-b"]["at"] == "0610"
    assert [f for f in out.facts if f.kind == "advance"]


def test_a5_7_8_one_step_loss_cancels_the_attackers_retreat() -> None:
    w = world()
    g = VietnamBattles(w)
    s = _combat(w, {"us-4-47-c": "0510", "us-4-47-b": "0611", "vc-514-1": "0610"}, hands={"us": [], "vc": []})
    s = _declare(g, s, "vc-514-1", "us-4-47-c", "us-4-47-b", dice=[5])  # 6 - 5 = +1: C7, die 5 = A2
    assert s["decision"]["kind"] == "retreat" and g.active_seats(s) == ["us"]
    s = play(g, s, "us", {"type": "hold", "unit": "us-4-47-b"}).state
    assert s["decision"] is None and s["units"]["us-4-47-b"]["reduced"]
    assert s["units"]["us-4-47-c"]["at"] == "0510" and s["units"]["us-4-47-b"]["at"] == "0611"


def test_s18_12_0_vc_attacks_monitor_clear_row_no_advance() -> None:
    w = world(terrain={"0717": "jungle"}, sides={"0717/0718": {"river": "Rach Ba Rai", "kind": "river"}})
    g = VietnamBattles(w)
    s = state(w, {"vc-514-1": "0717", "us-mon-3": "0717/0718", "us-4-47-c": "1519"}, player="vc", phase="combat",
              hands={"us": [], "vc": ["vc-1", "vc-2"]})
    s = play(g, s, "vc", {"type": "declare", "defender": "us-mon-3", "unit": "vc-514-1"}).state
    s = play(g, s, "vc", {"type": "support", "marker": "vc-2"}).state
    out = play(g, s, "vc", {"type": "support", "marker": "vc-1"}, [1])  # 3 + 3 - 2 = +4: clear C9, die 1: D2
    f = [x for x in out.facts if x.kind == "combat"][0]
    assert f.data["row"] == "clear" and f.data["column"] == 9


def test_12_0_monitor_retreats_along_water_spaces_only() -> None:
    from tests.vietnam_battles.fixtures.boys_map import boys_world

    w = boys_world()
    g = VietnamBattles(w)
    s = state(w, {"vc-514-1": "0717", "us-mon-1": "0717/0718", "us-4-47-c": "1519"}, player="vc", phase="combat",
              hands={"us": [], "vc": ["vc-1", "vc-2"]})
    s = play(g, s, "vc", {"type": "declare", "defender": "us-mon-1", "unit": "vc-514-1"}).state
    s = play(g, s, "vc", {"type": "support", "marker": "vc-2"}).state
    out = play(g, s, "vc", {"type": "support", "marker": "vc-1"}, [1])  # 3 + 3 - 4 = +2: clear C8, die 1: D2
    s = out.state
    assert s["decision"]["kind"] == "retreat" and g.active_seats(s) == ["us"]
    paths = [a["path"] for a in g.legal_actions(s, "us") if a["type"] == "retreat"]
    assert paths and all(len(p) == 2 and all("/" in x for x in p) for p in paths)
    s = play(g, s, "us", {"type": "retreat", "unit": "us-mon-1", "path": paths[0]}, [1] * 12).state
    assert s["decision"] is None and s["battle"] is None  # VB 12.0: VC never advance after a monitor


def test_t24_13_0_zero_strength_monitor_attacks_alone_with_support_fire() -> None:
    from tests.vietnam_battles.fixtures.boys_map import boys_world

    w = boys_world()
    w.pools = {"us": [3], "vc": [1]}
    g = VietnamBattles(w)
    s = state(w, {"vc-514-1": "0712", "us-mon-3": "0712/0811"}, phase="combat", hands={"us": ["us-1"], "vc": []})
    s = play(g, s, "us", {"type": "declare", "defender": "vc-514-1", "unit": "us-mon-3"}).state
    out = play(g, s, "us", {"type": "support", "marker": "us-1"}, [1])
    f = [x for x in out.facts if x.kind == "combat"][0]
    # 0 + 3 - 5 = -2; A-38: the monitor attacks across its river hexside: the River (village) row, C3
    assert f.data["attack"] == 3 and f.data["differential"] == -2 and f.data["row"] == "village" and f.data["column"] == 3
