"""The actions of Assault on Belgium a player confirms before they are sent: those that end the
game, and those that end a whole phase while units could still act (see `Game.confirm`)."""

from __future__ import annotations

from rules.assault_on_belgium.board import battle_hexes
from rules.assault_on_belgium.data import World
from rules.core.game import Action, State


def _units_able(s: State, legal: list[Action], pick: str) -> int:
    """How many units the listing still lets act: those it offers to `pick`, and the selected
    unit while it has moves left."""
    units = {a["unit"] for a in legal if a.get("type") == pick and isinstance(a.get("unit"), str)}
    if s.get("selected") and any(a.get("type") == "move" for a in legal):
        units.add(s["selected"])
    return len(units)


def _plural(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def confirm(s: State, w: World, action: Action, legal: list[Action]) -> str | None:
    kind = action.get("type")
    if kind == "end_movement":
        if not battle_hexes(s):  # AoB 24.18: one German move; no battle -> straight to the victory check
            return ("ends the game: no German unit has entered a hex held by Belgium, so no battle is "
                    "fought and Belgium wins (AoB 3.3, 24.18)")
        left = _units_able(s, legal, "select")
        return f"ends the German movement while {_plural(left, 'unit')} could still move (AoB 5.1)" if left else None
    if kind == "end_reaction":
        left = _units_able(s, legal, "select")
        return f"ends the Belgian reaction while {_plural(left, 'unit')} could still react (AoB 6.1)" if left else None
    if kind == "end_air":
        left = _units_able(s, legal, "fly")
        rule = "AoB 7.1" if s["phase"] == "german_air" else "AoB 9.4"
        return f"ends the air missions while {left} aircraft could still fly ({rule})" if left else None
    return None
