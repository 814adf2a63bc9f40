"""Bridge demolition (VB 18.0, 18.1; A-35).

A unit that has just entered, in normal or mechanized movement, a hex with an intact bridge
on one of its hexsides may demolish that bridge: no die, its move ends at once. Either side.
The hexside is then a river hexside for movement and combat (`s["bridges_down"]`).
Repair (18.2) and engineer bridging (18.3) are not implemented yet (docs/games/vietnam-battles.md).
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Action, Fact, IllegalAction
from rules.core.hexgrid import hexside
from rules.vietnam_battles.data import World
from rules.vietnam_battles.movement import may_end_here

State = dict[str, Any]


def demolish_actions(s: State, w: World) -> list[Action]:
    """The bridges the moving unit may demolish: only where its move may end (VB 18.0 ends the move
    there, and VB 5.3 forbids ending it stacked), else the unit would be left with no legal action."""
    mv = s["moving"]
    if mv is None or mv["steps"] < 1 or w.units[mv["unit"]].monitor or not may_end_here(s, w):
        return []
    at = s["units"][mv["unit"]]["at"]
    out = []
    for n in w.neighbours(at):
        k = hexside(at.split(":")[0], n)
        if w.side(at, n).get("bridge") and k not in s["bridges_down"]:
            out.append({"type": "demolish", "hexside": k})
    return out


def demolish(s: State, w: World, key: str, facts: list[Fact]) -> None:
    if {"type": "demolish", "hexside": key} not in demolish_actions(s, w):
        raise IllegalAction(f"no intact bridge {key} beside the moving unit's new hex", "VB 18.0")
    u = s["moving"]["unit"]
    s["bridges_down"] = sorted(s["bridges_down"] + [key])
    facts.append(Fact(f"{w.units[u].name} demolishes the bridge {key}; its move ends", "VB 18.0", "demolish",
                      {"unit": u, "hexside": key}))
    s["moving"]["stopped"] = True
