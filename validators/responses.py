"""Schemas of the JSON answers of /api/v1 (games, moves, the transparency log) and of its error
body. The OpenAPI document is built from these (warlog.api.openapi), and the tests check the live
answers against it (schemathesis' response conformance): an answer that grows a field its
schema does not list fails there, so the document cannot drift from what the server sends.

Strict (additionalProperties: false) so a generated client has typed attributes only."""

from __future__ import annotations

from marshmallow import fields, validate

from validators.actions import ActionField, StrictSchema

STATUSES = ("waiting", "active", "ended")


def _str(**kw: object) -> fields.String:
    return fields.String(required=True, **kw)  # type: ignore[arg-type]


def _int(**kw: object) -> fields.Integer:
    return fields.Integer(required=True, **kw)  # type: ignore[arg-type]


def _strs(**kw: object) -> fields.List[str]:
    return fields.List(fields.String(), required=True, **kw)  # type: ignore[arg-type]


def _status() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(STATUSES))


class PositionErrorSchema(StrictSchema):
    """One thing wrong with a sandbox's position or forced dice (docs/sandbox.md)."""

    path = _str(metadata={"description": "a JSON Pointer into the state (or /dice/<n>); empty: the whole"})
    message = _str()
    rule = fields.String(required=True, allow_none=True, metadata={"description": "the rule section, if one decides"})


class ErrorSchema(StrictSchema):
    """Every 4xx/5xx of the API: a message; field messages when a body or query does not fit."""

    error = _str(metadata={"description": "what is wrong, in words"})
    field_messages = fields.Dict(keys=fields.String(), data_key="fields", metadata={
        "description": "the offending fields and their messages (marshmallow's, nested like the request)"})
    current_seq = fields.Integer(metadata={"description": "the game's last event (409s)"})
    status = fields.String(validate=validate.OneOf(STATUSES), metadata={"description": "the game's status (409s)"})
    active_seats = fields.List(fields.String(), metadata={"description": "the seats the game waits for (409s)"})
    errors = fields.List(fields.Nested(PositionErrorSchema), metadata={
        "description": "a sandbox's position or dice (422s): each error's path and rule"})


class ConflictSchema(ErrorSchema):
    """A 409 on a game: a stale expected_seq, not this seat's turn, or a game not active."""

    current_seq = _int(metadata={"description": "the game's last event: fetch /actions and try again"})


class ScenarioSchema(StrictSchema):
    id = _str()
    title = _str()
    roles = _strs()
    description = _str()


class OptionSchema(StrictSchema):
    name = _str()
    default = fields.Raw(required=True, metadata={"description": "a boolean or one of choices"})
    choices = fields.List(fields.Raw(), required=True)
    description = _str()


class CatalogueGameSchema(StrictSchema):
    game = _str()
    title = _str()
    rules_version = _str()
    solitaire = fields.Boolean(required=True)
    scenarios = fields.List(fields.Nested(ScenarioSchema), required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)


class CatalogueSchema(StrictSchema):
    games = fields.List(fields.Nested(CatalogueGameSchema), required=True)


class GameRowSchema(StrictSchema):
    id = _str()
    game = _str()
    scenario = _str()
    status = _status()
    seq = _int()
    active_seats = _strs()
    created_at = _str()
    sandbox = fields.Boolean(required=True)


class GamesPageSchema(StrictSchema):
    games = fields.List(fields.Nested(GameRowSchema), required=True)
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "the path of the next page, null on the last"})


class SeatTokenSchema(StrictSchema):
    """One seat of a created game, typed: its token (its player's invitation) and where to use it."""

    seat = _str(metadata={"description": "the role"})
    token = _str(metadata={"description": "the seat's bearer token; give it to that player alone"})
    display_name = _str(metadata={"description": "the seat's name as the pages show it (US, VC, Germany)"})
    url = _str(metadata={"description": "the invitation link: opening it takes the seat in a browser"})


