"""Rules version 4's AFVs and infantry guns: the appendix's rules (UFM 6.4, 7.1-7.3, 8, 10.3d-e,
10.5) and its worked examples UF-18..20, on our vehicle and ordnance core (VEH 1-6,
rules/up_front/vehicles.py, vehicles.json OURS), in scenarios E, H, T and U (UFM 11.e)."""

from __future__ import annotations

import pytest

from rules import get_game
from rules.core.game import IllegalAction
from rules.up_front.data import world
from rules.up_front.geometry import level_of
from tests.support.fuzzing import seeded_dice
from tests.up_front.uf_helpers import GAME, W, act, check, give, only_card_on_top, playing, set_level

OPTS = {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}


def _drawn(s: dict, rn: int, colour: str) -> str:
    """A free non-terrain card with that random number and colour, left alone in the draw pile:
    the next card drawn (the To Hit card, or a bog check's)."""
    for cid, c in sorted(W.cards.items()):
        if c["type"] in ("rally", "movement", "concealment") and c["rn"] == rn and c["colour"] == colour and \
                (cid in s["deck"]["draw"] or cid in s["deck"]["discard"]):
            only_card_on_top(s, cid)
            return cid
    raise AssertionError(f"no free {colour} {rn}")


def _ordnance(s: dict, seat: str, group: str, target: str, value: int = 5, colour: str | None = None):
    card = give(s, seat, "fire", value=value, **({"colour": colour} if colour else {}))
    return {"type": "ordnance", "group": group, "card": card, "target": target}


def _facts(r, kind: str) -> list:
    return [f for f in r.facts if f.kind == kind]


def test_scenarios_e_h_t_u_are_built_in_rules_version_4_only_UFM_11e() -> None:
    assert {"E", "H", "T", "U"} <= set(world("4").scenarios)
    v3 = world("3")
    assert not {"E", "H", "T", "U"} & set(v3.scenarios)
    assert all("AFVs" in v3.not_playable[k] for k in "EHTU")
    assert not {"E", "H", "T", "U"} & set(world("4").not_playable)
    assert not {"E", "H", "T", "U"} & set(get_game("up-front", "3").scenarios())
    for sid in "EHTU":  # each side holds one vehicle, alone in its group (VEH 1)
        sc = W.scenarios[sid]
        assert sc["minefield_nf"] and sc["since"] == "4"
        for seat in sc["roles"]:
            vehicle_groups = [men for men in sc["forces"][seat].values() if any(m in W.vehicles for m in men)]
            assert len(vehicle_groups) == 1 and len(vehicle_groups[0]) == 1


def test_an_afv_moves_at_level_0_only_and_never_changes_level_UFM_7_1() -> None:
    s = playing("E")  # the Americans' group C is an armoured car (USV01)
    card = give(s, "americans", "movement")
    acts = GAME.legal_actions(s, "americans")
    assert not [a for a in acts if a["type"] == "alt_step" and a["group"] == "C"]
    assert {"type": "move", "group": "C", "card": card, "mode": "forward"} in acts  # it moves at level 0
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "alt_step", "group": "C", "card": card, "mode": "sideways", "one_card": False})
    assert err.value.rule == "UFM 7.1"
    # infantry of the same side still climbs
    assert [a for a in acts if a["type"] == "alt_step" and a["group"] == "A"]


def test_an_afv_takes_no_altitude_card_at_set_up_UFM_7_1() -> None:
    s = GAME.setup("E", OPTS, seeded_dice(3))
    seat = s["turn"]
    card = give(s, seat, "hill")
    targets = {(a["side"], a["group"]) for a in GAME.legal_actions(s, seat) if a.get("card") == card}
    assert ("americans", "C") not in targets  # the armoured car stays at level 0
    assert ("germans", "C") in targets and ("americans", "A") in targets  # UFM 4: any other group, either side
    with pytest.raises(IllegalAction):
        act(s, seat, {"type": "place", "card": card, "side": "americans", "group": "C"})


def test_an_infantry_gun_starts_at_the_level_of_its_altitude_card_and_never_moves_UFM_8() -> None:
    s = GAME.setup("E", OPTS, seeded_dice(3))  # the Germans' group C is an infantry gun (GEG01)
    seat = s["turn"]
    card = give(s, seat, "buildings2")
    r = act(s, seat, {"type": "place", "card": card, "side": "germans", "group": "C"})
    assert level_of(W, r.state["groups"]["germans"]["C"]) == 2  # UFM 8: set up at that altitude
    t = playing("E")
    set_level(t, "germans", "C", 2)
    t["turn"] = "germans"
    mv = give(t, "germans", "movement")
    acts = GAME.legal_actions(t, "germans")
    assert not [a for a in acts if a.get("group") == "C" and a["type"] in
                ("move", "alt_step", "shift", "infiltrate", "transfer")]
    for a in ({"type": "move", "group": "C", "card": mv, "mode": "forward"},
              {"type": "alt_step", "group": "C", "card": mv, "mode": "sideways", "one_card": False},
              {"type": "shift", "group": "C", "card": mv, "to": "D"}):
        with pytest.raises(IllegalAction) as err:
            act(t, "germans", a)
        assert err.value.rule == "UFM 8"


