"""Schemas of the tournament API's request bodies (/api/v1/tournaments; unknown keys refused)."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from validators.actions import StrictSchema
from validators.names import no_controls

ID = validate.Length(min=1, max=100)
TEXT = validate.Length(min=1, max=4000)


class FormatSchema(StrictSchema):
    kind = fields.String(required=True, validate=validate.OneOf(("swiss", "pools", "duplicate", "knockout")))
    rounds = fields.Integer(strict=True, validate=validate.Range(min=1, max=30))
    engine = fields.String(validate=validate.OneOf(("auto", "dutch", "casual")))
    pools = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    playoff = fields.Integer(strict=True, validate=validate.Range(min=0, max=8))  # qualifiers per pool
    # Swiss: a forfeited game counts as unplayed (FIDE: no side, a rematch allowed) or as played
    forfeits = fields.String(validate=validate.OneOf(("unplayed", "played")))
    # a withdrawn player's running game: forfeited at once, or left to the director to adjudicate
    withdrawal = fields.String(validate=validate.OneOf(("forfeit", "adjudicate")))
    # pair the next round as soon as the previous one is complete
    auto_pair = fields.Boolean()
    # round 1's order: a dice shuffle, or the players' OpenSkill ratings (best first)
    seeding = fields.String(validate=validate.OneOf(("random", "rating")))
    # knockout: the losing semi-finalists play for third place in the final round
    third_place = fields.Boolean()
    # Swiss: Baku acceleration (FIDE C.04.5.1), virtual points for the top half in the first rounds
    accelerated = fields.Boolean()


class EntrySchema(StrictSchema):
    """The public page's words and the entry's terms (times in UTC, ISO 8601)."""

    description = fields.String(validate=validate.Length(max=8000))
    rules = fields.String(validate=validate.Length(max=8000))
    starts_at = fields.String(validate=validate.Length(max=40))
    registration_opens = fields.String(validate=validate.Length(max=40))
    registration_closes = fields.String(validate=validate.Length(max=40))
    max_entrants = fields.Integer(strict=True, validate=validate.Range(min=2, max=4096))


class PointsSchema(StrictSchema):
    win = fields.Integer(strict=True, validate=validate.Range(min=0, max=100))
    draw = fields.Integer(strict=True, validate=validate.Range(min=0, max=100))
    loss = fields.Integer(strict=True, validate=validate.Range(min=0, max=100))
    bye = fields.Integer(strict=True, validate=validate.Range(min=0, max=100))


class TimeControlSchema(StrictSchema):
    """warlog.clock's time control: `per_move` (days and hours a move: a 36-hour move is days 1,
    hours 12) or `bank` (a chess clock in days)."""

    mode = fields.String(validate=validate.OneOf(("per_move", "bank")))
    days = fields.Integer(strict=True, validate=validate.Range(min=0, max=365))
    hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 30))
    bank_days = fields.Integer(strict=True, validate=validate.Range(min=0, max=365))
    increment_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 30))
    extension_days = fields.Integer(strict=True, validate=validate.Range(min=0, max=60))
    remind_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 30))
    policy = fields.String(validate=validate.OneOf(("notify_director", "extend", "forfeit")))
    then = fields.String(validate=validate.OneOf(("notify_director", "forfeit")))

    @validates_schema(skip_on_field_errors=False)
    def _some_time(self, data: dict[str, Any], **_kw: Any) -> None:
        """A move has at least an hour (days 0 needs hours)."""
        days, hours = data.get("days"), data.get("hours") or 0
        if data.get("mode", "per_move") == "per_move" and days == 0 and not hours:
            raise ValidationError("a move's time is at least 1 hour: days 1 or more, or hours", "days")


class LeavePolicySchema(StrictSchema):
    """The tournament's leave allowance (warlog.clock.leave.LeavePolicy; an absent field: the default)."""

    days_per_year = fields.Integer(strict=True, validate=validate.Range(min=0, max=366))
    min_block_days = fields.Integer(strict=True, validate=validate.Range(min=0, max=366))
    notice_days = fields.Integer(strict=True, validate=validate.Range(min=0, max=366))
    max_away_per_game = fields.Integer(strict=True, validate=validate.Range(min=0, max=366))
    quiet_hours_per_week = fields.Integer(strict=True, validate=validate.Range(min=0, max=72))
    round_deadlines = fields.String(validate=validate.OneOf(("extend", "keep")), metadata={
        "description": "extend: an entrant's leave moves their deadlines in its games; keep: they stay"})


class CreateTournamentSchema(StrictSchema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=120), no_controls])
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    scenario = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.Nested(FormatSchema, required=True)
    points = fields.Nested(PointsSchema, load_default=None, allow_none=True)
    time_control = fields.Nested(TimeControlSchema, load_default=None, allow_none=True)
    entry = fields.Nested(EntrySchema, load_default=None, allow_none=True)
    leave = fields.Nested(LeavePolicySchema, load_default=None, allow_none=True)


class AddDirectorSchema(StrictSchema):
    player_id = fields.String(required=True, validate=ID, metadata={"description": "the co-director's player id"})


