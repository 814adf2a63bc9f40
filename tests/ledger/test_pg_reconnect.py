"""Found by bench/chaos_soak.py: while PostgreSQL is down, the pool tries to replace
its broken connection every RECONNECT_STEP s at most (ledger.pgpool), not after psycopg_pool's
1, 2, 4, 8 s, so a process uses a restarted database as soon as it is back. A cluster of the
test's own, stopped and started; the machine's shared one is never touched."""

from __future__ import annotations

import time

import psycopg
import pytest

from ledger.factory import open_store
from ledger.postgres import PostgresStore
from tests.support.services import PostgresServer

pytestmark = pytest.mark.slow


def test_the_pool_tries_to_reconnect_twice_a_second_while_postgresql_is_down() -> None:
    pg = PostgresServer()
    pg.start()
    store = open_store(pg.url, upgrade=True)
    assert isinstance(store, PostgresStore)
    try:
        assert store.pending_games() == []
        pg.stop()
        down = time.monotonic()
        with pytest.raises(psycopg.OperationalError):  # its connection is broken; no new one comes
            store.pending_games()
        time.sleep(max(0.0, 6.0 - (time.monotonic() - down)))
        attempts = store._pool.get_stats().get("connections_errors", 0)
        # each reconnection under way (here two) tries ~12 times in 6 s; psycopg_pool alone 3 times (0, 1, 3 s)
        assert attempts >= 15, f"{attempts} failed attempts to connect in 6 s"
        pg.start()
        assert store.pending_games() == []  # back: the next attempt connects
    finally:
        store.close()
        pg.remove()
