"""Action schemas of the UP FRONT-structured card game with "In the Mountains": one strict
schema per verb of the rules' verb table (rules/up_front/verbs.py), unknown keys refused.
Shapes only; legality is rules/up_front's."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import Schema, fields, validate

from rules.up_front import verbs as V
from rules.up_front.standing import KINDS as STANDING_KINDS
from validators.actions import register_actions, schemas_from_verbs

GAME = "up-front"


def _card(allow_none: bool = False) -> fields.String:
    return fields.String(required=True, allow_none=allow_none,
                         validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,16}$", error="a card id like UF017"))


def _letter() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(list("ABCDEF"), error="a group letter A-F"))


def _word(*choices: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(choices))


MODES = ("forward", "backward", "sideways")
# Each field kind of the verb table (rules/up_front/verbs.py) as a marshmallow field.
KINDS: dict[str, Callable[[], fields.Field]] = {  # type: ignore[type-arg]
    V.CARD.name: _card,
    V.CARD_OR_NONE.name: lambda: _card(allow_none=True),
    V.GROUP.name: _letter,
    V.SIDE.name: lambda: fields.String(required=True, validate=validate.Length(1, 32)),
    V.MAN.name: lambda: fields.String(required=True, validate=validate.Length(1, 16)),
    V.MODE.name: lambda: _word(*MODES),
    V.COUNT.name: lambda: fields.Integer(required=True, strict=True, validate=validate.Range(1, 6)),
    V.FLAG.name: lambda: fields.Boolean(required=True),
    V.CARDS.name: lambda: fields.List(_card(), required=True, validate=validate.Length(1, 6)),
    V.STANDING_KIND.name: lambda: _word("concealment", "terrain", "mine_altitude"),
    V.STANDING_ANSWER.name: lambda: _word("play", "decline", "ask", *sorted(  # versions 1-3; 4 on: in words
        {a for k in STANDING_KINDS.values() for a in k.answers} - {"play", "decline"})),
    V.STANDING_WHEN.name: lambda: fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)),
                                              required=True, validate=validate.Length(max=3)),
    V.PLAN_TURNS.name: lambda: fields.List(fields.List(fields.Dict(), validate=validate.Length(1, 6)), required=True,
                                          validate=validate.Length(max=3)),
}


def _class_name(verb: str) -> str:
    return f"Uf{''.join(p.capitalize() for p in verb.split('_'))}Action"


SCHEMAS: dict[str, type[Schema]] = schemas_from_verbs(V.VERBS, KINDS, _class_name)

register_actions(GAME, SCHEMAS)
