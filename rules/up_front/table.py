"""Reading the table: groups, men, terrain in play, non-functional cards.

Rule citations: "UFM n" is the appendix ("In the Mountains", the seed), "UF C.n" a fact of the
public core (digest Part C), "CORE n" our own authored core (docs/games/up-front.md).
"""

from __future__ import annotations

from typing import Any

from rules.up_front.data import World
from rules.up_front.geometry import level_of

State = dict[str, Any]
Group = dict[str, Any]


def other(s: State, seat: str) -> str:
    a, b = s["roles"]
    return str(b if seat == a else a)


def group(s: State, seat: str, letter: str) -> Group:
    try:
        return s["groups"][seat][letter]  # type: ignore[no-any-return]
    except KeyError:
        from rules.core.game import IllegalAction
        raise IllegalAction(f"{seat} has no group {letter}", "UF C.3") from None


def present(s: State, g: Group) -> list[str]:
    """The men still in a group (neither killed nor routed), in position order."""
    return [m for m in g["men"] if s["men"][m]["status"] in ("ok", "pinned")]


def unpinned(s: State, g: Group) -> list[str]:
    return [m for m in g["men"] if s["men"][m]["status"] == "ok"]


def terrain_key(w: World, g: Group) -> str:
    """The terrain the group occupies: its terrain card, Open Ground if none or if a card was
    played as Open Ground (UF C.2: any card may serve as Open Ground)."""
    if g.get("minefield"):
        return "minefield"
    card = g.get("terrain")
    if card is None or g.get("as_open"):
        return "open"
    return str(w.cards[card]["terrain"])


def in_cover(w: World, g: Group) -> bool:
    """In a terrain that reduces the Fire Strength of attacks against it, or entrenched (UFM 11.d)."""
    return bool(g.get("entrenched")) or int(w.terrain[terrain_key(w, g)]["cover"]) < 0


def is_moving(g: Group) -> bool:
    return bool(g["moves"])


def nonfunctional(s: State, w: World, card: str) -> bool:
    """A card that can only be discarded in this game (Cower card): Minefield where the scenario
    says so (UFM 11.e), Woods in Bare mountains (UFM 9.1), the Pillbox during play where it is a
    real pillbox (CORE 3; UFM 3.4, 11.c)."""
    c = w.cards[card]
    if c["type"] != "terrain":
        return False
    return c["terrain"] in s["nf"]


def altitude_card(s: State, w: World, card: str) -> bool:
    """Hill, Marsh, Buildings −2/−3 and, where level 4 exists, the Pillbox (UFM 3.1–3.4)."""
    c = w.cards[card]
    if c["type"] != "terrain" or w.terrain[c["terrain"]]["altitude"] is None:
        return False
    return not (c["terrain"] == "pillbox" and not s["level4"])


def ordinary_terrain(s: State, w: World, card: str) -> bool:
    """A terrain card a group can occupy in the mountains: Brush, Wall, Woods, Gully (UFM 3.6–3.9)."""
    c = w.cards[card]
    return (c["type"] == "terrain" and c["terrain"] in ("brush", "wall", "woods", "gully")
            and not nonfunctional(s, w, card))


def levels(s: State, w: World, seat: str) -> list[int]:
    return [level_of(w, g) for g in s["groups"][seat].values() if present(s, g)]


def mountain_mover(s: State, w: World, seat: str, g: Group) -> bool:
    """Every man of the group is a mountain trooper (UFM 12.11, 12.13) or a partisan in the
    Partisan scenario (UFM 12.2)."""
    men = present(s, g)
    if not men:
        return False
    def able(m: str) -> bool:
        spec = w.soldiers[m]
        if spec["partisan"]:
            return bool(s["scenario"] == "I")
        return bool(spec["elite"]) and seat in s["mountain_troops"]
    return all(able(m) for m in men)
