"""psycopg_pool's ConnectionPool, reconnecting promptly after a database restart or a partition.

When PostgreSQL goes away, the pool replaces each broken connection in the background, trying
again after 1 s, 2 s, 4 s, 8 s (psycopg_pool's AttemptWithBackoff), until its reconnect timeout.
A restart of a few seconds could so leave a process without a connection for seconds after the
database was back, and every job and sweep in it waiting for one (found by bench/chaos_soak.py:
a worker's job waited the pool's whole 5 s timeout for a connection although PostgreSQL had been
back for a moment, and its move was judged 6.7 s after it was recorded). Here the attempts start
at RECONNECT_FIRST s and are never more than RECONNECT_STEP s apart: an attempt on a server that
is down costs one refused connection.

A checkout, too, waited out psycopg_pool's back-off (1 s, then 2 s ...) after each idle
connection that failed its check: after a partition every idle connection is dead, and a worker's
first query after the heal waited a second for each of them, up to the pool's 5 s timeout (found
by bench/netsoak.py). Here the idle connections found dead are passed over at once, the next
one tried (or a new one waited for), and only then does a check failure back off, promptly.
"""

from __future__ import annotations

from time import monotonic, sleep
from typing import Any

from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

RECONNECT_FIRST = 0.25  # seconds before the first attempt to replace a broken connection
RECONNECT_STEP = 0.5  # seconds at most between two attempts


class PromptAttempt(AttemptWithBackoff):
    """psycopg_pool's back-off, starting sooner and capped at RECONNECT_STEP."""

    INITIAL_DELAY = RECONNECT_FIRST

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, RECONNECT_STEP)


class PromptPool(ConnectionPool):
    """A ConnectionPool whose background reconnection uses PromptAttempt, and whose checkout
    passes over dead idle connections without waiting."""

    def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        super()._add_connection(attempt or PromptAttempt(timeout=self.reconnect_timeout), growing=growing)

    def _getconn_with_check_loop(self, deadline: float) -> Any:
        """psycopg_pool's checkout loop, except that up to `max_size` failed checks in a row (the
        idle connections a partition killed, each replaced in the background as it is found)
        cost no wait; after that, PromptAttempt's back-off between checks."""
        attempt: AttemptWithBackoff | None = None
        failed = 0
        while True:
            conn = self._getconn_unchecked(deadline - monotonic())
            try:
                self._check_connection(conn)
            except Exception:
                self._putconn(conn, from_getconn=True)
            except BaseException:  # cancelled: give the connection back, try no more
                self._putconn(conn, from_getconn=True)
                raise
            else:
                return conn
            failed += 1
            if failed <= self.max_size:
                continue
            now = monotonic()
            if attempt is None:
                attempt = PromptAttempt(timeout=deadline - now)
            else:
                attempt.update_delay(now)
            if attempt.time_to_give_up(now):
                raise PoolTimeout()
            sleep(attempt.delay)
