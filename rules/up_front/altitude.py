"""The appendix's altitude rules ("In the Mountains", UFM 2–5, 9, 10, 12) on the table.

A group's altitude change (UFM 5.1; digest B.2.4) is a small machine on the group:
`alt_stage` 0 (static), 1 (the first Movement card down, sideways), 2 (the second down; the
group may place the altitude card and a terrain card on a *later* turn). Mountain troops and
partisans in scenario I may go from 0 to 2 with one black Movement card (UFM 12.13, 12.2).
"""

from __future__ import annotations

from rules.core.game import Fact, IllegalAction
from rules.up_front import vehicles
from rules.up_front.data import World
from rules.up_front.geometry import card_level, level_of, relative_altitude
from rules.up_front.table import Group, State, altitude_card, group, mountain_mover, ordinary_terrain

MUDDY = ("mud", "heavy_snow")


def entrenchment_numbers(w: World, terrain_type: str, condition: str) -> list[int]:
    """The random numbers on which entrenchment succeeds (UFM 9.1–9.3, 10.2–10.4; table B.1.3).
    The condition's value replaces the terrain type's (B.6-3); Light/Heavy as Dry (INFERRED)."""
    table = w.tables["entrenchment"]
    row = table[condition]
    if isinstance(row, str):
        row = table[row]
    return list(row[terrain_type])


def avalanche(rn: int, colour: str) -> bool:
    """Heavy snow: at each end of the draw pile a red 6 ends the scenario, everyone losing (UFM 10.4)."""
    return rn == 6 and colour == "red"


def dyo_mountain_troops(colour: str) -> bool:
    """DYO: elite troops bought or drawn are mountain troops on a black random number (UFM 12.14)."""
    return colour == "black"


def check_normal_move(w: World, g: Group) -> None:
    """A normal move cannot change the altitude, and a group at level 4 makes none (UFM 5.2, 5.4)."""
    if level_of(w, g) == 4:
        raise IllegalAction("a group at level 4 moves only by changing altitude to level 3 "
                            "(it may still remove Wire or a Minefield)", "UFM 5.4")
    if g["alt_stage"]:
        raise IllegalAction("the group is changing altitude: its Movement cards are for that", "UFM 5.1")


def alt_step(s: State, w: World, seat: str, letter: str, card: str, mode: str, one_card: bool) -> list[Fact]:
    """Play a Movement card towards an altitude change (UFM 5.1.a–c, 10.3b, 12.13)."""
    g = group(s, seat, letter)
    c = w.cards[card]
    if c["type"] != "movement":
        raise IllegalAction("an altitude change takes Movement cards", "UFM 5.1.a")
    vehicles.check_altitude_change(s, w, g)  # UFM 7.1, 8
    if any(not m["alt"] for m in g["moves"]):
        raise IllegalAction("the group is in a normal move; complete it first", "UFM 5.2")
    if g.get("wire") or g.get("minefield"):
        raise IllegalAction("remove the Wire or Minefield on the group first", "CORE 5")
    stage = g["alt_stage"]
    if one_card:
        if stage:
            raise IllegalAction("the one-card change replaces both Movement cards", "UFM 12.13")
        if not mountain_mover(s, w, seat, g):
            raise IllegalAction("only mountain troops (and partisans in scenario I) change altitude "
                                "with one card", "UFM 12.13")
        if s["condition"] in MUDDY:
            raise IllegalAction("not in Mud or Heavy snow", "UFM 12.13")
        if c["colour"] != "black":
            raise IllegalAction("the one-card change needs a Movement card with a black random number", "UFM 12.13")
        g["alt_stage"], g["alt_turn"] = 2, s["turn_no"]
        g["moves"].append({"card": card, "mode": mode, "alt": True})
        return [Fact(f"{seat} group {letter}: mountain troops start an altitude change with one black "
                     f"Movement card ({w.card_name(card)})", "UFM 12.13", "altitude", {"group": letter})]
    if stage >= 2:
        raise IllegalAction("both Movement cards are down: place the altitude and terrain cards", "UFM 5.1.d")
    if stage == 0 and mode != "sideways":
        raise IllegalAction("the first Movement card of an altitude change is played sideways", "UFM 5.1.b")
    if stage == 1 and s["condition"] in MUDDY and c["colour"] != "black":
        raise IllegalAction("in Mud or Heavy snow the second Movement card must have a black random number",
                            "UFM 10.3")
    g["moves"].append({"card": card, "mode": mode, "alt": True})
    g["alt_stage"] = stage + 1
    g["entrenched"] = False
    if stage + 1 == 2:
        g["alt_turn"] = s["turn_no"]
    rule = "UFM 5.1.b" if stage == 0 else "UFM 5.1.c"
    return [Fact(f"{seat} group {letter}: altitude change, Movement card {stage + 1} of 2 ({mode}; "
                 f"{w.card_name(card)})", rule, "altitude", {"group": letter, "stage": stage + 1})]


def new_level(s: State, w: World, g: Group, alt_card: str | None) -> int:
    """The level an altitude placement gives, refused unless exactly one level away (UFM 5.1.e, h)."""
    now = level_of(w, g)
    if alt_card is None:
        if now != 1:
            raise IllegalAction(f"without an altitude card the group goes to level 0, one below {now} only "
                                "from level 1", "UFM 5.1.h")
        return 0
    if not altitude_card(s, w, alt_card):
        raise IllegalAction(f"{w.card_name(alt_card)} is not an altitude card here (Hill/Marsh 1, Buildings −2 2, "
                            f"−3 3, Pillbox 4{'' if s['level4'] else ': no level 4 in this scenario'})", "UFM 3.4")
    level = card_level(w, alt_card)
    assert level is not None
    if abs(level - now) != 1:
        raise IllegalAction(f"an altitude change is exactly one level: from {now} to {now - 1} or {now + 1}, "
                            f"not {level}", "UFM 5.1.e")
    return level


def check_completion_terrain(s: State, w: World, terrain: str, as_open: bool) -> None:
    """The terrain card a move ends on: Brush, Wall, Woods, Gully or any card as Open Ground."""
    if as_open:
        return
    if not ordinary_terrain(s, w, terrain):
        raise IllegalAction(f"{w.card_name(terrain)} cannot be occupied here: Brush, Wall, Woods (unless "
                            "non-functional) or Gully, or any card as Open Ground", "UFM 3")


def infiltration_allowed(w: World, g: Group, t: Group) -> bool:
    """Same altitude, or one level apart with two Movement cards down, the first sideways (UFM 5.3;
    the negative for Δ ≥ 2 or one card is INFERRED, 5.3.c)."""
    delta = relative_altitude(level_of(w, g), level_of(w, t))
    if delta == 0:
        return True
    return delta == 1 and len(g["moves"]) >= 2 and g["moves"][0]["mode"] == "sideways"


def transfer_allowed(w: World, a: Group, b: Group) -> bool:
    """Individual transfer: the same range chit and the same altitude (UFM 5.5)."""
    return a["range"] == b["range"] and level_of(w, a) == level_of(w, b)


def reinforcement_level_allowed(s: State, w: World, levels_held: list[int], level: int) -> bool:
    """Reinforcements enter at any level up to the highest a friendly group holds (UFM 5.6.a)."""
    return 0 <= level <= max(levels_held, default=0) and (level < 4 or bool(s["level4"]))