def test_a_vehicle_is_alone_in_its_group_VEH_1() -> None:
    s = playing("E")
    mv = give(s, "americans", "movement")
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "transfer", "group": "B", "to": "C", "man": "US05", "card": mv})
    assert err.value.rule == "VEH 1"


def test_small_arms_do_not_harm_an_afv_but_hit_a_guns_crew_VEH_2() -> None:
    s = playing("T")  # Germans: armoured car in C; Americans: pack howitzer in C
    s["turn"] = "americans"
    card = give(s, "americans", "fire", value=3)
    with pytest.raises(IllegalAction) as err:
        act(s, "americans", {"type": "fire", "group": "A", "card": card, "target": "C"})
    assert err.value.rule == "VEH 2"
    assert {"type": "fire", "group": "A", "card": card, "target": "A"} in GAME.legal_actions(s, "americans")
    s["turn"] = "germans"
    card2 = give(s, "germans", "fire", value=3)
    assert {"type": "fire", "group": "A", "card": card2, "target": "C"} in GAME.legal_actions(s, "germans")
    # the armoured car's own small arms fire like a man's (VEH 2)
    assert {"type": "fire", "group": "C", "card": card2, "target": "A"} in GAME.legal_actions(s, "germans")


def test_UF_18_ordnance_at_level_0_misses_a_higher_group_on_a_red_to_hit_card_UFM_6_4() -> None:
    for colour, hits in (("red", False), ("black", True)):
        s = playing("E")
        s["turn"] = "germans"
        set_level(s, "americans", "A", 2)  # the infantry group at level 2, the gun at level 0
        a = _ordnance(s, "germans", "C", "A", value=5)
        _drawn(s, 3, colour)  # the To Hit card: 3 + Fire 5 = 8 reaches any To Hit number of ours
        r = act(s, "germans", a)
        (shot,) = _facts(r, "ordnance")
        assert (shot.data["result"] != "miss") is hits, shot.text
        if not hits:
            assert shot.rule == "UFM 6.4"
        else:  # UFM 6.4's second sentence: the higher group gets no hit card's modification
            assert "no hit card margin" in shot.text
        check(r.state)


def test_UF_19_ordnance_from_level_2_meets_an_afvs_flank_armour_UFM_7_2() -> None:
    for level, side in ((2, "flank"), (1, "front"), (0, "front")):
        s = playing("T")  # the Americans' pack howitzer (C) fires at the Germans' armoured car (C, level 0)
        s["turn"] = "americans"
        set_level(s, "americans", "C", level)
        a = _ordnance(s, "americans", "C", "C", value=5)
        _drawn(s, 6, "black")
        r = act(s, "americans", a)
        (shot,) = _facts(r, "ordnance")
        assert f"{side} armour" in shot.text, shot.text
        armour = W.vehicles["GEV01"]["armour"][side]
        assert f"armoured car {side} armour -{armour}" in shot.text
        assert ("UFM 7.2" in shot.data["rules"]) is (side == "flank")


def test_UF_20_an_immobilised_assault_gun_fires_ordnance_with_a_black_card_only_to_hit_2_worse_UFM_7_3() -> None:
    s = playing("U")  # the Germans' group C is an assault gun (GEV02)
    s["turn"] = "germans"
    s["men"]["GEV02"]["immobilised"] = True
    red = _ordnance(s, "germans", "C", "A", value=3, colour="red")
    with pytest.raises(IllegalAction) as err:
        act(s, "germans", red)
    assert err.value.rule == "UFM 7.3"
    assert red not in GAME.legal_actions(s, "germans")
    black = _ordnance(s, "germans", "C", "A", value=3, colour="black")
    assert black in GAME.legal_actions(s, "germans")
    r = act(s, "germans", black)
    (shot,) = _facts(r, "ordnance")
    assert "immobilised assault gun +2" in shot.text
    # mobile, the same shot has no penalty
    s2 = playing("U")
    s2["turn"] = "germans"
    r2 = act(s2, "germans", _ordnance(s2, "germans", "C", "A", value=3, colour="red"))
    assert "immobilised" not in _facts(r2, "ordnance")[0].text


def test_light_conditions_make_the_to_hit_number_1_worse_UFM_10_5_UF_30() -> None:
    s = playing("U", condition="light")
    a = _ordnance(s, "americans", "C", "A", value=3)
    r = act(s, "americans", a)
    assert "light conditions +1" in _facts(r, "ordnance")[0].text


