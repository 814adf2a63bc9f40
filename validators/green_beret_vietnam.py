"""Action schemas of Green Beret: Vietnam: one strict schema per verb of the rules' verb table
(rules/green_beret_vietnam/flow.py VERBS).

Shapes only; legality is the rules' business (rules/green_beret_vietnam, IllegalAction).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.green_beret_vietnam.flow import VERBS
from rules.green_beret_vietnam.verbs import HEX, ID
from validators.actions import hex_label, register_actions, schemas_from_verbs

GAME = "green-beret-vietnam"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _class_name(verb: str) -> str:
    return f"Gbv{''.join(p.capitalize() for p in verb.split('_'))}Action"


# Each field kind of the verb table (rules/green_beret_vietnam/flow.py VERBS) as a marshmallow field.
SCHEMAS: dict[str, type[Schema]] = schemas_from_verbs(VERBS, {ID.name: _id, HEX.name: hex_label}, _class_name)

register_actions(GAME, SCHEMAS)
