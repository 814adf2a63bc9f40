"""PostgreSQL backend (psycopg 3 with a connection pool).

Tables live in one schema: `public`, the `schema=` argument, or the first entry of a
`search_path` given in the URL's `options` (e.g. `?options=-csearch_path%3Dwarlog_test_x`).
Payloads are stored as TEXT holding their canonical JSON, never JSONB, so that what is read
back hashes exactly as it was sealed. A plpgsql trigger refuses UPDATE, DELETE and TRUNCATE
on `events`. An append is one call of `ledger_append` (migrations 8 and 9): one round trip, one
transaction; appenders to one game queue on its `games` row, and racing creators of a game are
decided by the (game_id, seq) primary key.
The game lock is a session advisory lock held on a dedicated connection.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import select
import time
import weakref
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from ledger import projection
from ledger.canonical import GENESIS_HASH
from ledger.events import Event, NewEvent, body_parts, parts_hash, seal, utc_now
from ledger.migrations import VERSION_TABLE, Migration, apply
from ledger.migrations.postgres import MIGRATIONS
from ledger.migrations.services import tables as service_tables
from ledger.migrations.services_11 import tables as service_tables_11
from ledger.migrations.services_12 import tables as service_tables_12
from ledger.netopts import pg_params
from ledger.pglocks import LockSessions
from ledger.pgpool import PromptPool
from ledger.sqlstore import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
    SUMMARY_COLUMNS,
    UNLISTED,
    SqlEventStore,
    event_row,
    row_event,
    row_summary,
    summary_row,
)
from ledger.store import (
    Conflict,
    DuplicateKey,
    GameExists,
    GameSummary,
    LedgerError,
    LockedRead,
    SummaryUpdate,
)
from ledger.urls import mask_url

log = logging.getLogger("warlog.ledger")
POOL_MAX = 8
CONNECT_WAIT = 10.0  # seconds the constructor waits for the first connection (see connect_wait)
CONNECT_WAIT_ENV = "WARLOG_TEST_CONNECT_WAIT"  # a test's shorter wait, for a database it knows is unreachable
POOL_WAIT = 5.0  # seconds a caller waits for a pooled connection
RECONNECT = 10.0  # seconds one reconnection attempt backs off before giving up
IDLE_CHECK = 30.0  # seconds a pooled connection may sit idle before a checkout pings it

_INHERITED_POOLS: list[ConnectionPool] = []  # kept referenced so that GC never closes them in a child


def connect_wait() -> float:
    """Seconds a new store waits for its first connection: CONNECT_WAIT, or WARLOG_TEST_CONNECT_WAIT
    where a test sets it (the tests that check what an unreachable database's error shows wait
    for it to fail, and need not wait the whole production time to see it)."""
    raw = os.environ.get(CONNECT_WAIT_ENV, "").strip()
    return float(raw) if raw else CONNECT_WAIT


TRANSPARENCY_NODES_GRANT = "GRANT SELECT, INSERT ON {schema}.transparency_nodes TO {role}"
APPEND_GRANT = "GRANT EXECUTE ON FUNCTION {schema}.ledger_append TO {role}"
READY_PROBE_GRANT = "GRANT SELECT, INSERT, UPDATE ON {schema}.ready_probe TO {role}"
SERVICES_11_GRANT = ("GRANT SELECT, INSERT, UPDATE, DELETE ON " + ", ".join("{schema}." + t for t in service_tables_11())
                     + " TO {role}")
SERVICES_12_GRANT = ("GRANT SELECT, INSERT, UPDATE, DELETE ON " + ", ".join("{schema}." + t for t in service_tables_12())
                     + " TO {role}")
GRANTED_SINCE = {TRANSPARENCY_NODES_GRANT: 7, APPEND_GRANT: 8, READY_PROBE_GRANT: 10, SERVICES_11_GRANT: 11,
                 SERVICES_12_GRANT: 12}  # grants on tables a later migration makes: its version

# What the app role may do (`warlog db upgrade --app-role ROLE`, docs/deployment.md).
APP_GRANTS = [
    "REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC",
    "GRANT USAGE ON SCHEMA {schema} TO {role}",
    "GRANT SELECT, INSERT ON {schema}.events, {schema}.idempotency, {schema}.secrets, {schema}.seed_periods TO {role}",
    "GRANT SELECT, INSERT, UPDATE ON {schema}.games TO {role}",
    "GRANT SELECT, INSERT, DELETE ON {schema}.snapshots TO {role}",
    "GRANT SELECT ON {schema}.pending, {schema}.schema_version TO {role}",
    "GRANT SELECT, INSERT ON {schema}.transparency_log TO {role}",  # migration 5: append-only
    TRANSPARENCY_NODES_GRANT,  # migration 7: append-only
    APPEND_GRANT,  # migration 8: an append in one statement, with the caller's rights
    READY_PROBE_GRANT,  # migration 10: a row per host that checks readiness (warlog.ops.health)
    # players, notifications, clocks, tournaments (migration 4): service tables, not history
    "GRANT SELECT, INSERT, UPDATE, DELETE ON " + ", ".join("{schema}." + t for t in service_tables()) + " TO {role}",
    SERVICES_11_GRANT,  # migration 11: play by mail, time away (service tables, not history)
    SERVICES_12_GRANT,  # migration 12: messages between the seats (service tables, not history)
]


def conn_role_exists(store: PostgresStore, role: str) -> bool:
    with store._conn() as conn:
        return conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None


def schema_from_url(url: str) -> str | None:
    """The first schema of a `search_path` set through the URL's `options`, if any."""
    options = conninfo_to_dict(url).get("options") or ""
    match = re.search(r"(?:-c\s*|--)search_path\s*=\s*([^\s,]+)", str(options))
    return match.group(1).strip("\"'") if match else None


