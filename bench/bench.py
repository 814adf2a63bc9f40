"""Warlog benchmarks: prints figures for the machine it runs on (not a test; nothing asserts).

    python bench/bench.py            # everything (needs PostgreSQL and Redis, like the tests)
    python bench/bench.py --quick    # smaller counts

Figures:
1. ledger appends/s on SQLite and PostgreSQL, and the `eventsourcing` library's aggregate
   recorder inserting the same number of same-sized events on the same backend (the ratio);
2. moves resolved/s end to end (HTTP client -> Flask -> ledger -> RQ -> 2 worker processes ->
   ledger), beside a bare no-op RQ job rate through the same Redis and 2 workers;
3. state-at-step latency in a 10,000-event game, with and without snapshots;
4. verify events/s on that game's export.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
import redis  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.canonical import canonical_bytes  # noqa: E402
from ledger.events import GAME_CREATED, SUBMITTED, NewEvent  # noqa: E402
from ledger.export import export_lines  # noqa: E402
from ledger.store import EventStore, open_store  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("WARLOG_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
GAME = "assault-on-belgium"
PAYLOAD = {"action": {"type": "move", "hex": "0917"}, "expected_seq": 0, "idempotency_key": "x" * 32}


def say(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)


class PgSchema:
    """A throwaway PostgreSQL schema for one figure."""

    def __init__(self) -> None:
        self.name = f"warlog_bench_{uuid.uuid4().hex[:10]}"

    @property
    def url(self) -> str:
        return f"{PG}?options=-csearch_path%3D{self.name}"

    def drop(self) -> None:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.name)))


def time_appends(store: EventStore, n: int) -> float:
    gid = uuid.uuid4().hex[:16]
    store.append(gid, -1, [NewEvent(GAME_CREATED, None, {"game": GAME})], game_info=(GAME, "bench", False))
    start = time.perf_counter()
    for seq in range(n):
        store.append(gid, seq, [NewEvent(SUBMITTED, "germany", PAYLOAD)])
    return n / (time.perf_counter() - start)


def time_eventsourcing(kind: str, n: int, where: str) -> float:
    from eventsourcing.persistence import StoredEvent

    state = canonical_bytes(PAYLOAD)
    if kind == "sqlite":
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

        recorder: Any = SQLiteAggregateRecorder(SQLiteDatastore(where))
    else:
        from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore

        ds = PostgresDatastore("test", "127.0.0.1", 5432, "postgres", "", schema=where)
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(where)))
        recorder = PostgresAggregateRecorder(ds)
    recorder.create_table()
    oid = uuid.uuid4()
    start = time.perf_counter()
    for version in range(1, n + 1):
        recorder.insert_events([StoredEvent(oid, version, "warlog.bench:Submitted", state)])
    return n / (time.perf_counter() - start)


def figure_appends(n: int, rounds: int = 3) -> None:
    """Ours and theirs alternate `rounds` times on fresh tables; medians are printed, so that
    load from other processes on the machine hits both sides alike."""
    print(f"1. ledger appends (one writer, one event per transaction, {n} events, median of {rounds} "
          "alternating runs)")
    for label in ("SQLite", "PostgreSQL"):
        ours, theirs = [], []
        for _ in range(rounds):
            if label == "SQLite":
                with tempfile.TemporaryDirectory() as tmp:
                    ours.append(time_appends(open_store(f"sqlite:///{tmp}/w.sqlite3"), n))
                    theirs.append(time_eventsourcing("sqlite", n, f"{tmp}/es.sqlite3"))
                continue
            schema = PgSchema()
            try:
                ours.append(time_appends(open_store(schema.url), n))
                theirs.append(time_eventsourcing("postgres", n, schema.name + "_es"))
            finally:
                schema.drop()
                with psycopg.connect(PG, autocommit=True) as conn:
                    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                        sql.Identifier(schema.name + "_es")))
        a, b = statistics.median(ours), statistics.median(theirs)
        recorder = "SQLiteAggregateRecorder" if label == "SQLite" else "PostgresAggregateRecorder"
        say(f"{label} warlog ledger (hash chain, projection, row lock)", f"{a:,.0f} appends/s")
        say(f"{label} eventsourcing {recorder}", f"{b:,.0f} inserts/s  (ratio ours/theirs {a / b:.2f})")


def start_workers(db: str, count: int, log_dir: str) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(count):
        log = open(f"{log_dir}/worker{i}.log", "wb")
        procs.append(subprocess.Popen([sys.executable, str(ROOT / "worker.py"), "--db", db, "--redis", REDIS,
                                       "--sweep-interval", "5"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)}))
    time.sleep(1.5)
    return procs


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def chooser(seed: int) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    """A deterministic pick among legal actions (no `random`): a linear congruential walk."""
    state = [seed]

    def pick(actions: list[dict[str, Any]]) -> dict[str, Any]:
        state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) % 2**64
        return actions[(state[0] >> 33) % len(actions)]

    return pick


def figure_end_to_end(games: int, moves_per_game: int) -> None:
    import threading

    from rq import Queue
    from rq.serializers import JSONSerializer

    from warlog.app import create_app

    print(f"2. end to end with 2 RQ workers ({games} games played concurrently, {moves_per_game} moves each)")
    redis.Redis.from_url(REDIS).flushdb()
    schema = PgSchema()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"WARLOG_DB": schema.url, "WARLOG_REDIS": REDIS})
        procs = start_workers(schema.url, 2, tmp)
        try:
            # bare RQ: no-op jobs through the same Redis and workers
            q = Queue("warlog", connection=redis.Redis.from_url(REDIS), serializer=JSONSerializer)
            n = games * moves_per_game
            start = time.perf_counter()
            jobs = [q.enqueue_call("warlog.jobs.noop", args=("x",), result_ttl=60) for _ in range(n)]
            while any(j.get_status(refresh=True) != "finished" for j in jobs[-5:]) or q.count:
                time.sleep(0.01)
            noop_rate = n / (time.perf_counter() - start)
            done: list[int] = []

            def play(i: int) -> None:
                client = app.test_client()
                created = client.post("/api/v1/games", json={"game": GAME}).get_json()
                assert "id" in created, created
                gid, seats = created["id"], created["seats"]
                for _role, token in seats.items():
                    client.post(f"/api/v1/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {token}"})
                pick, moves = chooser(i + 1), 0
                while moves < moves_per_game:
                    info = client.get(f"/api/v1/games/{gid}").get_json()
                    if info["status"] != "active":
                        break
                    if info["pending"]:
                        time.sleep(0.002)
                        continue
                    auth = {"Authorization": f"Bearer {seats[info['active_seats'][0]]}"}
                    listing = client.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
                    if not listing["actions"]:
                        time.sleep(0.002)
                        continue
                    r = client.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
                        "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
                        "idempotency_key": uuid.uuid4().hex})
                    if r.status_code == 202:
                        moves += 1
                while client.get(f"/api/v1/games/{gid}").get_json()["pending"]:
                    time.sleep(0.002)
                done.append(moves)

            start = time.perf_counter()
            threads = [threading.Thread(target=play, args=(i,)) for i in range(games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
            say("moves resolved end to end (submit, judge, read back)", f"{sum(done) / elapsed:,.1f} moves/s "
                f"({sum(done)} moves in {elapsed:.1f} s)")
            say("bare no-op RQ jobs, same Redis, same 2 workers", f"{noop_rate:,.1f} jobs/s")
        finally:
            stop(procs)
            app.extensions["warlog"].store.close()
            schema.drop()


def long_game(store: EventStore, events: int) -> str:
    """A legal game of `events` events: Belgium placing and picking up units during set-up."""
    from warlog.queue import InlineQueue
    from warlog.resolver import Resolver
    from warlog.service import Warlog

    queue = InlineQueue(store)
    svc = Warlog(store, lambda gid: None)
    created = svc.create_game(GAME, None, {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    resolver, pick = Resolver(store), chooser(7)
    token = created["seats"]["belgium"]
    viewer = svc.viewer(gid, token)
    while store.last_seq(gid) < events - 2:
        listing = svc.actions(gid, viewer)
        legal = [a for a in listing["actions"] if a["type"] in ("select", "place", "unplace")]
        svc.submit_move(gid, token, pick(legal), listing["expected_seq"], uuid.uuid4().hex)
        resolver.run(gid)
    queue.pool.shutdown()
    return gid


def figure_state_and_verify(events: int) -> None:
    from warlog.history import StoreHistory
    from warlog.verify import verify_lines

    print(f"3. state at a step in a {events:,}-event game (SQLite and PostgreSQL)")
    schema = PgSchema()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for label, url in (("SQLite", f"sqlite:///{tmp}/w.sqlite3"), ("PostgreSQL", schema.url)):
                store = open_store(url)
                t0 = time.perf_counter()
                gid = long_game(store, events)
                build = time.perf_counter() - t0
                last = store.last_seq(gid)
                steps = [last * k // 20 for k in range(1, 21)]
                for snaps in (True, False):
                    hist = StoreHistory(store, gid, snapshots=snaps)
                    times = []
                    for s in steps:
                        t = time.perf_counter()
                        hist.state_at(s)
                        times.append((time.perf_counter() - t) * 1000)
                    times.sort()
                    say(f"{label} state_at, {'with' if snaps else 'without'} snapshots",
                        f"p50 {statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f} ms")
                say(f"{label} building the game (judging {last // 2} moves)", f"{last / build:,.0f} events/s")
                if label == "SQLite":
                    lines = list(export_lines(store, gid))
                store.close()
        print(f"4. verify ({len(lines):,} events, every move re-run through the rules)")
        t = time.perf_counter()
        report = verify_lines(lines)
        say("verify", f"{len(lines) / (time.perf_counter() - t):,.0f} events/s  ({report.judgements} judgements)")
    finally:
        schema.drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (a smoke run)")
    parser.add_argument("--only", choices=["appends", "e2e", "state"], default=None)
    args = parser.parse_args()
    n, games, moves, events = (300, 2, 20, 1000) if args.quick else (3000, 8, 60, 10_000)
    print(f"Warlog benchmarks on {os.uname().nodename} ({os.cpu_count()} cores), Python {sys.version.split()[0]}")
    if args.only in (None, "appends"):
        figure_appends(n)
    if args.only in (None, "e2e"):
        figure_end_to_end(games, moves)
    if args.only in (None, "state"):
        figure_state_and_verify(events)


if __name__ == "__main__":
    main()
