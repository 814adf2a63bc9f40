"""SQLite backend: one WAL-mode file, safe across threads and processes.

Connections come from a small per-store pool (one connection is used by one thread at a
time). Every write runs in `BEGIN IMMEDIATE`, so writers queue on the database's write lock
(up to `busy_timeout`) and the seq check inside the transaction sees the committed tail.
Appends made at once by this process's threads share one transaction (ledger.groupcommit).
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
from collections.abc import Iterator

from ledger import projection
from ledger.canonical import GENESIS_HASH
from ledger.events import Event, NewEvent, seal_encoded, utc_now
from ledger.faults import file_fault, storage_fault
from ledger.groupcommit import GroupCommit
from ledger.migrations import VERSION_TABLE, Migration, apply
from ledger.migrations.sqlite import MIGRATIONS
from ledger.sqlstore import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
    SqlEventStore,
    event_row,
    row_event,
    summary_row,
)
from ledger.store import (
    Conflict,
    DuplicateKey,
    GameExists,
    GameSummary,
    LedgerError,
    LockTimeout,
    StoreClosed,
    SummaryUpdate,
)

BUSY_TIMEOUT_MS = 30_000
_IDLE_CONNECTIONS = 8

_INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
# The first event of a batch chained to a tail this store saw committed (SqliteStore._tails): it
# is inserted only if that event is still the one at expected_seq (the chain and no gap, checked
# by the statement itself); a later event already there is refused by the primary key.
_INSERT_AFTER = (f"INSERT INTO events ({EVENT_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ? "
                 "WHERE EXISTS (SELECT 1 FROM events WHERE game_id = ? AND seq = ? AND hash = ?)")
_TAILS_MAX = 10_000  # games whose last committed (seq, hash) a store remembers
_REPLACE_GAME = f"INSERT OR REPLACE INTO games ({GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)"
# The seat's earlier submission with this key, and the game's last seq and hash: one statement.
_KEY_AND_TAIL = ("SELECT (SELECT seq FROM idempotency WHERE game_id = ? AND key = ?), "
                 "(SELECT seq FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1), "
                 "(SELECT hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1)")
# A batch folded into the games row (ledger.projection.batch_marks): as `fold`, in SQL. SQLite
# rewrites the index entries of every column a SET names, so `status` (in four listing indexes)
# is named only by a batch that may change it.
_UPDATE_GAME = ("UPDATE games SET last_seq = ?, last_submitted_seq = max(last_submitted_seq, ?), "
                "last_handled_seq = max(last_handled_seq, ?), active_seats = coalesce(?, active_seats)")
_UPDATE_STATUS = (", status = coalesce(?, CASE WHEN ? THEN 'ended' WHEN ? AND status = 'waiting' THEN 'active' "
                  "ELSE status END)")

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


class SqliteStore(SqlEventStore):
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
        self._group = GroupCommit(self._conn)  # appends made at once by this process's threads
        # game -> (seq, hash) of the last event this store committed: events are immutable
        # (append-only triggers), so it is a fact about the file, checked again by _INSERT_AFTER.
        self._tails: dict[str, tuple[int, str]] = {}

    # -- connections ---------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _check_fork(self) -> None:
        if self._pid != os.getpid():  # forked: never touch the parent's connections (or its guards)
            _INHERITED.extend(self._idle)
            self._idle, self._idle_guard, self._pid = [], threading.Lock(), os.getpid()
            self._group.after_fork()

    @contextlib.contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        if self._closed:
            raise StoreClosed("the store is closed")
        self._check_fork()
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

    def migrations(self) -> list[Migration]:
        return MIGRATIONS

    def create_schema(self) -> None:
        """Apply the missing migrations in one `BEGIN IMMEDIATE` transaction."""
        try:
            with self._write() as conn:
                conn.execute(VERSION_TABLE)
                current = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
                apply(conn.execute, MIGRATIONS, current, "", utc_now())
        except sqlite3.OperationalError as err:
            fault = storage_fault(err)
            if fault is None:
                raise
            raise LedgerError(f"cannot write the SQLite ledger {self.path}: {file_fault(self.path, fault)}. Warlog needs the file and "
                              "its directory writable by this process and space on its disk") from None

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
        key = projection.scoped_key(events, idempotency_key) if idempotency_key is not None else None
        self._check_fork()
        try:
            sealed = self._group.run(lambda conn: self._append(conn, game_id, expected_seq, events, summary, key,
                                                               secret, game_info))
            if len(self._tails) >= _TAILS_MAX:
                self._tails.clear()
            self._tails[game_id] = (sealed[-1].seq, sealed[-1].hash)
            return sealed
        except DuplicateKey as dup:
            raise DuplicateKey(game_id, idempotency_key or "", dup.seq) from None
        except sqlite3.IntegrityError:
            # A writer won the race for this seq or key (BEGIN IMMEDIATE makes this rare).
            with self._conn() as conn:
                if key is not None:
                    seq = self._idempotent_seq(conn, game_id, key)
                    if seq is not None:
                        raise DuplicateKey(game_id, idempotency_key or "", seq) from None
                raise Conflict(game_id, expected_seq, self._last_seq(conn, game_id)) from None

    def _append(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        summary: SummaryUpdate | None,
        key: str | None,
        secret: bytes | None,
        game_info: tuple[str, str, bool] | None,
    ) -> list[Event]:
        """Inside the caller's BEGIN IMMEDIATE: one read (key and tail), the inserts, and the
        projection as one UPDATE of the columns that no index holds (but a changed status).
        The read is skipped when this store committed the game's tail at expected_seq itself:
        the first INSERT then checks that tail, the primary keys refuse a taken seq
        or key (the caller turns that into Conflict or DuplicateKey, as the read would have)."""
        now = utc_now()
        tail = self._tails.get(game_id)
        inserted = False
        if tail is not None and tail[0] == expected_seq:
            sealed, rows = self._sealed(game_id, expected_seq, events, now, tail[1])
            inserted = conn.execute(_INSERT_AFTER, (*rows[0], game_id, expected_seq, tail[1])).rowcount == 1
        if not inserted:
            hit, current, prev_hash = conn.execute(_KEY_AND_TAIL, (game_id, key, game_id, game_id)).fetchone()
            if hit is not None:
                raise DuplicateKey(game_id, key or "", hit)
            if current is None:
                current, prev_hash = -1, GENESIS_HASH
            if current != expected_seq:
                raise Conflict(game_id, expected_seq, current)
            sealed, rows = self._sealed(game_id, expected_seq, events, now, prev_hash)
            conn.execute(_INSERT_EVENT, rows[0])
        if len(rows) > 1:
            conn.executemany(_INSERT_EVENT, rows[1:])
        if key is not None:
            conn.execute("INSERT INTO idempotency (game_id, key, seq) VALUES (?, ?, ?)",
                         (game_id, key, sealed[projection.keyed_index(events)].seq))
        if expected_seq == -1:
            assert game_info is not None
            if secret is not None:
                conn.execute("INSERT OR IGNORE INTO secrets (game_id, secret) VALUES (?, ?)", (game_id, secret))
            after = projection.fold(projection.new_summary(game_id, game_info, now), sealed, summary)
            conn.execute(_REPLACE_GAME, summary_row(after))
            return sealed
        if secret is not None:  # a fresh seed period (ledger.dice step 7)
            conn.execute("INSERT INTO seed_periods (game_id, seq, secret) VALUES (?, ?, ?)",
                         (game_id, sealed[projection.new_seed_index(events)].seq, secret))
        marks = projection.batch_marks(events, expected_seq + 1)
        update = projection.checked_update(summary)
        seats = None if update.active_seats is None else json.dumps(update.active_seats)
        args: tuple[object, ...] = (marks.last_seq, marks.submitted, marks.handled, seats)
        text = _UPDATE_GAME
        if marks.started or marks.ended or update.status is not None:
            text, args = text + _UPDATE_STATUS, (*args, update.status, marks.ended, marks.started)
        if conn.execute(text + " WHERE game_id = ?", (*args, game_id)).rowcount == 0:
            before = projection.summary_from_events([row_event(r) for r in conn.execute(  # a lost row
                f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq",
                (game_id, expected_seq))])
            conn.execute(_REPLACE_GAME, summary_row(projection.fold(before, sealed, summary)))
        return sealed

    @staticmethod
    def _sealed(game_id: str, expected_seq: int, events: list[NewEvent], now: str,
                prev_hash: str) -> tuple[list[Event], list[tuple[object, ...]]]:
        """The events chained after `prev_hash`, and their rows."""
        sealed: list[Event] = []
        rows: list[tuple[object, ...]] = []
        for i, new in enumerate(events):
            ev, text = seal_encoded(game_id, expected_seq + 1 + i, new, now, prev_hash)
            sealed.append(ev)
            rows.append((game_id, ev.seq, ev.type, ev.seat, text, now, ev.prev_hash, ev.hash))
            prev_hash = ev.hash
        return sealed, rows

    def import_events(self, events: list[Event], secret: bytes | None, summary: GameSummary) -> None:
        projection.check_import(events, summary)
        try:
            with self._write() as conn:
                if self._last_seq(conn, summary.game_id) != -1:
                    raise GameExists(f"game {summary.game_id} already has events")
                conn.executemany(_INSERT_EVENT, map(event_row, events))
                if secret is not None:
                    conn.execute("INSERT OR REPLACE INTO secrets (game_id, secret) VALUES (?, ?)",
                                 (summary.game_id, secret))
                conn.execute(_REPLACE_GAME, summary_row(summary))
        except sqlite3.IntegrityError as exc:
            raise GameExists(f"game {summary.game_id} already has events ({exc})") from None

    # -- reading -------------------------------------------------------------------------


    # -- snapshots -----------------------------------------------------------------------


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
