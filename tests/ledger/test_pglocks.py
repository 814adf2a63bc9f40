"""The PostgreSQL game lock's kept sessions (ledger.pglocks): a lock opens no new
connection when an idle session is kept; a kept session whose backend was killed is replaced,
not reused; a session goes back only once its lock is released."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from ledger.postgres import PostgresStore, lock_key
from tests.ledger.conftest import PG_URL, throwaway_pg_store


@pytest.fixture
def store() -> Iterator[PostgresStore]:
    with throwaway_pg_store() as st:
        yield st


def _lock_pid(store: PostgresStore, game_id: str) -> int:
    """The backend pid holding the game's advisory lock (pg_locks splits the key in two)."""
    key = lock_key(store.schema, game_id) & 0xFFFFFFFFFFFFFFFF
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        row = conn.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                           "AND classid = %s AND objid = %s", (key >> 32, key & 0xFFFFFFFF)).fetchone()
    assert row is not None, "the lock is not held"
    return int(row[0])


def test_a_second_lock_reuses_the_first_ones_session(store: PostgresStore) -> None:
    with store.game_lock("g1", timeout=1):
        first = _lock_pid(store, "g1")
    with store.game_lock("g2", timeout=1):
        assert _lock_pid(store, "g2") == first


def test_a_kept_session_whose_backend_was_killed_is_replaced(store: PostgresStore) -> None:
    with store.game_lock("g1", timeout=1):
        first = _lock_pid(store, "g1")
    with psycopg.connect(PG_URL, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (first,))
    with store.game_lock("g1", timeout=2):
        assert _lock_pid(store, "g1") != first
    other = PostgresStore(store.url)
    try:
        with other.game_lock("g1", timeout=1):  # released: another process's store takes it
            pass
    finally:
        other.close()


def test_a_session_whose_unlock_failed_is_closed_and_its_lock_gone(store: PostgresStore) -> None:
    with pytest.raises(RuntimeError):
        with store.game_lock("g1", timeout=1):
            holder = _lock_pid(store, "g1")
            with psycopg.connect(PG_URL, autocommit=True) as admin:  # the unlock will fail on it
                admin.execute("SELECT pg_terminate_backend(%s)", (holder,))
            raise RuntimeError("the judgement failed too")
    assert store._locks._idle == []  # nothing went back to be reused
    other = PostgresStore(store.url)
    try:
        with other.game_lock("g1", timeout=1):
            pass
    finally:
        other.close()


def test_a_lock_found_held_keeps_its_session_for_the_next_lock(store: PostgresStore) -> None:
    """A worker passing over a game whose lock another holds (warlog.judging.drainer.judge_all)
    keeps the session it asked on: a new one costs several round trips to the database."""
    from ledger.store import LockTimeout

    other = PostgresStore(store.url)
    try:
        with other.game_lock("g1", timeout=1):
            with pytest.raises(LockTimeout):
                with store.game_lock("g1", timeout=0):
                    pass
            assert len(store._locks._idle) == 1
            kept = store._locks._idle[0].info.backend_pid
        with store.game_lock("g1", timeout=1):  # released now: the kept session takes it
            assert _lock_pid(store, "g1") == kept
    finally:
        other.close()


def test_a_locked_read_goes_with_the_locks_attempt_in_one_round_trip(store: PostgresStore) -> None:
    """The resolver's first reads under the game lock (EventStore.locked_read) cost no round trip
    of their own: one pipeline (one round trip) takes the lock and reads the summary, the events
    and the seeds, one more statement releases it."""
    from ledger.events import NewEvent

    store.append("g1", -1, [NewEvent("game_created", None, {"game": "ardennes", "scenario": "s1"})],
                 game_info=("ardennes", "s1", False))
    trips: list[list[str]] = []  # each round trip: the statements it sent
    execute, pipeline = psycopg.Cursor.execute, psycopg.Connection.pipeline

    def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if self.connection._pipeline is not None:
            trips[-1].append(str(query))
        else:
            trips.append([str(query)])
        return execute(self, query, *args, **kwargs)

    @contextlib.contextmanager
    def one_trip(self: Any) -> Any:
        trips.append([])
        with pipeline(self) as p:
            yield p

    psycopg.Cursor.execute = counted  # type: ignore[method-assign]
    psycopg.Connection.pipeline = one_trip  # type: ignore[method-assign]
    try:
        with store.locked_read("g1", timeout=1, events_after=-1, events_upto=100, seeds=True) as first:
            assert len(trips) == 1, trips
            assert "pg_try_advisory_lock" in trips[0][0] and any("seed_periods" in q for q in trips[0])
            assert first.seeds == []
            assert first.summary is not None and first.summary.last_seq == 0
            assert first.events is not None and [ev.seq for ev in first.events] == [0]
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]
        psycopg.Connection.pipeline = pipeline  # type: ignore[method-assign]
    assert len(trips) == 2 and "pg_advisory_unlock" in trips[1][0]
