"""At most one queued judging job per game in Redis.

A submission (or a sweep) enqueues a game's job only if it can take the game's "queued" key
(SET NX, holding the job's id); the job gives the key back as its first act, before it reads
what is pending. So a submission that finds the key taken is seen by the queued job, and one
that comes after the job started takes the key again and queues the next job: nothing is
missed, and the queue never holds more jobs than there are games with pending submissions,
however often the sweeper runs. A key whose job is not queued any more (lost with a broken
connection between the two commands, or its worker killed before the job began) is stale and
is taken over at once — as is one whose job says "queued" but is in no queue any more (its
worker was killed between taking it off the queue and starting it); the TTL is only a last
resort."""

from __future__ import annotations

import uuid
from typing import Any

KEY = "warlog:queued:{}"
TTL = 900  # seconds
WAITING = ("queued", "deferred", "scheduled")


def claim(redis: Any, game_id: str) -> str | None:
    """The id for a new job of this game, or None if one is already queued."""
    key, job_id = KEY.format(game_id), f"resolve-{uuid.uuid4().hex}"
    if redis.set(key, job_id, nx=True, ex=TTL):
        return job_id
    held = redis.get(key)
    if held is not None and _waiting(redis, held.decode("ascii", "replace")):
        return None
    redis.set(key, job_id, ex=TTL)  # stale: take it over
    return job_id


def claim_many(redis: Any, game_ids: list[str]) -> dict[str, str]:
    """`claim` for many games in a few round trips (the sweep, issue 16): game id -> the id of
    its new job, for each game whose key was free or stale; a game whose job still waits is
    left out. One pipeline takes each free key and reads what each key holds; one reads the
    status and queue of every job found there; and, if any says "queued", one reads that
    queue's job ids (once, not an LPOS per job). The tests are `_waiting`'s."""
    from rq.job import Job
    from rq.queue import Queue

    fresh = {g: f"resolve-{uuid.uuid4().hex}" for g in dict.fromkeys(game_ids)}
    pipe = redis.pipeline(transaction=False)
    for game_id, job_id in fresh.items():
        pipe.set(KEY.format(game_id), job_id, nx=True, ex=TTL)
        pipe.get(KEY.format(game_id))
    answers = pipe.execute()
    claimed, held, stale = {}, {}, []
    for game_id, took, holder in zip(fresh, answers[::2], answers[1::2]):
        if took:
            claimed[game_id] = fresh[game_id]
        elif holder is None:  # expired in between
            stale.append(game_id)
        else:
            held[game_id] = holder.decode("ascii", "replace")
    if held:
        pipe = redis.pipeline(transaction=False)
        for job_id in held.values():
            pipe.hmget(Job.key_for(job_id), "status", "origin")
        queues: dict[str, set[bytes]] = {}
        for (game_id, job_id), (status, origin) in zip(held.items(), pipe.execute()):
            state = (status or b"").decode("ascii", "replace")
            if state == "queued" and origin:  # and really in its queue (see _waiting)
                key = Queue.redis_queue_namespace_prefix + origin.decode("ascii", "replace")
                if key not in queues:
                    queues[key] = set(redis.lrange(key, 0, -1))
                if job_id.encode("ascii") in queues[key]:
                    continue
            elif state in WAITING and state != "queued":
                continue
            stale.append(game_id)
    if stale:  # take them over
        pipe = redis.pipeline(transaction=False)
        for game_id in stale:
            pipe.set(KEY.format(game_id), fresh[game_id], ex=TTL)
        pipe.execute()
        claimed.update((g, fresh[g]) for g in stale)
    return claimed


def release_many(redis: Any, game_ids: list[str]) -> None:
    if game_ids:
        redis.delete(*(KEY.format(g) for g in game_ids))


def _waiting(redis: Any, job_id: str) -> bool:
    from rq.exceptions import NoSuchJobError
    from rq.job import Job
    from rq.serializers import JSONSerializer

    try:
        job = Job.fetch(job_id, connection=redis, serializer=JSONSerializer)
    except NoSuchJobError:
        return False
    status = str(getattr(job.get_status(refresh=False), "value", job.get_status(refresh=False)))
    if status == "queued":  # and really in its queue: a worker killed between taking the job off
        # the queue and marking it started leaves it "queued" in no queue (found by the chaos soak)
        return redis.lpos(f"rq:queue:{job.origin}", job_id) is not None
    return status in WAITING


def release(redis: Any, game_id: str) -> None:
    redis.delete(KEY.format(game_id))


def release_in_job(game_id: str) -> None:
    """Called first by the job itself (does nothing outside an RQ job)."""
    from rq import get_current_job

    job = get_current_job()
    if job is not None:
        release(job.connection, game_id)
