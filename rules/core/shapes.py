"""The shape check every game's `apply` runs before its rules (apply never trusts the client):
an action is an object with a known `type` and exactly that type's fields, each of its type.
The API's marshmallow schemas say the same thing first; this is the rules' own guard."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rules.core.game import Action, IllegalAction


def check_shape(action: Any, table: Mapping[str, Mapping[str, type]],
                flags: Mapping[str, tuple[Collection[str], str | None]] | None = None) -> Action:
    """Refuse a malformed action with IllegalAction. `table`: type -> {field: python type}.
    `flags`: {field: (the types that may carry it, rule)} for an optional field that is either
    `true` or left out (AoB's `tank_battle` on a move)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("an action is an object with a 'type'")
    kind = action["type"]
    if kind not in table:
        raise IllegalAction(f"unknown action type {kind!r}; known: {', '.join(sorted(table))}")
    fields = table[kind]
    mine = {f: rule for f, (kinds, rule) in (flags or {}).items() if kind in kinds}
    extra = sorted(set(action) - set(fields) - {"type"} - set(mine))
    if extra:
        raise IllegalAction(f"{kind} takes no field(s) {', '.join(extra)}")
    for f, t in fields.items():
        v = action.get(f)
        if not isinstance(v, t) or (isinstance(v, bool) and t is not bool):  # JSON true is no number
            raise IllegalAction(f"{kind} needs a {f} ({t.__name__})")
    for f, rule in mine.items():
        if f in action and action[f] is not True:
            raise IllegalAction(f"{f} is either true or left out", rule)
    return action
