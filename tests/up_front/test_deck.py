"""The provable deck (rules/core/deck.py): every card once, draws from the remaining pile with
secret dice, reshuffles recorded, random numbers read from real cards."""

from __future__ import annotations

import pytest

from rules.core import deck as decks
from rules.core.dice import fixed_dice
from tests.support.fuzzing import seeded_dice

CARDS = [f"c{i:02d}" for i in range(1, 13)]


def test_a_deck_refuses_a_card_twice():
    with pytest.raises(ValueError, match="duplicate"):
        decks.new_deck(["a", "b", "a"])


def test_drawing_the_whole_deck_gives_every_card_exactly_once():
    for seed in range(20):
        d = decks.new_deck(CARDS)
        dice = seeded_dice(seed)
        drawn = [decks.draw(d, dice, "test").card for _ in CARDS]
        assert sorted(drawn) == CARDS and d["draw"] == []


def test_each_draw_is_a_secret_die_over_the_cards_still_in_the_pile():
    """The die of draw k has as many faces as cards remain, and picks among those: a
    Fisher-Yates shuffle one step per draw."""
    d = decks.new_deck(CARDS)
    dice = fixed_dice([12, 1, 5])
    got = [decks.draw(d, dice, "test").card for _ in range(3)]
    assert got == ["c12", "c01", "c06"]  # 5th of c02..c11
    assert [(r.faces, r.secret) for r in dice.rolls] == [(12, True), (11, True), (10, True)]
    assert d["draw"] == [c for c in CARDS if c not in got]


def test_the_last_card_needs_no_die():
    d = decks.new_deck(["only"])
    dice = fixed_dice([])
    assert decks.draw(d, dice, "test").card == "only" and dice.rolls == []


def test_the_order_depends_on_the_dice_alone():
    orders = set()
    for seed in range(30):
        d = decks.new_deck(CARDS)
        dice = seeded_dice(seed)
        orders.add(tuple(decks.draw(d, dice, "t").card for _ in range(4)))
        again = decks.new_deck(CARDS)
        replay = fixed_dice([r.value for r in dice.rolls])
        assert tuple(decks.draw(again, replay, "t").card for _ in range(4)) in orders
    assert len(orders) > 25


def test_a_reshuffle_when_the_pile_runs_out_is_recorded_and_starts_a_new_pass():
    d = decks.new_deck(CARDS[:3])
    dice = seeded_dice(1)
    for _ in range(3):
        decks.discard(d, [decks.draw(d, dice, "t").card])
    assert d["pass"] == 1
    drawn = decks.draw(d, dice, "t")
    assert drawn.reshuffled and d["pass"] == 2
    assert d["reshuffles"] == [{"pass": 2, "cards": 3, "why": "the draw pile ran out"}]
    assert decks.all_cards(d, [drawn.card]) == CARDS[:3]


def test_an_empty_deck_with_no_discards_is_exhausted():
    d = decks.new_deck(["x"])
    decks.draw(d, fixed_dice([]), "t")
    with pytest.raises(decks.DeckExhausted):
        decks.draw(d, fixed_dice([]), "t")


def test_a_random_number_is_read_from_a_card_of_the_remaining_pile_then_discarded():
    d = decks.new_deck(CARDS, removed=["c01", "c02"])
    dice = seeded_dice(3)
    for _ in range(8):
        decks.draw(d, dice, "t")
    left = list(d["draw"])
    drawn = decks.draw_for_random(d, seeded_dice(4), "rnc")
    assert drawn.card in left and d["discard"] == [drawn.card] and drawn.card not in d["draw"]
    assert "c01" not in left and d["removed"] == ["c01", "c02"]


def test_draw_until_keeps_the_others_apart_and_return_cards_records_the_reshuffle():
    d = decks.new_deck(CARDS)
    found, others = decks.draw_until(d, seeded_dice(5), lambda c: c in ("c07", "c08"), 1, "until")
    assert len(found) == 1 and found[0] in ("c07", "c08")
    assert all(c not in ("c07", "c08") for c in others)
    decks.return_cards(d, others, "the other cards go back; reshuffle")
    assert decks.all_cards(d, found) == CARDS
    if others:
        assert d["reshuffles"][-1]["why"] == "the other cards go back; reshuffle"


def test_the_public_view_gives_the_pile_size_never_its_cards():
    d = decks.new_deck(CARDS)
    view = decks.public_view(d)
    assert view["draw_count"] == 12 and "draw" not in view
    assert not any(c in str(view) for c in CARDS)
