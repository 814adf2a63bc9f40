"""The sweep costs what is pending and queues at most one job per game however
often it runs; every per-game cache of a web or worker process is bounded."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from ledger.factory import open_store
from warlog.games.service import Warlog
from warlog.judging import onejob
from warlog.judging.queue import QUEUE_NAME, InlineQueue, RQQueue, sweep
from warlog.ops import lru


def _pending_games(svc: Warlog, n: int) -> list[str]:
    """n dice-duel games, each with one submission nobody has judged yet."""
    ids = []
    for _ in range(n):
        created = svc.create_game("dice-duel", "short", {})
        gid = created["id"]
        for token in created["seats"].values():
            svc.join(gid, token)
        seat = svc.info(gid)["active_seats"][0]
        svc.submit_move(gid, created["seats"][seat], {"type": "roll"}, svc.info(gid)["seq"], f"k-{gid}")
        ids.append(gid)
    return ids


def _sweeper(rq: RQQueue, batch: bool) -> Any:
    """The sweep as the per-game path (`enqueue`) or as the batch the sweepers use (`enqueue_many`)."""
    return lambda store: sweep(store, rq.enqueue, rq.enqueue_many if batch else None)


@pytest.mark.parametrize("batch", [False, True], ids=["per-game", "batch"])
@pytest.mark.slow
def test_three_sweeps_queue_one_job_per_pending_game(pg_url, redis_url, monkeypatch, batch):
    store = open_store(pg_url)
    try:
        ids = _pending_games(Warlog(store, lambda game_id: None), 4)
        rq = RQQueue(redis_url)
        for _ in range(3):
            assert sorted(_sweeper(rq, batch)(store)) == sorted(ids)
        assert rq.queue.count == 4  # was 4, 8, 12 before
        # a worker runs them: each job gives its game's key back first, then judges
        monkeypatch.setenv("WARLOG_DB", pg_url)
        conn = redis.Redis.from_url(redis_url)
        SimpleWorker([Queue(QUEUE_NAME, connection=conn, serializer=JSONSerializer)], connection=conn,
                     serializer=JSONSerializer).work(burst=True)
        assert store.pending_games() == [] and rq.queue.count == 0
        assert not any(conn.exists(onejob.KEY.format(g)) for g in ids)
        _sweeper(rq, batch)(store)
        assert rq.queue.count == 0  # nothing pending, nothing queued
        rq.enqueue(ids[0])  # a new submission queues again once the last job has started
        assert rq.queue.count == 1
    finally:
        store.close()


def test_the_inline_queue_holds_one_job_per_game(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/w.sqlite3")
    queue = InlineQueue(store)
    ran: list[str] = []
    real_run = queue.resolver.run
    queue.resolver.run = lambda game_id, **kw: ran.append(game_id) or real_run(game_id, **kw)  # type: ignore
    try:
        ids = _pending_games(Warlog(store, lambda game_id: None), 2)
        gate = threading.Event()
        queue.pool.submit(gate.wait)  # the one resolver thread is busy
        for _ in range(3):
            sweep(store, queue.enqueue)
        gate.set()
        queue.drain()
        assert sorted(ran) == sorted(ids) and store.pending_games() == []
    finally:
        store.close()


def test_per_game_caches_are_bounded_lrus(tmp_path, monkeypatch):
    from warlog.app import create_app

    monkeypatch.setattr(lru, "GAMES_CACHED", 3)
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3"})
    try:
        svc: Warlog = app.extensions["warlog"]
        queue: Any = app.extensions["warlog_queue"]
        ids = _pending_games(svc, 6)
        queue.drain()
        for gid in ids:
            svc.info(gid)
        assert len(svc._created) == 3
        assert len(queue.resolver._entropy) <= 3 and len(queue.resolver._last_snapshot) <= 3
        first = svc.info(ids[0])  # evicted long ago: read again from the ledger
        assert first["id"] == ids[0] and not first["pending"] and first["seq"] > 3
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()


@pytest.mark.parametrize("batch", [False, True], ids=["per-game", "batch"])
def test_a_stale_queued_key_does_not_hold_a_game_back(pg_url, redis_url, batch):
    """The key says queued but its job is gone (the connection broke between the two
    commands): the next sweep queues the game at once, not after the key's TTL."""
    store = open_store(pg_url)
    try:
        (gid,) = _pending_games(Warlog(store, lambda game_id: None), 1)
        rq = RQQueue(redis_url)
        rq.redis.set(onejob.KEY.format(gid), "resolve-lost", ex=onejob.TTL)
        _sweeper(rq, batch)(store)
        assert rq.queue.count == 1
        _sweeper(rq, batch)(store)
        assert rq.queue.count == 1  # and that job is really queued, so no second one
    finally:
        store.close()


