"""Getting a game's submissions judged: through Redis + RQ (a real deployment) or in-process
(the embedded default). Both run the same job function, and both sweep for submissions that
were left without a judgement (a killed worker, a lost job) at start and periodically.

Outages: a submission taken while Redis is down stays in the ledger; the queue logs
one line for the outage, watches for Redis to come back and then sweeps, so what was recorded
meanwhile is queued again even if no worker survived. The sweeper rides out a ledger outage
the same way. A web process in RQ mode also sweeps once as it starts (`RQQueue.sweep_at_start`):
a move recorded by a web process killed before it could queue it is queued as soon as any web
process is back, not at a worker's next periodic sweep. While a service is away, it is tried
again every RETRY seconds at most: reaching a local server that is down costs one refused
connection, and a longer wait is time a move stays pending after the service is back.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ledger.netopts import redis_params
from ledger.store import EventStore
from ledger.urls import mask_url
from warlog.judging import drainer, onejob
from warlog.judging.catchup import PROBE, CatchUp, tcp_reachable
from warlog.judging.outage import LEDGER, SWEEP_SOON, Backoff, Outage, closed, is_outage
from warlog.judging.resolver import Resolver, fault_delay_from_env

log = logging.getLogger("warlog.judging.queue")
QUEUE_NAME = "warlog"
JOB_TIMEOUT = 300
RETRY = 1.0  # seconds at most between two attempts to reach Redis or the ledger while it is away


def reachable(redis: Any, timeout: float = PROBE) -> bool:
    """Whether Redis's host answers a TCP handshake within `timeout` s (warlog.judging.catchup)."""
    kwargs = redis.connection_pool.connection_kwargs
    return tcp_reachable(kwargs.get("host"), kwargs.get("port"), timeout)


def sweep(store: EventStore, enqueue: Callable[[str], bool | None],
          enqueue_many: Callable[[list[str]], list[str]] | None = None) -> list[str]:
    """Re-enqueue every game that has a submission without a judgement (an `enqueue` that
    returns False could not queue it: it stays pending for the next sweep). At most one job is
    queued per game (warlog.judging.onejob; InlineQueue's set). With `enqueue_many` (the queues'
    method of that name) the games go in one batch: for RQ one round trip to see which need a job
    and one pipeline to queue those, not up to four round trips a game."""
    games, unlisted = store.sweep_games()  # costs what is pending, not what exists (the pending set)
    games += unlisted_submissions(unlisted)
    if enqueue_many is not None:
        queued = enqueue_many(games) if games else []
    else:
        queued = [game_id for game_id in games if enqueue(game_id) is not False]
    if queued:
        log.info("sweeper re-enqueued %d game(s): %s%s", len(queued), ", ".join(queued[:10]),
                 " …" if len(queued) > 10 else "")
    return games


def unlisted_submissions(missing: list[str]) -> list[str]:
    """Running games with a submission that has no judgement but is not in the pending set
    (its row deleted by hand: nothing else removes one without a judgement), found from the
    games' projection in the same snapshot as that set (EventStore.sweep_games: a move committed
    meanwhile is never taken for one); logged loudly, and judged like any other
    (warlog.judging.resolver)."""
    for game_id in missing:
        log.error("game %s has a submission without a judgement that is not in the ledger's pending set "
                  "(was a row deleted from pending?): judging it now", game_id)
    return missing