class WithdrawSchema(StrictSchema):
    player_id = fields.String(load_default=None, allow_none=True, validate=ID)
    reason = fields.String(load_default="", validate=validate.Length(max=4000))


class SeatsSchema(StrictSchema):
    seats = fields.Dict(keys=fields.String(), values=fields.String(validate=ID), required=True)


class RepairSchema(StrictSchema):
    pairings = fields.List(fields.Nested(SeatsSchema), required=True, validate=validate.Length(max=2048))
    byes = fields.List(fields.String(validate=ID), load_default=list)
    reason = fields.String(required=True, validate=TEXT)


class AdjudicateSchema(StrictSchema):
    """An adjudication (or a correction of a recorded result): `win` names the `winner`; `forfeit`
    names the player who forfeits (`forfeiting`; the other player wins). The older form of a
    forfeit, `winner` alone, still names the player who did not forfeit."""

    decision = fields.String(required=True, validate=validate.OneOf(("win", "draw", "forfeit", "end")))
    winner = fields.String(load_default=None, allow_none=True, validate=ID,
                           metadata={"description": "win: the player who wins (a player id)"})
    forfeiting = fields.String(load_default=None, allow_none=True, validate=ID,
                               metadata={"description": "forfeit: the player who forfeits; the other player wins"})
    reason = fields.String(required=True, validate=TEXT)


class ExtendSchema(StrictSchema):
    """An extension of `days` and `hours` (at least one hour in all, at most 60 days)."""

    player_id = fields.String(required=True, validate=ID)
    days = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=60))
    hours = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=24 * 60))
    reason = fields.String(required=True, validate=TEXT)


class AnnounceSchema(StrictSchema):
    text = fields.String(required=True, validate=TEXT, metadata={"description": "the announcement, to every entrant"})


class ReissueSchema(StrictSchema):
    game_id = fields.String(required=True, validate=ID)
    player_id = fields.String(required=True, validate=ID)
    reason = fields.String(required=True, validate=TEXT)


class ReplaceSchema(StrictSchema):
    game_id = fields.String(required=True, validate=ID)
    player_id = fields.String(required=True, validate=ID, metadata={"description": "the player who leaves the seat"})
    substitute = fields.String(required=True, validate=ID, metadata={"description": "the player who takes it"})
    reason = fields.String(required=True, validate=TEXT)


class DisputeSchema(StrictSchema):
    game_id = fields.String(required=True, validate=ID)
    seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                         metadata={"description": "the disputed event of the game (the replay's step)"})
    text = fields.String(required=True, validate=TEXT)


class DisputeRulingSchema(StrictSchema):
    kind = fields.String(required=True, validate=validate.OneOf(("void", "adjust", "award")))
    target = fields.Integer(strict=True, validate=validate.Range(min=0))
    re_resolve = fields.Boolean(load_default=False)
    patch = fields.List(fields.Dict())
    winner = fields.String(allow_none=True)
    result = fields.String(validate=validate.Length(min=1, max=200))


class GameRulingSchema(StrictSchema):
    ruling = fields.Nested(DisputeRulingSchema, required=True)
    text = fields.String(required=True, validate=TEXT)


class AnswerSchema(StrictSchema):
    decision = fields.String(required=True, validate=validate.OneOf(("dismiss", "rule")))
    text = fields.String(required=True, validate=TEXT)
    ruling = fields.Nested(DisputeRulingSchema, load_default=None, allow_none=True)


class ListQuerySchema(Schema):
    """GET /api/v1/tournaments: `cursor` is the previous page's `next_cursor`."""

    class Meta:
        unknown = EXCLUDE

    # "<created_at>~<id>"; an empty value is no cursor (the query's empty values are dropped)
    cursor = fields.String(load_default=None, validate=[validate.Length(max=300), validate.Regexp(
                               r"^([^~\x00]+~[^\x00]+)?$", error="not a cursor: use the previous page's next_cursor")],
                           metadata={"description": "where the page starts: the previous page's next_cursor "
                                                    "(empty: the first page)"})


class TournamentQuerySchema(Schema):
    """GET /api/v1/tournaments/{tid}: `round` lists only that round's games."""

    class Meta:
        unknown = EXCLUDE

    round = fields.Integer(load_default=None, validate=validate.Range(min=0, max=10_000),
                           metadata={"description": "list only this round's games"})


class VoidPreviewQuerySchema(Schema):
    """GET .../void-preview: what voiding `target` (the replay's #N) would undo now."""

    class Meta:
        unknown = EXCLUDE

    target = fields.Integer(required=True, validate=validate.Range(min=0),
                            metadata={"description": "the resolution to void (the replay list's #N)"})
    re_resolve = fields.Boolean(load_default=False, metadata={"description": "judge the voided move again"})


SCHEMAS = {"CreateTournament": CreateTournamentSchema, "AddDirector": AddDirectorSchema, "Withdraw": WithdrawSchema, "Repair": RepairSchema,
           "Adjudicate": AdjudicateSchema, "Extend": ExtendSchema, "Dispute": DisputeSchema, "Answer": AnswerSchema,
           "GameRuling": GameRulingSchema, "Announce": AnnounceSchema, "Reissue": ReissueSchema,
           "Replace": ReplaceSchema}
