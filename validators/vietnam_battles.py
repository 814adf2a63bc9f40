"""Action schemas of Vietnam Battles: one strict schema per verb of the rules' verb table
(rules/vietnam_battles/verbs.py), unknown keys refused.

Shapes only; legality is the rules' business (rules/vietnam_battles, IllegalAction).
"""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import Schema, fields, validate

from rules.vietnam_battles import verbs as V
from rules.vietnam_battles.standing import KINDS as STANDING_KINDS
from validators.actions import hex_label, register_actions, schemas_from_verbs

GAME = "vietnam-battles"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _hexside() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}/\d{4}$", error="a hexside like 0717/0718"))


def _space() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}(/\d{4})?$",
                                                                  error="a hex like 0717 or a hexside like 0717/0718"))


def _node() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}(:[a-z_]+)?$",
                                                                  error="a hex like 0717 or a portion like 0127:north"))


def _path() -> fields.List[str]:
    return fields.List(fields.String(validate=validate.Regexp(r"^\d{4}(/\d{4}|:[a-z_]+)?$", error="a hex, portion or hexside")),
                       required=True, validate=validate.Length(max=3))


# Each field kind of the verb table (rules/vietnam_battles/verbs.py) as a marshmallow field.
KINDS: dict[str, Callable[[], fields.Field]] = {  # type: ignore[type-arg]
    V.UNIT_ID.name: _id,
    V.NODE.name: _node,
    V.SPACE.name: _space,
    V.HEXSIDE.name: _hexside,
    V.HEX.name: hex_label,
    V.PATH.name: _path,
    V.VICTORY.name: lambda: fields.String(required=True, validate=validate.OneOf(["escape", "casualties", "hold"])),
    V.BEN_SUC.name: lambda: fields.String(required=True, validate=validate.OneOf(["roll", "decline", "extend",
                                                                                  "shorten"])),
    V.STANDING_KIND.name: lambda: fields.String(required=True, validate=validate.OneOf(sorted(STANDING_KINDS))),
    V.STANDING_ANSWER.name: lambda: fields.String(required=True, validate=validate.OneOf(
        sorted({a for k in STANDING_KINDS.values() for a in k.answers} | {"ask"}))),
    V.STANDING_WHEN.name: lambda: fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)),
                                              required=True, validate=validate.Length(max=3)),
}


def _class_name(verb: str) -> str:
    return f"Vb{''.join(p.capitalize() for p in verb.split('_'))}Action"


SCHEMAS: dict[str, type[Schema]] = schemas_from_verbs(V.VERBS, KINDS, _class_name)

register_actions(GAME, SCHEMAS)
