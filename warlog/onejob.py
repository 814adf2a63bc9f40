"""At most one queued judging job per game in Redis.

A submission (or a sweep) enqueues a game's job only if it can take the game's "queued" key
(SET NX, with a TTL so that a job lost with its key cannot block the game for long); the job
gives the key back as its first act, before it reads what is pending. So a submission that
finds the key taken is seen by the queued job, and one that comes after the job started
takes the key again and queues the next job: nothing is missed, and the queue never holds
more jobs than there are games with pending submissions, however often the sweeper runs."""

from __future__ import annotations

from typing import Any

KEY = "warlog:queued:{}"
TTL = 900  # seconds: longest a lost job's key can hold back the next one (the sweeper retries)


def claim(redis: Any, game_id: str) -> bool:
    """Take the game's key; False if a job for it is already queued."""
    return bool(redis.set(KEY.format(game_id), b"1", nx=True, ex=TTL))


def release(redis: Any, game_id: str) -> None:
    redis.delete(KEY.format(game_id))


def release_in_job(game_id: str) -> None:
    """Called first by the job itself (does nothing outside an RQ job)."""
    from rq import get_current_job

    job = get_current_job()
    if job is not None:
        release(job.connection, game_id)
