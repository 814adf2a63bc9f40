"""VB 7.5 [Generic] fortifications and the 5.1.2 exception (vector T14, reading A-31). The
shipped maps have no fortification; a map that marks one gets these rules."""

from __future__ import annotations

from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.movement import entries
from tests.vietnam_battles.vb_helpers import play, state, unit, world

UNITS = {"us-a": unit("us-a", "us", 3, 4, 5), "us-b": unit("us-b", "us", 3, 4, 5), "vc-d": unit("vc-d", "vc", 3, 4, 6)}


def _fort_world(fort: bool):
    w = world(units=UNITS, pools={"us": [5, 1, 2, 3], "vc": [2, 1]})
    if fort:
        w.hexes["0610"] = {"terrain": "clear", "features": ["fortification"]}
    return w


def _attack(fort: bool):
    """us-a (3) attacks vc-d (defense 4) at 0610; US commits +5, VC +2; die 3."""
    w = _fort_world(fort)
    g = VietnamBattles(w)
    s = state(w, {"us-a": "0510", "vc-d": "0610"}, phase="combat", hands={"us": ["us-1"], "vc": ["vc-1"]})
    s = play(g, s, "us", {"type": "declare", "defender": "vc-d", "unit": "us-a"}).state
    s = play(g, s, "us", {"type": "support", "marker": "us-1"}).state
    # neither side has a marker left after this: steps 3 and 4 pass by themselves and it resolves
    out = play(g, s, "vc", {"type": "support", "marker": "vc-1"}, [3])
    return next(f for f in out.facts if f.kind == "combat")


def test_t14_7_5_fort_doubles_defense_and_halves_the_attackers_markers() -> None:
    f = _attack(fort=True)
    # defense 4 doubled = 8, plus the defender's +2 untouched; the attacker's +5 halved, rounded down = 2
    assert (f.data["attack"], f.data["defense"], f.data["differential"]) == (3 + 2, 8 + 2, -5)
    assert f.data["fortified"] is True and "fortification" in f.text and "VB 7.5" in f.text


def test_7_5_the_same_attack_without_a_fort() -> None:
    f = _attack(fort=False)
    assert (f.data["attack"], f.data["defense"], f.data["differential"]) == (3 + 5, 4 + 2, 2)
    assert "fortified" not in f.data


def test_5_1_2_no_infiltration_into_a_fortification_hex() -> None:
    for fort, expected in ((False, True), (True, False)):
        w = _fort_world(False)
        if fort:
            w.hexes["0511"] = {"terrain": "clear", "features": ["fortification"]}
        g = VietnamBattles(w)
        s = play(g, state(w, {"us-a": "0510", "vc-d": "0610"}), "us", {"type": "select", "unit": "us-a"}).state
        assert ("0511" in entries(s, w)) is expected  # 0511 is in vc-d's ZOC: EZOC -> EZOC


def test_5_1_2_no_infiltration_across_a_minefield_hexside() -> None:
    w = world(units=UNITS, sides={"0510/0511": {"minefield": True}})
    g = VietnamBattles(w)
    s = play(g, state(w, {"us-a": "0510", "vc-d": "0610"}), "us", {"type": "select", "unit": "us-a"}).state
    assert "0511" not in entries(s, w) and "0509" in entries(s, w)
