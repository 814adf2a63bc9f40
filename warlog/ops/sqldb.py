"""Plain tables beside the ledger (players, deliveries, deadlines) on the ledger's own database.

`SqlDb` borrows the event store's connections (SQLite file or PostgreSQL pool), so the
service's other tables live in the same database and schema as the events, and one backup
holds everything. The SQL is written with `?` placeholders and run on both backends.

Each module keeps its DDL in one place as a `Ddl` (one text per dialect, idempotent:
`CREATE ... IF NOT EXISTS` only) so that it can become one versioned migration unchanged.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ledger.store import EventStore

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """UTC, second precision, sortable as text: '2026-11-24T06:00:00Z'."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def sha256_hex(secret: str) -> str:
    """How every token and link is stored: only its SHA-256 (the tokens are 192-bit random)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def sortable_id(prefix: str) -> str:
    """A unique id that sorts in creation order (nanoseconds, then 32 random bits)."""
    return f"{prefix}{time.time_ns():019d}{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Ddl:
    """A module's tables: `name` (for the creation lock), one idempotent script per dialect."""

    name: str
    sqlite: str
    postgresql: str


_TABLE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+)")


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


class SqlDb:
    """`?`-placeholder SQL on the event store's database."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.dialect = "postgresql" if getattr(store, "placeholder", "?") == "%s" else "sqlite"

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.dialect == "postgresql" else text

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One committed transaction (BEGIN IMMEDIATE on SQLite: writers queue)."""
        with self.store._write() as conn:  # type: ignore[attr-defined]
            yield Tx(conn, self._sql)

    def rows(self, text: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.store._conn() as conn:  # type: ignore[attr-defined]
            return [tuple(r) for r in conn.execute(self._sql(text), tuple(args)).fetchall()]

    def one(self, text: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        found = self.rows(text, args)
        return found[0] if found else None

    def execute(self, text: str, args: Sequence[Any] = ()) -> int:
        """Run one statement in its own transaction; return the affected row count."""
        with self.transaction() as tx:
            return tx.execute(text, args)

    def create_schema(self, ddl: Ddl) -> None:
        """Make `ddl`'s tables if they are missing. The ledger's migration 4 (`warlog db upgrade`,
        ledger/migrations/services.py) makes them in a deployment, where the app role may not run
        DDL at all: then this finds them there and does nothing. Safe to run again and from
        several processes at once."""
        names = [m.group(1) for m in (_TABLE.match(s) for s in _statements(ddl.sqlite)) if m]
        if names and all(self._exists(name) for name in names):
            return
        with self.store._write() as conn:  # type: ignore[attr-defined]
            if self.dialect == "postgresql":
                key = int.from_bytes(hashlib.sha256(f"warlog-ddl/{ddl.name}".encode()).digest()[:8], "big",
                                     signed=True)
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
                conn.execute(ddl.postgresql)
            else:
                for statement in _statements(ddl.sqlite):
                    conn.execute(statement)


    def now(self) -> datetime:
        """The database server's clock (UTC): what deadlines are compared with, so that a process
        whose own clock is off neither fires a deadline early nor holds it late."""
        if self.dialect == "postgresql":
            found = self.one("SELECT clock_timestamp()")
            assert found is not None
            moment: datetime = found[0]
            return moment.astimezone(UTC)
        found = self.one("SELECT strftime('%Y-%m-%dT%H:%M:%f', 'now')")
        assert found is not None
        return datetime.fromisoformat(str(found[0])).replace(tzinfo=UTC)

    def _exists(self, table: str) -> bool:
        if self.dialect == "postgresql":
            return self.one("SELECT to_regclass(?) IS NOT NULL", (table,)) == (True,)
        return self.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)) is not None


class Tx:
    """A connection inside a transaction, taking `?` placeholders."""

    def __init__(self, conn: Any, convert: Callable[[str], str]) -> None:
        self.conn, self._convert = conn, convert

    def execute(self, text: str, args: Sequence[Any] = ()) -> int:
        cur = self.conn.execute(self._convert(text), tuple(args))
        return int(cur.rowcount)

    def executemany(self, text: str, rows: Sequence[Sequence[Any]]) -> None:
        cur = self.conn.cursor()
        try:
            cur.executemany(self._convert(text), [tuple(r) for r in rows])
        finally:
            cur.close()

    def rows(self, text: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.conn.execute(self._convert(text), tuple(args)).fetchall()]

    def one(self, text: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        found = self.rows(text, args)
        return found[0] if found else None