def on_schema(url: str, params: dict[str, Any], schema: str) -> str:
    """The `options` startup parameter (the URL's, then `params`') with `-c search_path=` set
    to `schema`, quoted as an identifier (its case kept) and escaped for libpq's options."""
    given = str(params.get("options", conninfo_to_dict(url).get("options")) or "")
    quoted = '"' + schema.replace('"', '""') + '"'
    return f"{given} -c search_path={quoted.replace(chr(92), chr(92) * 2).replace(' ', chr(92) + ' ')}".strip()


def _first(row: tuple[Any, ...] | None) -> Any:
    """The first column of a row that a query always returns (an aggregate, a catalogue look-up)."""
    if row is None:
        raise LedgerError("the database returned no row where one was certain")
    return row[0]


def _first_row(row: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """A row that a query always returns (a function's OUT parameters)."""
    if row is None:
        raise LedgerError("the database returned no row where one was certain")
    return row


def lock_key(schema: str, game_id: str) -> int:
    """A stable signed 64-bit advisory-lock key for a game in a schema."""
    digest = hashlib.sha256(f"{schema}/{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


_UPSERT_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (game_id) DO UPDATE SET game = EXCLUDED.game, scenario = EXCLUDED.scenario, "
    "status = EXCLUDED.status, created_at = EXCLUDED.created_at, last_seq = EXCLUDED.last_seq, "
    "active_seats = EXCLUDED.active_seats, last_submitted_seq = EXCLUDED.last_submitted_seq, "
    "last_handled_seq = EXCLUDED.last_handled_seq, sandbox = EXCLUDED.sandbox"
)
# Parameters in binary (`%b`): psycopg escapes every quote of a text array's elements with a
# regular expression in text format, which cost ~150 us per append (measured by profiling).
_APPEND_CALL = ("SELECT outcome, at_seq, chained_from, hashes FROM ledger_append(%b, %b, %b, %b::text[], %b::text[], "
                "%b::text[], %b::text[], %b, %b, %b::integer, %b::bytea, %b::integer, %b, %b, %b::boolean, %b, %b, "
                "%b, %b, %b, %b)")
_INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}, period) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"


def period_of(created_at: str) -> str:
    """A stream's partition (migration 6): the month it was created in, `2026-11`."""
    return created_at[:7]