class InlineQueue:
    """The embedded default: one background thread runs the resolve job, in order."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warlog-resolver")
        self.resolver = Resolver(store, delay_before_append=fault_delay_from_env())
        self._queued: set[str] = set()
        self._queued_lock = threading.Lock()

    def enqueue(self, game_id: str) -> None:
        with self._queued_lock:  # at most one queued job per game; a running one does not count
            if game_id in self._queued:
                return
            self._queued.add(game_id)
        self.pool.submit(self._run, game_id)

    def enqueue_many(self, game_ids: list[str]) -> list[str]:
        for game_id in game_ids:
            self.enqueue(game_id)
        return list(game_ids)

    def _run(self, game_id: str) -> None:
        with self._queued_lock:
            self._queued.discard(game_id)
        try:
            self.resolver.run(game_id)
        except Exception:  # logged, and the sweeper will try again
            log.exception("resolving game %s failed", game_id)

    def drain(self) -> None:
        """Wait until every job enqueued so far has run (tests, shutdown)."""
        self.pool.submit(lambda: None).result()


class RQQueue:
    """Redis + RQ with the JSON serializer (never pickle). With `store`, it sweeps that ledger
    when Redis comes back after an outage that made it drop submissions."""

    def __init__(self, redis_url: str, store: EventStore | None = None) -> None:
        from redis import Redis
        from redis.exceptions import RedisError
        from rq import Queue
        from rq.serializers import JSONSerializer

        # A silent Redis (a partition) fails a command within WARLOG_NET_TIMEOUT (ledger.netopts), so a
        # request answers 503 and the move waits for the sweep rather than hold a web worker.
        self.redis = Redis.from_url(redis_url, **redis_params())
        try:
            self.redis.ping()
        except RedisError as err:
            raise ConnectionError(f"cannot reach Redis at {mask_url(redis_url)}: {err}") from None
        self.queue = Queue(QUEUE_NAME, connection=self.redis, serializer=JSONSerializer,
                           default_timeout=JOB_TIMEOUT)
        self.store = store
        self.outage = Outage(f"Redis at {redis_url}", log)
        self._watching = threading.Lock()
        self.catch_up: CatchUp | None = None  # a worker's: it judges the backlog itself when Redis is back

    def enqueue(self, game_id: str) -> bool:
        """Queue a game, unless a job of it is already queued (warlog.judging.onejob); while Redis is
        down, leave it to the sweep (the submission is in the ledger) and return False."""
        try:
            if drainer.offer(self.redis, game_id, self._recruit):
                return True  # a drainer in a worker will judge it (warlog.judging.drainer): no job
            job_id = onejob.claim(self.redis, game_id)
            if job_id is None:
                return True  # a job for this game is queued and will see this submission
            try:
                self.queue.enqueue_call("warlog.judging.jobs.resolve_game", args=(game_id,), result_ttl=60,
                                        failure_ttl=86400, job_id=job_id)
            except BaseException:
                try:  # give the key back; if Redis is gone with it, the next claim finds it stale
                    onejob.release(self.redis, game_id)
                except Exception:
                    pass
                raise
            return True
        except Exception as err:
            if not is_outage(err):
                raise
            self.outage.down(err, "submissions are recorded and will be queued when it is back")
            self.watch()
            return False

    def _recruit(self) -> None:
        """Queue a job that starts one more drainer (a backlog of wake-ups)."""
        try:
            self.queue.enqueue_call("warlog.judging.jobs.drain_woken", result_ttl=60, failure_ttl=86400)
        except BaseException:
            self.redis.delete(drainer.RECRUIT)
            raise

    def enqueue_many(self, game_ids: list[str]) -> list[str]:
        """`enqueue` for many games in one batch (the sweep): the games now queued or already
        queued; none while Redis is down (they stay pending; the sweep after it is back)."""
        try:
            claimed = onejob.claim_many(self.redis, game_ids)
            if claimed:
                jobs = [self.queue.prepare_data("warlog.judging.jobs.resolve_game", args=(game_id,), result_ttl=60,
                                                failure_ttl=86400, timeout=JOB_TIMEOUT, job_id=job_id)
                        for game_id, job_id in claimed.items()]
                try:
                    with self.redis.pipeline() as pipe:
                        self.queue.enqueue_many(jobs, pipeline=pipe)
                        pipe.execute()
                except BaseException:
                    try:  # give the keys back; if Redis is gone with them, the next claim finds them stale
                        onejob.release_many(self.redis, list(claimed))
                    except Exception:
                        pass
                    raise
            return list(game_ids)
        except Exception as err:
            if not is_outage(err):
                raise
            self.outage.down(err, "submissions are recorded and will be queued when it is back")
            self.watch()
            return []

    def lost(self, err: BaseException, meanwhile: str) -> None:
        """Redis failed under someone else (a worker's RQ loop): note the outage, and sweep when
        it is back (it may come back empty)."""
        self.outage.down(err, meanwhile)
        self.watch()

    def watch(self) -> None:
        """Wait for Redis in a background thread (one at a time), then sweep the ledger."""
        if not self._watching.acquire(blocking=False):
            return

        def loop() -> None:
            try:
                while True:
                    time.sleep(PROBE)
                    try:
                        if reachable(self.redis):
                            self.redis.ping()
                            break
                    except Exception as err:
                        if not is_outage(err):
                            raise
                self.outage.up()
            finally:
                self._watching.release()
            if self.catch_up is not None:
                self.catch_up.request("the catch-up after the Redis outage")
            elif self.store is not None:
                self._sweep_once("the sweep after the Redis outage")

        threading.Thread(target=loop, name="warlog-redis-watch", daemon=True).start()

    def sweep_at_start(self) -> None:
        """Sweep once in a background thread, as a web process starts: a move whose web
        process was killed after recording it and before queueing it is queued now, not at a
        worker's next periodic sweep. While the ledger is unreachable it tries again every
        RETRY s; while Redis is, `enqueue` leaves the move to the sweep after it is back."""
        self.sweep_in_background("the sweep at start")

    def recover(self, what: str) -> None:
        """Back from an outage: a worker catches up on the backlog itself, then sweeps
        (warlog.judging.catchup); anyone else sweeps."""
        if self.catch_up is not None:
            self.catch_up.request(what)
        else:
            self.sweep_in_background(what)

    def sweep_in_background(self, what: str) -> None:
        """Sweep once in a background thread, riding out a ledger outage (`_sweep_once`)."""
        if self.store is not None:
            threading.Thread(target=self._sweep_once, args=(what,), name="warlog-sweep-once", daemon=True).start()

    def _sweep_once(self, what: str) -> None:
        """Sweep until one sweep succeeds, riding out a ledger outage; another failure is
        logged in one line and left to the workers' periodic sweep."""
        from psycopg_pool import PoolClosed

        assert self.store is not None
        backoff = Backoff(first=0.25, ceiling=RETRY)
        while True:
            try:
                sweep(self.store, self.enqueue, self.enqueue_many)
                LEDGER.up()
                return
            except Exception as err:
                if isinstance(err, PoolClosed):  # the store was closed: this process is ending
                    return
                if not is_outage(err):
                    log.warning("%s failed (%s); the periodic sweep will retry", what, err)
                    return
                LEDGER.down(err, "submissions wait; sweeping again when it is back")
                time.sleep(backoff.step())

    def clean_failed(self, now: float | None = None) -> int:
        """Drop the jobs of killed workers: RQ moves a job whose worker died to its
        failed registry; the ledger, not RQ, says what is still to judge, and the sweep has
        queued it again. Jobs that failed on an error of their own stay (for a day) to be read.
        A job whose hash is gone already leaves the registry, and whatever RQ let expire of a
        dropped job is no error (`forget_executions`).
        `now` (Unix time) is when to judge a started job abandoned; tests look ahead with it."""
        from rq.registry import FailedJobRegistry, StartedJobRegistry

        StartedJobRegistry(queue=self.queue).cleanup(timestamp=now)  # abandoned jobs -> failed registry
        failed = FailedJobRegistry(queue=self.queue)
        dropped = 0
        for job_id in failed.get_job_ids():
            job = self.queue.fetch_job(job_id)
            result = job.latest_result() if job is not None else None
            if job is None or "AbandonedJobError" in ((result.exc_string if result else "") or ""):
                forget_executions(self.redis, job_id)
                failed.remove(job_id, delete_job=job is not None)
                dropped += 1
        if dropped:
            log.info("dropped %d failed job(s) of killed workers", dropped)
        return dropped


def forget_executions(redis: Any, job_id: str) -> None:
    """Delete a dropped job's execution records and the registry naming them. RQ's own job
    deletion reads each record the registry names and raises "Execution … not found" on one
    whose TTL ran out, and the registry outlives a killed worker's record by a minute: in that
    minute every clean-up failed (found by bench/netsoak.py)."""
    from rq.executions import Execution, ExecutionRegistry

    registry = ExecutionRegistry(job_id, connection=redis)
    ids = [raw.decode() if isinstance(raw, bytes) else str(raw) for raw in redis.zrange(registry.key, 0, -1)]
    redis.delete(registry.key, *(Execution(execution_id, job_id, redis).key for execution_id in ids))


def sync_log(store: EventStore) -> None:
    """Log new games and grown chains in the transparency log (ledger.logstore).
    A failure is logged and retried at the next sweep: it never stops the sweep."""
    from ledger.logstore import LogUnavailable, sync

    try:
        n = sync(store)
    except LogUnavailable:
        return
    except Exception as err:
        if is_outage(err):
            raise
        log.exception("transparency log sync failed; trying again at the next sweep")
        return
    if n:
        log.info("transparency log: %d new entr%s", n, "y" if n == 1 else "ies")


class Sweeper(threading.Event):
    """The in-process sweeper: set it to stop; `thread` runs it (liveness: warlog.ops.health) over
    `store`. Every running one is in RUNNING, so that whoever removes a ledger (a test dropping
    its schema) can stop the sweepers still reading it first."""

    thread: threading.Thread | None = None
    store: EventStore | None = None

    def alive(self) -> bool:
        return self.is_set() or self.thread is None or self.thread.is_alive()


RUNNING: weakref.WeakSet[Sweeper] = weakref.WeakSet()



def start_sweeper(store: EventStore, enqueue: Callable[[str], None], interval: float,
                  also: Callable[[], object] | None = None,
                  enqueue_many: Callable[[list[str]], list[str]] | None = None) -> Sweeper:
    """Sweep now, then every `interval` seconds in a daemon thread (and run `also` after each
    sweep); set the returned event to stop. While the ledger is unreachable it says so once
    and tries again every RETRY s at most, so it sweeps as soon as the ledger is back."""
    stop = Sweeper()
    stop.store = store
    RUNNING.add(stop)

    def pause(seconds: float) -> bool:
        """Wait `seconds`, or about a second once a job met a ledger outage (SWEEP_SOON);
        True when stopping."""
        deadline = time.monotonic() + seconds
        while not stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if SWEEP_SOON.wait(min(left, 0.25)):
                SWEEP_SOON.clear()
                return stop.wait(min(left, 1.0))
        return True

    def loop() -> None:
        backoff = Backoff(first=0.25, ceiling=min(interval, RETRY))
        while not stop.is_set():
            wait = interval
            try:
                sweep(store, enqueue, enqueue_many)
                sync_log(store)
                if also is not None:
                    also()
                LEDGER.up()
                backoff.reset()
            except Exception as err:
                if stop.is_set() or closed(err):
                    return  # shutting down: the store may already be closed
                if is_outage(err):
                    LEDGER.down(err, "submissions wait; sweeping again when it is back")
                    wait = backoff.step()
                else:
                    log.exception("sweep failed")
            if pause(wait):
                return

    stop.thread = threading.Thread(target=loop, name="warlog-sweeper", daemon=True)
    stop.thread.start()
    return stop
