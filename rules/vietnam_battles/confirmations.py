"""The actions of Vietnam Battles a player confirms before they are sent: ending a movement or
combat phase while units could still move or attack (see `Game.confirm`; VB 4.1)."""

from __future__ import annotations

from rules.core.game import Action, State
from rules.vietnam_battles.flow import PHASE_LABEL


def confirm(s: State, action: Action, legal: list[Action]) -> str | None:
    if action.get("type") != "end_phase":
        return None
    phase = PHASE_LABEL.get(s.get("phase", ""), "phase")
    movers = {a["unit"] for a in legal if a.get("type") == "select" and isinstance(a.get("unit"), str)}
    if movers:
        n = len(movers)
        return f"ends the {phase} while {n} unit{'' if n == 1 else 's'} could still move (VB 4.1)"
    attackers = {a["unit"] for a in legal if a.get("type") == "declare" and isinstance(a.get("unit"), str)}
    if attackers:
        n = len(attackers)
        return f"ends the {phase} while {n} unit{'' if n == 1 else 's'} could still attack (VB 4.1)"
    return None
