"""What the SQLite and PostgreSQL stores share: the columns, the row conversions and every
read (the SQL is the same on both but for the placeholder, `?` here, `%s` for psycopg).

Writes stay in each backend: their transactions, locking and race handling differ."""

from __future__ import annotations

import contextlib
import json
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any

from ledger import paging
from ledger.canonical import canonical_bytes
from ledger.events import Event
from ledger.store import EventStore, GameSummary

EVENT_COLUMNS = "game_id, seq, type, seat, payload, recorded_at, prev_hash, hash"
GAME_COLUMNS = ("game_id, game, scenario, status, created_at, last_seq, active_seats, "
                "last_submitted_seq, last_handled_seq, sandbox")
# A game's row with the oldest submission of the `pending` set (one primary-key probe).
SUMMARY_COLUMNS = GAME_COLUMNS + ", (SELECT MIN(p.seq) FROM pending p WHERE p.game_id = games.game_id)"

# SUMMARY_COLUMNS and EVENT_COLUMNS of `games` joined to `events e` (SqlEventStore.summary_and_read).
_JOINED_SUMMARY = (", ".join(f"games.{c}" for c in GAME_COLUMNS.split(", "))
                   + ", (SELECT MIN(p.seq) FROM pending p WHERE p.game_id = games.game_id)")
_SUMMARY_WIDTH = len(GAME_COLUMNS.split(", ")) + 1
_JOINED_EVENT = ", ".join(f"e.{c}" for c in EVENT_COLUMNS.split(", "))

# Running games whose newest submission has no judgement and no row in `pending` (the sweep's
# second list, ledger.store.EventStore.sweep_games), tagged 1.
UNLISTED = ("SELECT game_id, 1 FROM games WHERE status <> 'ended' AND last_submitted_seq > last_handled_seq "
            "AND NOT EXISTS (SELECT 1 FROM pending p WHERE p.game_id = games.game_id)")


def row_event(row: Sequence[Any]) -> Event:
    game_id, seq, type_, seat, payload, recorded_at, prev_hash, hash_ = row
    return Event(game_id, seq, type_, seat, json.loads(payload), recorded_at, prev_hash, hash_)


def event_row(ev: Event) -> tuple[Any, ...]:
    """Payloads are stored as their canonical JSON text, so they hash the same when read back."""
    return (ev.game_id, ev.seq, ev.type, ev.seat, canonical_bytes(ev.payload).decode("utf-8"),
            ev.recorded_at, ev.prev_hash, ev.hash)


_SEATS: dict[str, tuple[str, ...]] = {}  # the few distinct `active_seats` texts, parsed (at scale
SEATS_KEPT = 1024  # json.loads was a fifth of building a list page's 50 summaries)


def _active_seats(text: str) -> list[str]:
    """A fresh list of the seats an `active_seats` column names."""
    seats = _SEATS.get(text)
    if seats is None:
        seats = tuple(json.loads(text))
        if len(_SEATS) >= SEATS_KEPT:
            _SEATS.clear()
        _SEATS[text] = seats
    return list(seats)


def row_summary(row: Sequence[Any]) -> GameSummary:
    """A GAME_COLUMNS row, or a SUMMARY_COLUMNS row (then `pending` comes from the pending set)."""
    game_id, game, scenario, status, created_at, last_seq, seats, submitted, handled, sandbox = row[:10]
    active = _active_seats(seats)
    if len(row) > 10:
        return GameSummary(game_id, game, scenario, status, created_at, last_seq, active, submitted, handled,
                           bool(sandbox), row[10], True)
    return GameSummary(game_id, game, scenario, status, created_at, last_seq, active, submitted, handled,
                       bool(sandbox))


def summary_row(s: GameSummary) -> tuple[Any, ...]:
    return (s.game_id, s.game, s.scenario, s.status, s.created_at, s.last_seq, json.dumps(s.active_seats),
            s.last_submitted_seq, s.last_handled_seq, bool(s.sandbox))


