"""Fortifications (VB 7.5 [Generic]; A-31). The text names no fortification on this game's
maps (Part VIII), so the shipped maps have none; a map that marks a hex with the feature
"fortification" gets the rule, as does the 5.1.2 exception (no EZOC-to-EZOC move into it).
"""

from __future__ import annotations


def defense(base: int, fortified: bool) -> int:
    """VB 7.5: a unit in a fortification hex has its defense strength doubled."""
    return base * 2 if fortified else base


def attacker_modifiers(total: int, fortified: bool) -> int:
    """VB 7.5, A-31: the attacker's support fire and bombardment modifiers against a fortification
    hex are halved, rounded down; the total is halved (not each marker). The defender's are not."""
    return total // 2 if fortified else total


def note(fortified: bool) -> str:
    return "; fortification: defense doubled, attacker's markers halved (VB 7.5)" if fortified else ""
