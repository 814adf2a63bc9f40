"""Riding out an outage of Redis or PostgreSQL.

`is_outage` tells an unreachable service, or a storage fault (ledger.faults: a full disk, a
read-only database, a missing schema), from a bug; `Outage` logs one line when a service
goes away and one when it is back, and nothing in between, so an outage under load is two
clear lines in the log rather than a traceback per request; `Backoff` is the wait between
attempts to reach it again.
"""

from __future__ import annotations

import logging
import threading
import time

from ledger.faults import storage_fault
from ledger.urls import mask_url


def outage_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the service is not there", not "the code is wrong"."""
    import psycopg
    import redis.exceptions
    from psycopg_pool import PoolTimeout

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, psycopg.OperationalError,
            PoolTimeout, ConnectionError, TimeoutError)


def is_outage(err: BaseException) -> bool:
    """An unreachable service, or a storage fault (ledger.faults: a full disk, a read-only
    database, a missing schema): nothing was recorded, and trying again later may work."""
    return isinstance(err, outage_errors()) or storage_fault(err) is not None


def one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return mask_url(text[:300])


class Outage:
    """The state of one service as this process sees it: up, or down since a moment (and,
    for a storage fault, why and when it was last met)."""

    def __init__(self, what: str, log: logging.Logger) -> None:
        self.what, self.log = mask_url(what), log
        self.since: float | None = None
        self.reason = ""
        self.last_met = 0.0
        self.storage: Outage | None = None  # where a storage fault met as this service's outage goes
        self._lock = threading.Lock()

    @property
    def down_now(self) -> bool:
        return self.since is not None

    def down(self, err: BaseException, meanwhile: str = "") -> bool:
        """Note a failure; log it only if it starts an outage. True when it did."""
        if self.storage is not None and storage_fault(err) is not None:
            return self.storage.down(err, meanwhile)
        with self._lock:
            self.last_met, self.reason = time.monotonic(), one_line(err)
            if self.since is not None:
                return False
            self.since = self.last_met
        self.log.warning("%s unreachable (%s)%s", self.what, one_line(err), f"; {meanwhile}" if meanwhile else "")
        return True

    def up(self) -> bool:
        """Note a success; log it only if it ends an outage. True when it did."""
        with self._lock:
            if self.since is None:
                return False
            lasted, self.since = time.monotonic() - self.since, None
        self.log.warning("%s is back after %.1f s", self.what, lasted)
        return True


class Backoff:
    """0.5 s, 1 s, 2 s … up to `ceiling`: how long to wait before trying a service again."""

    def __init__(self, first: float = 0.5, ceiling: float = 10.0) -> None:
        self.first, self.ceiling, self.next = first, ceiling, first

    def step(self) -> float:
        wait, self.next = self.next, min(self.next * 2, self.ceiling)
        return wait

    def reset(self) -> None:
        self.next = self.first


# One per process: the sweeper, the jobs and the web handlers all report the ledger here, so
# one outage is one pair of lines whoever meets it first.
LEDGER = Outage("the ledger", logging.getLogger("warlog.ledger"))


class StorageFault(Outage):
    """The ledger answers but cannot keep what it is given (ledger.faults): one line when the
    fault is first met, one when a write goes through again."""

    def down(self, err: BaseException, meanwhile: str = "") -> bool:
        with self._lock:
            self.last_met, self.reason = time.monotonic(), storage_fault(err) or one_line(err)
            if self.since is not None:
                return False
            self.since = self.last_met
        self.log.error("the ledger cannot store: %s%s", self.reason, f"; {meanwhile}" if meanwhile else "")
        return True

    def up(self) -> bool:
        with self._lock:
            if self.since is None:
                return False
            lasted, self.since = time.monotonic() - self.since, None
        self.log.warning("the ledger stores again after %.1f s (it could not: %s)", lasted, self.reason)
        return True


STORAGE = StorageFault("the ledger's storage", logging.getLogger("warlog.ledger"))
LEDGER.storage = STORAGE  # a job or a sweep that meets a full disk says so, and /readyz knows

# Set by a job that met a ledger outage and left its submission pending: this process's sweeper
# then tries again within a second, backing off while the ledger stays away, instead of waiting
# its whole interval (found by bench/chaos_soak.py: a stale pooled connection after a PostgreSQL
# restart left moves pending for the rest of a 30 s interval although the ledger was back).
SWEEP_SOON = threading.Event()


class QuietPoolDuringOutage(logging.Filter):
    """psycopg's pool warns at each reconnection attempt: the first becomes LEDGER's one line
    for the outage, the repeats are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.startswith(("error connecting", "reconnection attempt")):
            return True
        LEDGER.down(ConnectionError(message.partition(": ")[2] or message), "retrying with a back-off")
        return False


def quiet_pool_logs() -> None:
    pool_log = logging.getLogger("psycopg.pool")
    if not any(isinstance(f, QuietPoolDuringOutage) for f in pool_log.filters):
        pool_log.addFilter(QuietPoolDuringOutage())


def closed(err: BaseException) -> bool:
    """Whether `err` says the store was closed under a background loop (its app shut down
    without stopping it): the loop then ends quietly rather than log a traceback forever."""
    from psycopg_pool import PoolClosed

    from ledger.store import StoreClosed

    return isinstance(err, (StoreClosed, PoolClosed))
