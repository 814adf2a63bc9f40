"""A group ends its move on a terrain card: the range chit changes, blocking applies (CORE 5)."""

from __future__ import annotations

from rules.core import deck as decks
from rules.core.game import Fact
from rules.up_front.data import World
from rules.up_front.table import State, group, other, present, terrain_key


def occupy(s: State, w: World, seat: str, letter: str, card: str, as_open: bool, facts: list[Fact],
            rule: str) -> None:
    """The group ends its move on `card` (already out of the hand): range change, blocking."""
    g = group(s, seat, letter)
    delta = sum(1 if m["mode"] == "forward" else -1 if m["mode"] == "backward" else 0 for m in g["moves"])
    limit = w.tables["max_range_chit"]
    new = max(w.tables["min_range_chit"], min(limit, g["range"] + delta))
    opp = s["groups"][other(s, seat)].get(letter)
    if delta > 0 and opp is not None and present(s, opp) and new + opp["range"] > 5:
        blocked = max(g["range"], 5 - opp["range"])
        facts.append(Fact(f"{seat} group {letter} is blocked by the enemy group {letter}: range chit {blocked}",
                          "UFM 5.2.b", "block", {"group": letter}))
        new = blocked
    sideways = any(m["mode"] == "sideways" and not m["alt"] for m in g["moves"])
    decks.discard(s["deck"], [m["card"] for m in g["moves"]])
    if g["terrain"]:
        decks.discard(s["deck"], [g["terrain"]])
    g.update({"range": new, "terrain": card, "as_open": as_open, "moves": [], "flank": sideways,
              "entrenched": False, "alt_stage": 0, "alt_turn": None})
    facts.append(Fact(f"{seat} group {letter} ends its move in {w.terrain[terrain_key(w, g)]['name']} "
                      f"({w.card_name(card)}{', played as Open Ground' if as_open else ''}); range chit {new}",
                      rule, "terrain", {"group": letter, "seat": seat, "card": card, "range": new}))
