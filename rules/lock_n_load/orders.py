"""Standing orders: the non-moving seat's opportunity-fire answers given in advance (ours; not a
rule of the game, a way to play 5.3 by mail without a round trip per movement point).

A seat may give each hex it occupies one order, secretly (a hidden move; the other seat sees only
the fire that follows): "ask" (the default: prompt me), "hold" (never fire), "fire" (fire at the
first mover in LOS and range), "within1".."within3" (fire once the mover is that close, never
before), "at:<hex>" (fire at a mover entering that hex). At each movement point every eligible hex
whose order decides fires or declines at once; the game stops for a prompt only for hexes whose
order is "ask". The firing itself is judged by the same rules (fire.resolve) as a prompted one.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Action, Fact
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.los import cached_los

State = dict[str, Any]
SIMPLE = ("ask", "hold", "fire", "within1", "within2", "within3")
HIDDEN = "hidden"  # from rules version 3: another side's order as its view shows it (a face-down marker)


def order_of(s: State, side: str, hex_id: str) -> str:
    return str(s["orders"][side].get(hex_id, "ask"))


def decides(order: str, firer_hex: str, mover_hex: str, w: World) -> str:
    """"fire", "decline" or "ask" for a mover in mover_hex seen from firer_hex."""
    if order == "ask":
        return "ask"
    if order == "hold":
        return "decline"
    if order == "fire":
        return "fire"
    if order.startswith("within"):
        return "fire" if w.board.distance(firer_hex, mover_hex) <= int(order[6:]) else "decline"
    if order.startswith("at:"):
        return "fire" if mover_hex == order[3:] else "decline"
    return "ask"


def actions(s: State, w: World, side: str) -> list[Action]:
    """Every order the side may give now: per occupied hex with a unit that can fire, the simple
    orders and "at:" each hex within its longest range and in LOS."""
    out: list[Action] = []
    for h in U.side_hexes(s, side):
        reach = _reach(s, w, side, h)
        if reach == 0:
            continue
        now = order_of(s, side, h)
        for o in SIMPLE:
            if o != now:
                out.append({"type": "order", "hex": h, "order": o})
        for t in _watched(w, h, reach, tuple(sorted(s["smoke"]))):
            if f"at:{t}" != now:
                out.append({"type": "order", "hex": h, "order": f"at:{t}"})
    return out


def allowed(s: State, w: World, side: str, a: dict[str, Any]) -> bool:
    """`a` is one of `actions(s, w, side)` as a JSON document, asking about its own hex only."""
    if a.keys() != {"type", "hex", "order"} or a["type"] != "order":
        return False
    h, o = a["hex"], a["order"]
    if not isinstance(h, str) or not isinstance(o, str) or not U.units_in(s, h, side):
        return False
    reach = _reach(s, w, side, h)
    if reach == 0 or o == order_of(s, side, h):
        return False
    if o in SIMPLE:
        return True
    return o.startswith("at:") and o[3:] in _watched(w, h, reach, tuple(sorted(s["smoke"])))


def any_order(s: State, w: World, side: str) -> bool:
    """`actions(s, w, side)` is not empty: a hex of the side has a unit that can fire (its simple
    orders other than the one it holds are then listed)."""
    return any(_reach(s, w, side, h) > 0 for h in U.side_hexes(s, side))


def _reach(s: State, w: World, side: str, h: str) -> int:
    """The longest range among the side's units in h that can fire (0: none)."""
    reach = 0
    for u in U.units_in(s, h, side):
        k = U.kind(s, w, u)
        rng = k.range if (k.is_mmc or k.cls == "sniper") else 0
        for x in s["units"][u]["sws"]:
            rng = max(rng, w.sws[s["sws"][x]["kind"]].range)
        reach = max(reach, rng)
    return reach


def _watched(w: World, h: str, reach: int, smoke: tuple[str, ...]) -> list[str]:
    """The hexes within `reach` of h in its LOS (memoised on the world)."""
    key = ("watched", h, reach, smoke)
    hit = w.cache.get(key)
    if hit is None:
        hit = w.cache[key] = [t for t in w.board.hexes() if t != h and w.board.distance(h, t) <= reach
                              and not cached_los(w, h, t, smoke).blocked]
    return list(hit)


def give(s: State, side: str, a: Action, facts: list[Fact]) -> None:
    if a["order"] == "ask":
        s["orders"][side].pop(a["hex"], None)
    else:
        s["orders"][side][a["hex"]] = a["order"]
    facts.append(Fact(f"{side.upper()} gives a standing order to {a['hex']}: {a['order']}", "standing orders (ours)",
                      "order", {"hex": a["hex"], "order": a["order"]}, visible_to=(side,)))
