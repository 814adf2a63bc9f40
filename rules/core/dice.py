"""Dice as the rules see them: a source passed in, never a global (STYLE: boardgame.io).

The rules ask `dice.roll(6, "land combat")`; where the number comes from (the game's
committed seed, a sandbox's forced list, a replay of recorded dice) is the caller's
business. Every roll is recorded so that the resolved event can list every die it used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class DiceSource(Protocol):
    def roll(self, faces: int, purpose: str, secret: bool = False) -> int:
        """One die of `faces` faces, 1..faces, for the stated purpose. A `secret` die (a blind
        draw from a cup whose content is hidden) is recorded like any other, but no seat sees
        its value until the game ends: it would tell what the cup holds."""
        ...


@dataclass(frozen=True)
class Roll:
    index: int
    faces: int
    value: int
    purpose: str
    secret: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"index": self.index, "faces": self.faces, "value": self.value,
                                  "purpose": self.purpose}
        if self.secret:
            out["secret"] = True
        return out


class DiceExhausted(RuntimeError):
    """A fixed list of dice (a replay or a sandbox without fallback) ran out."""


@dataclass
class RecordingDice:
    """Wraps a die function `(index, faces) -> value` and records every roll."""

    draw: DieFunction
    rolls: list[Roll] = field(default_factory=list)

    def roll(self, faces: int, purpose: str, secret: bool = False) -> int:
        if faces < 2:
            raise ValueError("a die has at least two faces")
        index = len(self.rolls)
        value = self.draw(index, faces)
        if not 1 <= value <= faces:
            raise ValueError(f"die {index} gave {value}, outside 1..{faces}")
        self.rolls.append(Roll(index, faces, value, purpose, secret))
        return value

    def roll_many(self, count: int, faces: int, purpose: str) -> list[int]:
        return [self.roll(faces, purpose) for _ in range(count)]

    def to_json(self) -> list[dict[str, object]]:
        return [r.to_json() for r in self.rolls]


class DieFunction(Protocol):
    def __call__(self, index: int, faces: int) -> int: ...


def fixed_dice(values: list[int]) -> RecordingDice:
    """Dice that replay `values` in order (tests, verify's replay, sandbox games)."""

    def draw(index: int, faces: int) -> int:
        if index >= len(values):
            raise DiceExhausted(f"needed die #{index} but only {len(values)} were given")
        return values[index]

    return RecordingDice(draw)
