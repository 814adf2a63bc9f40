"""Relative range and relative altitude: where two groups stand to each other.

Range chits and Relative Range follow the public core (Part C.3): RR = the sum of the two
range chits, 0 (long) to 5 (point blank); past 5 the groups have moved past each other and
RR = 10 − sum; groups more than one letter apart lose 1 (base 5.61, minimum 0). The appendix
adds the altitude: relative altitude Δ (6.1), RR −1 more when Δ ≥ 2 (6.1), the defender's
−Δ against fire from below (6.2) and the firer's +1 firing down, not at a Pillbox (6.3).
"""

from __future__ import annotations

from typing import Any

from rules.up_front.data import World

Group = dict[str, Any]


def level_of(w: World, group: Group) -> int:
    """The altitude level: the altitude card under the group's ID chit, none = level 0 (2.e)."""
    card = group.get("altitude")
    if card is None:
        return 0
    return int(w.terrain[w.cards[card]["terrain"]]["altitude"])


def card_level(w: World, card: str) -> int | None:
    """The level an altitude card shows (B.1.1): Hill/Marsh 1, Buildings −2 2, −3 3, Pillbox 4."""
    c = w.cards[card]
    if c["type"] != "terrain":
        return None
    level = w.terrain[c["terrain"]]["altitude"]
    return int(level) if level is not None else None


def relative_altitude(a: int, b: int) -> int:
    """Δ = the higher level − the lower (6.1). UF-1: levels 3 and 1 give 2."""
    return abs(a - b)


def base_range(chit_a: int, chit_b: int) -> int:
    """RR from the two range chits (Part C.3): their sum, or 10 − sum past 5."""
    total = chit_a + chit_b
    return total if total <= 5 else max(0, 10 - total)


def lateral_apart(letter_a: str, letter_b: str) -> bool:
    """More than one letter apart (A and C): not opposite, not adjacent (base 5.61)."""
    return abs(ord(letter_a) - ord(letter_b)) > 1


def adjacent(letter_a: str, letter_b: str) -> bool:
    return abs(ord(letter_a) - ord(letter_b)) == 1


def relative_range(chit_a: int, chit_b: int, letter_a: str, letter_b: str, level_a: int, level_b: int) -> int:
    """RR with the lateral −1 (5.61) and the altitude −1 for Δ ≥ 2 (6.1, in addition), floor 0.
    UF-2: B at level 3 vs C at level 1 at RR 5 gives 4; UF-8: A vs C, 5, Δ 2 gives 3."""
    rr = base_range(chit_a, chit_b)
    if lateral_apart(letter_a, letter_b):
        rr -= 1
    if relative_altitude(level_a, level_b) >= 2:
        rr -= 1
    return max(0, rr)


def altitude_modifier(firer_level: int, target_level: int, target_in_pillbox: bool) -> tuple[int, str | None]:
    """The Fire Strength modifier from altitude and the rule that gives it.

    Target higher: −Δ (6.2; UF-3: a level-3 target gets −3/−2/−1 from levels 0/1/2).
    Same level, or the target lower and in a Pillbox: 0 (6.2, 6.3). Firer higher: +1 (6.3)."""
    if target_level > firer_level:
        return -(target_level - firer_level), "UFM 6.2"
    if firer_level > target_level and not target_in_pillbox:
        return 1, "UFM 6.3"
    return 0, None


def gully_may_fire(firer_level: int, target_level: int, rr: int, mortar: bool = False) -> bool:
    """A group in a Gully fires only at groups higher than the gully, at RR 5, or with a mortar (6.6)."""
    return target_level > firer_level or rr == 5 or mortar