@pytest.mark.parametrize("batch", [False, True], ids=["per-game", "batch"])
@pytest.mark.slow
def test_a_job_taken_off_the_queue_by_a_killed_worker_does_not_hold_a_game_back(pg_url, redis_url, batch):
    """Found by bench/chaos_soak.py: a worker killed (-9) right after it took a game's job off
    the queue, before marking it started, left the job "queued" in no queue, and every sweep
    thought the game's job was still waiting: its move stayed pending for minutes (the key's
    TTL). Now the sweep sees the job is in no queue and queues the game again."""
    store = open_store(pg_url)
    try:
        (gid,) = _pending_games(Warlog(store, lambda game_id: None), 1)
        rq = RQQueue(redis_url)
        _sweeper(rq, batch)(store)
        (job_id,) = rq.queue.job_ids
        rq.redis.lrem(f"rq:queue:{rq.queue.name}", 0, job_id)  # what the killed worker's dequeue did
        assert rq.queue.count == 0 and rq.queue.fetch_job(job_id).get_status() == "queued"
        _sweeper(rq, batch)(store)
        assert rq.queue.count == 1 and rq.queue.job_ids != [job_id]
        _sweeper(rq, batch)(store)
        assert rq.queue.count == 1
    finally:
        store.close()


def _held_keys(rq: RQQueue) -> dict[str, str]:
    """One game per state a game's key can be found in; the state's name is the game id."""
    from rq.job import JobStatus

    rq.redis.set(onejob.KEY.format("lost"), "resolve-lost", ex=onejob.TTL)  # its job is gone
    held = {"lost": "resolve-lost"}
    for game_id in ("queued", "dequeued", "started", "finished", "deferred", "scheduled"):
        job_id = onejob.claim(rq.redis, game_id)
        assert job_id is not None
        job = rq.queue.enqueue_call("warlog.judging.jobs.resolve_game", args=(game_id,), job_id=job_id)
        if game_id != "queued":
            rq.redis.lrem(f"rq:queue:{rq.queue.name}", 0, job_id)
        if game_id not in ("queued", "dequeued"):
            job.set_status(JobStatus(game_id))
        held[game_id] = job_id
    return held


def test_the_batch_claim_judges_every_held_key_as_the_single_claim_does(redis_url):
    """onejob.claim_many (the sweep's batch) frees and keeps the same keys as onejob.claim:
    a free key is taken; a key whose job is gone, started, finished or "queued" in no queue
    is stale and taken over; one whose job waits (queued in its queue, deferred, scheduled)
    holds its game back."""
    rq = RQQueue(redis_url)
    games = ["free", "lost", "queued", "dequeued", "started", "finished", "deferred", "scheduled"]
    held = _held_keys(rq)
    single = {g: onejob.claim(rq.redis, g) for g in games}
    rq.redis.flushdb()
    held = _held_keys(rq)
    batch = onejob.claim_many(rq.redis, games)
    assert {g for g, job in single.items() if job} == set(batch) == {"free", "lost", "dequeued", "started", "finished"}
    for game_id in games:  # a claimed key holds the new job's id; a waiting one is untouched
        assert rq.redis.get(onejob.KEY.format(game_id)).decode() == batch.get(game_id, held.get(game_id))


