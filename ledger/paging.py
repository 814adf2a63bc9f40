"""Listing games a page at a time: newest first, with a cursor on (created_at, game_id).

Never OFFSET: the next page starts strictly after the last row shown, so paging to the very
first game costs the same at any depth. Each filter combination is its own static statement
(no `? IS NULL OR ...`, which defeats every index once the driver prepares a generic plan),
and each is served by an index of ledger/migrations (`games_by_*`, `games_open*`).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from ledger.store import GameSummary

STATUSES = ("waiting", "active", "ended")
OPEN = "open"  # a listing filter: waiting or active (what the lobby shows by default)
FILTER_STATUSES = (*STATUSES, OPEN)
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_CURSOR = 400  # characters; a cursor holds a timestamp and a game id

_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)?")
_DATE = re.compile(r"\d{4}-\d\d-\d\d")


class BadCursor(ValueError):
    """A cursor or `before` value that this server did not make (the API answers 400)."""


@dataclass(frozen=True)
class Position:
    """Where a page starts: strictly older than (created_at, game_id)."""

    created_at: str
    game_id: str


@dataclass(frozen=True)
class Page:
    rows: list[GameSummary]
    next: Position | None  # where the next (older) page starts; None on the last page


def encode(pos: Position) -> str:
    raw = f"{pos.created_at}\n{pos.game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(cursor: str) -> Position:
    """The position a cursor names; BadCursor if it is not one of ours."""
    if not cursor or len(cursor) > MAX_CURSOR or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor):
        raise BadCursor("not a cursor given by this server")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadCursor("not a cursor given by this server") from None
    created_at, sep, game_id = raw.partition("\n")
    if not sep or not _TIMESTAMP.fullmatch(created_at) or not game_id or "\x00" in game_id or "\n" in game_id:
        raise BadCursor("not a cursor given by this server")
    return Position(created_at, game_id)


def before(value: str) -> Position:
    """A `--before` value: a cursor, or a date / timestamp (games created before it)."""
    if _DATE.fullmatch(value) or _TIMESTAMP.fullmatch(value):
        return Position(value, "")  # ("2026-01-01", "") < every (created_at, id) of that day on
    return decode(value)


def check_filters(status: str | None, limit: int) -> None:
    if status is not None and status not in FILTER_STATUSES:
        raise ValueError(f"status must be one of {', '.join(FILTER_STATUSES)}, not {status!r}")
    if not 1 <= limit <= MAX_LIMIT + 1:
        raise ValueError(f"limit must be 1..{MAX_LIMIT}")


def statement(columns: str, game: bool, status: str | None, after: bool) -> str:
    """The one static statement for a filter combination (`?` placeholders, in the order:
    game, status, created_at, game_id, limit; absent filters take no placeholder)."""
    where = []
    if game:
        where.append("game = ?")
    if status == OPEN:
        where.append("status <> 'ended'")  # matches the partial indexes' predicate exactly
    elif status is not None:
        where.append("status = ?")
    if after:
        where.append("(created_at, game_id) < (?, ?)")
    text = f"SELECT {columns} FROM games"
    if where:
        text += " WHERE " + " AND ".join(where)
    return text + " ORDER BY created_at DESC, game_id DESC LIMIT ?"


def arguments(game: str | None, status: str | None, after: Position | None, limit: int) -> tuple[object, ...]:
    args: list[object] = []
    if game is not None:
        args.append(game)
    if status is not None and status != OPEN:
        args.append(status)
    if after is not None:
        args += [after.created_at, after.game_id]
    return (*args, limit)


def page(rows: list[GameSummary], limit: int) -> Page:
    """A page from up to `limit + 1` rows (the extra one says that there is a next page)."""
    shown = rows[:limit]
    more = len(rows) > limit and shown
    return Page(shown, Position(shown[-1].created_at, shown[-1].game_id) if more else None)
