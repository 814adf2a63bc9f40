"""Secret hands for any card game: each seat's hand is visible to that seat alone.

A game keeps `hands = {seat: [card ids]}` in its state and sets `hidden_information = True`;
the service then never shows the state itself, its patches or its hashes to a seat while the
game runs, and salts every event (docs/ledger.md, step 5). What is left to the game, and what
this module gives it, is:

* `hands_view(hands, viewer)`: the viewer's own hand, and only the size of every other;
* `draw_into(...)`: cards drawn from the provable deck (rules.core.deck) into a hand, with a
  private fact naming them (`visible_to` the owner) and a public fact giving only the number;
* `take(...)`: a card leaves a hand (it is played or discarded: the game then makes it public).

Nothing public names a card still in a hand: the tests attack the API, the events and the
replay with every card id of the opponent's hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import deck as decks
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction

Hands = dict[str, list[str]]


def hands_view(hands: Hands, viewer: str | None) -> dict[str, Any]:
    """{seat: its cards} for the viewer's own seat, {seat: {"count": n}} for every other."""
    return {seat: (list(cards) if seat == viewer else {"count": len(cards)}) for seat, cards in sorted(hands.items())}


def draw_into(hands: Hands, seat: str, deck: decks.Deck, dice: DiceSource, count: int,
              name: Callable[[str], str], rule: str | None = None) -> tuple[list[str], list[Fact]]:
    """Draw `count` cards into `seat`'s hand. Returns the cards and the facts: a private one
    naming them, a public one with the number and any reshuffle (a new deck pass)."""
    got: list[str] = []
    facts: list[Fact] = []
    for _ in range(count):
        try:
            drawn = decks.draw(deck, dice, f"a card drawn into {seat}'s hand")
        except decks.DeckExhausted:
            break
        if drawn.reshuffled:
            facts.append(Fact(f"The draw pile ran out: the discards are reshuffled; deck pass {deck['pass']} begins",
                              rule, "reshuffle", {"pass": deck["pass"]}))
        got.append(drawn.card)
        hands[seat].append(drawn.card)
    if got:
        facts.append(Fact(f"{seat} draws {', '.join(name(c) for c in got)}", rule, "draw",
                          {"cards": got}, visible_to=(seat,)))
        facts.append(Fact(f"{seat} draws {len(got)} card{'s' if len(got) != 1 else ''}", rule, "draw",
                          {"count": len(got)}))
    return got, facts


def fill(hands: Hands, seat: str, size: int, deck: decks.Deck, dice: DiceSource,
         name: Callable[[str], str], rule: str | None = None) -> tuple[list[str], list[Fact]]:
    """Draw up to the hand size."""
    return draw_into(hands, seat, deck, dice, max(0, size - len(hands[seat])), name, rule)


def take(hands: Hands, seat: str, card: str, rule: str | None = None) -> str:
    """Remove a card from a hand; refuse a card the seat does not hold."""
    if card not in hands.get(seat, []):
        raise IllegalAction(f"{seat} does not hold card {card}", rule)
    hands[seat].remove(card)
    return card
