"""PostgreSQL backend (psycopg 3 with a connection pool).

Tables live in one schema: `public`, the `schema=` argument, or the first entry of a
`search_path` given in the URL's `options` (e.g. `?options=-csearch_path%3Dwarlog_test_x`).
Payloads are stored as TEXT holding their canonical JSON, never JSONB, so that what is read
back hashes exactly as it was sealed. A plpgsql trigger refuses UPDATE, DELETE and TRUNCATE
on `events`. Racing appenders are decided by the (game_id, seq) primary key.
The game lock is a session advisory lock held on a dedicated connection.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from urllib.parse import quote
from typing import Iterator

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from ledger import projection
from ledger.canonical import GENESIS_HASH
from ledger.events import Event, NewEvent, seal, utc_now
from ledger.sqlstore import (
    EVENT_COLUMNS, GAME_COLUMNS, SqlEventStore, event_row, row_event, row_summary, summary_row,
)
from ledger.urls import mask_url
from ledger.store import Conflict, DuplicateKey, GameExists, GameSummary, LockTimeout, SummaryUpdate

POOL_MAX = 8
CONNECT_WAIT = 10.0  # seconds the constructor waits for the first connection
POOL_WAIT = 5.0  # seconds a caller waits for a pooled connection
RECONNECT = 10.0  # seconds one reconnection attempt backs off before giving up
CONNECT_TIMEOUT = 10  # seconds to open a connection (an unreachable host, not only a refused port)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL CHECK (seq >= 0),
    type TEXT NOT NULL,
    seat TEXT,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    scenario TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL,
    active_seats TEXT NOT NULL DEFAULT '[]',
    last_submitted_seq BIGINT NOT NULL DEFAULT -1,
    last_handled_seq BIGINT NOT NULL DEFAULT -1,
    sandbox BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at);
CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (game_id, key),
    FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
);
CREATE TABLE IF NOT EXISTS secrets (
    game_id TEXT PRIMARY KEY,
    secret BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only (% refused)', TG_OP;
END
$$
"""

TRIGGERS = {
    "events_no_update_delete": "BEFORE UPDATE OR DELETE ON events FOR EACH ROW",
    "events_no_truncate": "BEFORE TRUNCATE ON events FOR EACH STATEMENT",
}

_INHERITED_POOLS: list[ConnectionPool] = []  # kept referenced so that GC never closes them in a child



def schema_from_url(url: str) -> str | None:
    """The first schema of a `search_path` set through the URL's `options`, if any."""
    options = conninfo_to_dict(url).get("options") or ""
    match = re.search(r"(?:-c\s*|--)search_path\s*=\s*([^\s,]+)", str(options))
    return match.group(1).strip("\"'") if match else None


def lock_key(schema: str, game_id: str) -> int:
    """A stable signed 64-bit advisory-lock key for a game in a schema."""
    digest = hashlib.sha256(f"{schema}/{game_id}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)










_UPSERT_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (game_id) DO UPDATE SET game = EXCLUDED.game, scenario = EXCLUDED.scenario, "
    "status = EXCLUDED.status, created_at = EXCLUDED.created_at, last_seq = EXCLUDED.last_seq, "
    "active_seats = EXCLUDED.active_seats, last_submitted_seq = EXCLUDED.last_submitted_seq, "
    "last_handled_seq = EXCLUDED.last_handled_seq, sandbox = EXCLUDED.sandbox"
)
_INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"


