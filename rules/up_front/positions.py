"""A sandbox position's invariants beyond its shape (rules.core.game.Game.check_position): every
card of the deck in exactly one place — the draw pile, the discards, the removed cards, a hand,
a group's terrain, altitude, wire, minefield or movement cards, a terrain card awaiting its
owner's answer (UF 4.1, C.4) — and, in play, each hand within its nationality's hand size (UF C.4;
while preparing, altitude cards join the hand, and a seat drawing until a kind of card is found
may hold more for that draw: play reaches both)."""

from __future__ import annotations

from typing import Any

from rules.core.game import State
from rules.core.stateschema import error
from rules.up_front.data import World


def card_places(s: State) -> list[tuple[list[Any], str]]:
    """(JSON path, card) for every card the position holds, in a fixed order."""
    out: list[tuple[list[Any], str]] = []
    for pile in ("draw", "discard", "removed"):
        out += [(["deck", pile, i], c) for i, c in enumerate(s["deck"][pile])]
    for seat, hand in sorted(s["hands"].items()):
        out += [(["hands", seat, i], c) for i, c in enumerate(hand)]
    for seat, groups in sorted(s["groups"].items()):
        for gid, g in sorted(groups.items()):
            out += [(["groups", seat, gid, k], g[k]) for k in ("terrain", "altitude", "wire", "minefield") if g[k]]
            out += [(["groups", seat, gid, "moves", i, "card"], m["card"]) for i, m in enumerate(g["moves"])]
    window = s.get("reaction")
    if window and window["kind"] == "terrain":
        out.append((["reaction", "resume", "card"], window["resume"]["card"]))
    return out


def check_position(s: State, w: World) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: dict[str, list[Any]] = {}
    for path, card in card_places(s):
        if card not in w.cards:
            out.append(error(path, f"{card} is no card of the deck", "UF 4.1"))
        elif card in seen:
            where = "/" + "/".join(str(p) for p in seen[card])
            out.append(error(path, f"{card} is here and also at {where}: each card is in exactly one place",
                             "UF 4.1"))
        else:
            seen[card] = path
    missing = sorted(set(w.cards) - set(seen))
    if missing:
        shown = ", ".join(missing[:20]) + (f" and {len(missing) - 20} more" if len(missing) > 20 else "")
        out.append(error(["deck"], f"{len(missing)} card(s) of the deck are nowhere: {shown}", "UF 4.1"))
    for seat, hand in sorted(s["hands"].items()):
        if s["phase"] != "play" or seat in s["drew_until"]:
            continue  # preparing (altitude cards join the hand, UFM 5.1) or drawing until a card kind is found
        nation = s["nation"].get(seat)
        if nation not in w.nations:
            continue  # the game's own state check names an unknown nation
        limit = int(w.nations[nation]["hand"])
        if len(hand) > limit:
            out.append(error(["hands", seat], f"{seat} holds {len(hand)} cards; the {nation} hand size is {limit}",
                             "UF C.4"))
    return out
