"""RQ job functions for notifications (importable, take ids, safe to run twice: STYLE RQ).

The worker process builds its services once (per pid) from WARLOG_DB and the WARLOG_* settings
(warlog.services.Settings.from_env).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from warlog.judging.jobs import db_url, store_for

JOB_TIMEOUT = 120
NOTIFY_QUEUE = "warlog-notify"  # after the `warlog` queue in every worker: judging moves comes first
_services: dict[tuple[Any, ...], Any] = {}
_queues: dict[int, Any] = {}
_redis: dict[str, str] = {}  # the worker's Redis URL (use_redis); else WARLOG_REDIS


def use_redis(url: str) -> None:
    """Set the Redis this worker process enqueues its notification jobs on."""
    _redis["url"] = url
    _queues.clear()


def services() -> Any:
    from warlog.services import Settings, build

    settings = Settings.from_env()
    key = (os.getpid(), db_url(), settings)
    if key not in _services:
        _services[key] = build(store_for(), settings)
        _services[key].notifier.enqueue = enqueue_with(None)
        _services[key].notifier.lost = lost_with(None)
    return _services[key]


def job_id(delivery_id: str) -> str:
    """A delivery's job id: one name for every attempt, so the sweep can ask RQ whether it waits."""
    return f"deliver-{delivery_id}"


def enqueue_with(queue: Any) -> Callable[[str], None]:
    """`enqueue(delivery_id)` on the notification queue beside the RQ queue `queue` (None: the
    worker's own)."""
    def enqueue(delivery_id: str) -> None:
        q = notify_queue(queue.connection) if queue is not None else _worker_queue()
        q.enqueue_call("warlog.notify.jobs.deliver", args=(delivery_id,), timeout=JOB_TIMEOUT, result_ttl=60,
                       failure_ttl=86400, job_id=job_id(delivery_id))

    return enqueue


# lost_jobs' one round trip (KEYS: the jobs' hashes; ARGV: the queue's list key): the positions
# (from 1) of the jobs neither waiting in the queue nor started, deferred or scheduled.
_LOST = """
local ids, lost = redis.call('LRANGE', ARGV[1], 0, -1), {}
local waiting = {}
for _, id in ipairs(ids) do waiting[id] = true end
for i, key in ipairs(KEYS) do
  local status = redis.call('HGET', key, 'status')
  local id = string.sub(key, string.len(ARGV[2]) + 1)
  if not (status == 'started' or status == 'deferred' or status == 'scheduled'
          or (status == 'queued' and waiting[id])) then
    lost[#lost + 1] = i
  end
end
return lost
"""


def lost_with(queue: Any) -> Callable[[list[str]], list[str]]:
    """`lost(delivery_ids)`: those whose job is neither waiting in the notification queue nor
    running (lost with a connection, a Redis restarted empty, a worker killed between taking it
    and starting it). One round trip (a script)."""
    from rq.job import Job

    def lost(delivery_ids: list[str]) -> list[str]:
        q = notify_queue(queue.connection) if queue is not None else _worker_queue()
        script = q.connection.register_script(_LOST)
        prefix = Job.redis_job_namespace_prefix
        found = script(keys=[prefix + job_id(d) for d in delivery_ids], args=[q.key, prefix])
        return [delivery_ids[int(i) - 1] for i in found]

    return lost


def notify_queue(connection: Any) -> Any:
    from rq import Queue
    from rq.serializers import JSONSerializer

    return Queue(NOTIFY_QUEUE, connection=connection, serializer=JSONSerializer, default_timeout=JOB_TIMEOUT)


def _worker_queue() -> Any:
    from warlog.judging.queue import RQQueue

    key = os.getpid()
    if key not in _queues:
        url = _redis.get("url") or os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0")
        _queues[key] = notify_queue(RQQueue(url).redis)
    return _queues[key]


def on_judged() -> Any:
    """The resolver's on_judged hook in this worker process (clocks, then notices)."""
    found = services()
    return found.on_judged(store_for(), found.clock.base_url)


def periodic_tasks() -> list[tuple[str, Callable[[], object]]]:
    """What the worker runs at start and every sweep interval (warlog.services.start_periodic)."""
    return [("notifications", sweep), ("deadlines", sweep_deadlines), ("leave", lambda: services().away.sweep()),
            ("expired sign-ins", lambda: services().players.purge())]


def sweep_deadlines() -> dict[str, int]:
    """Reminders and expiries that are due (warlog.clock)."""
    counts: dict[str, int] = services().clock.sweep()
    return counts


def deliver(delivery_id: str) -> str:
    """One attempt at a delivery; a failure is recorded and retried by the sweep."""
    status: str = services().notifier.deliver(delivery_id)
    return status


def sweep() -> int:
    """Enqueue due retries and lost jobs; send digests (the worker runs it periodically)."""
    count: int = services().notifier.sweep()
    return count
