"""The phasing player's turn (CORE 4, in UP FRONT's structure, UF C.3/C.5): each group takes at
most one action by playing a card, or the player discards as his nation allows; then he ends
the turn and refills his hand. Actions that attack the other seat open its reaction windows
(rules/up_front/react.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import deck as decks
from rules.core import reactions
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.core.hands import take
from rules.up_front import altitude as alt
from rules.up_front import fire, react, vehicles
from rules.up_front.data import World
from rules.up_front.geometry import adjacent
from rules.up_front.occupy import occupy
from rules.up_front.table import (
    Group,
    State,
    group,
    in_cover,
    nonfunctional,
    other,
    present,
    terrain_key,
    unpinned,
)

MODES = ("forward", "backward", "sideways")


def _card(s: State, w: World, seat: str, card: str, kind: str, rule: str) -> dict[str, Any]:
    if card not in s["hands"][seat]:
        raise IllegalAction(f"{seat} does not hold card {card}", "CORE 4")
    c = w.cards[card]
    if c["type"] != kind:
        raise IllegalAction(f"{w.card_name(card)} is not a {kind} card", rule)
    return c


def _own_group(s: State, w: World, seat: str, letter: str, act: bool = True) -> Group:
    g = group(s, seat, letter)
    if act:
        if letter in s["acted"]:
            raise IllegalAction(f"group {letter} has already acted this turn", "UF C.3")
        if s["discarded"] and w.nations[s["nation"][seat]]["discard_when"] == "no_action":
            raise IllegalAction("after a discard this nation takes no action in the turn", "UF C.4")
    return g


def play_card(s: State, seat: str, card: str) -> None:
    take(s["hands"], seat, card, "CORE 4")
    decks.discard(s["deck"], [card])


# -- the actions -------------------------------------------------------------------------------


def check_move(s: State, w: World, seat: str, a: dict[str, Any]) -> Group:
    """Everything that may refuse a move (CORE 5; UFM 10.3), reading the state only: the group."""
    g = _own_group(s, w, seat, a["group"])
    _card(s, w, seat, a["card"], "movement", "CORE 5")
    if a["mode"] not in MODES:
        raise IllegalAction(f"a move is {', '.join(MODES)}", "UF C.5")
    alt.check_normal_move(w, g)
    vehicles.check_moves(s, w, g, "a move")  # UFM 8; VEH 5-6
    if g.get("wire") or g.get("minefield"):
        raise IllegalAction("remove the Wire or Minefield on the group first", "CORE 5")
    if g["moves"]:
        if not (s["condition"] in alt.MUDDY and len(g["moves"]) == 1 and g["moves"][0]["mode"] == "sideways"
                and a["mode"] != "sideways"):
            raise IllegalAction("the group is already moving: complete the move with a terrain card", "CORE 5")
    elif s["condition"] in alt.MUDDY and a["mode"] != "sideways":
        raise IllegalAction("in Mud or Heavy snow a sideways Movement card comes before one that changes the "
                            "range", "UFM 10.3")
    return g


def move(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """A Movement card on a group: it is moving until a terrain card completes the move (UF C.5)."""
    g = check_move(s, w, seat, a)
    take(s["hands"], seat, a["card"], "CORE 4")
    g["moves"].append({"card": a["card"], "mode": a["mode"], "alt": False})
    g["entrenched"] = False
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} moves {a['mode']} ({w.card_name(a['card'])})", "CORE 5", "move",
                      {"group": a["group"], "seat": seat, "card": a["card"]}))


def check_complete(s: State, w: World, seat: str, a: dict[str, Any]) -> None:
    """Everything that may refuse completing a move (CORE 5), reading the state only."""
    g = _own_group(s, w, seat, a["group"])
    if not g["moves"] or g["alt_stage"]:
        raise IllegalAction("only a group in a normal move completes it with a terrain card", "CORE 5")
    if g.get("wire") or g.get("minefield"):
        raise IllegalAction("remove the Wire or Minefield on the group first", "CORE 5")
    if a["card"] not in s["hands"][seat]:
        raise IllegalAction(f"{seat} does not hold card {a['card']}", "CORE 4")
    alt.check_completion_terrain(s, w, a["card"], a.get("as_open", False))


def complete(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    check_complete(s, w, seat, a)
    take(s["hands"], seat, a["card"], "CORE 4")
    s["acted"].append(a["group"])
    occupy(s, w, seat, a["group"], a["card"], a.get("as_open", False), facts, "CORE 5")


def check_place_altitude(s: State, w: World, seat: str, a: dict[str, Any]) -> tuple[Group, int]:
    """Everything that may refuse an altitude placement (UFM 5.1.d–h), reading the state only: the
    group and its new level."""
    g = _own_group(s, w, seat, a["group"])
    if g["alt_stage"] != 2:
        raise IllegalAction("two Movement cards must be down before the altitude card", "UFM 5.1.d")
    if g["alt_turn"] is not None and s["turn_no"] <= g["alt_turn"]:
        raise IllegalAction("the altitude card goes down on a later turn than the second Movement card", "UFM 5.1.d")
    alt_card, terrain = a.get("altitude"), a["card"]
    held = s["hands"][seat]
    if terrain not in held or (alt_card is not None and (alt_card not in held or alt_card == terrain)):
        raise IllegalAction("the altitude card and the terrain card come from your hand", "UFM 5.1.f")
    level = alt.new_level(s, w, g, alt_card)
    alt.check_completion_terrain(s, w, terrain, a.get("as_open", False))
    return g, level


def place_altitude(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """The altitude card and a terrain card, on a later turn than the second Movement card (UFM 5.1.d–h)."""
    g, level = check_place_altitude(s, w, seat, a)
    alt_card, terrain = a.get("altitude"), a["card"]
    old = g["altitude"]
    if alt_card is not None:
        take(s["hands"], seat, alt_card, "UFM 5.1.d")
    take(s["hands"], seat, terrain, "UFM 5.1.f")
    if old:
        decks.discard(s["deck"], [old])
    g["altitude"] = alt_card
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} changes altitude to level {level}"
                      + (f" ({w.card_name(alt_card)})" if alt_card else ": no altitude card at level 0"),
                      "UFM 5.1.h" if alt_card is None else "UFM 5.1.e", "altitude",
                      {"group": a["group"], "seat": seat, "level": level}))
    occupy(s, w, seat, a["group"], terrain, a.get("as_open", False), facts, "UFM 5.1.f")


def remove_obstacle(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """A Movement card removes Wire or a Minefield from the group, at level 4 too (UFM 5.4.c)."""
    g = _own_group(s, w, seat, a["group"])
    _card(s, w, seat, a["card"], "movement", "UFM 5.4")
    what = "wire" if g.get("wire") else "minefield" if g.get("minefield") else None
    if what is None:
        raise IllegalAction("there is no Wire or Minefield on the group", "UFM 5.4")
    play_card(s, seat, a["card"])
    decks.discard(s["deck"], [g[what]])
    g[what] = None
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} clears the {what.title()}", "UFM 5.4", "clear",
                      {"group": a["group"], "seat": seat}))


def fire_at(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    g = _own_group(s, w, seat, a["group"])
    _card(s, w, seat, a["card"], "fire", "CORE 6")
    foe = other(s, seat)
    fs, parts = fire.strength(s, w, seat, a["group"], foe, a["target"], a["card"])
    play_card(s, seat, a["card"])
    g["flank"] = False
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} fires at {foe} group {a['target']}: {fire.describe(parts)} "
                      f"= strength {fs}", "CORE 6", "attack",
                      {"group": a["group"], "seat": seat, "target": a["target"], "strength": fs,
                       "rules": sorted({p[2] for p in parts if p[2]})}))
    react.offer_concealment(s, w, foe, a["target"], fs, f"{seat} group {a['group']} fire", dice, facts)


def rally(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """A Rally card unpins up to its value of the group's pinned men (CORE 6.4)."""
    g = _own_group(s, w, seat, a["group"])
    c = _card(s, w, seat, a["card"], "rally", "CORE 6.4")
    pinned = [m for m in g["men"] if s["men"][m]["status"] == "pinned"]
    if not pinned:
        raise IllegalAction("nobody in the group is pinned", "CORE 6.4")
    play_card(s, seat, a["card"])
    for m in pinned[: int(c["value"])]:
        s["men"][m]["status"] = "ok"
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} rallies {min(len(pinned), int(c['value']))} men", "CORE 6.4",
                      "rally", {"group": a["group"], "seat": seat}))


