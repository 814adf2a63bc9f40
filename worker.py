"""The RQ worker entry point: `python worker.py` or `warlog worker`.

Wires things up only (STYLE: RQ): opens the ledger, sweeps for submissions left without a
judgement (at start and every --sweep-interval seconds), beats its heartbeat into Redis
(warlog.ops.health), and runs an RQ SimpleWorker on the `warlog` queue with the JSON serializer.
Run as many as you like, on as many machines as you like: the per-game lock keeps two of them
off one game.

Outages: when Redis goes away, even in the middle of a job or while RQ waits for
one, the worker says so in one line, looks for it again every quarter second (a TCP handshake,
warlog.judging.queue.PROBE) and, as soon as it is back, judges the backlog itself, several games
at a time (warlog.judging.catchup), then sweeps (Redis may have come back empty). A ledger outage fails no
job: the submission stays pending and the sweep queues it again once the ledger answers.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import socket
import sys
import time
from typing import Any

# Fault injection for the outage test: seconds a worker waits after its banner, before its services'
# first query (so PostgreSQL can be stopped in that window).
FAULT_DELAY_SERVICES_ENV = "WARLOG_FAULT_DELAY_BEFORE_SERVICES"


def load_game_modules() -> None:
    """Load the game registry as every process does (rules.load_games: the built-in games, then
    the modules WARLOG_GAME_MODULES names); a module that cannot be imported stops the worker in
    words (rules.GameModuleError)."""
    from rules import load_games

    load_games()


class _QuietOutages(logging.Filter):
    """RQ logs a traceback when Redis fails under its loop, and a retry line every few seconds
    while it waits: an outage is one line down and one line back instead. When RQ rides the
    outage out in its own loop (waiting for a job), `queue` watches for Redis and sweeps once
    it is back: a Redis that restarts empty has lost the queued jobs (found by the chaos soak:
    the moves queued before the outage waited for the next 30 s sweep)."""

    def __init__(self, queue: Any) -> None:
        super().__init__()
        self.queue = queue
        self.outage = queue.outage

    def filter(self, record: logging.LogRecord) -> bool:
        from warlog.judging.outage import is_outage

        message = record.getMessage()
        if "could not connect to Redis instance" in message:
            cause = message.partition("instance: ")[2].rsplit(" retrying in", 1)[0]
            self.queue.lost(ConnectionError(cause), "the worker waits for it")
            return False
        if record.exc_info and record.exc_info[1] is not None and is_outage(record.exc_info[1]):
            self.outage.down(record.exc_info[1], "the worker waits for it")  # RQ's loop ends; ours goes on
            return False
        return True


BEAT_EVERY = 10.0  # seconds: the RQ worker's heartbeat at most this often while nothing else is due


def _worker_class() -> Any:
    from rq import SimpleWorker
    from rq.worker.base import StopRequested, WorkerStatus

    from warlog.judging.outage import is_outage
    from warlog.judging.queue import RETRY

    class Worker(SimpleWorker):
        """A SimpleWorker that ends its loop quietly, noting why, when Redis fails in a job, and
        that tries Redis again every RETRY s while it waits for a job (RQ's own back-off grows to
        a minute: a move queued again after the outage waited for it)."""

        lost_redis: BaseException | None = None
        max_connection_wait_time = RETRY
        stopping = False

        def request_stop(self, signum: Any, frame: Any) -> None:
            from warlog.judging import drainer

            self.stopping = True
            drainer.STOP.set()  # a draining job ends at its next turn (warlog.judging.drainer)
            super().request_stop(signum, frame)

        idle_due = False  # "idle" set, not yet sent
        state_sent: str | None = None
        beat_at = -math.inf  # time.monotonic() of the last heartbeat sent

        def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
            """RQ's heartbeat with its three commands in one round trip (and an "idle" state set
            just before it: `set_state`), and none when one went less than BEAT_EVERY s ago with
            nothing to say: RQ sends them one at a time, three round trips a heartbeat and about
            three heartbeats a job, which across a slow link to Redis (bench/netsoak.py: 50-200 ms)
            was over a second between two jobs (tests/worker/test_rq_round_trips.py counts them).
            The worker's registration lives minutes (RQ's worker_ttl) after a beat."""
            if pipeline is not None:
                super().heartbeat(timeout, pipeline)
                self.beat_at = time.monotonic()
                return
            if timeout is None and not self.idle_due and time.monotonic() - self.beat_at < BEAT_EVERY:
                return
            with self.connection.pipeline(transaction=False) as pipe:
                if self.idle_due:
                    super().set_state(WorkerStatus.IDLE, pipe)
                super().heartbeat(timeout, pipe)
                pipe.execute()
            if self.idle_due:
                self.idle_due, self.state_sent = False, WorkerStatus.IDLE
            self.beat_at = time.monotonic()

        def set_state(self, state: str, pipeline: Any = None) -> None:
            """"idle" waits for the heartbeat RQ sends right after it (it waits for a job next),
            and is not sent again while it is the state Redis has."""
            if state == WorkerStatus.IDLE and pipeline is None:
                self._state = state
                self.idle_due = self.state_sent != WorkerStatus.IDLE
                return
            self.idle_due = False
            super().set_state(state, pipeline)
            self.state_sent = state

        def execute_job(self, job: Any, queue: Any) -> Any:
            try:
                return super().execute_job(job, queue)
            except Exception as err:
                if not is_outage(err):
                    raise
                self.lost_redis = err
                raise StopRequested() from None

    return Worker


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


class NameTaken(ValueError):
    """Another live worker holds this name in RQ."""


def claim_name(connection: Any, name: str, log: logging.Logger) -> None:
    """Clear RQ's registration of `name` when it belongs to a dead process of this host (a
    worker killed with -9 never registers its death, and RQ refuses the name to its restart
    until the registration expires, minutes later), or to this very process (its loop ended
    under an outage). A registration held by a live process, or by another host, is refused
    in words (a restarted worker judges at once, without a traceback)."""
    from rq import Worker

    key = f"{Worker.redis_worker_namespace_prefix}{name}"
    held = {k.decode(): v.decode() for k, v in connection.hgetall(key).items()}
    if not held or "death" in held:
        return
    if not held.get("pid") and not held.get("hostname"):
        # Not a registration but a fragment of one: a Redis that came back empty got only RQ's
        # heartbeat fields from the worker that had the name; it was then killed. Refusing the
        # name for it kept a restarted worker out for minutes (found by bench/chaos_soak.py).
        connection.delete(key)
        log.info("worker %s: cleared a registration without pid or host (rebuilt by a heartbeat after "
                 "Redis restarted empty)", name)
        return
    pid, host = int(held.get("pid") or 0), held.get("hostname", "")
    if host != socket.gethostname() or (pid != os.getpid() and _alive(pid)):
        raise NameTaken(f"a live worker named {name!r} is registered (pid {pid} on {host or 'an unknown host'}); "
                        "give this one another --name")
    stale = Worker.find_by_key(key, connection=connection)
    if stale is not None:
        stale.register_death()
    if pid != os.getpid():
        log.info("worker %s: cleared the registration left by pid %s, which died without saying so", name, pid)


def catch_up_for(store: Any, rq_queue: Any) -> Any:
    """The worker's catch-up (warlog.judging.catchup): the pending set judged in this process by
    the jobs' own resolver, each judged game published to the waiting pages, then the sweep."""
    from warlog.judging import wakeup
    from warlog.judging.catchup import THREADS, CatchUp, judge_backlog
    from warlog.judging.jobs import resolver_for

    resolver = resolver_for()
    keep = getattr(store, "keep_connections", None)  # PostgreSQL's pool
    if keep is not None:
        keep(THREADS)

    def publish(game_id: str) -> None:
        if not rq_queue.outage.down_now:  # the pages poll meanwhile
            wakeup.publish(rq_queue.redis, game_id)

    def catch_up() -> int:
        return judge_backlog(store.pending_games, lambda gid, wait: resolver.run(gid, lock_timeout=wait), publish)

    def sweep() -> None:
        if not rq_queue.outage.down_now:  # else the sweep after Redis is back
            rq_queue._sweep_once("the sweep after the outage")

    return CatchUp(catch_up, then=sweep)


