"""Getting a game's submissions judged: through Redis + RQ (a real deployment) or in-process
(the embedded default). Both run the same job function, and both sweep for submissions that
were left without a judgement (a killed worker, a lost job) at start and periodically."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from ledger.store import EventStore
from warlog import onejob
from warlog.resolver import Resolver

log = logging.getLogger("warlog.queue")
QUEUE_NAME = "warlog"
JOB_TIMEOUT = 300


def sweep(store: EventStore, enqueue: Callable[[str], None]) -> list[str]:
    """Re-enqueue every game that has a submission without a judgement."""
    games = store.pending_games()  # costs what is pending, not what exists (the pending set)
    for game_id in games:
        enqueue(game_id)  # at most one queued job per game (warlog.onejob; InlineQueue's set)
    if games:
        log.info("sweeper re-enqueued %d game(s): %s%s", len(games), ", ".join(games[:10]),
                 " …" if len(games) > 10 else "")
    return games


class InlineQueue:
    """The embedded default: one background thread runs the resolve job, in order."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warlog-resolver")
        self.resolver = Resolver(store)
        self._queued: set[str] = set()
        self._queued_lock = threading.Lock()

    def enqueue(self, game_id: str) -> None:
        with self._queued_lock:  # at most one queued job per game; a running one does not count
            if game_id in self._queued:
                return
            self._queued.add(game_id)
        self.pool.submit(self._run, game_id)

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
    """Redis + RQ with the JSON serializer (never pickle)."""

    def __init__(self, redis_url: str) -> None:
        from redis import Redis
        from redis.exceptions import RedisError
        from rq import Queue
        from rq.serializers import JSONSerializer

        self.redis = Redis.from_url(redis_url)
        try:
            self.redis.ping()
        except RedisError as err:
            raise ConnectionError(f"cannot reach Redis at {redis_url}: {err}") from None
        self.queue = Queue(QUEUE_NAME, connection=self.redis, serializer=JSONSerializer,
                           default_timeout=JOB_TIMEOUT)

    def enqueue(self, game_id: str) -> None:
        job_id = onejob.claim(self.redis, game_id)
        if job_id is None:
            return  # a job for this game is queued and will see this submission
        try:
            self.queue.enqueue_call("warlog.jobs.resolve_game", args=(game_id,), result_ttl=60, failure_ttl=86400,
                                    job_id=job_id)
        except BaseException:
            try:  # give the key back; if Redis is gone with it, the next claim finds it stale
                onejob.release(self.redis, game_id)
            except Exception:
                pass
            raise


def start_sweeper(store: EventStore, enqueue: Callable[[str], None], interval: float) -> threading.Event:
    """Sweep now, then every `interval` seconds in a daemon thread; set the returned event to stop."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                sweep(store, enqueue)
            except Exception:
                if stop.is_set():
                    return  # shutting down: the store may already be closed
                log.exception("sweep failed")
            if stop.wait(interval):
                return

    threading.Thread(target=loop, name="warlog-sweeper", daemon=True).start()
    return stop
