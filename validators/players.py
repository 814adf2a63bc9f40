"""Schemas of the players API's request bodies (/api/v1/players; warlog.players.web). Extra keys
are ignored, as they always were; a missing or non-string field is a 400 naming it."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields

from validators.names import no_controls


class _Body(Schema):
    class Meta:
        unknown = EXCLUDE


class RegisterSchema(_Body):
    email = fields.String(required=True)
    display_name = fields.String(required=True, validate=no_controls)


class SigninSchema(_Body):
    email = fields.String(required=True)


class UseLinkSchema(_Body):
    display_name = fields.String(load_default=None, allow_none=True, validate=no_controls, metadata={"description": "a new account's name, if it has none"})


class ClaimSchema(_Body):
    game_id = fields.String(required=True)
    seat_token = fields.String(required=True, metadata={"description": "the seat's token: the proof of the seat"})


SCHEMAS = {"Register": RegisterSchema, "Signin": SigninSchema, "UseLink": UseLinkSchema, "Claim": ClaimSchema}