def run_worker(db: str, redis_url: str, burst: bool = False, sweep_interval: float = 30.0,
               name: str | None = None, allow_embedded: bool = False, allow_superuser: bool | None = None) -> int:
    from psycopg.conninfo import conninfo_to_dict
    from redis import Redis
    from rq import Queue
    from rq.serializers import JSONSerializer
    from rq.worker.base import StopRequested

    from ledger.netopts import redis_params
    from warlog.config import check_deployment, describe
    from warlog.judging.catchup import tcp_reachable, watch_heals
    from warlog.judging.jobs import store_for
    from warlog.judging.outage import LEDGER, Backoff, is_outage, quiet_pool_logs
    from warlog.judging.queue import PROBE, QUEUE_NAME, RETRY, RQQueue, reachable, start_sweeper, sweep
    from warlog.notify.jobs import notify_queue, periodic_tasks, use_redis
    from warlog.ops.dbrole import allowed_by_env, check_app_role
    from warlog.ops.health import start_heartbeat
    from warlog.services import start_periodic

    check_deployment(db, redis_url, allow_embedded or os.environ.get("WARLOG_ALLOW_EMBEDDED_LEDGER", ""))
    log = logging.getLogger("warlog.worker")
    quiet_pool_logs()
    os.environ["WARLOG_DB"] = db
    load_game_modules()
    name = name or f"{socket.gethostname()}.{os.getpid()}"
    store = store_for(db)  # PostgreSQL: refuses a schema that `warlog db upgrade` has not brought up to date
    check_app_role(store, allowed_by_env() if allow_superuser is None else allow_superuser)
    rq_queue = RQQueue(redis_url, store)  # ConnectionError, in words, if Redis is not there
    use_redis(redis_url)  # where this process's notification sweep enqueues
    logging.getLogger("rq.worker").addFilter(_QuietOutages(rq_queue))
    log.info("%s", describe(f"worker {name}", db, redis_url, queue=QUEUE_NAME, sweep_interval=f"{sweep_interval} s"))

    def tidy() -> None:
        try:
            rq_queue.clean_failed()
        except Exception as err:
            if not is_outage(err):
                raise

    try:  # before any thread starts: a name a live worker holds ends this one at once, in words
        claim_name(Redis.from_url(redis_url, **redis_params()), name, log)
    except Exception as err:
        if not is_outage(err):
            raise

    from warlog.tournaments.clockwire import attach_worker

    delay = os.environ.get(FAULT_DELAY_SERVICES_ENV)  # fault injection: the outage test's window
    if delay:
        time.sleep(float(delay))
    backoff = Backoff(ceiling=RETRY)
    while True:  # its first queries: a worker (re)started while PostgreSQL restarts waits for it
        try:
            attach_worker(store, rq_queue.enqueue)  # the clock's expiries become tournament events here too
            break
        except Exception as err:
            if not is_outage(err):
                raise
            LEDGER.down(err, "the worker starts when it is back")
            time.sleep(backoff.step())
    if burst:
        sweep(store, rq_queue.enqueue, rq_queue.enqueue_many)
        for _, task in periodic_tasks():  # due notifications and deadlines
            task()
    else:
        start_sweeper(store, rq_queue.enqueue, sweep_interval, also=tidy, enqueue_many=rq_queue.enqueue_many)
        rq_queue.catch_up = catch_up_for(store, rq_queue)  # back from an outage: the backlog judged here
        pg = conninfo_to_dict(db) if db.startswith("postgres") else {}
        watch_heals(rq_queue.catch_up, lambda: LEDGER.down_now or rq_queue.outage.down_now,
                    lambda: tcp_reachable(pg.get("host"), int(pg.get("port") or 5432)))
        start_periodic(periodic_tasks(), sweep_interval)
        start_heartbeat(Redis.from_url(redis_url, **redis_params()), name,
                        on_beat=rq_queue.outage.up)  # a beat that lands ends an outage RQ rode out itself
    # RQ's connection waits minutes in BLPOP for a job: no read timeout, but keep-alives and a user
    # timeout (ledger.netopts), so a partition ends it within WARLOG_NET_TIMEOUT and the loop below
    # reconnects as soon as the network is back, instead of waiting for TCP's backed-off retransmission.
    connection = Redis.from_url(redis_url, **redis_params(blocking=True))
    queue = Queue(QUEUE_NAME, connection=connection, serializer=JSONSerializer)
    notify = notify_queue(connection)  # notifications: only when no move waits (RQ takes queues in order)
    worker_class = _worker_class()
    cleaned_at = None
    while True:
        worker = worker_class([queue, notify], connection=connection, serializer=JSONSerializer, name=name)
        # Back from an outage, RQ's registries are not cleaned again before the first job: that is
        # dozens of round trips (seconds across a slow link, found by bench/netsoak.py) and they were
        # cleaned moments ago; RQ cleans them again at its maintenance interval, and the sweep's
        # tidy-up drops the jobs of killed workers.
        worker.last_cleaned_at = cleaned_at
        try:
            claim_name(connection, name, log)
            worker.work(burst=burst, logging_level="INFO")
        except StopRequested:
            return 0
        except Exception as err:  # RQ's teardown meets the outage too
            if not is_outage(err):
                raise
            worker.lost_redis = worker.lost_redis or err
        if worker.stopping:
            return 0
        cleaned_at = worker.last_cleaned_at
        try:
            connection.ping()
            if burst and worker.lost_redis is None:
                return 0
        except Exception as err:
            if not is_outage(err):
                raise
            worker.lost_redis = worker.lost_redis or err
        # The loop ended under us: Redis went away (or RQ quit on an error). Wait, then carry on.
        if worker.lost_redis is not None:
            rq_queue.outage.down(worker.lost_redis, "the worker waits for it")
        try:
            while True:  # a TCP handshake every PROBE s, then a PING: the heal is seen within a moment
                try:
                    if reachable(connection):
                        connection.ping()
                        break
                except Exception as err:
                    if not is_outage(err):
                        raise
                time.sleep(PROBE)
        except StopRequested:
            return 0
        rq_queue.outage.up()
        # The backlog judged here at once, several games at a time, then the sweep (Redis may be
        # back empty), beside RQ's restart, not after it (warlog.judging.catchup): RQ's own round
        # trips and one job a game held the backlog back seconds after the heal.
        rq_queue.recover("the catch-up after the Redis outage")
        try:
            worker.register_death()  # so that the same name can register again
        except Exception as err:
            if not is_outage(err):
                raise


def main(argv: list[str] | None = None) -> int:
    from ledger.urls import mask_url

    parser = argparse.ArgumentParser(prog="worker.py", description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=os.environ.get("WARLOG_DB", "sqlite:///var/warlog.sqlite3"))
    parser.add_argument("--redis", default=os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    parser.add_argument("--sweep-interval", type=float, default=30.0)
    parser.add_argument("--name", default=None, help="the worker's name in RQ and in its heartbeat")
    parser.add_argument("--allow-embedded-ledger", action="store_true",
                        help="run with a SQLite ledger anyway (every process on this machine, one file)")
    args = parser.parse_args(argv)
    from warlog.ops.logs import configure_process

    configure_process()  # the web app's lines (JSON by default), passwords and tokens masked
    try:
        return run_worker(args.db, args.redis, args.burst, args.sweep_interval, args.name, args.allow_embedded_ledger)
    except (ConnectionError, ValueError) as err:  # Redis or the ledger unreachable, a bad URL
        print(f"worker.py: {mask_url(str(err))}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