class SqlEventStore(EventStore):
    """Reads shared by the SQL backends. Subclasses give `_conn()` (a connection whose
    `execute(sql, params)` returns a cursor), `_write()` (the same inside a committed
    transaction) and `placeholder`."""

    placeholder = "?"
    # PostgreSQL (migration 6): the game's partition, so that a per-game read probes one
    # month's index whatever the number of months (pruned when the statement starts).
    in_period = ""

    def _p(self, game_id: str) -> tuple[str, ...]:
        """The arguments `in_period` takes (none on SQLite)."""
        return (game_id,) if self.in_period else ()

    @abstractmethod
    def _conn(self) -> contextlib.AbstractContextManager[Any]: ...

    @abstractmethod
    def _write(self) -> contextlib.AbstractContextManager[Any]: ...

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _rows(self, text: str, args: Sequence[Any]) -> list[Any]:
        with self._conn() as conn:
            return list(conn.execute(self._sql(text), tuple(args)).fetchall())

    # -- reading ---------------------------------------------------------------------
    def read(self, game_id: str, after: int = -1, upto: int | None = None) -> list[Event]:
        text = f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ?{self.in_period} AND seq > ?"
        args: list[Any] = [game_id, *self._p(game_id), after]
        if upto is not None:
            text += " AND seq <= ?"
            args.append(upto)
        return [row_event(r) for r in self._rows(text + " ORDER BY seq", args)]

    def iter_events(self, game_id: str, after: int = -1, batch: int = 1000) -> Iterator[Event]:
        while True:
            rows = self._rows(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ?{self.in_period} AND seq > ? "
                              "ORDER BY seq LIMIT ?", (game_id, *self._p(game_id), after, batch))
            for row in rows:
                yield row_event(row)
            if len(rows) < batch:
                return
            after = rows[-1][1]

    def events_of_types(self, game_id: str, types: Sequence[str]) -> list[Event]:
        """One statement: the game's rows of these types (the primary key's range of the game, the
        type compared in the database: no other row is decoded)."""
        if not types:
            return []
        marks = ", ".join("?" for _ in types)
        rows = self._rows(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ?{self.in_period} "
                          f"AND type IN ({marks}) ORDER BY seq", (game_id, *self._p(game_id), *types))
        return [row_event(row) for row in rows]

    def last_seq(self, game_id: str) -> int:
        with self._conn() as conn:
            return self._last_seq(conn, game_id)

    def summary(self, game_id: str) -> GameSummary | None:
        with self._conn() as conn:
            return self._summary(conn, game_id)

    def summary_and_read(self, game_id: str, after: int, upto: int | None = None
                         ) -> tuple[GameSummary | None, list[Event]]:
        """One statement: the game's row (its summary) joined to its events in (after, upto], one
        row per event (a row without an event when there is none). One snapshot of both."""
        in_period = self.in_period.replace(" period", " e.period")
        text = (f"SELECT {_JOINED_SUMMARY}, {_JOINED_EVENT} FROM games LEFT JOIN events e "
                f"ON e.game_id = games.game_id{in_period} AND e.seq > ?{'' if upto is None else ' AND e.seq <= ?'} "
                "WHERE games.game_id = ? ORDER BY e.seq")
        args = [*self._p(game_id), after, *(() if upto is None else (upto,)), game_id]
        rows = self._rows(text, args)
        if not rows:
            return None, []
        return row_summary(rows[0][:_SUMMARY_WIDTH]), [row_event(r[_SUMMARY_WIDTH:]) for r in rows if r[_SUMMARY_WIDTH] is not None]

    def list_games(self, game: str | None = None, status: str | None = None, limit: int = 200,
                   before: tuple[str, str] | None = None) -> list[GameSummary]:
        paging.check_filters(status, limit)
        after = paging.Position(*before) if before is not None else None
        text = paging.statement(GAME_COLUMNS, game is not None, status, after is not None)
        return [row_summary(r) for r in self._rows(text, paging.arguments(game, status, after, limit))]

    def pending_games(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT game_id FROM pending ORDER BY game_id", ())]

    def sweep_games(self) -> tuple[list[str], list[str]]:
        rows = self._rows(f"SELECT DISTINCT game_id, 0 FROM pending UNION ALL {UNLISTED} ORDER BY 2, 1", ())
        return [r[0] for r in rows if not r[1]], [r[0] for r in rows if r[1]]

    def schema_version(self) -> int:
        try:
            rows = self._rows("SELECT MAX(version) FROM schema_version", ())
        except Exception as exc:  # no such table: a database no migration has touched
            if "schema_version" not in str(exc):
                raise
            return 0
        return int(rows[0][0] or 0)

    def latest_version(self) -> int:
        from ledger.migrations import latest

        return latest(self.migrations())

    @abstractmethod
    def migrations(self) -> list[Any]: ...

    def idempotent_seq(self, game_id: str, key: str, seat: str | None = None) -> int | None:
        with self._conn() as conn:
            return self._idempotent_seq(conn, game_id, f"{seat or ''}:{key}")

    def secret(self, game_id: str) -> bytes | None:
        rows = self._rows("SELECT secret FROM secrets WHERE game_id = ?", (game_id,))
        return bytes(rows[0][0]) if rows else None

    def seeds(self, game_id: str) -> list[tuple[int, bytes]]:
        first = self.secret(game_id)
        later = self._rows("SELECT seq, secret FROM seed_periods WHERE game_id = ? ORDER BY seq", (game_id,))
        return ([(0, first)] if first is not None else []) + [(int(r[0]), bytes(r[1])) for r in later]

    def probe_write(self, name: str) -> None:
        """Write a row of `ready_probe` (migration 10): raises what a real write
        would meet (a full disk, a read-only database, a missing schema)."""
        from ledger.events import utc_now

        with self._write() as conn:
            conn.execute(self._sql("INSERT INTO ready_probe (name, checked_at) VALUES (?, ?) ON CONFLICT (name) "
                                   "DO UPDATE SET checked_at = excluded.checked_at"), (name[:200], utc_now()))

    # -- snapshots (a cache) -------------------------------------------------------------
    def save_snapshot(self, game_id: str, seq: int, state: Any) -> None:
        text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        with self._write() as conn:
            conn.execute(self._sql("INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?) "
                                   "ON CONFLICT DO NOTHING"), (game_id, seq, text))

    def latest_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, Any] | None:
        rows = self._rows(f"SELECT seq, state FROM snapshots WHERE game_id = ?{self.in_period} AND seq <= ? "
                          "ORDER BY seq DESC LIMIT 1", (game_id, *self._p(game_id), at_or_before))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    def delete_snapshots(self, game_id: str | None = None) -> int:
        with self._write() as conn:
            cur = conn.execute(self._sql("DELETE FROM snapshots WHERE CAST(? AS TEXT) IS NULL OR game_id = ?"),
                               (game_id, game_id))
            return int(cur.rowcount)

    # -- helpers on an open connection ---------------------------------------------------
    def _last_seq(self, conn: Any, game_id: str) -> int:
        row = conn.execute(self._sql(f"SELECT MAX(seq) FROM events WHERE game_id = ?{self.in_period}"),
                           (game_id, *self._p(game_id))).fetchone()
        return -1 if row is None or row[0] is None else int(row[0])

    def _summary(self, conn: Any, game_id: str) -> GameSummary | None:
        row = conn.execute(self._sql(f"SELECT {SUMMARY_COLUMNS} FROM games WHERE game_id = ?"), (game_id,)).fetchone()
        return row_summary(row) if row else None

    def _idempotent_seq(self, conn: Any, game_id: str, key: str) -> int | None:
        row = conn.execute(self._sql(f"SELECT seq FROM idempotency WHERE game_id = ?{self.in_period} AND key = ?"),
                           (game_id, *self._p(game_id), key)).fetchone()
        return int(row[0]) if row else None
