"""What the random-legal-play fuzzers share: dice from a seeded generator (tests only; the
server's dice are derived from the committed seed, never from `random`)."""

from __future__ import annotations

import random

from rules.core.dice import RecordingDice


def seeded_dice(seed: int) -> RecordingDice:
    rng = random.Random(seed * 7919 + 17)
    return RecordingDice(lambda index, faces: rng.randint(1, faces))