def test_mud_takes_1_from_he_and_bogs_an_afv_on_a_movement_card_UFM_10_3d_e() -> None:
    s = playing("U", condition="mud")
    mv = give(s, "americans", "movement")
    _drawn(s, 0, "red")  # the bog check's card: red 0 bogs (VEH 6)
    r = act(s, "americans", {"type": "move", "group": "C", "card": mv, "mode": "sideways"})
    (bog,) = _facts(r, "bog")
    assert bog.data["bogged"] and bog.rule == "UFM 10.3"
    t = r.state
    assert t["men"]["USV02"]["immobilised"] and t["groups"]["americans"]["C"]["moves"] == []
    check(t)
    t["acted"] = []
    mv2 = give(t, "americans", "movement")
    with pytest.raises(IllegalAction) as err:
        act(t, "americans", {"type": "move", "group": "C", "card": mv2, "mode": "sideways"})
    assert err.value.rule == "VEH 5"
    # a black card does not bog
    s2 = playing("U", condition="mud")
    mv3 = give(s2, "americans", "movement")
    _drawn(s2, 0, "black")
    r2 = act(s2, "americans", {"type": "move", "group": "C", "card": mv3, "mode": "sideways"})
    assert not _facts(r2, "bog")[0].data["bogged"] and r2.state["groups"]["americans"]["C"]["moves"]
    # Mud: the HE (uncircled) effect number takes -1 on a hit
    s3 = playing("U", condition="mud")
    a = _ordnance(s3, "americans", "C", "A", value=5)
    _drawn(s3, 6, "black")
    shot = _facts(act(s3, "americans", a), "ordnance")[0]
    assert "mud: uncircled effect number -1" in shot.text


def test_an_ordnance_hit_can_destroy_an_afv_which_counts_as_a_man_lost_VEH_5() -> None:
    s = playing("U")
    set_level(s, "americans", "C", 0)
    s["groups"]["americans"]["C"]["range"] = 5  # RR 5 against the same letter: the tank's best AP there
    a = _ordnance(s, "americans", "C", "C", value=5)
    _drawn(s, 6, "black")
    r = act(s, "americans", a)
    (shot,) = _facts(r, "ordnance")
    assert shot.data["result"] in ("destroyed", "immobilised", "no effect")
    tank, sg = W.vehicles["USV02"], W.vehicles["GEV02"]
    rr = 5
    margin = 6 + 5 - tank["to_hit"][rr]
    net = tank["ap"][rr] + margin - sg["armour"]["front"]
    want = "destroyed" if net >= 2 else "immobilised" if net >= 0 else "no effect"
    assert shot.data["result"] == want, shot.text
    if want == "destroyed":
        assert r.state["men"]["GEV02"]["status"] == "kia"


def test_h_defender_may_draw_until_altitude_cards_UFM_11e_H() -> None:
    s = GAME.setup("H", OPTS, seeded_dice(5))
    assert W.scenarios["H"]["altitude_setup"] == {"kind": "may_draw", "seat": "germans"}
    s["turn"] = "germans"
    draws = [a for a in GAME.legal_actions(s, "germans") if a["type"] == "draw_altitude"]
    assert {"type": "draw_altitude", "count": 1} in draws  # "at least one"
    s["turn"] = "americans"
    assert not [a for a in GAME.legal_actions(s, "americans") if a["type"] == "draw_altitude"]


@pytest.mark.parametrize("scenario", ["E", "H", "T", "U"])
def test_random_legal_play_fires_ordnance_and_ends(scenario: str) -> None:
    import random

    fired = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = GAME.setup(scenario, {**OPTS, "condition": ("dry", "mud", "light")[seed]}, seeded_dice(seed))
        for n in range(4000):
            if GAME.outcome(s):
                break
            (seat,) = GAME.active_seats(s)
            acts = GAME.legal_actions(s, seat)
            a = rng.choice(acts)
            fired += a["type"] == "ordnance"
            s = GAME.apply(s, seat, a, seeded_dice(seed * 10_000 + n)).state
        assert GAME.outcome(s), f"{scenario} seed {seed}: no end"
        check(s)
        afv = [m for m in s["men"] if m in W.vehicles and W.vehicles[m]["kind"] == "afv"]
        for m in afv:  # UFM 7.1: an AFV's group never leaves level 0
            g = s["groups"][s["men"][m]["seat"]].get(s["men"][m]["group"])
            assert g is None or level_of(W, g) == 0
    assert fired > 0


def _bench():
    """The scripted players of bench/up_front_balance.py (the balance table's "sensible" strategy)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "up_front_balance.py"
    spec = importlib.util.spec_from_file_location("up_front_balance", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("scenario", ["E", "H", "T", "U"])
def test_the_scripted_players_play_to_the_end_and_fire_ordnance(scenario: str) -> None:
    import random

    bench = _bench()
    fired = 0
    for seed in range(2):
        s = GAME.setup(scenario, OPTS, seeded_dice(seed))
        rng = random.Random(seed)
        for n in range(5000):
            if GAME.outcome(s):
                break
            (seat,) = GAME.active_seats(s)
            a = bench.choose(GAME, s, seat, False, rng)
            fired += a["type"] == "ordnance"
            s = GAME.apply(s, seat, a, seeded_dice(seed * 10_000 + n)).state
        assert GAME.outcome(s), f"{scenario} seed {seed}: the scripted players did not end the game"
        check(s)
    assert fired > 0