def entrench(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """Entrenchment: a random number from the deck, succeeding per table B.1.3 (UFM 9, 10)."""
    g = _own_group(s, w, seat, a["group"])
    if g["moves"] or g.get("entrenched") or terrain_key(w, g) in ("stream", "minefield") or not present(s, g):
        raise IllegalAction("only a group at rest, not entrenched, out of Stream and Minefield entrenches",
                            "CORE 7")
    drawn = decks.draw_for_random(s["deck"], dice, "a card drawn for an entrenchment attempt")
    fire.note_reshuffle(s, drawn, facts)
    c = w.cards[drawn.card]
    wins = alt.entrenchment_numbers(w, s["terrain_type"], s["condition"])
    g["entrenched"] = c["rn"] in wins
    s["acted"].append(a["group"])
    facts.append(Fact(f"{seat} group {a['group']} tries to entrench: {w.card_name(drawn.card)} — "
                      f"{'entrenched' if g['entrenched'] else 'fails'} (succeeds on {wins})", "UFM 9", "entrench",
                      {"group": a["group"], "seat": seat, "card": drawn.card, "success": g["entrenched"]}))
    fire.maybe_remove_first(s, w, drawn.card, facts)


def check_transfer(s: State, w: World, seat: str, a: dict[str, Any]) -> tuple[Group, Group]:
    """Everything that may refuse a transfer (CORE 5.5; UFM 5.5), reading the state only: the groups."""
    src, dst = _own_group(s, w, seat, a["group"]), _own_group(s, w, seat, a["to"])
    _card(s, w, seat, a["card"], "movement", "CORE 5.5")
    if not adjacent(a["group"], a["to"]):
        raise IllegalAction("an individual transfer is between adjacent groups", "CORE 5.5")
    vehicles.check_transfer(s, w, src, dst)  # VEH 1
    if not alt.transfer_allowed(w, src, dst):
        raise IllegalAction("both groups need the same range chit and the same altitude", "UFM 5.5")
    if a["man"] not in present(s, src):
        raise IllegalAction(f"{a['man']} is not in group {a['group']}", "CORE 5.5")
    return src, dst


def transfer(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """A man moves to an adjacent group with a Movement card (CORE 5.5; UFM 5.5: same range, same altitude)."""
    src, dst = check_transfer(s, w, seat, a)
    play_card(s, seat, a["card"])
    src["men"].remove(a["man"])
    dst["men"].append(a["man"])
    s["men"][a["man"]]["group"] = a["to"]
    s["acted"].extend([a["group"], a["to"]])
    facts.append(Fact(f"{seat}: {a['man']} transfers from group {a['group']} to {a['to']}", "UFM 5.5", "transfer",
                      {"seat": seat, "man": a["man"]}))


def shift(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    """Group (lateral) transfer, CORE 5.7 (OURS): a Movement card moves the group to an adjacent free
    letter (A–D, UF C.3), keeping its range chit, altitude and terrain. It may be combined with an
    altitude change under way, which goes on (UFM 5.1.i); not from level 4 (UFM 5.4)."""
    g = _own_group(s, w, seat, a["group"])
    _card(s, w, seat, a["card"], "movement", "CORE 5.7")
    to = a["to"]
    reserve = (s["reserves"].get(seat) or {}).get("group")
    if to not in "ABCD" or not adjacent(a["group"], to) or to in s["groups"][seat] or to == reserve:
        raise IllegalAction("a group transfer goes to the adjacent free position (A-D)", "CORE 5.7")
    alt.check_normal_move(w, {**g, "alt_stage": 0})
    vehicles.check_moves(s, w, g, "a group transfer")  # UFM 8; VEH 5-6
    if (g["moves"] and not g["alt_stage"]) or g.get("wire") or g.get("minefield"):
        raise IllegalAction("not during a normal move, nor in Wire or a Minefield", "CORE 5.7")
    play_card(s, seat, a["card"])
    del s["groups"][seat][a["group"]]
    s["groups"][seat][to] = g
    for m in g["men"]:
        s["men"][m]["group"] = to
    g["entrenched"], g["flank"] = False, False
    s["acted"].extend([a["group"], to])
    facts.append(Fact(f"{seat} group {a['group']} transfers laterally to position {to}"
                      + (" during its altitude change" if g["alt_stage"] else ""),
                      "UFM 5.1.i" if g["alt_stage"] else "CORE 5.7", "shift", {"seat": seat, "group": to}))


def check_infiltrate(s: State, w: World, seat: str, a: dict[str, Any]) -> tuple[Group, Group]:
    """The checks before an infiltration, reading the state only (CORE 8; UFM 5.3): the two groups."""
    g = _own_group(s, w, seat, a["group"])
    _card(s, w, seat, a["card"], "movement", "CORE 8")
    foe = other(s, seat)
    t = group(s, foe, a["target"])
    vehicles.check_moves(s, w, g, "an infiltration")  # UFM 8; VEH 5-6
    if not unpinned(s, g) or not present(s, t):
        raise IllegalAction("infiltration needs an unpinned man and an enemy group with men", "CORE 8")
    if fire.range_between(s, w, seat, a["group"], foe, a["target"]) != 5:
        raise IllegalAction("infiltration is made at Relative Range 5", "CORE 8")
    if not alt.infiltration_allowed(w, g, t):
        raise IllegalAction("infiltration needs the same altitude, or one level with two Movement cards down, "
                            "the first sideways", "UFM 5.3")
    return g, t


def infiltrate(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """Infiltration at RR 5 starts close combat (CORE 8; UFM 5.3 altitude guard)."""
    g, t = check_infiltrate(s, w, seat, a)
    foe = other(s, seat)
    play_card(s, seat, a["card"])
    s["acted"].append(a["group"])
    bonus = int(w.tables["fire"]["close_combat_bonus"])
    cards = []
    for _who in (seat, foe):
        drawn = decks.draw_for_random(s["deck"], dice, "a card drawn for close combat")
        fire.note_reshuffle(s, drawn, facts)
        cards.append(drawn.card)
    sa = len(unpinned(s, g)) + int(w.cards[cards[0]]["rn"]) + bonus
    sd = len(unpinned(s, t)) + int(w.cards[cards[1]]["rn"])
    text = f"close combat: {seat} group {a['group']} {sa} against {foe} group {a['target']} {sd}"
    if sa != sd:
        loser_seat, loser, pick = (foe, t, cards[0]) if sa > sd else (seat, g, cards[1])
        men = present(s, loser)
        man = men[w.cards[pick]["rpn"][len(men) - 1] - 1]
        s["men"][man]["status"] = "kia"
        text += f": {man} ({loser_seat}) is killed"
    facts.append(Fact(text, "CORE 8", "close_combat", {"cards": cards, "seat": seat}))
    for c in cards:
        fire.maybe_remove_first(s, w, c, facts)


def _check_discard_count(s: State, w: World, seat: str, n: int) -> None:
    nation = w.nations[s["nation"][seat]]
    if nation["discard_when"] == "no_action" and s["acted"]:
        raise IllegalAction(f"{nation['name']} discard only in a turn without actions", "UF C.4")
    if s["discarded"] + n > nation["discard"]:
        raise IllegalAction(f"{nation['name']} discard at most {nation['discard']} a turn", "UF C.4")


def _use_discard(s: State, w: World, seat: str, n: int) -> None:
    _check_discard_count(s, w, seat, n)
    s["discarded"] += n


def check_discard(s: State, w: World, seat: str, a: dict[str, Any]) -> None:
    """Everything that may refuse a discard (UF C.4); it reads the state only."""
    cards = list(a["cards"])
    if not cards or len(set(cards)) != len(cards) or not all(c in s["hands"][seat] for c in cards):
        raise IllegalAction("discard cards you hold, each once", "UF C.4")
    _check_discard_count(s, w, seat, len(cards))


def discard(s: State, w: World, seat: str, a: dict[str, Any], facts: list[Fact]) -> None:
    check_discard(s, w, seat, a)
    cards = list(a["cards"])
    s["discarded"] += len(cards)
    for c in cards:
        play_card(s, seat, c)
    facts.append(Fact(f"{seat} discards {', '.join(w.card_name(c) for c in cards)}", "UF C.4", "discard",
                      {"cards": cards, "seat": seat}))
    for c in cards:
        fire.maybe_remove_first(s, w, c, facts)


def discard_onto(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """Terrain, Wire or a Minefield discarded onto an enemy moving group (UF C.2; UFM 3.5, 5.1.j)."""
    foe = other(s, seat)
    t = group(s, foe, a["target"])
    card = a["card"]
    if card not in s["hands"][seat]:
        raise IllegalAction(f"{seat} does not hold card {card}", "CORE 4")
    c = w.cards[card]
    if not t["moves"]:
        raise IllegalAction("terrain is discarded only onto a moving group", "UF C.2")
    if c["type"] == "wire":
        kind = "wire"
    elif c["type"] == "terrain" and not nonfunctional(s, w, card) and c["terrain"] in (
            "stream", "minefield", "brush", "woods", "wall", "gully"):
        kind = c["terrain"]
    else:
        raise IllegalAction(f"{w.card_name(card)} cannot be discarded onto an enemy group (altitude cards "
                            "lose every other function: B.6-9; non-functional cards only go to the discards)",
                            "UFM 3")
    if kind == "wire" and t.get("wire"):
        raise IllegalAction("the group is already in Wire", "CORE 3")
    _use_discard(s, w, seat, 1)
    take(s["hands"], seat, card, "CORE 4")
    who = f"{foe} group {a['target']}"
    facts.append(Fact(f"{seat} discards {w.card_name(card)} onto {who}", "UF C.2", "discard_onto",
                      {"card": card, "seat": foe, "group": a["target"]}))
    if kind == "stream":
        decks.discard(s["deck"], [m["card"] for m in t["moves"]] + [card])
        t.update({"moves": [], "alt_stage": 0, "alt_turn": None})
        facts.append(Fact(f"The Stream is impassable: {who} loses its Movement cards", "UFM 3.5", "stream",
                          {"group": a["target"], "seat": foe}))
    elif kind == "wire":
        t["wire"] = card
    elif kind == "minefield":
        t["minefield"] = card
        strength = int(w.terrain["minefield"]["attack"])
        fire.resolve(s, w, foe, a["target"], strength, dice, facts, f"Minefield attack on {who} (no altitude "
                     "modifier, UFM 6.7)")
        if t["alt_stage"]:
            react.offer_mine_altitude(s, w, foe, a["target"], facts)
        else:
            decks.discard(s["deck"], [m["card"] for m in t["moves"]])
            t["moves"] = []
    else:
        react.offer_terrain(s, w, foe, a["target"], card, dice, facts)


# Each action's checks that come before its apply changes anything, reading the state only: a
# candidate they refuse needs no trial apply (rules/up_front/game.py `_passes`).
CHECKS: dict[str, Callable[[State, World, str, dict[str, Any]], object]] = {
    "move": check_move, "complete": check_complete, "transfer": check_transfer, "altitude": check_place_altitude,
    "infiltrate": check_infiltrate, "ordnance": vehicles.check_ordnance,
}


def score(s: State, w: World, seat: str) -> tuple[int, list[str]]:
    """Victory points (UF C.6: 2 per enemy man killed, 1 per routed; CORE 10 objective)."""
    vp, why = 0, []
    v = w.tables["victory"]
    for _m, rec in s["men"].items():
        if rec["seat"] != seat and rec["status"] in ("kia", "routed"):
            vp += int(v[rec["status"]])
    why.append(f"casualties {vp}")
    obj = s["objective"]
    if obj["seat"] in (None, seat):
        held = [letter for letter, g in sorted(s["groups"][seat].items())
                if len(unpinned(s, g)) >= 2 and g["range"] >= obj["range"] and in_cover(w, g) and not g["moves"]]
        vp += obj["vp"] * len(held)
        if held:
            why.append(f"groups {', '.join(held)} hold cover at range {obj['range']}+ ({obj['vp']} each, UFM 11.d)")
    return vp, why


def check_turn_standing(a: dict[str, Any]) -> None:
    """Everything that may refuse a standing answer given in the turn (CORE 11); it reads no state."""
    reactions.check_standing(a["kind"], a["answer"], a["when"], react.KINDS, react.FIELDS)
    if a["when"] and not (a["kind"] == "concealment" and len(a["when"]) == 1 and a["when"][0][:2] == ["men", "<="]
                          and a["when"][0][2] in range(1, 11)):
        raise IllegalAction("a standing answer's condition is [\"men\", \"<=\", 1..10] on a concealment window",
                            "CORE 11")


def turn_standing(s: State, seat: str, a: dict[str, Any], facts: list[Fact], face_down: bool = False) -> None:
    """CORE 11: record a standing answer (its words for the seat alone). `face_down` (rules version 3
    on): the answer is a face-down marker: a public fact says which windows it settles, never how."""
    check_turn_standing(a)
    had = a["kind"] in s.get("standing", {}).get(seat, {})
    reactions.set_standing(s, seat, a["kind"], a["answer"], a["when"])
    facts.append(Fact(f"{seat} records a standing answer for {a['kind']} windows", "CORE 11", "standing",
                      {"kind": a["kind"]}, visible_to=(seat,)))
    if face_down:
        kept = s.get("standing", {}).get(seat, {}).get(a["kind"])
        when = " and ".join(" ".join(str(x) for x in c) for c in a["when"])
        if kept is None:
            text = f"{seat} takes back its standing answer for {a['kind']} windows: it will be asked"
        else:
            text = (f"{seat} {'changes its' if had else 'puts a'} face-down standing answer for {a['kind']} windows"
                    + (f" when {when}" if when else ""))
        facts.append(Fact(text, "CORE 11", "standing_marker", {"kind": a["kind"], "when": [list(c) for c in a["when"]],
                                                               "marker": kept is not None}))
