"""Schemas of every HTTP request body (unknown keys refused, clear messages)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ledger.canonical import NotCanonical, canonical_bytes
from validators.actions import ActionField, StrictSchema


def canonical_json(value: object) -> None:
    """What the ledger stores as given must be canonical JSON: integers, never floats."""
    try:
        canonical_bytes(value)
    except NotCanonical as err:
        raise ValidationError(f"{err} (use integers)") from None

RULING_KINDS = ("void", "adjust", "award", "reveal_seed")
PROBE_REFUSED = ("a ruling's patch may not hold \"test\" operations: whether a hidden value is what a test "
                 "names would be told by the ruling's outcome (docs/ledger.md, \"Who can see what\")")


def probe_ops(patch: object) -> list[int]:
    """The indexes of a JSON Patch's `test` operations: a ruling that holds one is refused,
    since its outcome (made or refused) would tell whether a hidden path holds a value."""
    if not isinstance(patch, list):
        return []
    return [i for i, op in enumerate(patch) if isinstance(op, dict) and op.get("op") == "test"]


class SandboxSchema(StrictSchema):
    state = fields.Dict(load_default=None, allow_none=True)
    dice = fields.List(fields.Integer(validate=validate.Range(min=1, max=1000)), load_default=list,
                       validate=validate.Length(max=10_000))
    on_dice_exhausted = fields.String(load_default="derive", validate=validate.OneOf(("stop", "derive")))


class CreateGameSchema(StrictSchema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    scenario = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    sandbox = fields.Nested(SandboxSchema, load_default=None, allow_none=True)
    creator = fields.String(load_default="umpire", validate=validate.Length(min=1, max=64), metadata={
        "description": "\"umpire\" (the default: the creator holds the director token, sees everything, every "
                       "look recorded in the game) or the seat the creator plays (no director token is made; a "
                       "seat may later have an umpire invitation made: POST /games/{id}/umpire)"})


class ForkSchema(StrictSchema):
    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    patch = fields.List(fields.Dict(), load_default=list, validate=[validate.Length(max=1000), canonical_json])
    dice = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=1000)), load_default=list,
                       validate=validate.Length(max=10_000))
    on_dice_exhausted = fields.String(load_default="derive", validate=validate.OneOf(("stop", "derive")))
    dry_run = fields.Boolean(load_default=False)


class AddDiceSchema(StrictSchema):
    dice = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=1000)), required=True,
                       validate=validate.Length(min=1, max=10_000),
                       metadata={"description": "forced dice, in the order the rules will roll them"})


class UmpireSchema(StrictSchema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=4000),
                         metadata={"description": "why an umpire is needed (every seat reads it)"})


class JoinSchema(StrictSchema):
    entropy = fields.String(load_default="", validate=validate.Length(max=256))


class MoveSchema(StrictSchema):
    action = ActionField(required=True, metadata={"description": "one of GET .../actions"})
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    idempotency_key = fields.String(required=True, validate=validate.Length(min=1, max=128))


class RulingSchema(StrictSchema):
    kind = fields.String(required=True, validate=validate.OneOf(RULING_KINDS))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=4000))
    target = fields.Integer(strict=True, validate=validate.Range(min=0))
    re_resolve = fields.Boolean(load_default=False)
    patch = fields.List(fields.Dict(), validate=canonical_json)
    winner = fields.String(allow_none=True)
    result = fields.String(validate=validate.Length(min=1, max=200))
    idempotency_key = fields.String(validate=validate.Length(min=1, max=128))

    @validates_schema
    def _fields_for_kind(self, data: dict[str, Any], **_: object) -> None:
        kind = data.get("kind")
        if kind == "void" and "target" not in data:
            raise ValidationError("a void ruling names the resolution it voids", "target")
        if kind == "adjust" and not data.get("patch"):
            raise ValidationError("an adjust ruling carries a JSON Patch (RFC 6902) list", "patch")
        probes = probe_ops(data.get("patch") or [])
        if probes:
            raise ValidationError(PROBE_REFUSED + f" (operation(s) #{', #'.join(map(str, probes))})", "patch")
        if kind == "award" and "result" not in data:
            raise ValidationError("an award names the result", "result")


class EventsQuerySchema(StrictSchema):
    after = fields.Integer(load_default=-1, validate=validate.Range(min=-1))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=10_000))


MOVE_WAIT_MAX = 8.0  # seconds a move's POST may wait for its judgement (the play page's long-poll waits as long)


class MoveQuerySchema(StrictSchema):
    """What the POST of a move answers besides its `seq` (docs/api.md, "The next listing")."""

    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MOVE_WAIT_MAX), metadata={
        "description": "seconds (at most 8) to wait for the move's judgement before answering; the answer "
                       "then carries `judgement`. Without a free waiting slot the server answers at once"})
    listing = fields.Boolean(load_default=False, metadata={
        "description": "true: the answer carries `listing`, the seat's GET .../actions after the judgement "
                       "(before it, if still pending), and `judgement`"})


class StateQuerySchema(StrictSchema):
    at = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0))
