"""psycopg_pool's ConnectionPool, reconnecting promptly after a database restart.

When PostgreSQL goes away, the pool replaces each broken connection in the background, trying
again after 1 s, 2 s, 4 s, 8 s (psycopg_pool's AttemptWithBackoff), until its reconnect timeout.
A restart of a few seconds could so leave a process without a connection for seconds after the
database was back, and every job and sweep in it waiting for one (found by bench/chaos_soak.py:
a worker's job waited the pool's whole 5 s timeout for a connection although PostgreSQL had been
back for a moment, and its move was judged 6.7 s after it was recorded). Here the attempts start
at RECONNECT_FIRST s and are never more than RECONNECT_STEP s apart: an attempt on a server that
is down costs one refused connection.
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool
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
    """A ConnectionPool whose background reconnection uses PromptAttempt."""

    def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        super()._add_connection(attempt or PromptAttempt(timeout=self.reconnect_timeout), growing=growing)
