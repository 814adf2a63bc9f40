"""For bench/bench.py: figure 2, moves resolved end to end, and where a move's time goes.

The deployment: the Flask app in this process (its test client, one thread per game), the
PostgreSQL ledger, Redis, and 2 `warlog worker` processes (bench/stage_worker.py: worker.py with
each judging run timed into Redis). Beside it, the bare no-op RQ job rate of the same workers.

A player (one thread per game) reads the game and its actions, submits a move, then waits for
its judgement. `client="wait"` waits the way the play page does: one long-poll
(`/games/<id>/live?last=N&wait=1&panel=0`), answered when a worker publishes the judgement
(warlog.wakeup). `client="poll"` is the old client: `GET /games/<id>` every 2 ms until nothing is
pending (50 threads doing that share this process's GIL with the web app they poll).

Per move, the stages (Unix times, one clock: the ledger's `recorded_at` and the worker's runs
are taken on this machine): the POST sent, the submission appended (its `recorded_at`), the
POST answered (after the offer to a drainer or the enqueue), a worker's run of the game begun,
the judgement appended, the client told. And the CPU seconds each process spent meanwhile.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import redis
from bench_rules import chooser
from stage_worker import STAGES_KEY

from ledger.events import REJECTED, RESOLVED, SUBMITTED

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


def say(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)


def start_workers(db: str, redis_url: str, count: int, log_dir: str) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(count):
        log = open(f"{log_dir}/worker{i}.log", "wb")
        procs.append(subprocess.Popen([sys.executable, str(ROOT / "bench" / "stage_worker.py"), "--db", db,
                                       "--redis", redis_url, "--sweep-interval", "5"], cwd=ROOT, stdout=log,
                                      stderr=subprocess.STDOUT,
                                      env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_ALLOW_SUPERUSER": "1",
                                           "WARLOG_BENCH_STAGES": redis_url}))
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


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) MB of a process, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        fields[key] = rest
    return (int(fields.get("VmRSS", "0 kB").split()[0]) / 1024, int(fields.get("VmHWM", "0 kB").split()[0]) / 1024)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (0 if it is gone or unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def cpu_by_name(name: str) -> float:
    """CPU seconds of every live process called `name` (postgres, redis-server)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    total += cpu_seconds(int(entry.name))
            except OSError:
                continue
    return total


def _ts(recorded_at: str) -> float:
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).timestamp()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)] if ordered else float("nan")


def stage_breakdown(store: Any, moves: list[dict[str, Any]], runs: list[list[Any]]) -> list[tuple[str, list[float]]]:
    """Per move, the milliseconds of each stage between the POST and the client seeing the judgement."""
    by_game: dict[str, list[tuple[float, float]]] = {}
    for game_id, entered, left, *_ in runs:
        by_game.setdefault(game_id, []).append((entered, left))
    judged: dict[tuple[str, int], float] = {}
    appended: dict[tuple[str, int], float] = {}
    for game_id in {m["game"] for m in moves}:
        for ev in store.iter_events(game_id, after=-1):
            if ev.type == SUBMITTED:
                appended[(game_id, ev.seq)] = _ts(ev.recorded_at)
            elif ev.type in (RESOLVED, REJECTED):
                judged[(game_id, ev.payload["submission_seq"])] = _ts(ev.recorded_at)
    names = ["HTTP submit: POST sent -> submission appended", "submit: appended -> POST answered (offer/enqueue)",
             "queue: POST answered -> a worker's run of the game begins",
             "judging: run begun (or submission appended) -> judgement appended",
             "notice: judgement appended -> client told", "total: POST sent -> client told"]
    stages: list[list[float]] = [[] for _ in names]
    for m in moves:
        key = (m["game"], m["seq"])
        if key not in appended or key not in judged:
            continue
        sub, ruling = appended[key], judged[key]
        begun = max((e for e, _left in by_game.get(m["game"], []) if e <= ruling), default=sub)
        start = max(begun, sub)
        for i, v in enumerate([sub - m["sent"], m["posted"] - sub, max(0.0, begun - m["posted"]),
                               ruling - start, m["seen"] - ruling, m["seen"] - m["sent"]]):
            stages[i].append(1000 * v)
    return list(zip(names, stages))


def player(app: Any, game: str, moves_per_game: int, client_kind: str, done: list[int],
           moves: list[dict[str, Any]]) -> Callable[[int], None]:
    def play(i: int) -> None:
        client = app.test_client()
        created = client.post("/api/v1/games", json={"game": game}).get_json()
        assert "id" in created, created
        gid, seats = created["id"], created["seats"]
        for _role, token in seats.items():
            client.post(f"/api/v1/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {token}"})
        pick, count = chooser(i + 1), 0

        def wait_judged(seq: int) -> None:
            if client_kind == "poll":
                while client.get(f"/api/v1/games/{gid}").get_json()["pending"]:
                    time.sleep(0.002)
                return
            while client.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0").get_json()["status"] == "pending":
                pass  # the long-poll gave up (LIVE_WAIT): ask again

        while count < moves_per_game:
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
            sent = time.time()
            r = client.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
                "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
                "idempotency_key": uuid.uuid4().hex})
            posted = time.time()
            if r.status_code == 202:
                count += 1
                seq = r.get_json()["seq"]
                wait_judged(seq)
                moves.append({"game": gid, "seq": seq, "sent": sent, "posted": posted, "seen": time.time()})
        while client.get(f"/api/v1/games/{gid}").get_json()["pending"]:
            time.sleep(0.002)
        done.append(count)

    return play