class CreatedSchema(StrictSchema):
    id = _str()
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "each seat (role) and its token; give each player theirs "
                                                 "(the same as seat_tokens, as a map)"})
    seat_tokens = fields.List(fields.Nested(SeatTokenSchema), required=True, metadata={
        "description": "each seat, its token, display name and invitation link, in the game's seat order"})
    director_token = fields.String(metadata={
        "description": "the umpire's (director's) token; absent when the creator plays a seat (creator_seat)"})
    creator_seat = fields.String(metadata={"description": "the seat the creator plays (creator: a seat); no "
                                                          "director token was made"})
    seed_commitment = _str()
    sandbox = fields.Boolean(required=True)
    on_dice_exhausted = fields.String(validate=validate.OneOf(("stop", "derive")), metadata={
        "description": "a sandbox: when the forced dice run out, stop and ask the director for more, or derive"})
    forced_dice = fields.Integer(metadata={"description": "a sandbox: how many dice were forced"})


class ForkedFromSchema(StrictSchema):
    game = _str()
    step = _int()


class ForkedSchema(CreatedSchema):
    """A sandbox forked from a game's step: as the create answer, with where it came from."""

    forked_from = fields.Nested(ForkedFromSchema, required=True)


class ForkCheckSchema(StrictSchema):
    """A fork's dry run: the edited position and what is wrong with it, nothing created."""

    ok = fields.Boolean(required=True)
    errors = fields.List(fields.Nested(PositionErrorSchema), required=True)
    state = fields.Raw(required=True, metadata={"description": "the edited state (the game's state document)"})
    phase = fields.String(required=True, allow_none=True)
    step = _int()
    game = _str()
    scenario = _str()


class StateSchemaDocumentSchema(StrictSchema):
    """A game's state JSON Schema (Draft 2020-12) as published, with every scenario's start state."""

    class Meta:
        unknown = "include"

    examples = fields.List(fields.Dict(keys=fields.String()), required=True)


class WaitingForDiceSchema(StrictSchema):
    """A sandbox that stops for dice, waiting: the move it waits for (warlog.rulings.sandbox_dice)."""

    submission_seq = _int(metadata={"description": "the waiting move's submission"})
    rejected_seq = _int(metadata={"description": "its refusal for want of dice"})
    seat = _str()
    needed = _int(metadata={"description": "the number of the forced die the move asked for (1-based)"})
    action = ActionField(metadata={"description": "the waiting action, to the director and its own seat"})


def _waiting() -> fields.Nested:
    return fields.Nested(WaitingForDiceSchema, metadata={
        "description": "a sandbox that stops for dice: the move that waits for the director's POST .../dice; "
                       "absent when none waits"})


class OutcomeSchema(StrictSchema):
    winner = fields.String(required=True, allow_none=True, metadata={"description": "a seat; null for a draw"})
    result = _str()
    reason = _str()
    rule = fields.String(required=True, allow_none=True)


class GameInfoSchema(StrictSchema):
    id = _str()
    game = _str()
    title = _str()
    scenario = _str()
    options = fields.Dict(keys=fields.String(), required=True)
    rules_version = _str()
    roles = _strs()
    joined = _strs()
    status = _status()
    active_seats = _strs()
    seq = _int()
    pending = fields.Boolean(required=True, metadata={"description": "a submission awaits its judgement"})
    created_at = _str()
    seed_commitment = _str()
    sandbox = fields.Boolean(required=True)
    outcome = fields.Nested(OutcomeSchema, metadata={"description": "once the game has ended"})
    waiting_for_dice = _waiting()


class JoinedSchema(StrictSchema):
    seat = _str()
    joined = fields.Boolean(required=True)
    already = fields.Boolean(required=True)
    status = _status()


class FactSchema(StrictSchema):
    text = _str()
    rule = fields.String(required=True, allow_none=True)
    kind = _str()
    data = fields.Dict(keys=fields.String())
    visible_to = fields.List(fields.String())


class DieSchema(StrictSchema):
    index = _int()
    faces = _int()
    value = fields.Integer(required=True, allow_none=True, metadata={"description": "null: a secret die"})
    purpose = _str()
    secret = fields.Boolean()


