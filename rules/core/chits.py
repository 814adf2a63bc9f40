"""Chit pools: counters drawn blind from a cup, without replacement, with dice from the source."""

from __future__ import annotations

from typing import TypeVar

from rules.core.dice import DiceSource

T = TypeVar("T")


def draw(pool: list[T], dice: DiceSource, purpose: str, secret: bool = False) -> tuple[T, list[T]]:
    """Draw one chit. Returns (chit, the pool without it); the input list is not changed.

    The pool is kept in a stable order (as the state stores it), so the draw is re-derivable:
    a die with len(pool) faces picks the position. A pool of one needs no die. Where the
    cup's content is hidden, draw with `secret=True`: the die's position in the sorted pool
    would otherwise tell which chits are missing from it.
    """
    if not pool:
        raise ValueError("cannot draw from an empty pool")
    if len(pool) == 1:
        return pool[0], []
    pick = dice.roll(len(pool), purpose, secret) - 1
    return pool[pick], pool[:pick] + pool[pick + 1 :]


def draw_many(pool: list[T], count: int, dice: DiceSource, purpose: str,
              secret: bool = False) -> tuple[list[T], list[T]]:
    drawn: list[T] = []
    for _ in range(min(count, len(pool))):
        chit, pool = draw(pool, dice, purpose, secret)
        drawn.append(chit)
    return drawn, pool


def put_back(pool: list[T], chits: list[T]) -> list[T]:
    """Return chits to the pool, keeping a canonical (sorted) order."""
    return sorted(pool + chits)  # type: ignore[type-var]