def figure_end_to_end(pg_schema: Any, redis_url: str, game: str, games: int, moves_per_game: int,
                      fig: dict[str, float], client_kind: str = "wait") -> None:
    from rq import Queue, Worker
    from rq.serializers import JSONSerializer

    from ledger.factory import open_store
    from warlog.app import create_app

    print(f"2. end to end with 2 RQ workers ({games} games played concurrently, {moves_per_game} moves each, "
          f"client: {client_kind})")
    r = redis.Redis.from_url(redis_url)
    r.flushdb()
    schema = pg_schema()
    with tempfile.TemporaryDirectory() as tmp:
        open_store(schema.url, upgrade=True).close()
        app = create_app({"WARLOG_DB": schema.url, "WARLOG_REDIS": redis_url, "WARLOG_ALLOW_SUPERUSER": True})
        procs = start_workers(schema.url, redis_url, 2, tmp)
        try:
            # bare RQ: no-op jobs through the same Redis and workers
            q = Queue("warlog", connection=r, serializer=JSONSerializer)
            n = games * moves_per_game
            start = time.perf_counter()
            jobs = [q.enqueue_call("warlog.jobs.noop", args=("x",), result_ttl=60) for _ in range(n)]
            while any(j.get_status(refresh=True) != "finished" for j in jobs[-5:]) or q.count:
                time.sleep(0.01)
            noop_rate = n / (time.perf_counter() - start)
            ran_noop = sum(w.successful_job_count + w.failed_job_count for w in Worker.all(connection=r))
            r.delete(STAGES_KEY)
            done: list[int] = []
            moves: list[dict[str, Any]] = []
            play = player(app, game, moves_per_game, client_kind, done, moves)
            cpu0 = ([cpu_seconds(os.getpid())] + [cpu_seconds(p.pid) for p in procs]
                    + [cpu_by_name("postgres"), cpu_by_name("redis-server")])
            start = time.perf_counter()
            threads = [threading.Thread(target=play, args=(i,)) for i in range(games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
            cpu1 = ([cpu_seconds(os.getpid())] + [cpu_seconds(p.pid) for p in procs]
                    + [cpu_by_name("postgres"), cpu_by_name("redis-server")])
            rss = [rss_mb(p.pid) for p in procs]
            ran = sum(w.successful_job_count + w.failed_job_count for w in Worker.all(connection=r)) - ran_noop
            runs = [json.loads(x) for x in r.lrange(STAGES_KEY, 0, -1)]
            latencies = [1000 * (m["seen"] - m["sent"]) for m in moves]
            p95 = pct(latencies, 0.95)
            rate = sum(done) / elapsed
            fig.update({"e2e": rate, "noop": noop_rate, "p95": p95})
            say("moves resolved end to end (submit, judge, read back)", f"{rate:,.1f} moves/s "
                f"({sum(done)} moves in {elapsed:.1f} s)")
            say("bare no-op RQ jobs, same Redis, same 2 workers", f"{noop_rate:,.1f} jobs/s  (ratio "
                f"{rate / noop_rate:.2f})")
            say("submit -> resolved, per move", f"p50 {statistics.median(latencies):.0f} ms, p95 {p95:.0f} ms")
            say("RQ jobs the workers ran for the moves (no-op jobs not counted)",
                f"{ran:,} ({ran / max(sum(done), 1):.2f} per move)")
            say("judging runs (Resolver.run) / moves judged per run",
                f"{len(runs):,} / {sum(x[3] for x in runs) / max(len(runs), 1):.2f}")
            for i, p in enumerate(procs):
                mine = [x for x in runs if x[4] == p.pid]
                busy = sum(x[2] - x[1] for x in mine)
                useful = [1000 * (x[2] - x[1]) / x[3] for x in mine if x[3]]
                hooks = [1000 * x[5] / x[3] for x in mine if x[3]]
                say(f"worker {i}: wall time in judging runs / per judged move",
                    f"{100 * busy / elapsed:.0f}% of the play / p50 {pct(useful, 0.5):.1f} ms, "
                    f"p95 {pct(useful, 0.95):.1f} ms (on_judged hooks p50 {pct(hooks, 0.5):.1f} ms)")
            say("worker RSS (now / peak), each of 2 workers",
                ", ".join(f"{now:.0f} / {peak:.0f} MB" for now, peak in rss))
            print("  where a move's time goes (ms per move: p50, p95)")
            for name, values in stage_breakdown(app.extensions["warlog"].store, moves, runs):
                say(f"  {name}", f"p50 {pct(values, 0.5):7.1f}, p95 {pct(values, 0.95):7.1f}")
            labels = ["this process (the web app and its 50 client threads)"] + \
                [f"worker {i}" for i in range(len(procs))] + \
                ["PostgreSQL, all backends (the server is shared)", "Redis"]
            print(f"  CPU seconds during the {elapsed:.1f} s of play (2 cores: {2 * elapsed:.1f} s at most), "
                  "and per move")
            for label, a, b in zip(labels, cpu0, cpu1):
                say(f"  {label}", f"{b - a:6.1f} s  {1000 * (b - a) / max(sum(done), 1):6.1f} ms/move")
        finally:
            stop(procs)
            app.extensions["warlog"].store.close()
            schema.drop()
