"""A judging job drains. Moves submitted while a drainer is alive are handed to it
(no RQ job each); a drainer's last look at the pending set finds what was offered as it left;
a killed drainer's promise runs out by itself."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from ledger.factory import open_store
from warlog.games.service import Warlog
from warlog.judging import drainer, onejob
from warlog.judging.queue import RQQueue
from warlog.judging.resolver import Resolver


def _started_games(svc: Warlog, n: int) -> list[tuple[str, dict[str, str]]]:
    games = []
    for _ in range(n):
        created = svc.create_game("dice-duel", "long", {})
        for token in created["seats"].values():
            svc.join(created["id"], token)
        games.append((created["id"], created["seats"]))
    return games


def _submit(svc: Warlog, gid: str, seats: dict[str, str]) -> int:
    info = svc.info(gid)
    assert info["status"] == "active", info
    return int(svc.submit_move(gid, seats[info["active_seats"][0]], {"type": "roll"}, info["seq"],
                               f"k-{gid}-{info['seq']}")["seq"])


def _wait(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_moves_offered_to_a_live_drainer_are_judged_without_a_job_each(pg_url, redis_url):
    store = open_store(pg_url)
    rq = RQQueue(redis_url, store)
    svc = Warlog(store, rq.enqueue)
    resolver = Resolver(store)
    judged: list[str] = []
    conn = redis.Redis.from_url(redis_url)
    try:
        games = _started_games(svc, 3)
        rq.queue.empty()  # the joins' own jobs (the games' set-up moves, if any)
        for gid, _ in games:
            resolver.run(gid)
        t = threading.Thread(target=drainer.drain, args=(conn, "test-drainer",
                             lambda gid, wait: resolver.run(gid, lock_timeout=wait), store.pending_games,
                             judged.append), kwargs={"lifetime": 30.0})
        t.start()
        _wait(lambda: conn.zcount(drainer.ALIVE, time.time(), "+inf") == 1)
        for _round in range(2):
            for gid, seats in games:
                _submit(svc, gid, seats)
            _wait(lambda: store.pending_games() == [])
        # Six moves on three games: without drainers each game gets a job; with one, none, or the one
        # recruit job a backlog queues when the drainer falls behind (a loaded machine).
        assert rq.queue.count <= 1, "moves handed to the drainer queued a job each"
        assert sorted(set(judged)) == sorted(gid for gid, _ in games)
        t.join(30)
        assert not t.is_alive() and conn.zcount(drainer.ALIVE, "-inf", "+inf") == 0
        gid, seats = games[0]
        queued = rq.queue.count  # 0, or the recruit job above
        _submit(svc, gid, seats)  # no drainer now: a job is queued as before
        assert rq.queue.count == queued + 1
    finally:
        store.close()


class _QuietRedis:
    """A Redis for `drainer.drain` on which no wake-up ever arrives: a wake-up pushed as the
    drainer left (after its last wait) is the one its last look must make up for."""

    def __init__(self) -> None:
        self.alive: dict[str, float] = {}

    def zadd(self, key: str, mapping: dict[str, float]) -> None:
        self.alive.update(mapping)

    def zrem(self, key: str, member: str) -> None:
        self.alive.pop(member, None)

    def zremrangebyscore(self, key: str, low: Any, high: float) -> None:
        self.alive = {m: s for m, s in self.alive.items() if s > high}

    def blpop(self, keys: list[str], timeout: float) -> None:
        time.sleep(0.01)
        return None

    def pipeline(self, transaction: bool = True) -> Any:
        return _QuietPipeline(self)


class _QuietPipeline:
    """`_QuietRedis`'s pipeline: its commands run when executed, their answers in order."""

    def __init__(self, redis: _QuietRedis) -> None:
        self.redis, self.calls = redis, []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.calls.append((getattr(self.redis, name), args, kwargs))

    def execute(self) -> list[Any]:
        return [call(*args, **kwargs) for call, args, kwargs in self.calls]


def test_a_move_offered_as_the_drainer_leaves_is_judged_by_its_last_look(pg_url):
    store = open_store(pg_url)
    svc = Warlog(store, lambda gid: None)  # its wake-up was lost: only the ledger knows the move
    resolver = Resolver(store)
    try:
        ((gid, seats),) = _started_games(svc, 1)
        resolver.run(gid)
        seq = _submit(svc, gid, seats)
        judged: list[str] = []
        n = drainer.drain(_QuietRedis(), "m", lambda g, wait: resolver.run(g, lock_timeout=wait),
                          store.pending_games, judged.append)
        assert n >= 1 and judged == [gid] and store.pending_games() == []
        assert svc.move(gid, seq, svc.viewer(gid, None))["status"] == "resolved"
    finally:
        store.close()


