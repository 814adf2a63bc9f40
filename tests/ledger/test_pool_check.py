"""The pool's checkout check (keeping the prompt reconnection after an outage): a checkout pings
the database only when the connection is suspect, and a connection whose backend was killed
is replaced, never handed out."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest

from ledger import postgres
from ledger.postgres import PostgresStore
from tests.ledger.conftest import PG_URL, throwaway_pg_store


@pytest.fixture
def store() -> Iterator[PostgresStore]:
    with throwaway_pg_store(max_size=1) as st:
        yield st


def _pings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = postgres.ConnectionPool.check_connection

    def counted(conn: psycopg.Connection) -> None:
        calls.append(1)
        real(conn)

    monkeypatch.setattr(postgres.ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def test_a_healthy_recent_connection_is_handed_out_without_a_ping(store: PostgresStore,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store.list_games(limit=1)  # the connection has been used and returned
    pings = _pings(monkeypatch)
    for _ in range(20):
        assert store.list_games(limit=1) == []
    assert pings == []


def test_a_connection_idle_too_long_is_pinged(store: PostgresStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.list_games(limit=1)
    pings = _pings(monkeypatch)
    real = time.monotonic
    monkeypatch.setattr(postgres.time, "monotonic", lambda: real() + postgres.IDLE_CHECK + 1)
    assert store.list_games(limit=1) == []
    assert pings == [1]


def test_a_connection_whose_backend_was_killed_is_replaced_not_handed_out(store: PostgresStore,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with store._conn() as conn:
        pid = conn.info.backend_pid
    with psycopg.connect(PG_URL, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
    time.sleep(0.3)  # the server's FATAL notice reaches the idle socket
    pings = _pings(monkeypatch)
    assert store.list_games(limit=1) == []  # no OperationalError: the dead connection was replaced
    assert pings, "the readable socket made the checkout ping"
    with store._conn() as conn:
        assert conn.info.backend_pid != pid
