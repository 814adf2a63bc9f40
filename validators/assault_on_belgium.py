"""Action schemas of Assault on Belgium: one strict schema per verb of the rules' verb table
(rules/assault_on_belgium/verbs.py).

Shapes only; legality is the rules' business (rules/assault_on_belgium, IllegalAction).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, validate

from rules.assault_on_belgium.standing import KINDS as STANDING_KINDS
from rules.assault_on_belgium.verbs import BATTLE, HEX, STANDING_ANSWER, STANDING_KIND, STANDING_WHEN, UNIT, VERBS
from validators.actions import hex_label, register_actions, schemas_from_verbs

GAME = "assault-on-belgium"


def _unit() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _class_name(verb: str) -> str:
    return f"{''.join(p.capitalize() for p in verb.split('_'))}Action"


# Each field kind of the verb table (rules/assault_on_belgium/verbs.py) as a marshmallow field.
KINDS: dict[str, Callable[[], fields.Field[Any]]] = {
    UNIT.name: _unit,
    HEX.name: hex_label,
    BATTLE.name: lambda: fields.Integer(required=True, strict=True, validate=validate.Range(min=1)),
    STANDING_KIND.name: lambda: fields.String(required=True, validate=validate.OneOf(sorted(STANDING_KINDS))),
    STANDING_ANSWER.name: lambda: fields.String(required=True, validate=validate.OneOf(
        sorted({a for k in STANDING_KINDS.values() for a in k.answers} | {"ask"}))),
    STANDING_WHEN.name: lambda: fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)),
                                            required=True, validate=validate.Length(max=3)),
}
SCHEMAS: dict[str, type[Schema]] = schemas_from_verbs(VERBS, KINDS, _class_name)

register_actions(GAME, SCHEMAS)