class ReasonSchema(StrictSchema):
    message = _str()
    rule = fields.String(required=True, allow_none=True)
    internal = fields.Boolean(metadata={"description": "the rules engine failed: a director should look"})
    waiting_for_dice = fields.Integer(metadata={
        "description": "a sandbox's forced dice ran out: the number of the die this move waits for"})


class MoveResultSchema(StrictSchema):
    seq = _int()
    seat = _str()
    submitted = fields.Dict(keys=fields.String(), required=True,
                            metadata={"description": "the submission's payload as the caller may see it"})
    sandbox = fields.Boolean(required=True)
    status = fields.String(required=True, validate=validate.OneOf(("pending", "resolved", "rejected",
                                                                  "waiting_for_dice", "withdrawn")), metadata={
        "description": "waiting_for_dice: refused for want of forced dice, until the director adds some; "
                       "withdrawn: taken back by its seat before it was judged"})
    retried_as = fields.Integer(metadata={"description": "refused for want of dice: its submission again, "
                                                          "once the director added them"})
    event_seq = fields.Integer(metadata={"description": "the judgement's event"})
    reasons = fields.List(fields.Nested(ReasonSchema), metadata={"description": "rejected: why"})
    rules = fields.List(fields.String(), metadata={"description": "the rule sections that decided"})
    facts = fields.List(fields.Nested(FactSchema), metadata={"description": "resolved: what happened"})
    dice = fields.List(fields.Nested(DieSchema))
    active_seats = fields.List(fields.String())
    state_hash = fields.String()


class EventSchema(StrictSchema):
    game_id = _str()
    seq = _int()
    type = _str()
    seat = fields.String(required=True, allow_none=True)
    payload = fields.Dict(keys=fields.String(), required=True)
    recorded_at = _str()
    prev_hash = _str()
    hash = _str()
    redacted = fields.Boolean()


class EventsSchema(StrictSchema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    last_seq = _int()
    viewer = _str(metadata={"description": "a seat, director or spectator"})
    sandbox = fields.Boolean(required=True)
    redacted = fields.Boolean(required=True)


class StateSchema(StrictSchema):
    at = _int()
    state = fields.Dict(keys=fields.String(), required=True, allow_none=True,
                        metadata={"description": "the game's state document as the caller may see it"})
    phase = _str()
    active_seats = fields.List(fields.String())
    viewer = fields.String()
    sandbox = fields.Boolean(required=True)
    waiting_for_dice = _waiting()


class ConfirmSchema(StrictSchema):
    index = _int(metadata={"description": "the action's place in `actions`"})
    action = ActionField(required=True)
    confirm = _str(metadata={"description": "why to ask before sending it, e.g. \"ends the game: ...\""})


class TakenBackSchema(StrictSchema):
    seq = _int(metadata={"description": "the move taken back"})
    event_seq = _int(metadata={"description": "the event that records it (a `rejected` with `withdrawn: true`)"})
    status = fields.String(required=True, validate=validate.OneOf(("withdrawn",)))


class ActionsSchema(StrictSchema):
    seat = _str(metadata={"description": "the caller: a seat, director or spectator"})
    expected_seq = _int(metadata={"description": "send it with the move"})
    status = _status()
    sandbox = fields.Boolean(required=True)
    prompt = _str()
    actions = fields.List(ActionField(), required=True, metadata={"description": "every legal action now"})
    confirm = fields.List(fields.Nested(ConfirmSchema), metadata={
        "description": "the listed actions a client should confirm before sending: they end the game, or "
                       "pass a whole phase while units could still act"})
    pending = fields.Boolean()
    active_seats = fields.List(fields.String(), metadata={"description": "the seats the game waits for (none "
                                                                         "unless it is active)"})
    waiting_for_dice = _waiting()


class AcceptedSchema(StrictSchema):
    seq = _int(metadata={"description": "the submitted event: GET .../moves/{seq} for its judgement"})
    status = fields.String(required=True, validate=validate.OneOf(("pending", "duplicate")))
    duplicate = fields.Boolean(required=True, metadata={"description": "the idempotency key was used before"})
    judgement = fields.Nested(MoveResultSchema, metadata={
        "description": "asked with ?wait or ?listing: the move as GET .../moves/{seq} answers it, once judged or "
                       "when the wait ends (then `pending`)"})
    listing = fields.Nested(ActionsSchema, metadata={
        "description": "asked with ?listing=true: the seat's GET .../actions read after `judgement` (while that "
                       "is pending, the listing before it, with `pending` true)"})


class DiceAddedSchema(StrictSchema):
    seq = _int(metadata={"description": "the dice_added event"})
    added = _int()
    forced_dice = _int(metadata={"description": "how many dice are forced now, in all"})
    retry_seq = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the waiting move, submitted again for its seat (GET .../moves/{seq}); null if none waited"})


class TreeHeadSchema(StrictSchema):
    tree_size = _int(validate=validate.Range(min=0))
    root_hash = _str()
    timestamp = _str()
    public_key = _str()
    signature = _str()
    checkpoint = fields.String(metadata={"description": "the same head as a C2SP signed-note checkpoint"})


class LogKeySchema(StrictSchema):
    origin = _str(metadata={"description": "the log's checkpoint origin (the key name its checkpoints are signed by)"})
    public_key = _str(metadata={"description": "raw Ed25519 public key, hex"})
    verifier_key = _str(metadata={"description": "the signed-note verifier key <origin>+<key ID>+<base64>"})
    max_merge_delay_seconds = _int(metadata={"description": "a new game is logged within this delay"})
    rotations = fields.List(fields.Dict(), required=True,
                            metadata={"description": "key rotation statements, each signed by the key before"})


class LogEntrySchema(StrictSchema):
    index = _int()
    entry = fields.Dict(keys=fields.String(), required=True, metadata={"description": "the log entry"})
    logged_at = _str(metadata={"description": "when it was logged (UTC)"})


class LogEntriesSchema(StrictSchema):
    tree_size = _int(metadata={"description": "how many entries the log holds now"})
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)


