"""Round trips to Redis that `warlog worker`'s RQ worker spends per job (worker.py's Worker):
RQ's heartbeat sends its three commands one at a time, about three heartbeats a job, and its
"idle" state on its own, twice a job; across a slow link to Redis (bench/netsoak.py: 50-200 ms
one way) that was over a second between two jobs. Ours sends a heartbeat in one round trip, at
most every BEAT_EVERY s unless a state is due, and "idle" once. Counted on a real Redis by wrapping redis-py's
connection (a command, or a pipeline, is one send), not timed."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from redis.connection import Connection
from rq import Queue
from rq.serializers import JSONSerializer

import worker
from tests.worker.conftest import redis_url  # noqa: F401  (the emptied test Redis)

JOBS = 20
AT_MOST_PER_JOB = 13  # RQ's own Worker: 22; ours 12


def test_a_job_costs_the_worker_at_most_13_round_trips_to_redis(redis_url: str,  # noqa: F811
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    conn = redis.Redis.from_url(redis_url)
    queue = Queue("warlog", connection=conn, serializer=JSONSerializer)
    notify = Queue("warlog-notify", connection=conn, serializer=JSONSerializer)
    jobs = [queue.enqueue_call("builtins.len", args=([1, 2, 3],), result_ttl=60, failure_ttl=86400)
            for _ in range(JOBS)]
    sends = [0]
    send = Connection.send_packed_command

    def counted(self: Any, command: Any, check_health: bool = True) -> None:
        sends[0] += 1
        send(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counted)
    w = worker._worker_class()([queue, notify], connection=conn, serializer=JSONSerializer, name="round-trips")
    w.work(burst=True, logging_level="WARNING")
    monkeypatch.undo()
    assert [j.get_status(refresh=True) for j in jobs] == ["finished"] * JOBS
    per_job = sends[0] / JOBS
    assert per_job <= AT_MOST_PER_JOB, f"{per_job:.2f} round trips a job"


def test_a_waiting_worker_says_it_is_idle_and_beats(redis_url: str) -> None:  # noqa: F811
    """The "idle" state RQ sets before it waits for a job still reaches Redis (with the heartbeat
    that follows it), and so does a job's "busy"."""
    conn = redis.Redis.from_url(redis_url)
    queue = Queue("warlog", connection=conn, serializer=JSONSerializer)
    w = worker._worker_class()([queue], connection=conn, serializer=JSONSerializer, name="idle-one")
    queue.enqueue_call("time.sleep", args=(1.0,), result_ttl=60)
    key, seen, done = f"rq:worker:{w.name}", [], threading.Event()

    def watch() -> None:  # RQ's work() wants the main thread (its signal handlers): the look is here
        while not done.is_set():
            state = conn.hget(key, "state")
            if state and (not seen or seen[-1] != state.decode()):
                seen.append(state.decode())
            time.sleep(0.02)

    looker = threading.Thread(target=watch, daemon=True)
    looker.start()
    w.work(max_idle_time=2, logging_level="WARNING")
    done.set()
    looker.join(5)
    assert "busy" in seen and seen[seen.index("busy") + 1:][:1] == ["idle"], seen
