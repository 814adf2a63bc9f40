"""The actions of Lock 'n Load a player confirms before they are sent: the third pass in a row,
which ends the Operations Phase, while the seat could still activate units (see `Game.confirm`;
LnL 4.1)."""

from __future__ import annotations

from rules.core.game import Action, State


def confirm(s: State, action: Action, legal: list[Action]) -> str | None:
    if action.get("type") != "pass" or s.get("phase") != "operations" or s.get("impulse") is not None:
        return None
    if int(s.get("passes") or 0) < 2:  # a pass ends only the impulse
        return None
    hexes = {a["hex"] for a in legal if a.get("type") == "activate" and isinstance(a.get("hex"), str)}
    if not hexes:
        return None
    n = len(hexes)
    return (f"ends the Operations Phase (the third pass in a row) while {n} hex{'' if n == 1 else 'es'} "
            "of your units could still be activated (LnL 4.1)")
