"""SQLite backend: one WAL-mode file, safe across threads and processes.

Connections come from a small per-store pool (one connection is used by one thread at a
time). Every write runs in `BEGIN IMMEDIATE`, so writers queue on the database's write lock
(up to `busy_timeout`) and the seq check inside the transaction sees the committed tail.
Triggers refuse UPDATE, DELETE and a replacing INSERT on `events`.
The game lock is a per-process threading lock plus `flock` on a lock file in `<db>-locks/`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from typing import Any, Iterator

from ledger import projection
from ledger.canonical import GENESIS_HASH, canonical_bytes
from ledger.events import Event, NewEvent, seal, utc_now
from ledger.store import (
    Conflict, DuplicateKey, EventStore, GameExists, GameSummary, LockTimeout, SummaryUpdate,
)

BUSY_TIMEOUT_MS = 30_000
_IDLE_CONNECTIONS = 8

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    type TEXT NOT NULL,
    seat TEXT,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    scenario TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq INTEGER NOT NULL,
    active_seats TEXT NOT NULL DEFAULT '[]',
    last_submitted_seq INTEGER NOT NULL DEFAULT -1,
    last_handled_seq INTEGER NOT NULL DEFAULT -1,
    sandbox INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at);
CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (game_id, key),
    FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
);
CREATE TABLE IF NOT EXISTS secrets (
    game_id TEXT PRIMARY KEY,
    secret BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

_EVENT_COLUMNS = "game_id, seq, type, seat, payload, recorded_at, prev_hash, hash"
_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_GAME_COLUMNS = ("game_id, game, scenario, status, created_at, last_seq, active_seats, "
                 "last_submitted_seq, last_handled_seq, sandbox")

_INHERITED: list[sqlite3.Connection] = []  # a parent process's connections, kept from GC in a child
_thread_locks: dict[str, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def _forget_thread_locks() -> None:
    """In a forked child no thread holds a lock; the copies may look held, so start afresh."""
    global _thread_locks_guard
    _thread_locks.clear()
    _thread_locks_guard = threading.Lock()


os.register_at_fork(after_in_child=_forget_thread_locks)


def _thread_lock(name: str) -> threading.Lock:
    with _thread_locks_guard:
        return _thread_locks.setdefault(name, threading.Lock())


def _row_event(row: sqlite3.Row | tuple) -> Event:
    game_id, seq, type_, seat, payload, recorded_at, prev_hash, hash_ = row
    return Event(game_id, seq, type_, seat, json.loads(payload), recorded_at, prev_hash, hash_)


def _row_summary(row: tuple) -> GameSummary:
    game_id, game, scenario, status, created_at, last_seq, seats, submitted, handled, sandbox = row
    return GameSummary(game_id, game, scenario, status, created_at, last_seq, json.loads(seats),
                       submitted, handled, bool(sandbox))


def _summary_row(s: GameSummary) -> tuple:
    return (s.game_id, s.game, s.scenario, s.status, s.created_at, s.last_seq, json.dumps(s.active_seats),
            s.last_submitted_seq, s.last_handled_seq, int(s.sandbox))


def _event_row(ev: Event) -> tuple:
    return (ev.game_id, ev.seq, ev.type, ev.seat, canonical_bytes(ev.payload).decode("utf-8"),
            ev.recorded_at, ev.prev_hash, ev.hash)


class SqliteStore(EventStore):
    """An EventStore in one SQLite file (`path`); `:memory:` is not supported."""

    def __init__(self, path: str) -> None:
        if path in ("", ":memory:"):
            raise ValueError("SqliteStore needs a file path")
        self.path = os.path.abspath(path)
        self.url = "sqlite:///" + self.path
        self._idle: list[sqlite3.Connection] = []
        self._idle_guard = threading.Lock()
        self._closed = False
        self._pid = os.getpid()

    # -- connections ---------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    @contextlib.contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        if self._closed:
            raise RuntimeError("the store is closed")
        if self._pid != os.getpid():  # forked: never touch the parent's connections (or its guard)
            _INHERITED.extend(self._idle)
            self._idle, self._idle_guard, self._pid = [], threading.Lock(), os.getpid()
        with self._idle_guard:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            with self._idle_guard:
                keep = not self._closed and len(self._idle) < _IDLE_CONNECTIONS
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A connection inside `BEGIN IMMEDIATE`, committed on success, rolled back on error."""
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")

    def create_schema(self) -> None:
        with self._write() as conn:
            for statement in _split_sql(SCHEMA):
                conn.execute(statement)

    def close(self) -> None:
        with self._idle_guard:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    # -- writing -------------------------------------------------------------------------
    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        *,
        summary: SummaryUpdate | None = None,
        idempotency_key: str | None = None,
        secret: bytes | None = None,
        game_info: tuple[str, str, bool] | None = None,
    ) -> list[Event]:
        projection.check_new_events(events, idempotency_key)
        if expected_seq == -1 and game_info is None:
            raise ValueError("the first append of a game needs game_info=(game, scenario, sandbox)")
        try:
            with self._write() as conn:
                if idempotency_key is not None:
                    seq = self._idempotent_seq(conn, game_id, idempotency_key)
                    if seq is not None:
                        raise DuplicateKey(game_id, idempotency_key, seq)
                row = conn.execute("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                                   (game_id,)).fetchone()
                current, prev_hash = row if row else (-1, GENESIS_HASH)
                if current != expected_seq:
                    raise Conflict(game_id, expected_seq, current)
                now = utc_now()
                sealed: list[Event] = []
                for i, new in enumerate(events):
                    ev = seal(game_id, expected_seq + 1 + i, new, now, prev_hash)
                    sealed.append(ev)
                    prev_hash = ev.hash
                conn.executemany(_INSERT_EVENT, map(_event_row, sealed))
                if idempotency_key is not None:
                    conn.execute("INSERT INTO idempotency (game_id, key, seq) VALUES (?, ?, ?)",
                                 (game_id, idempotency_key, sealed[0].seq))
                if expected_seq == -1:
                    assert game_info is not None
                    before = projection.new_summary(game_id, game_info, sealed[0].recorded_at)
                    if secret is not None:
                        conn.execute("INSERT OR IGNORE INTO secrets (game_id, secret) VALUES (?, ?)",
                                     (game_id, secret))
                else:
                    before = self._summary(conn, game_id) or projection.summary_from_events(  # a lost row
                        [_row_event(r) for r in conn.execute(
                            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq",
                            (game_id, expected_seq))])
                after = projection.fold(before, sealed, summary)
                conn.execute(f"INSERT OR REPLACE INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                             _summary_row(after))
                return sealed
        except sqlite3.IntegrityError:
            # A writer won the race for this seq or key (BEGIN IMMEDIATE makes this rare).
            with self._conn() as conn:
                if idempotency_key is not None:
                    seq = self._idempotent_seq(conn, game_id, idempotency_key)
                    if seq is not None:
                        raise DuplicateKey(game_id, idempotency_key, seq) from None
                raise Conflict(game_id, expected_seq, self._last_seq(conn, game_id)) from None

    def import_events(self, events: list[Event], secret: bytes | None, summary: GameSummary) -> None:
        projection.check_import(events, summary)
        try:
            with self._write() as conn:
                if self._last_seq(conn, summary.game_id) != -1:
                    raise GameExists(f"game {summary.game_id} already has events")
                conn.executemany(_INSERT_EVENT, map(_event_row, events))
                if secret is not None:
                    conn.execute("INSERT OR REPLACE INTO secrets (game_id, secret) VALUES (?, ?)",
                                 (summary.game_id, secret))
                conn.execute(f"INSERT OR REPLACE INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                             _summary_row(summary))
        except sqlite3.IntegrityError as exc:
            raise GameExists(f"game {summary.game_id} already has events ({exc})") from None

    # -- reading -------------------------------------------------------------------------
    def read(self, game_id: str, after: int = -1, upto: int | None = None) -> list[Event]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        args: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        with self._conn() as conn:
            return [_row_event(r) for r in conn.execute(sql + " ORDER BY seq", args)]

    def iter_events(self, game_id: str, after: int = -1, batch: int = 1000) -> Iterator[Event]:
        while True:
            with self._conn() as conn:
                rows = conn.execute(
                    f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (game_id, after, batch)).fetchall()
            for row in rows:
                yield _row_event(row)
            if len(rows) < batch:
                return
            after = rows[-1][1]

    def last_seq(self, game_id: str) -> int:
        with self._conn() as conn:
            return self._last_seq(conn, game_id)

    def summary(self, game_id: str) -> GameSummary | None:
        with self._conn() as conn:
            return self._summary(conn, game_id)

    def list_games(self, game: str | None = None, status: str | None = None, limit: int = 200) -> list[GameSummary]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE (? IS NULL OR game = ?) AND (? IS NULL OR status = ?)"
        sql += " ORDER BY created_at DESC, game_id DESC LIMIT ?"
        with self._conn() as conn:
            return [_row_summary(r) for r in conn.execute(sql, (game, game, status, status, limit))]

    def pending_games(self) -> list[str]:
        with self._conn() as conn:
            rows = conn.execute("SELECT game_id FROM games WHERE last_submitted_seq > last_handled_seq "
                                "ORDER BY created_at, game_id").fetchall()
        return [r[0] for r in rows]

    def idempotent_seq(self, game_id: str, key: str) -> int | None:
        with self._conn() as conn:
            return self._idempotent_seq(conn, game_id, key)

    def secret(self, game_id: str) -> bytes | None:
        with self._conn() as conn:
            row = conn.execute("SELECT secret FROM secrets WHERE game_id = ?", (game_id,)).fetchone()
        return bytes(row[0]) if row else None

    # -- snapshots -----------------------------------------------------------------------
    def save_snapshot(self, game_id: str, seq: int, state: Any) -> None:
        text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
                         (game_id, seq, text))

    def latest_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, Any] | None:
        with self._conn() as conn:
            row = conn.execute("SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? "
                               "ORDER BY seq DESC LIMIT 1", (game_id, at_or_before)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def delete_snapshots(self, game_id: str | None = None) -> int:
        with self._write() as conn:
            cur = conn.execute("DELETE FROM snapshots WHERE ? IS NULL OR game_id = ?", (game_id, game_id))
            return cur.rowcount

    # -- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def game_lock(self, game_id: str, timeout: float = 30.0) -> Iterator[None]:
        """Not re-entrant: a second acquisition by the holder waits and times out."""
        deadline = time.monotonic() + timeout
        lock_dir = self.path + "-locks"
        os.makedirs(lock_dir, exist_ok=True)
        lock_path = os.path.join(lock_dir, hashlib.sha256(game_id.encode("utf-8")).hexdigest()[:32] + ".lock")
        tlock = _thread_lock(lock_path)
        if not tlock.acquire(timeout=max(timeout, 0)):
            raise LockTimeout(f"game {game_id}: lock held by another thread for {timeout}s")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= deadline:
                            raise LockTimeout(f"game {game_id}: lock held elsewhere for {timeout}s") from None
                        time.sleep(0.02)
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
        finally:
            tlock.release()

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def _last_seq(conn: sqlite3.Connection, game_id: str) -> int:
        row = conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return -1 if row[0] is None else row[0]

    @staticmethod
    def _summary(conn: sqlite3.Connection, game_id: str) -> GameSummary | None:
        row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return _row_summary(row) if row else None

    @staticmethod
    def _idempotent_seq(conn: sqlite3.Connection, game_id: str, key: str) -> int | None:
        row = conn.execute("SELECT seq FROM idempotency WHERE game_id = ? AND key = ?", (game_id, key)).fetchone()
        return row[0] if row else None


def _split_sql(script: str) -> list[str]:
    """Split SCHEMA into statements (triggers hold `;` inside BEGIN ... END)."""
    out: list[str] = []
    buf = ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return out
