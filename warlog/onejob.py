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
