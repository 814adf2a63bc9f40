"""Round trips a worker spends per judged move on its usual path, a drainer woken by the move
(warlog.judging.drainer), on the local PostgreSQL and Redis: what a slow link to the data host
multiplies (bench/netsoak.py adds 50-200 ms to each).

    .venv/bin/python bench/worker_round_trips.py [--moves 100] [--drainers 2]

A drainer thread waits as a worker's judging job does, with the worker's own resolver (its
notification hooks included: warlog.judging.jobs.resolver_for), or with --drainers N, N of them,
each with a store and resolver of its own as N workers have, taking the wake-ups in turn (Redis
wakes the longest waiter: a game's state is then cached where its last move was judged, not
where the next one is, as with the soak's two workers); the main thread plays an
Assault on Belgium game as the web does (list the actions, submit one, which offers the game to
the drainer), waiting for each judgement before the next move. The drainer threads' PostgreSQL
statements (psycopg's executes), new connections and Redis round trips (a command, or a pipeline)
are counted by wrapping the clients (neither has a counter of its own). Prints per move: every
round trip of the drainer's cycle (from one wake-up to the next), those from the wake-up to the
judgement's commit (what the move waits for), and the drainer's waits that found nothing.
Uses a schema of its own and Redis database WARLOG_BENCH_REDIS_URL (default 8: the tests empty
theirs, 15 and down, one per pytest-xdist worker), emptied first.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psycopg  # noqa: E402
import redis  # noqa: E402
from bench_rules import chooser, started_game  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.factory import open_store  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("WARLOG_BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
DRAINER = "bench-drainer"  # the counted threads' names begin so

TRIPS: collections.Counter[str] = collections.Counter()  # the drainer threads' round trips, by what
TO_COMMIT: list[int] = []  # round trips from each wake-up to its judgement's commit
_since_wake: dict[str, int] = {}  # a drainer's round trips since its last wake-up (-1: judgement committed)
_idle = [0]


def _counted(what: str) -> None:
    name = threading.current_thread().name
    if not name.startswith(DRAINER):
        return
    TRIPS[what] += 1
    if _since_wake.get(name, -1) >= 0:
        _since_wake[name] += 1
        if what.startswith("pg ") and "ledger_append" in what:
            TO_COMMIT.append(_since_wake[name])
            _since_wake[name] = -1


def _woken(answer: Any) -> None:
    name = threading.current_thread().name
    if not name.startswith(DRAINER):
        return
    if answer is None:
        _idle[0] += 1
    else:
        _since_wake[name] = 0


def _install_counters() -> None:
    from redis.client import Pipeline

    execute, executemany, connect = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.connect
    command, pipelined = redis.Redis.execute_command, Pipeline.execute

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        text = query if isinstance(query, str) else repr(query)
        _counted("pg " + " ".join(text.split())[:70])
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        _counted("pg " + " ".join(str(query).split())[:70])
        return executemany(self, query, *args, **kwargs)

    def counted_connect(*args: Any, **kwargs: Any) -> Any:
        _counted("pg connect")
        return connect(*args, **kwargs)

    def counted_command(self: Any, *args: Any, **options: Any) -> Any:
        if isinstance(self, Pipeline):  # queued: the pipeline's execute is the round trip
            return command(self, *args, **options)
        _counted(f"redis {args[0]}")
        answer = command(self, *args, **options)
        if str(args[0]).upper() == "BLPOP":
            _woken(answer)
        return answer

    def counted_pipeline(self: Any, *args: Any, **kwargs: Any) -> Any:
        names = [str(c[0][0]) for c in self.command_stack]
        _counted(f"redis pipeline[{', '.join(names)}]")
        answers = pipelined(self, *args, **kwargs)
        if "BLPOP" in [n.upper() for n in names]:
            _woken(answers[[n.upper() for n in names].index("BLPOP")])
        return answers

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]
    psycopg.connect = counted_connect  # type: ignore[assignment]  # the game lock's own sessions
    redis.Redis.execute_command = counted_command  # type: ignore[method-assign]
    Pipeline.execute = counted_pipeline  # type: ignore[method-assign]


def play(url: str, moves: int, drainers: int) -> tuple[int, float]:
    """`moves` moves of one game, each judged by a drainer thread; (moves judged, seconds). With
    several drainers (workers: each its own store and resolver), they take the wake-ups in turn."""
    from warlog.games.service import Warlog
    from warlog.judging import drainer, jobs, wakeup
    from warlog.judging.queue import RQQueue
    from warlog.judging.resolver import Resolver
    from warlog.notify.jobs import on_judged

    os.environ["WARLOG_DB"] = url
    rq = RQQueue(REDIS)
    rq.redis.flushdb()
    store = jobs.store_for(url)
    resolvers = [jobs.resolver_for(url)]
    resolvers += [Resolver(open_store(url), on_judged=on_judged()) for _ in range(drainers - 1)]
    judged = threading.Event()
    conn = redis.Redis.from_url(REDIS)

    def publish(game_id: str) -> None:
        wakeup.publish(conn, game_id)
        judged.set()

    def drain(resolver: Resolver, i: int) -> None:
        drainer.QUIET_ROUNDS = 10**9  # waits on until told to stop, however long a move takes to make
        drainer.drain(redis.Redis.from_url(REDIS), f"bench-{i}", lambda gid, wait: resolver.run(gid, lock_timeout=wait),
                      resolver.store.pending_games, publish, lifetime=3600.0, others_wait=lambda: stop.is_set())

    stop = threading.Event()
    svc = Warlog(store, rq.enqueue)
    created = started_game(svc, "assault-on-belgium")
    gid, token = created["id"], created["seats"]["belgium"]
    viewer, pick = svc.viewer(gid, token), chooser(7)
    threads = [threading.Thread(target=drain, args=(r, i), name=f"{DRAINER}-{i}", daemon=True)
               for i, r in enumerate(resolvers)]
    for thread in threads:
        thread.start()
    while conn.zcount(drainer.ALIVE, time.time(), "+inf") < drainers:
        time.sleep(0.01)
    TRIPS.clear()
    TO_COMMIT.clear()
    _idle[0] = 0
    done = 0
    start = time.perf_counter()
    for _ in range(moves):
        listing = svc.actions(gid, viewer)
        legal = [a for a in listing["actions"] if a["type"] in ("select", "place", "unplace")]
        if not legal:
            break
        judged.clear()
        svc.submit_move(gid, token, pick(legal), listing["expected_seq"], uuid.uuid4().hex)
        if not judged.wait(30):
            raise SystemExit("a move was not judged by the drainer within 30 s")
        done += 1
    elapsed = time.perf_counter() - start
    stop.set()
    for thread in threads:
        thread.join(10)
    return done, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--drainers", type=int, default=1,
                        help="drainers (workers) taking the wake-ups in turn: 2 is the soak's two workers")
    args = parser.parse_args()
    schema = f"warlog_bench_trips_{uuid.uuid4().hex[:8]}"
    url = f"{PG}?options=-csearch_path%3D{schema}"
    try:
        open_store(url, upgrade=True).close()
        _install_counters()
        moves, elapsed = play(url, args.moves, args.drainers)
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    # The cycle after the last wake-up ends with the drainer's leaving (not a move's cost).
    pg = sum(n for what, n in TRIPS.items() if what.startswith("pg "))
    rd = sum(n for what, n in TRIPS.items() if what.startswith("redis "))
    print(f"{moves} moves judged by {args.drainers} woken drainer(s) in {elapsed:.2f} s; per move, their round trips: "
          f"{(pg + rd) / moves:.2f} ({pg / moves:.2f} PostgreSQL, {rd / moves:.2f} Redis), "
          f"{sum(TO_COMMIT) / max(len(TO_COMMIT), 1):.2f} from the wake-up to the judgement's commit; "
          f"waits that found nothing: {_idle[0]}")
    for what, n in TRIPS.most_common():
        print(f"  {n / moves:5.2f}  {what}")


if __name__ == "__main__":
    main()