class _Checker:
    """The pool's check on checkout, without a round trip per request.

    A connection broken by a database restart or an administrator's kill has had the server's
    FATAL notice or EOF arrive on its socket: an idle connection whose socket is readable is
    pinged (and replaced if the ping fails), as is one idle longer than IDLE_CHECK seconds (a
    peer that vanished without a word). Any other checkout costs one poll() system call."""

    def __init__(self) -> None:
        self._returned: weakref.WeakKeyDictionary[psycopg.Connection, float] = weakref.WeakKeyDictionary()

    def returned(self, conn: psycopg.Connection) -> None:  # when the store gives it back (no `reset` hook:
        # with one the pool takes returns through a worker thread, a hand-off per request)
        self._returned[conn] = time.monotonic()

    def check(self, conn: psycopg.Connection) -> None:
        if conn.closed or conn.broken:
            raise psycopg.OperationalError("the connection is closed")
        since = self._returned.get(conn)
        if since is None or time.monotonic() - since > IDLE_CHECK or _readable(conn):
            ConnectionPool.check_connection(conn)


def _readable(conn: psycopg.Connection) -> bool:
    """Whether the server sent something to an idle connection (a shutdown notice, EOF)."""
    try:
        poller = select.poll()
        poller.register(conn.pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True


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
        self._min_size = 1
        self._set_path = sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema))
        # Every connection's silences are bounded (ledger.netopts: WARLOG_NET_TIMEOUT): a partition
        # fails a query within seconds, and the server ends a silent client's session, releasing its locks.
        # The schema is set as a connection opens (its startup options), not by a SET after it: a
        # round trip less for each connection the pool or the game lock (re)opens, as every one
        # does after a partition (bench/netsoak.py).
        self._net = {**pg_params(url), "options": on_schema(url, pg_params(url), self.schema)}
        self._pool = self._new_pool()
        self._locks = LockSessions(lambda: psycopg.connect(self.url, autocommit=True, **self._net))

    def _new_pool(self) -> ConnectionPool:
        checker = self._checker = _Checker()

        def configure(conn: psycopg.Connection) -> None:
            checker.returned(conn)  # just opened: not suspect

        # Outages: `check` replaces a connection broken by a database restart instead of
        # handing it out (pinging only a suspect connection: _Checker); a caller waits at most POOL_WAIT s for a connection (then PoolTimeout);
        # a reconnection gives up after RECONNECT s, so the next caller starts a fresh, short
        # back-off rather than waiting out one that has grown to minutes; its attempts are at most
        # half a second apart (ledger.pgpool), so a restarted database is used as soon as it is back.
        pool = PromptPool(self.url, min_size=self._min_size, max_size=self._max_size,
                              kwargs={"autocommit": True, **self._net},
                              configure=configure, open=True, name=f"warlog-{self.schema}",
                              check=checker.check, timeout=POOL_WAIT,
                              reconnect_timeout=RECONNECT)
        try:
            pool.wait(timeout=connect_wait())
        except Exception as exc:
            pool.close()
            raise ConnectionError(f"cannot connect to PostgreSQL at {mask_url(self.url)}: {exc}") from exc
        self._pid = os.getpid()
        return pool

    placeholder = "%s"
    in_period = " AND period = game_period(?)"

    @contextlib.contextmanager
    def _write(self) -> Iterator[psycopg.Connection]:
        with self._conn() as conn, conn.transaction():
            yield conn

    def _conn(self) -> contextlib.AbstractContextManager[psycopg.Connection]:
        if self._pid != os.getpid():
            # Forked (e.g. an rq work horse): the parent's sockets are not ours to use or close.
            _INHERITED_POOLS.append(self._pool)
            self._pool = self._new_pool()
        return self._pooled()

    @contextlib.contextmanager
    def _pooled(self) -> Iterator[psycopg.Connection]:
        with self._pool.connection() as conn:
            try:
                yield conn
            finally:
                self._checker.returned(conn)

    def migrations(self) -> list[Migration]:
        return MIGRATIONS

    def create_schema(self) -> None:
        """Apply the missing migrations in one transaction (the owner role's `warlog db upgrade`).
        Creates the schema only if it is missing, so an owner without CREATE on the database
        can upgrade a schema made for it (`CREATE SCHEMA ... AUTHORIZATION owner`)."""
        with self._conn() as conn, conn.transaction():
            # Serialise concurrent upgraders: CREATE ... IF NOT EXISTS is not race-free.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self.schema, "\x00create_schema"),))
            if not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (self.schema,)).fetchone():
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self.schema)))
            conn.execute(self._set_path)
            conn.execute(VERSION_TABLE)
            current = _first(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone())
            quoted = sql.Identifier(self.schema).as_string(conn)
            applied = apply(lambda text, args: conn.execute(text, args or None),
                            MIGRATIONS, current, quoted, utc_now(), "%s")
        if applied:
            log.info("ledger schema %s upgraded to version %d", self.schema, applied[-1])

    def grant_app_role(self, role: str) -> None:
        """Give `role` the DML the app needs and nothing more (run by the owner after an
        upgrade): events, idempotency and secrets are insert-only, `pending` and
        `schema_version` read-only; `games` (a projection) and `snapshots` (a cache) writable.
        A role that owns no table cannot disable, drop or replace a trigger."""
        if not conn_role_exists(self, role):
            raise ValueError(f"no PostgreSQL role {role!r}: CREATE ROLE {role} LOGIN first")
        version = self.schema_version()
        with self._conn() as conn, conn.transaction():
            for text in APP_GRANTS:
                if version < GRANTED_SINCE.get(text, 0):  # a schema not yet at the migration that makes the table
                    continue
                conn.execute(sql.SQL(text).format(schema=sql.Identifier(self.schema), role=sql.Identifier(role)))

    def is_superuser(self) -> bool:
        with self._conn() as conn:
            return bool(_first(conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()))

    def owns_events(self) -> bool:
        """Whether the connected role owns (or is a member of the owner of) the events table."""
        with self._conn() as conn:
            row = conn.execute("SELECT pg_has_role(current_user, c.relowner, 'USAGE') FROM pg_class c "
                               "JOIN pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = %s AND c.relname = 'events'", (self.schema,)).fetchone()
            return bool(row and row[0])

    def pending_games(self) -> list[str]:
        """The sweep's one statement, answered as one array value (at 2,000 pending
        games a row per game cost about a third more in the driver than the query itself)."""
        with self._conn() as conn:
            row = conn.execute("SELECT array_agg(DISTINCT game_id ORDER BY game_id) FROM pending").fetchone()
        return list(row[0]) if row and row[0] else []

    def sweep_games(self) -> tuple[list[str], list[str]]:
        """`pending_games` and the unlisted games as two array values of one statement (one snapshot)."""
        with self._conn() as conn:
            row = conn.execute("SELECT (SELECT array_agg(DISTINCT game_id ORDER BY game_id) FROM pending), "
                               "(SELECT array_agg(game_id ORDER BY game_id) FROM (" + UNLISTED + ") AS unlisted)"
                               ).fetchone()
        return (list(row[0]) if row and row[0] else []), (list(row[1]) if row and row[1] else [])

    def keep_connections(self, n: int) -> None:
        """Keep at least `n` pooled connections open (up to the pool's size): a worker that judges
        n games at once after an outage then finds the connections a partition killed replaced
        side by side, not grown one at a time as its judgements wait (warlog.judging.catchup)."""
        self._min_size = max(1, min(n, self._max_size))
        self._pool.resize(self._min_size, self._max_size)

    def close(self) -> None:
        self._locks.close()
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
        key = projection.scoped_key(events, idempotency_key) if idempotency_key is not None else None
        with self._conn() as conn:
            try:
                sealed = self._append_call(conn, game_id, expected_seq, events, summary, key, secret, game_info)
                if sealed is not None:
                    return sealed
                with conn.transaction():  # the games row is lost (rare)
                    return self._append_lost_row(conn, game_id, expected_seq, events, summary, key, secret)
            except errors.UniqueViolation:
                pass  # another writer took this seq (or key) and committed: report what won
            except DuplicateKey as dup:
                raise DuplicateKey(game_id, idempotency_key or "", dup.seq) from None
            except Conflict:
                # A writer with the same key may have committed between our key check and our
                # seq check: a retry of an accepted submission is a duplicate, not a conflict.
                if key is None or self._idempotent_seq(conn, game_id, key) is None:
                    raise
            if key is not None:
                seq = self._idempotent_seq(conn, game_id, key)
                if seq is not None:
                    raise DuplicateKey(game_id, idempotency_key or "", seq)
            raise Conflict(game_id, expected_seq, self._last_seq(conn, game_id))

    def _append_call(
        self,
        conn: psycopg.Connection,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        summary: SummaryUpdate | None,
        idempotency_key: str | None,
        secret: bytes | None,
        game_info: tuple[str, str, bool] | None,
    ) -> list[Event] | None:
        """One statement, one round trip, one transaction: ledger_append (migrations 8, 9) locks,
        checks, chains, inserts and folds the projection. None when the games row is lost."""
        now = utc_now()
        parts = [body_parts(game_id, expected_seq + 1 + i, new, now) for i, new in enumerate(events)]
        marks = projection.batch_marks(events, expected_seq + 1)
        update = projection.checked_update(summary)
        game, scenario, sandbox = game_info if expected_seq == -1 and game_info is not None else (None, None, None)
        args = (game_id, expected_seq, parts[0][0], [p[1] for p in parts], [p[2] for p in parts],
                [ev.type for ev in events], [ev.seat for ev in events], now,
                idempotency_key, None if idempotency_key is None else projection.keyed_index(events) + 1,
                secret, None if secret is None or expected_seq == -1 else projection.new_seed_index(events) + 1,
                game, scenario, None if sandbox is None else bool(sandbox),
                marks.submitted, marks.handled, marks.started, marks.ended, update.status,
                None if update.active_seats is None else json.dumps(update.active_seats))
        outcome, at_seq, chained_from, hashes = _first_row(conn.execute(_APPEND_CALL, args, prepare=True, binary=True).fetchone())
        if outcome == "no_row":
            return None
        if outcome == "duplicate":
            raise DuplicateKey(game_id, idempotency_key or "", at_seq)
        if outcome == "conflict":
            raise Conflict(game_id, expected_seq, at_seq)
        sealed: list[Event] = []
        prev_hash = chained_from
        for i, (new, (head, payload, tail)) in enumerate(zip(events, parts, strict=True)):
            sealed.append(Event(game_id, expected_seq + 1 + i, new.type, new.seat, new.payload, now, prev_hash,
                                parts_hash(head, payload, prev_hash, tail)))
            prev_hash = sealed[-1].hash
        if [ev.hash for ev in sealed] != list(hashes):
            raise LedgerError(f"game {game_id}: the database chained events {expected_seq + 1}.. with other "
                              "hashes than their canonical bodies give (is the database's encoding UTF8?)")
        return sealed

    def _append_lost_row(
        self,
        conn: psycopg.Connection,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        summary: SummaryUpdate | None,
        idempotency_key: str | None,
        secret: bytes | None,
    ) -> list[Event]:
        """The games row of a running game is lost: rebuild it from the events (rare). Without
        the row the game's partition is unknown, so the reads look in every one; racing
        writers are decided by the events' primary key."""
        stream = [row_event(r) for r in conn.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s ORDER BY seq", (game_id,)).fetchall()]
        if idempotency_key is not None:
            hit = conn.execute("SELECT seq FROM idempotency WHERE game_id = %s AND key = %s",
                               (game_id, idempotency_key)).fetchone()
            if hit is not None:
                raise DuplicateKey(game_id, idempotency_key, hit[0])
        current, prev_hash = (stream[-1].seq, stream[-1].hash) if stream else (-1, GENESIS_HASH)
        if current != expected_seq:
            raise Conflict(game_id, expected_seq, current)
        now = utc_now()
        sealed: list[Event] = []
        for i, new in enumerate(events):
            ev = seal(game_id, expected_seq + 1 + i, new, now, prev_hash)
            sealed.append(ev)
            prev_hash = ev.hash
        period = period_of(stream[0].recorded_at)
        with conn.cursor() as cur:
            cur.executemany(_INSERT_EVENT, [(*event_row(ev), period) for ev in sealed])
        if idempotency_key is not None:  # already scoped to the seat by append()
            conn.execute("INSERT INTO idempotency (game_id, key, seq, period) VALUES (%s, %s, %s, %s)",
                         (game_id, idempotency_key, sealed[projection.keyed_index(events)].seq, period))
        if secret is not None:  # a fresh seed period (ledger.dice step 7)
            conn.execute("INSERT INTO seed_periods (game_id, seq, secret) VALUES (%s, %s, %s)",
                         (game_id, sealed[projection.new_seed_index(events)].seq, secret))
        before = projection.summary_from_events(stream)
        conn.execute(_UPSERT_GAME, summary_row(projection.fold(before, sealed, summary)))
        return sealed

    def import_events(self, events: list[Event], secret: bytes | None, summary: GameSummary) -> None:
        projection.check_import(events, summary)
        try:
            with self._conn() as conn, conn.transaction():
                if self._last_seq(conn, summary.game_id) != -1:
                    raise GameExists(f"game {summary.game_id} already has events")
                period = period_of(events[0].recorded_at)
                with conn.cursor() as cur:
                    cur.executemany(_INSERT_EVENT, [(*event_row(ev), period) for ev in events])
                if secret is not None:
                    conn.execute("INSERT INTO secrets (game_id, secret) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                                 (summary.game_id, secret))
                conn.execute(_UPSERT_GAME, summary_row(summary))
        except errors.UniqueViolation as exc:
            raise GameExists(f"game {summary.game_id} already has events ({exc})") from None

    # -- reading -------------------------------------------------------------------------


    # -- snapshots -----------------------------------------------------------------------
    def save_snapshot(self, game_id: str, seq: int, state: Any) -> None:
        """A cache row in the game's period (none for a game without a `games` row)."""
        text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        with self._write() as conn:
            conn.execute("INSERT INTO snapshots (game_id, seq, state, period) "
                         "SELECT %s, %s, %s, left(created_at, 7) FROM games WHERE game_id = %s "
                         "ON CONFLICT DO NOTHING", (game_id, seq, text, game_id))


    # -- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def game_lock(self, game_id: str, timeout: float = 30.0) -> Iterator[None]:
        """A session advisory lock on a session of its own (not from the pool), polled until
        `timeout`. Not re-entrant across `game_lock` calls: each takes a session no other
        holder has. Idle sessions are kept and reused (ledger.pglocks)."""
        with self._locks.hold(lock_key(self.schema, game_id), timeout, f"game {game_id}"):
            yield

    @contextlib.contextmanager
    def locked_read(self, game_id: str, timeout: float = 30.0, summary: bool = True,
                    events_after: int | None = None, events_upto: int | None = None,
                    seeds: bool = False) -> Iterator[LockedRead]:
        """`game_lock`, its reads sent with the lock's attempt: one round trip, not two or more."""
        reads: list[tuple[str, tuple[Any, ...]]] = []
        if summary:
            reads.append((f"SELECT {SUMMARY_COLUMNS} FROM games WHERE game_id = %s", (game_id,)))
        if events_after is not None:
            upto = "" if events_upto is None else " AND seq <= %s"
            reads.append((f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s{self._sql(self.in_period)} "
                          f"AND seq > %s{upto} ORDER BY seq",
                          (game_id, game_id, events_after, *(() if events_upto is None else (events_upto,)))))
        if seeds:  # `seeds`: the first secret as period 0, then each later period's
            reads.append(("SELECT 0, secret FROM secrets WHERE game_id = %s UNION ALL "
                          "SELECT seq, secret FROM seed_periods WHERE game_id = %s ORDER BY 1", (game_id, game_id)))
        with self._locks.hold(lock_key(self.schema, game_id), timeout, f"game {game_id}", reads) as answers:
            each = iter(answers)
            found = next(each) if summary else []
            events = [row_event(r) for r in next(each)] if events_after is not None else None
            secrets = [(int(r[0]), bytes(r[1])) for r in next(each)] if seeds else None
            yield LockedRead(row_summary(found[0]) if found else None, events, secrets)

    # -- helpers -------------------------------------------------------------------------
