"""Schemas of the players API's request bodies (/api/v1/players; warlog.players.web). Extra keys
are ignored, as they always were; a missing or non-string field is a 400 naming it."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from validators.names import NAME_PATTERN, no_controls

NAME_MAX = 60  # warlog.players.store.NAME_MAX
# An e-mail address in the shape clean_email takes (a part of what marshmallow's Email accepts),
# so the OpenAPI document can say it as a pattern: a client or a fuzzer that fits it is accepted.
EMAIL_PATTERN = (r"^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                 r"[A-Za-z]{2,63}$")


def _display_name(**kw: object) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=NAME_MAX), no_controls,
                                   validate.Regexp(NAME_PATTERN, error="a display name is needed")], **kw)  # type: ignore[arg-type]


class _Body(Schema):
    class Meta:
        unknown = EXCLUDE


def _email() -> fields.String:
    """An e-mail address as warlog.players.store.clean_email takes it, in the document's pattern."""
    return fields.String(required=True, validate=[
        validate.Length(max=254), validate.Regexp(EMAIL_PATTERN, error="not an e-mail address"), validate.Email()])


class RegisterSchema(_Body):
    email = _email()
    display_name = _display_name(required=True)


class SigninSchema(_Body):
    email = _email()


class UseLinkSchema(_Body):
    display_name = _display_name(load_default=None, allow_none=True,
                                 metadata={"description": "a new account's name, if it has none"})


class ClaimSchema(_Body):
    game_id = fields.String(required=True)
    seat_token = fields.String(required=True, metadata={"description": "the seat's token: the proof of the seat"})


SCHEMAS = {"Register": RegisterSchema, "Signin": SigninSchema, "UseLink": UseLinkSchema, "Claim": ClaimSchema}


class LeaveSchema(_Body):
    from_ = fields.Date(required=True, data_key="from", metadata={"description": "first day away (UTC), YYYY-MM-DD"})
    to = fields.Date(required=True, metadata={"description": "last day away (UTC), YYYY-MM-DD"})


class QuietWindowSchema(_Body):
    day = fields.String(required=True, validate=validate.OneOf(("mon", "tue", "wed", "thu", "fri", "sat", "sun")))
    from_ = fields.String(load_default="00:00", data_key="from", metadata={"description": "HH:MM (UTC)"})
    to = fields.String(load_default="24:00", metadata={"description": "HH:MM (UTC), up to 24:00"})


class QuietSchema(_Body):
    windows = fields.List(fields.Nested(QuietWindowSchema), required=True,
                          metadata={"description": "weekly quiet hours; [] clears them"})


class PauseSchema(_Body):
    do = fields.String(required=True, validate=validate.OneOf(("ask", "agree", "resume")),
                       metadata={"description": "ask for a pause, agree to the one asked, or resume (or decline)"})


class GrantLeaveSchema(_Body):
    seat = fields.String(required=True)
    days = fields.Integer(required=True, strict=True, validate=validate.Range(1, 366))
    reason = fields.String(required=True, validate=validate.Length(1, 500))


SCHEMAS.update({"Leave": LeaveSchema, "Quiet": QuietSchema, "Pause": PauseSchema, "GrantLeave": GrantLeaveSchema})


# -- messages between the seats (warlog.messages: its length, rate and recipients are checked there)

class SendMessageSchema(_Body):
    to = fields.Raw(load_default="opponents", metadata={
        "description": '"opponents" (the default: every other seat), "director", or a list of seats and/or '
                       '"director"'})
    text = fields.String(required=True, metadata={"description": "plain text, at most 1000 characters"})


class ReportMessageSchema(_Body):
    reason = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500))


class MuteMessagesSchema(_Body):
    muted = fields.Boolean(required=True, truthy={True}, falsy={False},
                           metadata={"description": "true: nothing is mailed to this seat, the board folds them"})


SCHEMAS.update({"SendMessage": SendMessageSchema, "ReportMessage": ReportMessageSchema,
                "MuteMessages": MuteMessagesSchema})
