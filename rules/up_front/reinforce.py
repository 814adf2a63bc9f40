"""Reinforcements (CORE 5.6; appendix UFM 5.6).

A scenario may hold a reinforcement group back (`scenarios.json` "reinforcements": its letter,
its men, the deck pass from which it may enter: OURS). Entering is the new group's action in its
owner's turn; it enters at range chit 0 in Open Ground (CORE), at any altitude up to the highest
level a friendly group holds (UFM 5.6.a). Above level 0 the altitude card and a Movement card go
down together; the Movement card is discarded, the altitude card stays (5.6.b; level 0 needs
neither, INFERRED B.6-14). With a Concealment card and a terrain card it enters into that terrain
instead; the Concealment card is discarded (5.6.c).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from rules.core import deck as decks
from rules.core.game import Fact, IllegalAction
from rules.core.hands import take
from rules.up_front import altitude as alt
from rules.up_front.data import World
from rules.up_front.geometry import card_level
from rules.up_front.prepare import new_group
from rules.up_front.table import State, altitude_card, levels, ordinary_terrain


def pending(s: State, seat: str) -> dict[str, Any] | None:
    r = s["reserves"].get(seat)
    if not r or s["deck"]["pass"] < r["from_pass"]:
        return None
    return dict(r)


def candidates(s: State, w: World, seat: str) -> list[dict[str, Any]]:
    if pending(s, seat) is None:
        return []
    hand = s["hands"][seat]
    alts = [None] + [c for c in hand if altitude_card(s, w, c)]
    moves = [c for c in hand if w.cards[c]["type"] == "movement"]
    covers = [(None, None)] + [(c, t) for c, t in product(hand, hand)
                               if w.cards[c]["type"] == "concealment" and ordinary_terrain(s, w, t)]
    out = []
    for a_card in alts:
        for m in ([None] if a_card is None else moves):
            for conceal, terrain in covers:
                out.append({"type": "reinforce", "altitude": a_card, "card": m, "conceal": conceal,
                            "terrain": terrain})
    return out


def reinforce(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    r = pending(s, seat)
    if r is None:
        raise IllegalAction("no reinforcement group may enter now", "CORE 5.6")
    if s["discarded"] and w.nations[s["nation"][seat]]["discard_when"] == "no_action":
        raise IllegalAction("after a discard this nation takes no action in the turn", "UF C.4")
    used = [c for c in (a["altitude"], a["card"], a["conceal"], a["terrain"]) if c is not None]
    if len(set(used)) != len(used) or not all(c in s["hands"][seat] for c in used):
        raise IllegalAction("the cards come from your hand, each once", "UFM 5.6")
    level = 0
    if a["altitude"] is not None:
        if not altitude_card(s, w, a["altitude"]):
            raise IllegalAction("not an altitude card here", "UFM 3.4")
        level = card_level(w, a["altitude"]) or 0
        if a["card"] is None or w.cards[a["card"]]["type"] != "movement":
            raise IllegalAction("entering above level 0 needs the altitude card and a Movement card together",
                                "UFM 5.6.b")
    elif a["card"] is not None:
        raise IllegalAction("at level 0 no Movement card is played (B.6-14)", "UFM 5.6.b")
    if not alt.reinforcement_level_allowed(s, w, levels(s, w, seat), level):
        raise IllegalAction(f"reinforcements enter no higher than the highest friendly group "
                            f"(level {max(levels(s, w, seat), default=0)})", "UFM 5.6.a")
    if (a["conceal"] is None) != (a["terrain"] is None):
        raise IllegalAction("other terrain takes a Concealment card and a terrain card together", "UFM 5.6.c")
    if a["conceal"] is not None and (w.cards[a["conceal"]]["type"] != "concealment"
                                     or not ordinary_terrain(s, w, a["terrain"])):
        raise IllegalAction("a Concealment card and a terrain card (Brush, Wall, Woods, Gully)", "UFM 5.6.c")
    for c in used:
        take(s["hands"], seat, c, "UFM 5.6")
    decks.discard(s["deck"], [c for c in (a["card"], a["conceal"]) if c is not None])
    g = new_group(r["men"])
    g["altitude"], g["terrain"] = a["altitude"], a["terrain"]
    letter = r["group"]
    s["groups"][seat][letter] = g
    for m in r["men"]:
        s["men"][m].update({"group": letter, "status": "ok"})
    s["reserves"][seat] = None
    s["acted"].append(letter)
    where = w.card_name(a["terrain"]) if a["terrain"] else "Open Ground"
    facts.append(Fact(f"{seat} reinforcement group {letter} ({len(r['men'])} men) enters at level {level} in {where}",
                      "UFM 5.6", "reinforce", {"seat": seat, "group": letter, "level": level}))