def test_a_killed_drainers_promise_runs_out(redis_url):
    conn = redis.Redis.from_url(redis_url)
    recruited: list[int] = []
    conn.zadd(drainer.ALIVE, {"killed": time.time() + 0.3})  # a drainer killed -9 while waiting
    assert drainer.offer(conn, "g1", lambda: recruited.append(1)) is True
    time.sleep(0.4)
    assert drainer.offer(conn, "g2", lambda: recruited.append(1)) is False  # now a job is queued instead
    assert recruited == []  # one wake-up waiting is no backlog


@contextlib.contextmanager
def _busy_drainer(conn: Any, judge: Any, pending: Any, **drain: Any) -> Iterator[tuple[threading.Thread, list[float]]]:
    """A drainer on its own thread, kept busy (never quiet) by wake-ups for a game "busy" every
    0.1 s, as other games' moves keep it; yields its thread and, once it has ended, when. On exit
    the wake-ups stop and a drainer still running is stopped before the caller's store closes."""
    stop = threading.Event()
    ended: list[float] = []

    def run() -> None:
        drainer.drain(conn, "busy-drainer", lambda gid, wait: 0 if gid == "busy" else judge(gid, wait), pending,
                      lambda gid: None, **drain)
        ended.append(time.monotonic())

    def keep_waking() -> None:
        while not stop.is_set():
            drainer.offer(conn, "busy", lambda: None)
            time.sleep(0.1)

    t = threading.Thread(target=run)
    t.start()
    waker = threading.Thread(target=keep_waking)
    try:
        _wait(lambda: conn.zcount(drainer.ALIVE, time.time(), "+inf") == 1)
        waker.start()
        yield t, ended
    finally:
        stop.set()
        if waker.ident is not None:
            waker.join()
        drainer.STOP.set()
        t.join(10)
        drainer.STOP.clear()
        conn.delete(drainer.WAKE, drainer.RECRUIT)


def test_a_busy_drainer_gives_its_worker_back_when_a_job_waits(redis_url):
    """A drainer kept busy by wake-ups (each one renews it) would hold its worker for its whole
    lifetime while jobs queued behind it wait: the sweep's, a notification's (found by the chaos
    soak: moves waited 20 s behind two busy drainers). It ends as soon as a job waits."""
    conn = redis.Redis.from_url(redis_url)
    queue_key = "rq:queue:test-drainer-busy"
    with _busy_drainer(conn, lambda gid, wait: 0, lambda: [], lifetime=15.0,
                       others_wait=drainer.jobs_waiting(conn, [queue_key])) as (t, ended):
        time.sleep(1.5)  # busy: longer than QUIET_ROUNDS quiet waits would last
        assert t.is_alive() and not ended
        conn.rpush(queue_key, "a-job")
        queued_at = time.monotonic()
        t.join(10)
        assert ended and ended[0] - queued_at < 2.0, "the drainer kept its worker while a job waited"
    conn.delete(queue_key)


def test_a_staying_drainer_takes_the_games_jobs_off_the_queue_and_judges_those_games(pg_url, redis_url):
    """With RQ: moves submitted while no promise was live queue a job each (warlog.judging.onejob);
    a busy drainer that sees them takes those jobs off the queue (each with its game's key),
    judges their games within LOOK_EVERY, and stays, its promise live, so the moves after are
    offered to it, not queued a job each (ending instead made every burst of moves
    self-sustaining: bench/bench.py's 50-game run). A recruit job is left in the queue; a
    notification waiting still ends the drainer; a later move of a taken game, with no promise
    live, queues a job again (its key is free)."""
    store = open_store(pg_url)
    rq = RQQueue(redis_url, store)
    svc = Warlog(store, rq.enqueue)
    resolver = Resolver(store)
    conn = redis.Redis.from_url(redis_url)
    notices_key = "rq:queue:test-drainer-notices"
    try:
        games = _started_games(svc, 3)
        for gid, _ in games:
            resolver.run(gid)
        rq.queue.empty()
        for key in conn.scan_iter(onejob.KEY.format("*")):
            conn.delete(key)
        for gid, seats in games:  # no drainer yet: a job each
            _submit(svc, gid, seats)
        rq._recruit()  # and a recruit, which a drainer leaves where it is
        assert rq.queue.count == 4
        with _busy_drainer(conn, lambda gid, wait: resolver.run(gid, lock_timeout=wait), store.pending_games,
                           lifetime=30.0, others_wait=drainer.jobs_waiting(conn, [notices_key], [rq.queue.key]),
                           take_queued=lambda: onejob.take_queued(conn, rq.queue.key)) as (t, ended):
            _wait(lambda: store.pending_games() == [], timeout=2 + 2 * drainer.LOOK_EVERY)
            _wait(lambda: rq.queue.count == 1, timeout=5)  # the recruit alone
            assert [job.func_name for job in rq.queue.jobs] == ["warlog.judging.jobs.drain_woken"]
            assert all(conn.get(onejob.KEY.format(gid)) is None for gid, _ in games)
            assert t.is_alive() and not ended, "the drainer ended for judging jobs"
            assert conn.zcount(drainer.ALIVE, time.time(), "+inf") == 1  # its promise is live: moves are offered
            conn.rpush(notices_key, "deliver job")
            queued_at = time.monotonic()
            t.join(10)
            assert ended and ended[0] - queued_at < 2.0, "the drainer kept its worker while a notification waited"
        gid, seats = games[0]
        _submit(svc, gid, seats)  # no drainer now: a job again, its key free
        assert rq.queue.count == 2
    finally:
        rq.queue.empty()
        conn.delete(notices_key)
        store.close()


