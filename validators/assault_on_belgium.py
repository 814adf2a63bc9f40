"""Action schemas of Assault on Belgium: one strict schema per action type.

Shapes only; legality is the rules' business (rules/assault_on_belgium, IllegalAction).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from validators.actions import StrictSchema, action_type, hex_label, register_actions

GAME = "assault-on-belgium"


def _unit() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _schema(kind: str, **extra: fields.Field[Any]) -> type[Schema]:
    attrs: dict[str, fields.Field[Any]] = {"type": action_type(kind), **extra}
    return type(f"{''.join(p.capitalize() for p in kind.split('_'))}Action", (StrictSchema,), attrs)


SCHEMAS: dict[str, type[Schema]] = {
    "select": _schema("select", unit=_unit()),
    "place": _schema("place", hex=hex_label()),
    "unplace": _schema("unplace", unit=_unit()),
    "standard_setup": _schema("standard_setup"),
    "done_setup": _schema("done_setup"),
    "move": _schema("move", hex=hex_label(), tank_battle=fields.Boolean(validate=validate.Equal(True))),
    "end_unit_move": _schema("end_unit_move"),
    "end_movement": _schema("end_movement"),
    "end_reaction": _schema("end_reaction"),
    "fly": _schema("fly", unit=_unit(), hex=hex_label()),
    "unfly": _schema("unfly", unit=_unit()),
    "end_air": _schema("end_air"),
    "resolve_battle": _schema("resolve_battle", battle=fields.Integer(required=True, strict=True,
                                                                      validate=validate.Range(min=1))),
    "choose_fighter": _schema("choose_fighter", unit=_unit()),
    "choose_bomber": _schema("choose_bomber", unit=_unit()),
    "no_bomber": _schema("no_bomber"),
    "assign_hit": _schema("assign_hit", unit=_unit()),
    "retreat": _schema("retreat", hex=hex_label()),
    "take_hit": _schema("take_hit"),
    "continue": _schema("continue"),
    "withdraw": _schema("withdraw", unit=_unit(), hex=hex_label()),
    "pursuit_toggle": _schema("pursuit_toggle", unit=_unit()),
    "pursue": _schema("pursue", hex=hex_label()),
    "attack": _schema("attack", hex=hex_label()),
    "no_pursuit": _schema("no_pursuit"),
}

register_actions(GAME, SCHEMAS)
