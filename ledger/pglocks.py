"""The PostgreSQL game lock's sessions, kept open between locks.

A game lock is a session advisory lock held on a connection of its own (never one of the
store's pool, which the lock holder goes on using). Opening that connection cost more than the
judgement it guarded, so idle lock sessions are kept, at most `keep` of them, and handed out
again. A session goes back only after `pg_advisory_unlock` said it released the lock; any
error on it closes it instead, and closing a session releases every lock it held, so no lock
is ever left behind in an idle session. A process killed while holding one loses its socket,
and the server releases the lock with the session, as before.

A lock holder's first reads can go with the lock's attempt, in its round trip (`hold`'s
`reads`): across a slow link to the database that is a round trip less per judgement.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import psycopg

from ledger.store import LockTimeout

POLL = 0.05  # seconds between attempts on a held lock
Reads = Sequence[tuple[str, Sequence[Any]]]  # statements (SQL with %s, parameters) read under a lock


class LockSessions:
    """Advisory locks on kept sessions; `connect` opens a new autocommit session."""

    def __init__(self, connect: Callable[[], psycopg.Connection], keep: int = 4) -> None:
        self._connect = connect
        self._keep = keep
        self._idle: list[psycopg.Connection] = []
        self._guard = threading.Lock()
        self._pid = os.getpid()

    def _take(self) -> psycopg.Connection | None:
        with self._guard:
            if self._pid != os.getpid():  # forked: the parent's sockets are not ours to use or close
                self._idle, self._pid = [], os.getpid()
            while self._idle:
                conn = self._idle.pop()
                if not (conn.closed or conn.broken):
                    return conn
        return None

    def _give_back(self, conn: psycopg.Connection) -> None:
        with self._guard:
            if self._pid == os.getpid() and len(self._idle) < self._keep:
                self._idle.append(conn)
                return
        conn.close()

    def _try(self, conn: psycopg.Connection, key: int, reads: Reads) -> tuple[bool, list[list[Any]]]:
        """One attempt at the lock, and `reads` after it in the same round trip: a pipeline of
        prepared statements (planned once a session, their parameters bound by the server), each
        of which sees what was committed before it began, so after the lock when it was taken."""
        if not reads:
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,), prepare=True).fetchone()
            return bool(row and row[0]), []
        with conn.pipeline():
            attempt = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,), prepare=True)
            cursors = [conn.execute(text, args, prepare=True) for text, args in reads]
        row = attempt.fetchone()
        return bool(row and row[0]), [list(cur.fetchall()) for cur in cursors]

    def _session_with_try(self, key: int, reads: Reads) -> tuple[psycopg.Connection, bool, list[list[Any]]]:
        """A session and its first attempt; a kept session the server dropped meanwhile (a
        restart) is closed and replaced by a fresh one."""
        kept = self._take()
        if kept is not None:
            try:
                return kept, *self._try(kept, key, reads)
            except psycopg.OperationalError:
                kept.close()
        conn = self._connect()
        try:
            return conn, *self._try(conn, key, reads)
        except BaseException:
            conn.close()
            raise

    @contextlib.contextmanager
    def hold(self, key: int, timeout: float, what: str, reads: Reads = ()) -> Iterator[list[list[Any]]]:
        """Hold advisory lock `key`, polling until `timeout` seconds; LockTimeout names `what`.
        Yields the rows of each of `reads` ((SQL, parameters): read on the lock's session with
        the attempt that took the lock, in its round trip)."""
        deadline = time.monotonic() + timeout
        conn, got, answers = self._session_with_try(key, reads)
        try:
            while not got and time.monotonic() < deadline:
                time.sleep(POLL)
                got, answers = self._try(conn, key, reads)
        except BaseException:
            conn.close()
            raise
        if not got:  # the session holds nothing: kept for the next lock (a new one costs round trips)
            self._give_back(conn)
            raise LockTimeout(f"{what}: lock held elsewhere for {timeout}s")
        try:
            yield answers
        finally:
            self._release(conn, key)

    def _release(self, conn: psycopg.Connection, key: int) -> None:
        try:
            row = conn.execute("SELECT pg_advisory_unlock(%s)", (key,), prepare=True).fetchone()
            released = bool(row and row[0])
        except Exception:
            released = False
        if released:
            self._give_back(conn)
        else:
            conn.close()  # closing the session releases whatever it still held

    def close(self) -> None:
        with self._guard:
            idle, self._idle = self._idle, []
            mine = self._pid == os.getpid()
        if mine:
            for conn in idle:
                conn.close()