class InclusionSchema(StrictSchema):
    index = _int()
    entry = fields.Dict(keys=fields.String(), required=True, metadata={"description": "the log entry"})
    audit_path = _strs(metadata={"description": "hex hashes, leaf to root"})


class InclusionProofSchema(StrictSchema):
    tree_head = fields.Nested(TreeHeadSchema, required=True)
    entries = fields.List(fields.Nested(InclusionSchema), required=True)


class ConsistencyProofSchema(StrictSchema):
    first = fields.Nested(TreeHeadSchema, required=True)
    second = fields.Nested(TreeHeadSchema, required=True)
    proof = _strs(metadata={"description": "hex hashes"})


class UmpireInvitedSchema(StrictSchema):
    seq = _int(metadata={"description": "the umpire_invited event every seat sees"})
    umpire_token = _str(metadata={"description": "the umpire's bearer token, shown once: give it to a neutral "
                                                 "person; each look they take is recorded in the game"})
    url = _str(metadata={"description": "the umpire's invitation link"})


SCHEMAS = {
    "UmpireInvited": UmpireInvitedSchema,
    "Error": ErrorSchema, "Conflict": ConflictSchema, "Catalogue": CatalogueSchema, "GamesPage": GamesPageSchema,
    "Created": CreatedSchema, "GameInfo": GameInfoSchema, "Joined": JoinedSchema,
    "MoveResult": MoveResultSchema, "Events": EventsSchema, "State": StateSchema, "Actions": ActionsSchema, "TakenBack": TakenBackSchema,
    "Accepted": AcceptedSchema,  # after the two it nests: apispec registers each once, by these names
    "DiceAdded": DiceAddedSchema, "Forked": ForkedSchema, "ForkCheck": ForkCheckSchema,
    "StateSchemaDocument": StateSchemaDocumentSchema,
    "TreeHead": TreeHeadSchema, "InclusionProof": InclusionProofSchema, "ConsistencyProof": ConsistencyProofSchema,
    "LogKey": LogKeySchema, "LogEntries": LogEntriesSchema,
}
