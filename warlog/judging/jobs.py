"""RQ job functions. Importable, take ids not objects, safe to run twice (STYLE: RQ).

The store is opened once per process from WARLOG_DB (keyed by pid, so a forked work horse
never shares its parent's connections).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from ledger.factory import open_store
from ledger.store import EventStore
from warlog.judging import drainer, onejob, wakeup
from warlog.judging.outage import LEDGER, SWEEP_SOON, is_outage
from warlog.judging.resolver import Resolver, fault_delay_from_env

log = logging.getLogger("warlog.judging.jobs")

DEFAULT_DB = "sqlite:///var/warlog.sqlite3"
_stores: dict[tuple[int, str], EventStore] = {}
# One resolver per process and ledger, so its state cache (warlog.games.history.StateCache, checked
# against the chain hash before use) keeps a hot game's latest state from one job to the next.
_resolvers: dict[tuple[int, str], Resolver] = {}


def db_url() -> str:
    return os.environ.get("WARLOG_DB", DEFAULT_DB)


def store_for(url: str | None = None) -> EventStore:
    url = url or db_url()
    key = (os.getpid(), url)
    if key not in _stores:
        _stores[key] = open_store(url)
    return _stores[key]


def resolver_for(url: str | None = None) -> Resolver:
    from warlog.notify.jobs import on_judged

    url = url or db_url()
    key = (os.getpid(), url)
    if key not in _resolvers:
        _resolvers[key] = Resolver(store_for(url), on_judged=on_judged(), delay_before_append=fault_delay_from_env())
    return _resolvers[key]


def resolve_game(game_id: str) -> int:
    """Judge every pending submission of one game, then stay as a drainer for the moves of any
    game submitted meanwhile (warlog.judging.drainer); returns how many were judged. While the ledger
    is unreachable it returns -1 and the submission stays pending: the sweep queues it again
    once the ledger is back, so the job does not fail for an outage. The players
    owning the seats concerned are notified (warlog.notify.hooks)."""
    try:  # first: a submission from now on queues the next job (warlog.judging.onejob)
        onejob.release_in_job(game_id)
    except Exception as err:
        if not is_outage(err):
            raise  # Redis gone: judge anyway; the key left behind is stale and is taken over
    judged = _judged_or_outage(lambda: resolver_for().run(game_id))
    if judged < 0:
        return judged
    if judged > 0:
        _publish(game_id)
    more = _judged_or_outage(_drain_woken)
    return judged + max(more, 0)


def drain_woken() -> int:
    """A recruit (warlog.judging.drainer): stay as a drainer in this worker too, for a backlog."""
    from rq import get_current_job

    job = get_current_job()
    if job is not None:
        job.connection.delete(drainer.RECRUIT)  # from now on a backlog recruits again
    return _judged_or_outage(_drain_woken)


def _drain_woken() -> int:
    from rq import get_current_job

    job = get_current_job()
    if job is None:  # run outside RQ (a test calling the job function): no Redis to wait on
        return 0
    from rq import Queue

    from warlog.judging.queue import QUEUE_NAME
    from warlog.notify.jobs import notify_queue

    store, resolver = store_for(), resolver_for()
    # a notification waiting ends the drainer; judging jobs waiting (this queue holds nothing else)
    # have it take the games' jobs off the queue, judge those games and stay (warlog.judging.drainer.drain)
    moves, notices = Queue(QUEUE_NAME, connection=job.connection).key, notify_queue(job.connection).key
    conn = job.connection  # the drainer's waiters are threads: RQ's current job is not theirs to look up
    return drainer.drain(conn, job.id, lambda gid, wait: resolver.run(gid, lock_timeout=wait),
                         store.pending_games, lambda gid: wakeup.publish(conn, gid),
                         others_wait=drainer.jobs_waiting(conn, [notices], [moves]), threads=drainer.THREADS,
                         take_queued=lambda: onejob.take_queued(conn, moves))


def _judged_or_outage(judge: Callable[[], int]) -> int:
    try:
        judged = judge()
    except Exception as err:
        if not is_outage(err):
            raise
        LEDGER.down(err, "submissions stay pending until it is back")
        SWEEP_SOON.set()  # this process's sweeper queues it again as soon as the ledger answers
        return -1
    LEDGER.up()
    return judged


def _publish(game_id: str) -> None:
    """The web processes wake the pages waiting for this game's judgement."""
    from rq import get_current_job

    job = get_current_job()
    if job is not None:
        wakeup.publish(job.connection, game_id)


def noop(game_id: str) -> int:
    """A job that does nothing: the benchmark's baseline for RQ's own overhead."""
    return 0
