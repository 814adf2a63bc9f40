"""Standing orders: the non-moving seat's opportunity-fire answers given in advance (ours; not a
rule of the game, a way to play 5.3 by mail without a round trip per movement point).

A seat may give each hex it occupies one order, secretly (a hidden move; the other seat sees only
the fire that follows): "ask" (the default: prompt me), "hold" (never fire), "fire" (fire at the
first mover in LOS and range), "within1".."within3" (fire once the mover is that close, never
before), "at:<hex>" (fire at a mover entering that hex). At each movement point every eligible hex
whose order decides fires or declines at once; the game stops for a prompt only for hexes whose
order is "ask". The firing itself is judged by the same rules (fire.resolve) as a prompted one.

Rules version 3: an order is a face-down marker. Whether the game stops for a prompt is public (the
game waits for the seat), so it may depend only on public things: which hexes carry an order is
public (`Game.view` shows another side's as `HIDDEN`, and placing, changing or removing one is a
public fact), what an order says is its owner's alone. An order that answers a move without firing
says so publicly ("does not fire"), as a table shows a marker that stays silent; a fire is public.
Versions 1 and 2 (kept for their recorded games) hid the markers but let the game's pauses, the
move's `fired_from` and the judgement's rules list reveal them.
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
RULE = "standing orders (ours)"


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


def face_down(s: State) -> bool:
    """Orders are face-down markers whose presence is public (rules version 3 on)."""
    return int(s["version"]) >= 3


def give(s: State, side: str, a: Action, facts: list[Fact]) -> None:
    h = a["hex"]
    had = h in s["orders"][side]
    if a["order"] == "ask":
        s["orders"][side].pop(h, None)
    else:
        s["orders"][side][h] = a["order"]
    facts.append(Fact(f"{side.upper()} gives a standing order to {h}: {a['order']}", RULE,
                      "order", {"hex": h, "order": a["order"]}, visible_to=(side,)))
    if face_down(s):  # the marker is on the table for all to see; what it says is the owner's
        what = ("takes the standing order off" if a["order"] == "ask"
                else "changes the face-down standing order in" if had else "puts a face-down standing order in")
        facts.append(Fact(f"{side.upper()} {what} {h}", RULE, "order_marker", {"hex": h, "marker": a["order"] != "ask"}))


def silent(s: State, side: str, h: str, at: str, rule: str) -> list[Fact]:
    """An order that answers a move without firing: public from version 3 (a face-down marker
    that stays silent, as a table shows it), nothing recorded before."""
    if not face_down(s):
        return []
    return [Fact(f"{side.upper()}'s face-down standing order in {h} does not fire at {at}", rule, "standing_order",
                 {"hex": h, "at": at, "fired": False})]


def view(s: State, seat: str | None) -> dict[str, dict[str, str]]:
    """The standing orders a seat may see: its own; another side's as face-down markers from
    version 3 (none before)."""
    return {side: (dict(o) if side == seat else {h: HIDDEN for h in o} if face_down(s) else {})
            for side, o in s["orders"].items()}


# -- the sniper's standing order (rules version 4 on; LnL 11.4, digest A42) ------------------------
# 11.4: "once the scenario has begun, the owner may at any time place the sniper in any hex with a
# positive TM not occupied by enemy units; it may immediately attack a spotted enemy hex in its LOS".
# By mail "at any time" cannot be a prompt: a prompt at every moment would be a round trip per
# action. So the owner of a sniper not yet placed gives it, secretly, a standing order: the hex it is
# to be placed in, and when it fires ("fire": at the first spotted enemy hex in its LOS and range;
# "within1".."within3": only at one that close). After every action the judge checks each such order
# and, the moment a target is there, places the sniper and fires without waiting for anyone. The
# order is a face-down marker: that the side has one is public (the other seat's view shows it
# `HIDDEN`, under the key "sniper:<unit>"; giving or taking it off is a public fact with no hex), its
# hex and words are the owner's until it is carried out or the game ends.
SNIPER_KEY = "sniper:"
SNIPER_FORMS = ("fire", "within1", "within2", "within3")
SNIPER_RULE = "LnL 11.4 (A42: the sniper's standing order, ours)"


def snipers_standing(s: State) -> bool:
    """Sniper standing orders exist from rules version 4."""
    return s["version"] not in ("1", "2", "3")


def sniper_order_of(s: State, side: str, uid: str) -> tuple[str, str] | None:
    """(hex, form) of the sniper's standing order, or None."""
    v = s["orders"][side].get(SNIPER_KEY + uid)
    if not isinstance(v, str) or ":" not in v:
        return None
    h, form = v.split(":", 1)
    return h, form


def _snipers_off_map(s: State, w: World, side: str) -> list[str]:
    return [u for u, r in sorted(s["units"].items()) if r["side"] == side and r["at"] is None and not r["dead"]
            and w.kinds[r["kind"]].cls == "sniper"]


