"""Schemas of the JSON answers of /api/v1/players and of a game's clock (warlog.players,
warlog.clock), published in the OpenAPI document like validators.responses."""

from __future__ import annotations

from typing import Any

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


# time away from the board (warlog.clock.away_web)
def _objects(description: str) -> fields.List[Any]:
    return fields.List(fields.Dict(keys=fields.String()), required=True, metadata={"description": description})


class AwaySchema(StrictSchema):
    leave = fields.Dict(keys=fields.String(), metadata={"description": "the leave just declared (POST only)"})
    leaves = _objects("the player's leave: id, from, to (when it ends), last_day, days, declared_at, ended")
    grants = _objects("extra leave granted: year, days, reason, granted_by, game_id, at")
    allowance = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                            metadata={"description": "this year: year, days_per_year, granted, taken, left"})
    quiet = _objects("weekly quiet hours: day, from, to (UTC)")
    policy = fields.Dict(keys=fields.String(), required=True, metadata={"description": "the server's LeavePolicy"})


class PauseSchema(StrictSchema):
    game_id = _str()
    pause = fields.Dict(keys=fields.String(), required=True, allow_none=True,
                        metadata={"description": "the pause asked or running: asked_by, agreed, paused…; null: none"})
    done = fields.Dict(keys=fields.String(), metadata={"description": "what the POST did"})


class LeaveGrantedSchema(StrictSchema):
    seq = fields.Integer(required=True, metadata={"description": "the leave_granted event in the game"})
    allowance = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


# the pace record (warlog.clock.pace_web)
class PaceSchema(StrictSchema):
    player_id = _str()
    overall = fields.Dict(keys=fields.String(), required=True, metadata={"description": (
        "over the player's games: games, moves, median_seconds, p90_seconds (null without a move), "
        "last_hour and late (null without a time control), extensions, extension_hours, leave, leave_days")})
    games = fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String()), required=True,
                        metadata={"description": "game id -> the same figures in that game, with seat and "
                                                 "waiting_since (when the seat's running turn began, or null)"})


# messages between the seats (warlog.messages)
class MessageSchema(StrictSchema):
    id = _str()
    seq = fields.Integer(required=True, allow_none=True, metadata={"description": "its message_sent event"})
    from_ = fields.String(required=True, data_key="from", metadata={"description": "the sender's seat"})
    to = fields.List(fields.String(), required=True, metadata={"description": "seats, or \"director\""})
    text = fields.String(required=True, metadata={"description": "plain text, as written (escape it to show it)"})
    sent_at = _str()
    salt = fields.String(required=True, metadata={"description": "with id and text, what the event's digest hashes"})
    digest = fields.String(required=True, metadata={"description": "SHA-256 of canonical {message, salt, text}"})
    reported = fields.Dict(keys=fields.String(), metadata={"description": "by, at, reason: shown to the reporter "
                                                                          "and the director"})


class MessagesSchema(StrictSchema):
    game_id = _str()
    reader = fields.String(required=True, metadata={"description": "the bearer's seat, or director"})
    muted = fields.Boolean(required=True)
    messages = fields.List(fields.Nested(MessageSchema), required=True)


class OneMessageSchema(StrictSchema):
    message = fields.Nested(MessageSchema, required=True)


class MutedSchema(StrictSchema):
    game_id = _str()
    seat = _str()
    muted = fields.Boolean(required=True)


SCHEMAS = {"Messages": MessagesSchema, "OneMessage": OneMessageSchema, "Muted": MutedSchema,
           "Pace": PaceSchema, "Sent": SentSchema, "PublicPlayer": PublicPlayerSchema, "SignedIn": SignedInSchema, "Token": TokenSchema,
           "Claimed": ClaimedSchema, "Me": MeSchema, "Clock": ClockSchema,
           "Away": AwaySchema, "PauseState": PauseSchema, "LeaveGranted": LeaveGrantedSchema}
