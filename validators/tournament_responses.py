"""Schemas of the JSON answers of /api/v1/tournaments (warlog.tournaments.web), published in the
OpenAPI document like validators.responses. Scalars are typed; the records the tournament keeps
as it received them (format, points, rounds' extras, disputes, rulings) are objects."""

from __future__ import annotations

from marshmallow import fields

from validators.actions import StrictSchema


def _str(allow_none: bool = False) -> fields.String:
    return fields.String(required=True, allow_none=allow_none)


def _int(allow_none: bool = False) -> fields.Integer:
    return fields.Integer(required=True, allow_none=allow_none)


def _obj(allow_none: bool = False, **kw: object) -> fields.Dict:
    return fields.Dict(keys=fields.String(), required=True, allow_none=allow_none, **kw)  # type: ignore[arg-type]


def _objs() -> fields.List[dict[str, object]]:
    return fields.List(fields.Dict(keys=fields.String()), required=True)


class TournamentRowSchema(StrictSchema):
    id = _str()
    name = _str()
    game = _str()
    kind = _str()
    status = _str()
    director = _str()
    created_at = _str()
    last_seq = _int()


class TournamentsPageSchema(StrictSchema):
    tournaments = fields.List(fields.Nested(TournamentRowSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True, metadata={"description": "null on the last page"})


class TournamentSummarySchema(StrictSchema):
    id = _str()
    name = _str()
    game = _str()
    scenario = _str(allow_none=True)
    options = _obj()
    format = _obj()
    points = _obj()
    status = _str()
    director = _str()
    entrants = _int()
    round = _int()
    rounds = _int()  # planned
    seed_commitment = _str()
    seed = _str(allow_none=True)
    created_at = _str()
    seq = _int()
    entry = _obj(metadata={"description": "description, rules, starts_at, registration_opens, registration_closes, "
                                          "max_entrants (each when set)"})


class EntrantSchema(StrictSchema):
    player_id = _str()
    name = _str()
    withdrawn = fields.Boolean(required=True)


class SeatHolderSchema(StrictSchema):
    player_id = _str()
    name = _str()


class TournamentGameSchema(StrictSchema):
    round = _int()
    table = _int()
    pool = _int(allow_none=True)
    game_id = _str(allow_none=True)
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatHolderSchema), required=True)
    status = _str()
    to_move = fields.List(fields.String(), required=True)
    result = _obj(allow_none=True, metadata={"description": "winner, points, how, score; null until decided"})
    deadline = _obj(allow_none=True)


class TournamentSchema(TournamentSummarySchema):
    entrants_list = fields.List(fields.Nested(EntrantSchema), required=True)
    rounds_list = _objs()
    games = fields.List(fields.Nested(TournamentGameSchema), required=True)
    standings = _objs()
    tiebreaks = fields.List(fields.String(), required=True)
    crosstable = fields.Raw(required=True)
    disputes = fields.List(fields.Dict(keys=fields.String()), required=True, metadata={"description": (
        "each dispute: `dispute_seq` (its own tournament event: POST .../disputes/{dispute_seq} answers it), "
        "`game_id`, `seq` and `game_seq` (the disputed event of the game: the replay's step), `player_id`, `text`, "
        "`status` open | pending | ruled | dismissed, `answer` (the ruling_made standing, with its status) and "
        "`refused` (answers whose ruling the game refused)")})
    rulings = fields.Raw(required=True, metadata={"description": (
        "every ruling_made: `ruling_seq` (its tournament event; also `seq`), `game_id`, `game_ruling_seq` (the "
        "game's submitted ruling), `status` pending | made | refused (the game's verdict: `judgement_seq`, and for "
        "a refusal the game's `reasons`)")})
    corrections = fields.Raw(required=True, metadata={"description": (
        "every result_corrected: the new result, `corrects` (the tournament event it replaces), `reason`, "
        "`final_seq` (the game's event it was read at)")})
    extensions = fields.Raw(required=True)
    timeouts = fields.Raw(required=True)
    leave_policy = _obj(metadata={"description": "the entrants' leave allowance stated at creation (`leave`: "
                                                 "days_per_year, min_block_days, notice_days, max_away_per_game, "
                                                 "quiet_hours_per_week, round_deadlines); {} when the server's applies"})
    leave = fields.Raw(required=True, metadata={"description": (
        "every entrant's leave_declared and leave_ended (`type`): `player_id`, `leave`, `games` (`game_id`, `seat`, "
        "`round`), `seq`, `at`; a declaration's `from`, `to`, `round_deadlines` (extend or keep) and `deadlines` "
        "(`game_id`, `seat`, `due_at` once the policy applied)")})
    ended = _obj(allow_none=True, metadata={"description": "the end record (the seed revealed); null while it runs"})
    champion = _str(allow_none=True)
    bracket = fields.Raw(required=True, allow_none=True, metadata={"description": (
        "a knockout's bracket (or a pools event's playoff): `columns` (a list of matches per round: `players` with seed and `won`, `game_id`), "
        "`third_place`, `champion`; null when there is none")})
    co_directors = fields.List(fields.Dict(), required=True,
                               metadata={"description": "player_id and name of each co-director (director_added)"})
    announcements = fields.Raw(required=True, metadata={"description": (
        "every announcement_made: `text`, `by` (the director), `seq`, `at`")})
    seat_changes = fields.Raw(required=True, metadata={"description": (
        "every invitation_reissued and seat_replaced (`type`): `game_id`, `seat`, `player_id`, `reason`, `by`; "
        "a replacement's `substitute`")})


class RatingsSchema(StrictSchema):
    ratings = _objs()


class TournamentRulingSchema(StrictSchema):
    event = fields.Integer(required=True, metadata={"description": "the ruling_made event in the tournament"})
    game_ruling_seq = _int()
    status = fields.String(required=True, metadata={
        "description": "pending until the game has judged the ruling, then made or refused (with `reasons`); "
                       "the same ruling submitted again answers with the first"})
    reasons = fields.List(fields.String(), required=True)


class TournamentAwardSchema(StrictSchema):
    seq = fields.Integer(required=True, metadata={"description": "the game's submitted award ruling"})
    status = fields.String(required=True, metadata={
        "description": "pending (the game has not judged it yet), made, or duplicate"})
    duplicate = fields.Boolean(required=True, metadata={"description": "the same award was submitted before: "
                                                                       "this answers with that one"})
    ruling = _obj()


class SeatLinkSchema(StrictSchema):
    link = fields.String(required=True, metadata={"description": "the new seat link (absolute), shown once; it is "
                                                                 "mailed to the player and the old one is revoked"})


class VoidPreviewSchema(StrictSchema):
    class Meta:
        unknown = "include"  # warlog.tournaments.deskview.void_preview

    target = _int()
    ok = fields.Boolean(required=True)


class DisputeOpenedSchema(StrictSchema):
    dispute = _int()


class DisputeRecordSchema(StrictSchema):
    class Meta:
        unknown = "include"  # the dispute as recorded, with its answer once given


SCHEMAS = {"TournamentsPage": TournamentsPageSchema, "TournamentSummary": TournamentSummarySchema,
           "Tournament": TournamentSchema, "Ratings": RatingsSchema, "TournamentRuling": TournamentRulingSchema,
           "DisputeOpened": DisputeOpenedSchema,
           "TournamentAward": TournamentAwardSchema, "VoidPreview": VoidPreviewSchema, "DisputeRecord": DisputeRecordSchema,
           "SeatLink": SeatLinkSchema}
