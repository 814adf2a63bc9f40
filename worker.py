"""The RQ worker entry point: `python worker.py` or `warlog worker`.

Wires things up only (STYLE: RQ): opens the ledger, sweeps for submissions left without a
judgement (at start and every --sweep-interval seconds), and runs an RQ SimpleWorker on the
`warlog` queue with the JSON serializer. Run as many as you like, on as many machines as you
like: the per-game lock keeps two of them off one game.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys


def load_game_modules() -> None:
    """Import extra game modules named in WARLOG_GAME_MODULES (comma-separated); each registers
    its game on import. The built-in games need nothing here."""
    import importlib

    for name in filter(None, (m.strip() for m in os.environ.get("WARLOG_GAME_MODULES", "").split(","))):
        importlib.import_module(name)


def run_worker(db: str, redis_url: str, burst: bool = False, sweep_interval: float = 30.0,
               name: str | None = None) -> int:
    from redis import Redis
    from rq import Queue, SimpleWorker
    from rq.serializers import JSONSerializer

    from warlog.extensions import start_periodic
    from warlog.jobs import store_for
    from warlog.notify.jobs import notify_queue, periodic_tasks, use_redis
    from warlog.queue import QUEUE_NAME, RQQueue, start_sweeper, sweep

    os.environ["WARLOG_DB"] = db
    load_game_modules()
    store = store_for(db)
    rq_queue = RQQueue(redis_url)  # ConnectionError, in words, if Redis is not there
    use_redis(redis_url)  # where this process's notification sweep enqueues
    from warlog.tournaments.clockwire import attach_worker

    attach_worker(store, rq_queue.enqueue)  # the clock's expiries become tournament events here too
    if burst:
        sweep(store, rq_queue.enqueue)
        for _, task in periodic_tasks():  # due notifications and deadlines
            task()
    else:
        start_sweeper(store, rq_queue.enqueue, sweep_interval)
        start_periodic(periodic_tasks(), sweep_interval)
    connection = Redis.from_url(redis_url)
    queue = Queue(QUEUE_NAME, connection=connection, serializer=JSONSerializer)
    notify = notify_queue(connection)  # notifications: only when no move waits (RQ takes queues in order)
    worker = SimpleWorker([queue, notify], connection=connection, serializer=JSONSerializer, name=name)
    worker.work(burst=burst, logging_level="INFO")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="worker.py", description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=os.environ.get("WARLOG_DB", "sqlite:///var/warlog.sqlite3"))
    parser.add_argument("--redis", default=os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    parser.add_argument("--sweep-interval", type=float, default=30.0)
    parser.add_argument("--name", default=None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        return run_worker(args.db, args.redis, args.burst, args.sweep_interval, args.name)
    except (ConnectionError, ValueError) as err:  # Redis or the ledger unreachable, a bad URL
        print(f"worker.py: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