def test_a_drainer_with_several_waiters_judges_every_offered_move_once(pg_url, redis_url):
    """One draining job runs several waiters at once (drainer.THREADS); each is a member
    of ALIVE while it waits, every offered move is judged, none twice (one judgement per
    submission in the ledger), and all of them have left ALIVE when the drain returns."""
    store = open_store(pg_url)
    rq = RQQueue(redis_url, store)
    svc = Warlog(store, rq.enqueue)
    resolver = Resolver(store)
    conn = redis.Redis.from_url(redis_url)
    judged: list[str] = []
    try:
        games = _started_games(svc, 6)
        rq.queue.empty()
        for gid, _ in games:
            resolver.run(gid)
        t = threading.Thread(target=drainer.drain, args=(conn, "threaded",
                             lambda gid, wait: resolver.run(gid, lock_timeout=wait), store.pending_games,
                             judged.append), kwargs={"lifetime": 30.0, "threads": 3})
        t.start()
        _wait(lambda: conn.zcount(drainer.ALIVE, time.time(), "+inf") == 3)
        seqs = []
        for _round in range(3):
            seqs += [(gid, _submit(svc, gid, seats)) for gid, seats in games]
            _wait(lambda: store.pending_games() == [])
        t.join(30)
        assert not t.is_alive() and conn.zcount(drainer.ALIVE, "-inf", "+inf") == 0
        assert sorted(set(judged)) == sorted(gid for gid, _ in games)
        for gid, seq in seqs:
            rulings = [ev for ev in store.read(gid, after=seq)
                       if ev.type in ("resolved", "rejected") and ev.payload.get("submission_seq") == seq]
            assert len(rulings) == 1, (gid, seq, rulings)
    finally:
        store.close()


def test_a_move_offered_as_a_threaded_drainer_leaves_is_judged_by_the_shared_last_look(pg_url):
    store = open_store(pg_url)
    svc = Warlog(store, lambda gid: None)  # the wake-ups were lost: only the ledger knows the moves
    resolver = Resolver(store)
    try:
        games = _started_games(svc, 3)
        for gid, _ in games:
            resolver.run(gid)
        seqs = [(gid, _submit(svc, gid, seats)) for gid, seats in games]
        judged: list[str] = []
        n = drainer.drain(_QuietRedis(), "m", lambda g, wait: resolver.run(g, lock_timeout=wait),
                          store.pending_games, judged.append, threads=3)
        assert n == 3 and sorted(judged) == sorted(gid for gid, _ in games) and store.pending_games() == []
        for gid, seq in seqs:
            assert svc.move(gid, seq, svc.viewer(gid, None))["status"] in ("resolved", "rejected")
    finally:
        store.close()


def test_a_failing_waiter_fails_the_drain_after_every_waiter_has_left(redis_url):
    """A judgement that raises (not an outage: that is jobs._judged_or_outage's) fails the drain,
    but only once every waiter has ended and left ALIVE: none is left behind as a promise."""
    conn = redis.Redis.from_url(redis_url)

    def judge(gid: str, wait: float) -> int:
        raise RuntimeError("boom")

    conn.rpush(drainer.WAKE, "g")  # one waiter is woken and fails; the others wait out their quiet rounds
    with pytest.raises(RuntimeError, match="boom"):
        drainer.drain(conn, "failing", judge, lambda: [], lambda gid: None, lifetime=5.0, threads=3)
    assert conn.zcount(drainer.ALIVE, "-inf", "+inf") == 0