class PostgresStore(SqlEventStore):
    """An EventStore in PostgreSQL; `schema` overrides the URL's search_path (default public)."""

    def __init__(self, url: str, *, schema: str | None = None, max_size: int = POOL_MAX) -> None:
        in_url = schema_from_url(url)
        self.schema = schema or in_url or "public"
        if self.schema != (in_url or "public") and "options" not in conninfo_to_dict(url):
            # Make `url` name the schema too, so that open_store(store.url) elsewhere finds it.
            url += ("&" if "?" in url else "?") + "options=-csearch_path%3D" + quote(self.schema)
        self.url = url
        self._max_size = max_size
        self._set_path = sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema))
        self._pool = self._new_pool()

    def _new_pool(self) -> ConnectionPool:
        set_path = self._set_path

        def configure(conn: psycopg.Connection) -> None:
            conn.execute(set_path)

        # Outages (issue 14): `check` replaces a connection broken by a database restart instead of
        # handing it out; a caller waits at most POOL_WAIT s for a connection (then PoolTimeout);
        # a reconnection gives up after RECONNECT s, so the next caller starts a fresh, short
        # back-off rather than waiting out one that has grown to minutes.
        pool = ConnectionPool(self.url, min_size=1, max_size=self._max_size,
                              kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
                              configure=configure, open=True, name=f"warlog-{self.schema}",
                              check=ConnectionPool.check_connection, timeout=POOL_WAIT,
                              reconnect_timeout=RECONNECT)
        try:
            pool.wait(timeout=CONNECT_WAIT)
        except Exception as exc:
            pool.close()
            raise ConnectionError(f"cannot connect to PostgreSQL at {mask_url(self.url)}: {exc}") from exc
        self._pid = os.getpid()
        return pool

    placeholder = "%s"

    @contextlib.contextmanager
    def _write(self) -> Iterator[psycopg.Connection]:
        with self._conn() as conn, conn.transaction():
            yield conn

    def _conn(self) -> contextlib.AbstractContextManager[psycopg.Connection]:
        if self._pid != os.getpid():
            # Forked (e.g. an rq work horse): the parent's sockets are not ours to use or close.
            _INHERITED_POOLS.append(self._pool)
            self._pool = self._new_pool()
        return self._pool.connection()

    def create_schema(self) -> None:
        with self._conn() as conn, conn.transaction():
            # Serialise concurrent creators: CREATE ... IF NOT EXISTS is not race-free.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self.schema, "\x00create_schema"),))
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            conn.execute(self._set_path)
            conn.execute(SCHEMA)
            for name, when in TRIGGERS.items():
                exists = conn.execute("SELECT 1 FROM pg_trigger WHERE tgrelid = 'events'::regclass AND tgname = %s",
                                      (name,)).fetchone()
                if not exists:
                    conn.execute(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION events_append_only()")

    def close(self) -> None:
        self._pool.close()

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
        with self._conn() as conn:
            try:
                # Pipeline mode: BEGIN and the two reads go in one round trip, the writes and
                # COMMIT in a second one.
                with conn.pipeline(), conn.transaction():
                    return self._append(conn, game_id, expected_seq, events, summary, idempotency_key,
                                        secret, game_info)
            except errors.UniqueViolation:
                pass  # another writer took this seq (or key) and committed: report what won
            except Conflict:
                # A writer with the same key may have committed between our key check and our
                # seq check: a retry of an accepted submission is a duplicate, not a conflict.
                if idempotency_key is None or self._idempotent_seq(conn, game_id, idempotency_key) is None:
                    raise
            if idempotency_key is not None:
                seq = self._idempotent_seq(conn, game_id, idempotency_key)
                if seq is not None:
                    raise DuplicateKey(game_id, idempotency_key, seq)
            raise Conflict(game_id, expected_seq, self._last_seq(conn, game_id))

    def _append(
        self,
        conn: psycopg.Connection,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        summary: SummaryUpdate | None,
        idempotency_key: str | None,
        secret: bytes | None,
        game_info: tuple[str, str, bool] | None,
    ) -> list[Event]:
        # The games row is locked first, so that appenders to one game queue here; the last
        # event is read by a later statement, which therefore sees what the previous holder
        # committed (READ COMMITTED takes a new snapshot per statement).
        games = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = %s FOR UPDATE", (game_id,))
        last = conn.execute("SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1", (game_id,))
        keyed = (conn.execute("SELECT seq FROM idempotency WHERE game_id = %s AND key = %s", (game_id, idempotency_key))
                 if idempotency_key is not None else None)
        found, row = games.fetchone(), last.fetchone()
        if keyed is not None:
            hit = keyed.fetchone()
            if hit is not None:
                raise DuplicateKey(game_id, idempotency_key or "", hit[0])
        current, prev_hash = row if row else (-1, GENESIS_HASH)
        if current != expected_seq:
            raise Conflict(game_id, expected_seq, current)
        now = utc_now()
        sealed: list[Event] = []
        for i, new in enumerate(events):
            ev = seal(game_id, expected_seq + 1 + i, new, now, prev_hash)
            sealed.append(ev)
            prev_hash = ev.hash
        with conn.cursor() as cur:
            cur.executemany(_INSERT_EVENT, [event_row(ev) for ev in sealed])
        if idempotency_key is not None:
            conn.execute("INSERT INTO idempotency (game_id, key, seq) VALUES (%s, %s, %s)",
                         (game_id, idempotency_key, sealed[0].seq))
        if expected_seq == -1:
            assert game_info is not None
            before = projection.new_summary(game_id, game_info, sealed[0].recorded_at)
            if secret is not None:
                conn.execute("INSERT INTO secrets (game_id, secret) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                             (game_id, secret))
        else:
            before = row_summary(found) if found else projection.summary_from_events(
                [row_event(r) for r in conn.execute(
                    f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq <= %s ORDER BY seq",
                    (game_id, expected_seq)).fetchall()])
        conn.execute(_UPSERT_GAME, summary_row(projection.fold(before, sealed, summary)))
        return sealed

    def import_events(self, events: list[Event], secret: bytes | None, summary: GameSummary) -> None:
        projection.check_import(events, summary)
        try:
            with self._conn() as conn, conn.transaction():
                if self._last_seq(conn, summary.game_id) != -1:
                    raise GameExists(f"game {summary.game_id} already has events")
                with conn.cursor() as cur:
                    cur.executemany(_INSERT_EVENT, [event_row(ev) for ev in events])
                if secret is not None:
                    conn.execute("INSERT INTO secrets (game_id, secret) VALUES (%s, %s) "
                                 "ON CONFLICT (game_id) DO UPDATE SET secret = EXCLUDED.secret",
                                 (summary.game_id, secret))
                conn.execute(_UPSERT_GAME, summary_row(summary))
        except errors.UniqueViolation as exc:
            raise GameExists(f"game {summary.game_id} already has events ({exc})") from None

    # -- reading -------------------------------------------------------------------------








    # -- snapshots -----------------------------------------------------------------------



    # -- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def game_lock(self, game_id: str, timeout: float = 30.0) -> Iterator[None]:
        """A session advisory lock on its own connection (not from the pool), polled until
        `timeout`. Not re-entrant across `game_lock` calls: each opens a new session."""
        key = lock_key(self.schema, game_id)
        deadline = time.monotonic() + timeout
        with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            while not conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]:
                if time.monotonic() >= deadline:
                    raise LockTimeout(f"game {game_id}: lock held elsewhere for {timeout}s")
                time.sleep(0.05)
            try:
                yield
            finally:
                if not conn.closed:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    # -- helpers -------------------------------------------------------------------------
