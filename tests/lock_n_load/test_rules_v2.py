"""Rules version 2 additions: SW exchange in the Rally Phase (3.0), the OC leader's LM on
spot-and-shoot (4.1), the random skill-card draw for a new hero (11.12, 11.2)."""

from __future__ import annotations

import pytest

from rules.core.dice import fixed_dice
from rules.core.game import IllegalAction
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, tiny


def _rally(version: str) -> tuple:
    w = tiny(["o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"a": ("us", "us-sq-264", "9A1"), "b": ("us", "us-hs-154", "9A1"),
                        "c": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A3")},
                    {"m": ("m60", "a"), "f": ("m2-flame", "c")})
    s.update(version=version, phase="rally", rally_side="us", rally_done=[])
    return g, s


def test_3_0_go_units_in_one_hex_exchange_support_weapons_in_the_rally_phase() -> None:
    """3.0, 1.6.1: a GO squad hands its M60 to a GO half squad in its hex; two squads trade SWs;
    a shaken unit takes no part; version 1 (recorded games) never offered it."""
    g, s = _rally("2")
    acts = g.legal_actions(s, "us")
    assert {"type": "give_sw", "unit": "a", "sw": "m", "to": "b"} in acts
    assert {"type": "swap_sw", "sw": "f", "for": "m"} in acts
    out = g.apply(s, "us", {"type": "give_sw", "unit": "a", "sw": "m", "to": "b"}, fixed_dice([]))
    st = out.state
    assert st["units"]["a"]["sws"] == [] and st["units"]["b"]["sws"] == ["m"] and st["sws"]["m"]["holder"] == "b"
    assert out.facts[0].rule == "LnL 3.0, 1.6.1" and "a hands" in out.facts[0].text
    g.check_state(st)
    # the half squad now holds one SW: it can take no other, but may trade it
    acts = g.legal_actions(st, "us")
    assert {"type": "give_sw", "unit": "c", "sw": "f", "to": "b"} not in acts
    out = g.apply(st, "us", {"type": "swap_sw", "sw": "f", "for": "m"}, fixed_dice([]))
    assert out.state["units"]["b"]["sws"] == ["f"] and out.state["units"]["c"]["sws"] == ["m"]
    g.check_state(out.state)
    g, s = _rally("2")
    s["units"]["b"]["shaken"] = True
    s["units"]["b"]["rallied"] = True  # not to be rallied in this test
    assert not any(a["type"] == "give_sw" and a["to"] == "b" for a in g.legal_actions(s, "us"))
    g, s = _rally("1")
    assert not any(a["type"] in ("give_sw", "swap_sw") for a in g.legal_actions(s, "us"))
    with pytest.raises(IllegalAction):
        g.apply(s, "us", {"type": "give_sw", "unit": "a", "sw": "m", "to": "b"}, fixed_dice([]))


def _spot_and_shoot(version: str, spotter: str) -> list:
    w = tiny(["o", "o", "o"])
    g = LockNLoad(w)
    s = blank_state(w, {"ldr": ("us", "us-ldr-harlan", "9A1"), "sq": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", "9A3")})
    s["version"] = version
    s["units"]["ldr"]["marker"] = "oc"
    s["spotted"] = ["9A3"]
    s["spot"] = {"unit": spotter, "hex": "9A3"}
    s["spot_used"] = True
    d = fixed_dice([3] * 30)
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "sq"}):
        s = g.apply(s, "us", a, d).state
    if {"type": "select", "unit": "ldr"} in g.legal_actions(s, "us"):
        s = g.apply(s, "us", {"type": "select", "unit": "ldr"}, d).state
    out = g.apply(s, "us", {"type": "fire", "target": "9A3"}, d)
    return [f for f in out.facts if f.kind == "fire"]


def test_4_1_an_oc_leader_adds_his_lm_to_fire_at_the_hex_he_spotted_this_impulse() -> None:
    """4.1 spot-and-shoot: the OC leader who spotted 9A3 in this impulse directs the squad's fire at
    it with his LM; an OC leader who did not spot it adds nothing (4.1: OC units may not use
    leadership); version 1 (recorded games) never added it."""
    from rules.lock_n_load import units as U

    w = tiny(["o", "o", "o"])
    s = blank_state(w, {"ldr": ("us", "us-ldr-harlan", "9A1")})
    lm = U.lm(s, w, "ldr")
    assert lm > 0
    fired = _spot_and_shoot("2", "ldr")
    assert f"leader +{lm} (4.1 spot-and-shoot)" in fired[0].text and fired[0].data["drm"] == lm
    fired = _spot_and_shoot("2", "sq")
    assert "leader" not in fired[0].text and fired[0].data["drm"] == 0
    fired = _spot_and_shoot("1", "ldr")
    assert "leader" not in fired[0].text and fired[0].data["drm"] == 0


@pytest.mark.parametrize("card_die,card", [(1, "Bull"), (2, "Charismatic")])
def test_11_12_a_new_hero_draws_his_skill_card_at_random_with_a_recorded_die(card_die: int, card: str) -> None:
    """11.2, 11.12 (A33: at random), T2: the hero draws one of the demo's two cards with a die of
    the game's seeded dice (recorded, so verify replays it); Bull lets him take a second wound,
    Charismatic (leaders only) does nothing for him, so a second wound kills him (5.1)."""
    from rules.lock_n_load import fire
    from rules.lock_n_load import units as U
    from tests.lock_n_load.test_heroes import _fire, _world

    s, facts, d = _fire(True, [6, 1, 1, 4, card_die])
    hero = next(u for u, r in s["units"].items() if r["kind"] == "us-hero")
    assert s["units"][hero]["card"] == card and U.card(s, _world(), hero) == card
    assert f"LnL 11.2, 11.12 skill card drawn by {hero}" in [r.purpose for r in d.rolls]
    assert any(f.rule == "LnL 11.2, 11.12" and f"draws the {card} card (die {card_die} of 2)" in f.text for f in facts)
    for _ in range(2):
        fire.apply_result(s, _world(), hero, "wounded", [])
    assert (s["units"][hero]["at"] is not None) is (card == "Bull")


def test_every_action_of_the_rules_has_a_submission_schema() -> None:
    """The service validates a move's shape before the rules see it: an action type the rules offer
    without a schema could never be submitted (retreat, place_hero, give_sw, swap_sw)."""
    from rules.lock_n_load import schema
    from validators.lock_n_load import SCHEMAS

    assert sorted(schema.ACTIONS) == sorted(SCHEMAS)
    for t, shape in schema.ACTIONS.items():
        assert sorted(SCHEMAS[t]().fields) == sorted(["type", *shape]), t