def sniper_hexes(s: State, w: World, uid: str) -> list[str]:
    """11.4: the hexes the sniper may ever be placed in: a positive TM for his nationality (T3, 13.x).
    Enemy occupation and stacking are judged when the order is carried out."""
    key = ("sniper_hexes", s["units"][uid]["kind"])
    hit = w.cache.get(key)
    if hit is None:
        nat = w.kinds[s["units"][uid]["kind"]].nationality
        hit = w.cache[key] = [h for h in w.board.hexes()
                              if int(w.tec[w.terrain(h)].get("tm_by", {}).get(nat, w.tec[w.terrain(h)]["tm"])) > 0]
    return list(hit)


def sniper_actions(s: State, w: World, side: str) -> list[Action]:
    """Every sniper order the side may give now: for each of its snipers not yet placed, each hex it
    may be placed in with each form, and "ask" (take the order off) for the one it has."""
    if not snipers_standing(s):
        return []
    out: list[Action] = []
    for u in _snipers_off_map(s, w, side):
        now = sniper_order_of(s, side, u)
        if now is not None:
            out.append({"type": "sniper_order", "unit": u, "hex": now[0], "order": "ask"})
        for h in sniper_hexes(s, w, u):
            for form in SNIPER_FORMS:
                if now != (h, form):
                    out.append({"type": "sniper_order", "unit": u, "hex": h, "order": form})
    return out


def sniper_allowed(s: State, w: World, side: str, a: dict[str, Any]) -> bool:
    """`a` is one of `sniper_actions(s, w, side)`, asked about its own sniper and hex only."""
    if not snipers_standing(s) or a.keys() != {"type", "unit", "hex", "order"} or a["type"] != "sniper_order":
        return False
    u, h, o = a["unit"], a["hex"], a["order"]
    if not all(isinstance(x, str) for x in (u, h, o)) or u not in _snipers_off_map(s, w, side):
        return False
    now = sniper_order_of(s, side, u)
    if o == "ask":
        return now is not None and now[0] == h
    return o in SNIPER_FORMS and now != (h, o) and h in sniper_hexes(s, w, u)


def any_sniper_order(s: State, w: World, side: str) -> bool:
    return snipers_standing(s) and bool(_snipers_off_map(s, w, side))


def give_sniper(s: State, side: str, a: Action, facts: list[Fact]) -> None:
    key = SNIPER_KEY + a["unit"]
    had = key in s["orders"][side]
    if a["order"] == "ask":
        s["orders"][side].pop(key, None)
        words = f"{side.upper()} takes the sniper order for {a['unit']} off"
    else:
        s["orders"][side][key] = f"{a['hex']}:{a['order']}"
        words = f"{side.upper()} orders {a['unit']}: placed in {a['hex']}, {a['order']}"
    facts.append(Fact(words, SNIPER_RULE, "sniper_order",
                      {"unit": a["unit"], "hex": a["hex"], "order": a["order"]}, visible_to=(side,)))
    what = ("takes the face-down sniper order off" if a["order"] == "ask"
            else "changes the face-down sniper order" if had else "puts down a face-down sniper order")
    facts.append(Fact(f"{side.upper()} {what} (the sniper is off the map)", SNIPER_RULE, "order_marker",
                      {"sniper": True, "marker": a["order"] != "ask"}))


def sniper_target(s: State, w: World, uid: str, form: str) -> str | None:
    """The hex the placed sniper fires at under its order: the nearest enemy hex it may attack now
    (spotted, in LOS and range: rules/lock_n_load/fire.py `plan`), ties by hex id; "withinN": only
    at most N hexes away. The sniper must stand in its hex already."""
    from rules.lock_n_load import fire

    side = s["units"][uid]["side"]
    at = s["units"][uid]["at"]
    best: tuple[int, str] | None = None
    for h in U.side_hexes(s, U.other(side)):
        d = w.board.distance(at, h)
        if form.startswith("within") and d > int(form[6:]):
            continue
        if fire.plan(s, w, [uid], h, opportunity=False) is not None and (best is None or (d, h) < best):
            best = (d, h)
    return None if best is None else best[1]


def due_snipers(s: State, w: World) -> list[tuple[str, str, str]]:
    """The standing sniper orders to carry out now, as (sniper, hex, target): the sniper may be placed
    in its hex (no enemy unit there, within stacking, 1.3, 11.4) and a target is there for its form.
    Each order is tried with the sniper in its hex and the state put back."""
    out: list[tuple[str, str, str]] = []
    if not snipers_standing(s):
        return out
    for side in U.SIDES:
        for u in _snipers_off_map(s, w, side):
            o = sniper_order_of(s, side, u)
            if o is None:
                continue
            h, form = o
            if U.units_in(s, h, U.other(side)) or not U.stacking_ok(s, w, h, side, extra=[u]):
                continue
            s["units"][u]["at"] = h
            try:
                t = sniper_target(s, w, u, form)
            finally:
                s["units"][u]["at"] = None
            if t is not None:
                out.append((u, h, t))
    return out
