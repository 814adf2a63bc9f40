"""Secret dice: a die whose value no seat may see before the end (rules/core/dice.py
`roll(faces, purpose, secret=True)`), used where a public value would give a secret away:
the random draw of a support fire hand (H6: the die's position in the pool tells which markers
were drawn) and the rolls of the Iron Triangle's secret victory condition (H7). Where the core
dice do not take `secret` yet, the roll is an ordinary one.
"""

from __future__ import annotations

import inspect
from typing import Any

from rules.core.dice import RecordingDice

SUPPORTED = "secret" in inspect.signature(RecordingDice.roll).parameters


def roll(dice: Any, faces: int, purpose: str, secret: bool = True) -> int:
    if secret and SUPPORTED:
        return int(dice.roll(faces, purpose, True))
    return int(dice.roll(faces, purpose))


def draw_many(pool: list[str], count: int, dice: Any, purpose: str) -> list[str]:
    """rules.core.chits.draw_many with secret dice: a die of len(pool) faces picks each position."""
    pool = list(pool)
    out: list[str] = []
    for _ in range(min(count, len(pool))):
        if len(pool) == 1:
            out.append(pool.pop())
            break
        pick = roll(dice, len(pool), purpose) - 1
        out.append(pool.pop(pick))
    return out
