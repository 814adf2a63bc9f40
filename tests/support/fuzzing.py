"""What the random-legal-play fuzzers share: dice from a seeded generator (tests only; the
server's dice are derived from the committed seed, never from `random`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from rules.core.dice import RecordingDice
from rules.core.game import IllegalAction


def seeded_dice(seed: int) -> RecordingDice:
    rng = random.Random(seed * 7919 + 17)
    return RecordingDice(lambda index, faces: rng.randint(1, faces))


def random_play(g: Any, s: Any, dice: Any, steps: int,
                pick: Callable[[Any, list[dict[str, Any]]], dict[str, Any]]) -> Iterator[tuple[Any, str, list[Any]]]:
    """Up to `steps` moves of legal play from state `s`: yields (state, the seat to act, its legal
    actions) before each move, then plays the action `pick(state, legal)` chooses. Ends when the
    game is over or the seat to act has no action."""
    for _ in range(steps):
        seats = g.active_seats(s)
        if g.outcome(s) is not None or not seats:
            return
        legal = g.legal_actions(s, seats[0])
        if not legal:
            return
        yield s, seats[0], legal
        s = g.apply(s, seats[0], pick(s, legal), dice).state


def assert_unlisted_refused(g: Any, s: dict[str, Any], seat: str, variants: list[dict[str, Any]],
                            legal: list[dict[str, Any]], seed: int) -> None:
    """Every variant that the legal list does not hold is refused with IllegalAction."""
    for v in variants:
        if v in legal:
            continue
        try:
            g.apply(s, seat, v, seeded_dice(seed))
        except IllegalAction:
            continue
        raise AssertionError(f"seed {seed}: unlisted action {v} was accepted in {s.get('phase')}")


def assert_seat_cannot_act(g: Any, s: dict[str, Any], other: str, action: dict[str, Any], seed: int) -> None:
    """The seat not asked is refused even an action that is legal for the seat that is."""
    try:
        g.apply(s, other, action, seeded_dice(seed))
    except IllegalAction:
        return
    raise AssertionError(f"seed {seed}: the seat not asked, {other}, could act")