def test_a_batch_sweep_costs_one_redis_round_trip_not_a_few_a_game(pg_url, redis_url, monkeypatch):
    """A sweep of games whose jobs are queued already asks Redis once, whatever
    their number (it took up to four round trips a game), and queues nothing more."""
    from redis.client import Pipeline

    store = open_store(pg_url)
    try:
        ids = _pending_games(Warlog(store, lambda game_id: None), 6)
        rq = RQQueue(redis_url)
        assert sorted(sweep(store, rq.enqueue, rq.enqueue_many)) == sorted(ids)
        assert rq.queue.count == 6
        trips: list[str] = []
        real_command, real_execute = rq.redis.execute_command, Pipeline.execute
        rq.redis.execute_command = lambda *a, **k: trips.append(str(a[0])) or real_command(*a, **k)  # type: ignore
        Pipeline.execute = lambda self, *a, **k: trips.append("pipeline") or real_execute(self, *a, **k)  # type: ignore
        try:
            assert rq.enqueue_many(ids) == ids
        finally:
            Pipeline.execute = real_execute  # type: ignore
            rq.redis.execute_command = real_command  # type: ignore
        assert trips == ["EVALSHA"] and rq.queue.count == 6
        monkeypatch.setattr(onejob, "CLAIM_BATCH", 4)  # more games than a batch: a round trip a batch
        rq.queue.empty()  # every job gone: each key is stale, each game is claimed again
        claimed = onejob.claim_many(rq.redis, ids)
        assert sorted(claimed) == sorted(ids) and len(set(claimed.values())) == 6
        assert all(rq.redis.get(onejob.KEY.format(g)).decode() == job for g, job in claimed.items())
    finally:
        store.close()


def test_a_job_that_meets_a_ledger_outage_has_the_sweep_run_again_within_a_second(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by bench/chaos_soak.py: after a PostgreSQL restart a job met a stale pooled
    connection, left its move pending (as it should) and the move waited for the rest of the
    sweeper's 30 s interval although the ledger was back. Now the job's outage (SWEEP_SOON, set
    by warlog.judging.jobs.resolve_game) has this process's sweeper try again within about a second."""
    import time

    from warlog.judging import jobs
    from warlog.judging.outage import LEDGER, SWEEP_SOON
    from warlog.judging.queue import start_sweeper

    store = open_store(f"sqlite:///{tmp_path}/w.sqlite3")
    sweeps: list[float] = []
    stop = start_sweeper(store, lambda gid: None, 600.0, also=lambda: sweeps.append(time.monotonic()))
    try:
        deadline = time.monotonic() + 10
        while not sweeps:
            assert time.monotonic() < deadline
            time.sleep(0.05)

        class Gone:
            def run(self, game_id: str) -> int:
                raise ConnectionRefusedError("the ledger went away")

        monkeypatch.setattr(jobs, "Resolver", lambda *a, **k: Gone())
        monkeypatch.setattr(jobs, "store_for", lambda url=None: store)
        monkeypatch.setattr(jobs.onejob, "release_in_job", lambda game_id: None)
        import warlog.notify.jobs

        monkeypatch.setattr(warlog.notify.jobs, "on_judged", lambda: None)
        met = time.monotonic()
        assert jobs.resolve_game("g-outage") == -1  # the move stays pending: no failed job
        deadline = met + 5
        while len(sweeps) < 2:
            assert time.monotonic() < deadline, "the sweeper waited for its interval"
            time.sleep(0.05)
        assert sweeps[1] - met < 3.0 and not SWEEP_SOON.is_set()
    finally:
        stop.set()
        LEDGER.up()
        store.close()
