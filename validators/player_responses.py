"""Schemas of the JSON answers of /api/v1/players and of a game's clock (warlog.players,
warlog.clock), published in the OpenAPI document like validators.responses."""

from __future__ import annotations

from marshmallow import fields

from validators.actions import StrictSchema


def _str() -> fields.String:
    return fields.String(required=True)


class SentSchema(StrictSchema):
    message = _str()


class PublicPlayerSchema(StrictSchema):
    id = _str()
    display_name = _str()


class OwnPlayerSchema(PublicPlayerSchema):
    email = _str()


class SignedInSchema(StrictSchema):
    player = fields.Nested(OwnPlayerSchema, required=True)
    token = fields.String(required=True, metadata={"description": "the personal API token, shown once"})


class TokenSchema(StrictSchema):
    token = _str()


class ClaimedSchema(StrictSchema):
    game_id = _str()
    seat = _str()
    player = fields.Nested(PublicPlayerSchema, required=True)


class MeSchema(OwnPlayerSchema):
    games = fields.List(fields.Dict(keys=fields.String()), required=True,
                        metadata={"description": "each game with a seat of the player: status, whose turn, deadline"})
    sections = fields.List(fields.Dict(keys=fields.String()), required=True,
                           metadata={"description": "other sections (tournaments, notifications)"})


class ClockActSchema(StrictSchema):
    act = _str()
    seat = fields.String(required=True, allow_none=True)
    at = _str()
    detail = fields.Raw(required=True)


class ClockSchema(StrictSchema):
    game_id = _str()
    control = fields.Dict(keys=fields.String(), required=True, allow_none=True,
                          metadata={"description": "the time control, null when the game has none"})
    tournament_id = fields.String(required=True, allow_none=True)
    deadlines = fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String()), required=True,
                            metadata={"description": "each seat's deadline"})
    acts = fields.List(fields.Nested(ClockActSchema), required=True)


SCHEMAS = {"Sent": SentSchema, "PublicPlayer": PublicPlayerSchema, "SignedIn": SignedInSchema, "Token": TokenSchema,
           "Claimed": ClaimedSchema, "Me": MeSchema, "Clock": ClockSchema}
