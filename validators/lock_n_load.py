"""Action schemas of Lock 'n Load: Forgotten Heroes Vietnam: one strict schema per verb of the
rules' verb table (rules/lock_n_load/flow.py VERBS), unknown keys refused. Shapes only; legality
is the rules' business (rules/lock_n_load)."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import Schema, fields, validate

from rules.lock_n_load.flow import (
    HEX,
    MOVE_MODE,
    SNIPER_ORDER,
    STANDING_ANSWER,
    STANDING_KIND,
    STANDING_ORDER,
    STANDING_WHEN,
    UNIT_ID,
    UNIT_IDS,
    VERBS,
)
from rules.lock_n_load.standing import KINDS as STANDING_KINDS
from validators.actions import register_actions, schemas_from_verbs

GAME = "lock-n-load"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _hex() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^[0-9][A-Z][1-9][0-9]?$",
                                                                  error="a hex like 1F5 (board, column, row)"))


# Each field kind of the verb table (rules/lock_n_load/flow.py VERBS) as a marshmallow field.
KINDS: dict[str, Callable[[], fields.Field]] = {  # type: ignore[type-arg]
    UNIT_ID.name: _id,
    HEX.name: _hex,
    MOVE_MODE.name: lambda: fields.String(required=True, validate=validate.OneOf(["normal", "assault", "double", "crawl"])),
    STANDING_ORDER.name: lambda: fields.String(required=True, validate=validate.Regexp(
        r"^(ask|hold|fire|within[123]|at:[0-9][A-Z][1-9][0-9]?)$", error="ask, hold, fire, within1-3 or at:<hex>")),
    SNIPER_ORDER.name: lambda: fields.String(required=True, validate=validate.OneOf(
        ["ask", "fire", "within1", "within2", "within3"])),
    UNIT_IDS.name: lambda: fields.List(_id(), required=True, validate=validate.Length(min=1, max=12)),
    STANDING_KIND.name: lambda: fields.String(required=True, validate=validate.OneOf(sorted(STANDING_KINDS))),
    STANDING_ANSWER.name: lambda: fields.String(required=True, validate=validate.OneOf(
        sorted({a for k in STANDING_KINDS.values() for a in k.answers} | {"ask"}))),
    STANDING_WHEN.name: lambda: fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)),
                                            required=True, validate=validate.Length(max=3)),
}


def _class_name(verb: str) -> str:
    return f"Lnl{''.join(p.capitalize() for p in verb.split('_'))}Action"


SCHEMAS: dict[str, type[Schema]] = schemas_from_verbs(VERBS, KINDS, _class_name)

register_actions(GAME, SCHEMAS)
