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
CLAIM_BATCH = 1000  # games claimed by one call of claim_many's script
WAITING = ("queued", "deferred", "scheduled")


def new_job_id(game_id: str) -> str:
    """A job's id names its game (`take_queued` reads it there)."""
    return f"resolve-{game_id}-{uuid.uuid4().hex}"


def claim(redis: Any, game_id: str) -> str | None:
    """The id for a new job of this game, or None if one is already queued."""
    key, job_id = KEY.format(game_id), new_job_id(game_id)
    if redis.set(key, job_id, nx=True, ex=TTL):
        return job_id
    held = redis.get(key)
    if held is not None and _waiting(redis, held.decode("ascii", "replace")):
        return None
    redis.set(key, job_id, ex=TTL)  # stale: take it over
    return job_id


# claim_many's one round trip: `claim` and `_waiting` for every game, in Redis (KEYS: the games'
# keys; ARGV: the TTL, RQ's job and queue key prefixes, then a new job id per game). Answers
# the positions (from 1) of the games it claimed.
_CLAIM_MANY = """
local ttl, jobs, queues, seen, claimed = ARGV[1], ARGV[2], ARGV[3], {}, {}
for i, key in ipairs(KEYS) do
  local job_id = ARGV[3 + i]
  local took = redis.call('SET', key, job_id, 'NX', 'EX', ttl)
  if not took then
    local held, stale = redis.call('GET', key), true
    if held then
      local job = redis.call('HMGET', jobs .. held, 'status', 'origin')
      if job[1] == 'queued' and job[2] then
        local queue = queues .. job[2]
        if not seen[queue] then
          seen[queue] = {}
          for _, id in ipairs(redis.call('LRANGE', queue, 0, -1)) do seen[queue][id] = true end
        end
        stale = not seen[queue][held]
      elseif job[1] == 'deferred' or job[1] == 'scheduled' then
        stale = false
      end
    end
    if stale then
      redis.call('SET', key, job_id, 'EX', ttl)
      took = true
    end
  end
  if took then claimed[#claimed + 1] = i end
end
return claimed
"""


def claim_many(redis: Any, game_ids: list[str]) -> dict[str, str]:
    """`claim` for many games in one round trip (the sweep): game id -> the id of
    its new job, for each game whose key was free or stale; a game whose job still waits (see
    `_waiting`: queued and in its queue, deferred or scheduled) is left out. One Lua script
    (atomic) does it in Redis for up to CLAIM_BATCH games and reads each queue's job ids once,
    not with an LPOS per job."""
    from rq.job import Job
    from rq.queue import Queue

    games = list(dict.fromkeys(game_ids))
    if not games:
        return {}
    script = redis.register_script(_CLAIM_MANY)
    claimed: dict[str, str] = {}
    for start in range(0, len(games), CLAIM_BATCH):  # a round trip per CLAIM_BATCH games: the
        chunk = games[start:start + CLAIM_BATCH]  # script holds Redis for a few ms at most
        fresh = [new_job_id(g) for g in chunk]
        took = script(keys=[KEY.format(g) for g in chunk],
                      args=[TTL, Job.redis_job_namespace_prefix, Queue.redis_queue_namespace_prefix, *fresh])
        claimed.update((chunk[int(i) - 1], fresh[int(i) - 1]) for i in took)
    return claimed


# take_queued's one round trip (KEYS: the queue's list; ARGV: KEY's prefix, RQ's job key prefix,
# how many of the oldest entries to look at): each queued job whose game's key still holds it
# leaves the queue, its key and its hash, atomically.
_TAKE = """
local taken = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)) do
  local game = string.match(id, '^resolve%-(.+)%-%x+$')
  if game and redis.call('GET', ARGV[1] .. game) == id then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', ARGV[1] .. game, ARGV[2] .. id)
    taken[#taken + 1] = game
  end
end
return taken
"""


def take_queued(redis: Any, queue_key: str) -> list[str]:
    """Take the game jobs still waiting in the queue (its Redis list key) off it, each with its
    game's key, and answer their games: the caller judges them instead (a drainer that stays,
    warlog.judging.drainer). A submission committed before the take is judged by the caller's
    look that follows it; one after it finds the key free and queues a job again (or offers its
    game to the drainer). A job a worker has already taken off the queue, a recruit, or one whose
    key holds another id is left alone. At most CLAIM_BATCH of the oldest entries a call (the
    script holds Redis for a few ms at most: a long queue is taken over several looks)."""
    from rq.job import Job

    taken = redis.register_script(_TAKE)(keys=[queue_key],
                                         args=[KEY.format(""), Job.redis_job_namespace_prefix, CLAIM_BATCH])
    return [g.decode() if isinstance(g, bytes) else str(g) for g in taken]


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
