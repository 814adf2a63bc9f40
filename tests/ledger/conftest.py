"""Fixtures running the ledger tests against every backend, each test isolated.

SQLite: a file in tmp_path. PostgreSQL (WARLOG_TEST_PG_URL, default the local `test`
database): a fresh schema `warlog_test_<uuid hex>` per test, dropped afterwards. PostgreSQL
is required: if it is unreachable the postgres tests fail, they do not skip.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from ledger.events import NewEvent
from ledger.postgres import PostgresStore
from ledger.sqlite import SqliteStore
from ledger.store import EventStore

PG_URL = os.environ.get("WARLOG_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgres"]


def require_postgres() -> None:
    try:
        psycopg.connect(PG_URL, connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is required for the postgres ledger tests but {PG_URL} is unreachable "
                    f"(set WARLOG_TEST_PG_URL): {exc}", pytrace=False)


@contextlib.contextmanager
def throwaway_pg_store(**options: Any) -> Iterator[PostgresStore]:
    """A PostgresStore in a fresh schema `warlog_test_<uuid hex>`, dropped afterwards."""
    require_postgres()
    schema = f"warlog_test_{uuid.uuid4().hex}"
    st = PostgresStore(PG_URL, schema=schema, **options)
    st.create_schema()
    try:
        yield st
    finally:
        st.close()
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


class Backend:
    """One isolated database (a SQLite file or a PostgreSQL schema) and its store instances."""

    def __init__(self, name: str, tmp_path: Path) -> None:
        self.name = name
        self.tmp_path = tmp_path
        self.stores: list[EventStore] = []
        self.schemas: list[str] = []
        self.target = self._new_target(name)

    def _new_target(self, kind: str) -> str:
        """A fresh database location: a file path or a schema name."""
        if kind == "sqlite":
            return str(self.tmp_path / f"ledger-{uuid.uuid4().hex[:8]}.db")
        schema = f"warlog_test_{uuid.uuid4().hex}"
        self.schemas.append(schema)
        return schema

    def _open(self, kind: str, target: str) -> EventStore:
        store: EventStore = SqliteStore(target) if kind == "sqlite" else PostgresStore(PG_URL, schema=target)
        self.stores.append(store)
        store.create_schema()
        return store

    def store(self) -> EventStore:
        """Another store instance on this backend's database (its own connections)."""
        return self._open(self.name, self.target)

    def fresh_store(self, kind: str | None = None) -> EventStore:
        """A store on a new, empty database of the same kind (or of `kind`)."""
        kind = kind or self.name
        if kind == "postgres":
            require_postgres()
        return self._open(kind, self._new_target(kind))

    def raw(self, store: EventStore, statement: str) -> None:
        """Run SQL on a plain connection, bypassing the store (and committing)."""
        if isinstance(store, SqliteStore):
            conn = sqlite3.connect(store.path, isolation_level=None)
            try:
                conn.execute(statement)
            finally:
                conn.close()
        else:
            assert isinstance(store, PostgresStore)
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(store.schema)))
                conn.execute(statement)  # type: ignore[arg-type]

    def close(self) -> None:
        for store in self.stores:
            store.close()
        if self.schemas:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                for schema in self.schemas:
                    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "postgres":
        require_postgres()
    b = Backend(request.param, tmp_path)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture
def store(backend: Backend) -> EventStore:
    return backend.store()


@pytest.fixture
def make_game() -> Callable[..., Any]:
    """Create a game: `make_game(store, game_id, *more_events, sandbox=False, secret=None)`."""

    def make(store: EventStore, game_id: str, *more: NewEvent, sandbox: bool = False,
             secret: bytes | None = None, game: str = "ardennes", scenario: str = "s1") -> list:
        created = NewEvent("game_created", None, {"game": game, "scenario": scenario,
                                                  "sandbox": {"dice": [1, 2]} if sandbox else None})
        return store.append(game_id, -1, [created, *more], game_info=(game, scenario, sandbox), secret=secret)

    return make