def test_a_backlog_of_wake_ups_recruits_one_job_at_a_time(redis_url):
    """`offer` (one script in Redis): a wake-up for a live drainer is pushed; a second one waiting
    is a backlog and recruits one job, and no other while that one waits (RECRUIT held); once
    the recruit has started (it deletes RECRUIT), a backlog recruits again."""
    conn = redis.Redis.from_url(redis_url)
    recruited: list[str] = []
    conn.zadd(drainer.ALIVE, {"waiting": time.time() + 5})
    for gid in ("g1", "g2", "g3"):
        assert drainer.offer(conn, gid, lambda gid=gid: recruited.append(gid)) is True
    assert recruited == ["g2"]
    conn.delete(drainer.RECRUIT)
    assert drainer.offer(conn, "g4", lambda: recruited.append("g4")) is True
    assert recruited == ["g2", "g4"]
    assert [g.decode() for g in conn.lrange(drainer.WAKE, 0, -1)] == ["g1", "g2", "g3", "g4"]


def test_a_woken_drainer_judges_at_once_and_waits_in_one_round_trip(redis_url):
    """Across a slow link each round trip to Redis is time a woken move waits: the drainer
    renews its promise in its wait's round trip (a pipeline), not in one of its own before
    each judgement, and the promise still holds LEASE s at least while the wake-up is judged."""
    from redis.client import Pipeline

    conn, look = redis.Redis.from_url(redis_url), redis.Redis.from_url(redis_url)
    trips: list[str] = []
    left: list[float] = []

    def judge(gid: str, wait: float) -> int:
        trips.append(f"judge {gid}")
        left.append(float(look.zscore(drainer.ALIVE, "m") or 0) - time.time())
        return 1

    conn.rpush(drainer.WAKE, "g1")
    real_command, real_execute = conn.execute_command, Pipeline.execute
    conn.execute_command = lambda *a, **k: trips.append(str(a[0])) or real_command(*a, **k)  # type: ignore
    Pipeline.execute = lambda self, *a, **k: (trips.append("+".join(str(c[0][0]) for c in self.command_stack))  # type: ignore
                                              or real_execute(self, *a, **k))
    try:
        assert drainer.drain(conn, "m", judge, lambda: [], lambda gid: None) == 1
    finally:
        Pipeline.execute = real_execute  # type: ignore
        conn.execute_command = real_command  # type: ignore
    assert trips == ["ZADD+BLPOP", "judge g1", "ZADD+BLPOP", "ZADD+BLPOP", "ZREM", "ZREMRANGEBYSCORE"]
    assert left and left[0] > drainer.LEASE - 0.5


def test_taking_queued_jobs_takes_only_the_games_jobs_the_oldest_first_a_batch_at_a_time(redis_url, monkeypatch):
    """onejob.take_queued takes a game's job only while the game's key holds that job's id (and
    frees the key with it), never a recruit or another job, and looks at CLAIM_BATCH of the
    oldest entries a call."""
    conn = redis.Redis.from_url(redis_url)
    queue_key = "rq:queue:test-take"
    games = ("take-a", "take-b", "take-c", "take-d")
    conn.delete(queue_key, *(onejob.KEY.format(g) for g in games))
    for g in games:
        job_id = onejob.claim(conn, g)
        assert job_id is not None
        conn.rpush(queue_key, job_id)
    conn.rpush(queue_key, "recruit-1")
    conn.set(onejob.KEY.format("take-d"), onejob.new_job_id("take-d"))  # its key holds a newer job's id
    monkeypatch.setattr(onejob, "CLAIM_BATCH", 2)
    try:
        assert onejob.take_queued(conn, queue_key) == ["take-a", "take-b"]
        assert conn.get(onejob.KEY.format("take-a")) is None and conn.get(onejob.KEY.format("take-c")) is not None
        assert onejob.take_queued(conn, queue_key) == ["take-c"]
        assert onejob.take_queued(conn, queue_key) == []  # take-d's job is not its key's; the recruit is no game's
        assert [x.decode() for x in conn.lrange(queue_key, 0, -1)][-1] == "recruit-1"
        assert conn.llen(queue_key) == 2
    finally:
        conn.delete(queue_key, *(onejob.KEY.format(g) for g in games))
