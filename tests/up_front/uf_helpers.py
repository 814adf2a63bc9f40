"""Building table positions for the UP FRONT mountain tests: a scenario set up with seeded
dice, then cards moved into hands and onto groups without losing or duplicating any."""

from __future__ import annotations

from typing import Any

from rules.up_front.data import world
from rules.up_front.game import UpFrontMountains, _on_table
from tests.support.fuzzing import seeded_dice

GAME = UpFrontMountains()
W = world()


def cards_of(kind: str, value: Any = None, colour: str | None = None) -> list[str]:
    """Card ids of a type (fire, movement, …) or a terrain key (hill, woods, …)."""
    out = []
    for cid, c in sorted(W.cards.items()):
        if c["type"] == kind or c.get("terrain") == kind:
            if value is not None and c.get("value") != value:
                continue
            if colour is not None and c["colour"] != colour:
                continue
            out.append(cid)
    return out


def altitude_card(level: int) -> str:
    return {1: "hill", 2: "buildings2", 3: "buildings3", 4: "pillbox"}[level]


def free(s: dict[str, Any], kind: str, **kw: Any) -> str:
    """A card of that kind that is in the draw pile or the discards (not in a hand or on the table)."""
    for c in cards_of(kind, **kw):
        if c in s["deck"]["draw"] or c in s["deck"]["discard"]:
            return c
    raise AssertionError(f"no free {kind} card")


def pull(s: dict[str, Any], card: str) -> str:
    for pile in (s["deck"]["draw"], s["deck"]["discard"]):
        if card in pile:
            pile.remove(card)
            return card
    raise AssertionError(f"{card} is not free")


def give(s: dict[str, Any], seat: str, kind: str, **kw: Any) -> str:
    card = pull(s, free(s, kind, **kw))
    s["hands"][seat].append(card)
    return card


def set_level(s: dict[str, Any], seat: str, letter: str, level: int) -> None:
    g = s["groups"][seat][letter]
    if g["altitude"]:
        s["deck"]["discard"].append(g["altitude"])
        g["altitude"] = None
    if level:
        g["altitude"] = pull(s, free(s, altitude_card(level)))


def set_terrain(s: dict[str, Any], seat: str, letter: str, kind: str) -> None:
    g = s["groups"][seat][letter]
    if g["terrain"]:
        s["deck"]["discard"].append(g["terrain"])
    g["terrain"] = pull(s, free(s, kind))


def playing(scenario: str = "A", seed: int = 1, **options: Any) -> dict[str, Any]:
    """A scenario past Prepare for Play with empty hands refilled; the first player to act."""
    opts = {"terrain_type": "bare", "condition": "dry", "mountain_troops": True, **options}
    s = GAME.setup(scenario, opts, seeded_dice(seed))
    for seat in s["roles"]:
        s["deck"]["discard"].extend(s["hands"][seat])
        s["hands"][seat] = []
    s["phase"], s["turn"], s["turn_no"], s["ready"] = "play", s["first"], 1, list(s["roles"])
    return s


def check(s: dict[str, Any]) -> None:
    GAME.check_state(s)


def act(s: dict[str, Any], seat: str, action: dict[str, Any], dice: list[int] | None = None) -> Any:
    from rules.core.dice import fixed_dice

    return GAME.apply(s, seat, action, fixed_dice(dice or []) if dice is not None else seeded_dice(7))


def only_card_on_top(s: dict[str, Any], card: str) -> None:
    """Leave one card in the draw pile (the rest to the discards): the next draw is that card, no die."""
    if card in s["deck"]["discard"]:
        s["deck"]["discard"].remove(card)
        s["deck"]["draw"].append(card)
    rest = [c for c in s["deck"]["draw"] if c != card]
    s["deck"]["discard"].extend(rest)
    s["deck"]["draw"] = [card]


__all__ = ["GAME", "W", "cards_of", "free", "give", "pull", "set_level", "set_terrain", "playing", "check", "act",
           "only_card_on_top", "_on_table"]
