"""Standing orders (rules/lock_n_load/orders.py): the non-moving seat's secret answers to the
opportunity-fire question decide without a prompt; only "ask" hexes prompt."""

from __future__ import annotations

import pytest

from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, tiny
from tests.lock_n_load.lnl_fuzz import Stats, play_one
from tests.support.fuzzing import seeded_dice


def _game(order: str | None, rows: int = 6) -> tuple:
    w = tiny(["o"] * rows)
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "us2": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", f"9A{rows}")})
    d = seeded_dice(2)
    if order:
        s["player"] = "vc"
        s = g.apply(s, "vc", {"type": "order", "hex": f"9A{rows}", "order": order}, d).state
        s["player"] = "us"
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": "normal"}):
        s = g.apply(s, "us", a, d).state
    return g, s, d


def test_an_order_to_fire_fires_at_once_without_a_prompt() -> None:
    g, s, d = _game("fire")
    out = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d)
    s = out.state
    assert any(f.kind == "standing_order" for f in out.facts) and any(f.kind == "fire" for f in out.facts)
    assert s["stats"] == {"opp_fire_prompts": 0, "order_fires": 1}
    assert s["units"]["vc1"]["marker"] == "fired" and g.active_seats(s) == ["us"]


def test_hold_never_fires_and_never_asks() -> None:
    g, s, d = _game("hold")
    for h in ("9A2", "9A3", "9A4"):
        s = g.apply(s, "us", {"type": "step", "hex": h}, d).state
    assert s["stats"] == {"opp_fire_prompts": 0, "order_fires": 0} and s["units"]["vc1"]["marker"] == ""


def test_never_before_adjacent_declines_far_and_fires_adjacent() -> None:
    g, s, d = _game("within1")
    for h in ("9A2", "9A3", "9A4"):
        s = g.apply(s, "us", {"type": "step", "hex": h}, d).state
        assert s["stats"]["order_fires"] == 0 and g.active_seats(s) == ["us"]
    out = g.apply(s, "us", {"type": "step", "hex": "9A5"}, d)
    assert out.state["stats"]["order_fires"] == 1


def test_fire_at_a_hex_fires_only_when_the_mover_enters_it() -> None:
    g, s, d = _game("at:9A4")
    for h in ("9A2", "9A3"):
        s = g.apply(s, "us", {"type": "step", "hex": h}, d).state
        assert s["stats"] == {"opp_fire_prompts": 0, "order_fires": 0}
    assert g.apply(s, "us", {"type": "step", "hex": "9A4"}, d).state["stats"]["order_fires"] == 1


def test_without_an_order_the_seat_is_asked() -> None:
    g, s, d = _game(None)
    s = g.apply(s, "us", {"type": "step", "hex": "9A2"}, d).state
    assert g.active_seats(s) == ["vc"] and s["stats"]["opp_fire_prompts"] == 1


def test_orders_are_secret_the_other_seat_sees_neither_the_order_nor_its_fact() -> None:
    w = tiny(["o"] * 6)
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A6")}, player="vc")
    out = g.apply(s, "vc", {"type": "order", "hex": "9A6", "order": "within2"}, seeded_dice(1))
    assert [f.visible_to for f in out.facts] == [("vc",)]
    assert g.view(out.state, "us")["orders"] == {"us": {}, "vc": {}}
    assert g.view(out.state, "vc")["orders"]["vc"] == {"9A6": "within2"}
    assert g.active_seats(out.state) == ["vc"]  # giving an order is not the impulse


@pytest.mark.slow
def test_orders_cut_the_opportunity_fire_prompts_of_random_play() -> None:
    """The same seeds played by the random player, the VC giving every hex the order "fire" at its
    first chance, against no orders at all: fewer prompts."""
    g = LockNLoad()
    plain, ordered = Stats(), Stats()
    for seed in range(4):
        play_one(g, seed, plain)
        play_one(g, seed, ordered, orders={"vc": "fire"})
    assert ordered.order_fires > 0 and ordered.prompts < plain.prompts
