"""The query of a games list (GET /api/v1/games): filters, a bounded page size, a cursor."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from ledger import paging
from validators.actions import StrictSchema


def _cursor(value: str) -> None:
    try:
        paging.decode(value)
    except paging.BadCursor as err:
        raise ValidationError(f"{err}: use the `next` path of the previous page") from None


def _no_nul(value: str) -> None:
    if "\x00" in value:
        raise ValidationError("must not contain a NUL character")


class GamesQuerySchema(StrictSchema):
    game = fields.String(load_default=None, validate=[validate.Length(min=1, max=64), _no_nul],
                         metadata={"description": "only games of this name (see /catalogue)"})
    status = fields.String(load_default=None, validate=validate.OneOf(paging.FILTER_STATUSES),
                           metadata={"description": "only games in this status; open = waiting or active"})
    limit = fields.Integer(load_default=paging.DEFAULT_LIMIT, validate=validate.Range(min=1, max=paging.MAX_LIMIT),
                           metadata={"description": "games per page"})
    cursor = fields.String(load_default=None, validate=[validate.Length(min=1, max=paging.MAX_CURSOR), _cursor],
                           metadata={"description": "where the page starts: taken from the previous page's `next`"})


MAX_TREE_SIZE = 10**18 - 1  # a tree size of the transparency log: up to 18 digits


def _tree_size(minimum: int, **kw: object) -> fields.Integer:
    return fields.Integer(validate=validate.Range(min=minimum, max=MAX_TREE_SIZE), **kw)  # type: ignore[arg-type]


class LogProofQuerySchema(Schema):
    """GET /api/v1/log/proof/{game_id} (warlog.trust.tlog)."""

    class Meta:
        unknown = EXCLUDE

    size = _tree_size(0, load_default=None, metadata={"description": "the tree size to prove against (default: now)"})


class LogConsistencyQuerySchema(Schema):
    """GET /api/v1/log/consistency (warlog.trust.tlog): from tree size `from` (1 or more) to `to`."""

    class Meta:
        unknown = EXCLUDE

    from_ = _tree_size(1, required=True, data_key="from", metadata={
        "description": "the older tree size (everything is consistent with the empty log)"})
    to = _tree_size(0, load_default=None, metadata={"description": "the newer tree size (default: now)"})


MAX_ENTRIES = 1000  # entries per GET /api/v1/log/entries answer


class LogEntriesQuerySchema(Schema):
    """GET /api/v1/log/entries (warlog.trust.tlog): entries `start` to `end`, both included (RFC 6962 §4.6)."""

    class Meta:
        unknown = EXCLUDE

    start = _tree_size(0, required=True, metadata={"description": "the first entry's index (0-based)"})
    end = _tree_size(0, required=True, metadata={
        "description": f"the last entry's index, included; at most {MAX_ENTRIES} entries are returned from `start`, "
                       "and none past the log's size (ask again from the next index)"})

    @validates_schema
    def _ordered(self, data: dict[str, int], **_: object) -> None:
        if data["end"] < data["start"]:
            raise ValidationError("`end` must not be below `start`", "end")
