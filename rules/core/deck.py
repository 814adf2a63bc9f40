"""A provable card deck for any card game: shuffled by derived dice, one secret die per draw.

The deck is plain JSON inside the game state (`new_deck`):

    {"draw": [card ids, sorted], "discard": [card ids, newest last], "removed": [card ids],
     "pass": 1, "reshuffles": [{"pass": 2, "cards": 140, "why": "the draw pile ran out"}]}

**The shuffle.** The draw pile is kept in a canonical (sorted) order, and every draw takes the
card at the position shown by a die with as many faces as the pile has cards: a Fisher–Yates
shuffle performed one step per draw. Every order of the deck is exactly equally likely (the
dice are the ledger's, derived from the committed seed without modulo bias), and the order of
the cards not yet drawn exists nowhere — not even in the server's state — until they are drawn.
Once the seed is revealed `warlog verify` re-derives every die, so re-derives the whole deck.

**Secret dice.** Every draw's die is rolled `secret=True`: its value is the drawn card's rank
among the cards still in the pile, which would tell the other seats what the pile (and so the
opponent's hand: deck − pile − discards − my hand) holds. Nobody but the director sees it
before the end (ledger.dice step 6).

**Reshuffles.** When a draw finds the pile empty, the discard pile becomes the draw pile, the
pass number goes up by one and the reshuffle is recorded in `reshuffles` (games use the pass
as a time limit). `return_cards` puts cards back (a draw-until procedure's rejects); the pile
being always uniformly random, that return *is* the reshuffle the rules ask for, and it is
recorded too.

**Random draws.** A card drawn only for its printed random number or random position (UP
FRONT's RNC/RPN) comes from the actual remaining pile through `draw_for_random`, then goes to
the discard pile face up: never a uniform roll of 0–6.

All functions change the deck dict they are given (the game has already copied its state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rules.core.chits import draw as draw_chit
from rules.core.dice import DiceSource

Deck = dict[str, Any]


class DeckExhausted(RuntimeError):
    """Both the draw pile and the discard pile are empty: no card can be drawn."""


@dataclass(frozen=True)
class Drawn:
    """One draw: the card and whether the pile had to be reshuffled first (a new pass)."""

    card: str
    reshuffled: bool = False


def new_deck(card_ids: Iterable[str], removed: Iterable[str] = ()) -> Deck:
    """A fresh deck (pass 1). `removed` cards are set aside by the scenario, never drawn."""
    cards = list(card_ids)
    if len(set(cards)) != len(cards):
        raise ValueError("a deck holds every card once: duplicate card ids")
    out = set(removed)
    if not out <= set(cards):
        raise ValueError(f"removed cards not in the deck: {sorted(out - set(cards))}")
    return {"draw": sorted(c for c in cards if c not in out), "discard": [], "removed": sorted(out),
            "pass": 1, "reshuffles": []}


def reshuffle(deck: Deck, why: str = "the draw pile ran out") -> None:
    """The discard pile becomes the draw pile; the next pass begins."""
    if not deck["discard"]:
        raise DeckExhausted("the draw pile and the discard pile are both empty")
    deck["draw"] = sorted(deck["draw"] + deck["discard"])
    deck["discard"] = []
    deck["pass"] += 1
    deck["reshuffles"].append({"pass": deck["pass"], "cards": len(deck["draw"]), "why": why})


def draw(deck: Deck, dice: DiceSource, purpose: str) -> Drawn:
    """Take one card from the remaining draw pile with a secret die (reshuffling first if empty)."""
    reshuffled = False
    if not deck["draw"]:
        reshuffle(deck)
        reshuffled = True
    card, rest = draw_chit(deck["draw"], dice, purpose, secret=True)
    deck["draw"] = rest
    return Drawn(card, reshuffled)


def draw_for_random(deck: Deck, dice: DiceSource, purpose: str) -> Drawn:
    """Draw a card only to read its random number or random position; it is then discarded."""
    drawn = draw(deck, dice, purpose)
    deck["discard"].append(drawn.card)
    return drawn


def discard(deck: Deck, cards: Iterable[str]) -> None:
    deck["discard"].extend(cards)


def remove(deck: Deck, card: str) -> None:
    """Set a card aside for the rest of the game (a scenario's removal); it must be in the discards."""
    deck["discard"].remove(card)
    deck["removed"] = sorted(deck["removed"] + [card])


def return_cards(deck: Deck, cards: list[str], why: str) -> None:
    """Put cards back into the draw pile; the pile stays uniformly shuffled (recorded)."""
    if not cards:
        return
    deck["draw"] = sorted(deck["draw"] + cards)
    deck["reshuffles"].append({"pass": deck["pass"], "cards": len(deck["draw"]), "why": why})


def draw_until(deck: Deck, dice: DiceSource, wanted: Callable[[str], bool], count: int,
               purpose: str, limit: int | None = None) -> tuple[list[str], list[str]]:
    """Draw until `count` cards satisfying `wanted` are found (or the pile runs out, or `limit`
    draws are made). Returns (found, others); the others are NOT put back (see `return_cards`)."""
    found: list[str] = []
    others: list[str] = []
    draws = 0
    while len(found) < count and deck["draw"] and (limit is None or draws < limit):
        card = draw(deck, dice, purpose).card
        draws += 1
        (found if wanted(card) else others).append(card)
    return found, others


def all_cards(deck: Deck, elsewhere: Iterable[str] = ()) -> list[str]:
    """Every card the deck accounts for plus `elsewhere` (hands, cards on the table), sorted:
    the check that no card exists twice and none is lost."""
    return sorted(list(deck["draw"]) + list(deck["discard"]) + list(deck["removed"]) + list(elsewhere))


def public_view(deck: Deck) -> dict[str, Any]:
    """What every seat may see: the count of the draw pile, the discards, removed cards, the pass."""
    return {"draw_count": len(deck["draw"]), "discard": list(deck["discard"]), "removed": list(deck["removed"]),
            "pass": deck["pass"], "reshuffles": list(deck["reshuffles"])}
