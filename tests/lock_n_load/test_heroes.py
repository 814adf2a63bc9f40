"""Heroes (LnL 11.2, T4, 5.2, 8.0; the option `heroes`, off by default: the demo has no hero counters)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.dice import fixed_dice
from rules.lock_n_load import fire, melee, rally
from rules.lock_n_load.data import World, _kind, load_json, load_world
from rules.lock_n_load.game import LockNLoad, LockNLoadV1
from tests.lock_n_load.helpers import blank_state, tiny


def _world() -> World:
    w = tiny(["o", "o", "o"])
    w.kinds.update({k: _kind(v) for k, v in load_json("heroes.json")["kinds"].items()})
    return w


def _fire(heroes: bool, dice: list[int], marker: str = "") -> tuple[dict[str, Any], list[Any], Any]:
    """The VC squad in 9A1 fires at the US squad in 9A3 (fire.resolve, the rules' one resolution)."""
    w = _world()
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "us1": ("us", "us-sq-264", "9A3")}, player="vc",
                    options={"tall_obstacles_block": False, "heroes": heroes})
    s["units"]["us1"]["marker"] = marker
    d = fixed_dice(dice + [3] * 30)
    facts: list[Any] = []
    fire.resolve(s, w, ["vc1"], "9A3", d, facts)
    LockNLoad(w).check_state(s)
    return s, facts, d


def test_11_2_a_damage_check_of_1_and_an_even_die_make_a_hero_with_the_parents_marker() -> None:
    # attacker 6, defender 1: a hit; its damage check die is 1; the hero die 4 is even
    s, facts, d = _fire(True, [6, 1, 1, 4, 1], marker="moved")
    hero = next(u for u, r in s["units"].items() if r["kind"] == "us-hero")
    assert s["units"][hero]["at"] == "9A3" and s["units"][hero]["marker"] == "moved"
    assert any(f.rule == "LnL 11.2, 11.12" and "appears in 9A3" in f.text for f in facts)
    assert "LnL 11.2 hero appearance from us1" in [r.purpose for r in d.rolls]


def test_11_2_an_odd_die_or_the_option_off_makes_no_hero() -> None:
    s, facts, _ = _fire(True, [6, 1, 1, 3])
    assert not any(r["kind"] == "us-hero" for r in s["units"].values()) and any("no hero" in f.text for f in facts)
    s, facts, d = _fire(False, [6, 1, 1, 4])
    assert not any(r["kind"] == "us-hero" for r in s["units"].values())
    assert not any("hero" in r.purpose for r in d.rolls)  # off by default: not even a die


def test_11_2_heroes_are_never_shaken_add_full_fp_let_their_hex_rally_and_shift_melee_one_column() -> None:
    w = _world()
    assert fire.dft(8, 6, smc=True, shaken=False, hero=True) == "wounded"  # T4: a hero is wounded, not shaken
    s = blank_state(w, {"h": ("us", "us-hero", "9A1"), "us1": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", "9A1")})
    fire.apply_result(s, w, "h", "wounded", [])
    assert s["units"]["h"]["wounds"] == 1 and not s["units"]["h"]["shaken"]
    uf = fire.UnitFire
    assert fire.combine([uf("a", 2), uf("b", 1), uf("h", 1, smc=True, full=True)]) == 4  # 2 + 1/2 + 1: 3.5 up
    assert fire.combine([uf("a", 2), uf("b", 1), uf("c", 1)]) == 3  # a third MMC adds half: 2 + 1/2 + 1/2
    s["units"]["us1"]["shaken"] = True
    assert rally.rallier(s, w, "us1") == ("h", 0)  # no leader: the hero's hex may rally (11.2)
    s["units"]["us1"]["shaken"] = False
    facts: list[Any] = []
    melee.side_roll(s, w, "9A1", ["us1", "h"], ["vc1"], fixed_dice([3, 3]), facts, ambush=False)
    plain, _ = melee.odds(melee.strength(s, w, "us1", defending=False) + 1, 1)
    cols = [f"{a}-{b}" for a, b, _ in melee.COLUMNS]
    assert facts[0].data["odds"] == cols[min(len(cols) - 1, cols.index(plain) + 1)] != plain


def test_heroes_are_a_rules_version_2_option_off_by_default() -> None:
    assert LockNLoad().options()["heroes"].default is False
    assert "heroes" not in LockNLoadV1().options()
    assert "us-hero" in load_world("2").kinds and "us-hero" not in load_world("1").kinds



@pytest.mark.parametrize("vector,marker", [("TV27", "fired"), ("TV28", "moved")])
def test_tv27_tv28_a_hero_takes_the_parents_marker(vector: str, marker: str) -> None:
    s, _, _ = _fire(True, [6, 1, 1, 2, 1], marker=marker)
    (hero,) = [r for r in s["units"].values() if r["kind"] == "us-hero"]
    assert hero["marker"] == marker, vector


def test_w6_11_2_a_hero_whose_hex_is_full_goes_to_the_adjacent_hex_his_owner_chooses() -> None:
    """11.2, W6: 9B2 already holds two US SMCs, so the new hero cannot stay; the US (the owner) is
    prompted for an adjacent hex free of enemies, the VC cannot act meanwhile; a full hex is refused."""
    from rules.core.game import IllegalAction

    w = tiny(["ooo", "ooo", "ooo", "ooo"])
    w.kinds.update({k: _kind(v) for k, v in load_json("heroes.json")["kinds"].items()})
    g = LockNLoad(w)
    s = blank_state(w, {"a1": ("us", "us-sq-264", "9B2"), "z1": ("us", "us-medic-ruiz", "9B2"),
                        "z2": ("us", "us-chaplain-ames", "9B2"), "vc1": ("vc", "vc-sq-143", "9B4")},
                    player="vc", options={"tall_obstacles_block": False, "heroes": True})
    d = fixed_dice([3, 1, 1, 4, 1, 1] + [3] * 30)  # hit; a1's damage check 1, hero die 4 (even), card die 1; SMCs' checks 1
    for a in ({"type": "activate", "hex": "9B4"}, {"type": "select", "unit": "vc1"}, {"type": "fire", "target": "9B2"}):
        out = g.apply(s, "vc", a, d)
        s = out.state
    hero = next(u for u, r in s["units"].items() if r["kind"] == "us-hero")
    assert s["units"][hero]["at"] is None and s["decision"]["kind"] == "place_hero"
    assert g.active_seats(s) == ["us"] and g.legal_actions(s, "vc") == []
    hexes = [a["hex"] for a in g.legal_actions(s, "us")]
    assert len(hexes) > 1 and "9B2" not in hexes and all(w.board.distance(h, "9B2") == 1 for h in hexes)
    assert "hero placement" in g.phase(s) and "11.2" in g.prompt(s, "us")
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "place_hero", "unit": hero, "hex": "9B2"}, d)
    out = g.apply(s, "us", {"type": "place_hero", "unit": hero, "hex": hexes[-1]}, d)
    assert out.state["units"][hero]["at"] == hexes[-1] and out.state["decision"] is None
    assert any(f.rule == "LnL 11.2" and f.text == f"The hero {hero} is placed in {hexes[-1]}" for f in out.facts)
    g.check_state(out.state)
