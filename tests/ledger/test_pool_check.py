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


def test_idle_connections_killed_by_an_outage_are_passed_over_without_a_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by bench/netsoak.py: after a partition every idle connection of a worker's pool was
    dead, and a checkout waited psycopg_pool's back-off (1 s, 2 s ...) after each one it found
    so, up to its 5 s timeout, before the first query after the heal (ledger.pgpool)."""
    from psycopg_pool import pool as psycopg_pool_module

    from ledger import pgpool

    with throwaway_pg_store(max_size=4) as st:
        with st._conn() as a, st._conn() as b, st._conn() as c:  # three connections, now idle in the pool
            pids = [conn.info.backend_pid for conn in (a, b, c)]
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.3)  # the server's FATAL notices reach the idle sockets
        waits: list[float] = []
        monkeypatch.setattr(psycopg_pool_module, "sleep", waits.append)
        monkeypatch.setattr(pgpool, "sleep", waits.append)
        assert st.list_games(limit=1) == []
        assert waits == [], f"the checkout waited {waits} s between dead connections"
        with st._conn() as conn:
            assert conn.info.backend_pid not in pids
