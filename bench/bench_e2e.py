"""For bench/bench.py: figure 2, moves resolved end to end, and where a move's time goes.

The deployment (docs/deployment.md's): gunicorn (gthread; `web` = "workers:threads"), the PostgreSQL
ledger, Redis, and 2 `warlog worker` processes (bench/stage_worker.py: worker.py with each judging
run timed into Redis); the players are threads of this process, one per game, on httpx. With
`web=None` the app runs in this process instead (Flask's test client): then the players and the
web app share one GIL, and the figure is the bench's, not the deployment's. Beside it, the bare
no-op RQ job rate of the same workers.

A player (one thread per game) reads the game and its actions, submits a move, then waits for
its judgement. `client="wait"` waits the way the play page does: one long-poll
(`/games/<id>/live?last=N&wait=1&panel=0`), answered when a worker publishes the judgement
(warlog.judging.wakeup). `client="poll"` is the old client: `GET /games/<id>` every 2 ms until nothing is
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


def start_gunicorn(db: str, redis_url: str, web: str, log_dir: str) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn as docs/deployment.md deploys it (`web`: "W:T", W gthread workers of T threads each) on a
    free port; (its process, its base URL) once /healthz answers."""
    import socket

    import httpx

    workers, threads = web.split(":")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(f"{log_dir}/gunicorn.log", "wb")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-w", workers, "-k", "gthread",
                             "--threads", threads, "-b", f"127.0.0.1:{port}", "warlog.app:create_app()"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_DB": db, "WARLOG_REDIS": redis_url,
                                 "WARLOG_ALLOW_SUPERUSER": "1", "WARLOG_CLIENT_LIMIT": "off"})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not start: see {log_dir}/gunicorn.log")
        time.sleep(0.2)


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (gunicorn's web workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


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


BENCH_APP = "warlog-bench"  # the application_name of every connection the bench's schema URL opens


def backend_cpu(pg_url: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the bench (application_name
    BENCH_APP), by pid: the server's other backends (other tests, other users) are not counted."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        pids = [row[0] for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                                                (BENCH_APP,))]
    return {pid: cpu_seconds(pid) for pid in pids}


def backend_cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU the bench's backends used between two looks: a backend opened in between counts from 0;
    one closed in between is lost (an undercount, never a negative figure)."""
    return sum(max(0.0, used - before.get(pid, 0.0)) for pid, used in after.items())


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


class Http:
    """A player's HTTP client: Flask's test client on the app in this process, or httpx
    (keep-alive) to gunicorn; `get` and `post` answer (status, JSON)."""

    def __init__(self, app: Any, base_url: str | None) -> None:
        if base_url is None:
            self._client, self._httpx = app.test_client(), False
        else:
            import httpx

            self._client, self._httpx = httpx.Client(base_url=base_url, timeout=30.0), True

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        r = self._client.get(path, headers=headers or {})
        return r.json() if self._httpx else r.get_json()

    def post(self, path: str, json_body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        r = self._client.post(path, json=json_body, headers=headers or {})
        return r.status_code, (r.json() if self._httpx else r.get_json())


def player(app: Any, base_url: str | None, game: str, moves_per_game: int, client_kind: str, done: list[int],
           moves: list[dict[str, Any]]) -> Callable[[int], None]:
    def play(i: int) -> None:
        client = Http(app, base_url)
        _status, created = client.post("/api/v1/games", {"game": game})
        assert "id" in created, created
        gid, seats = created["id"], created["seats"]
        for _role, token in seats.items():
            client.post(f"/api/v1/games/{gid}/join", {}, {"Authorization": f"Bearer {token}"})
        pick, count = chooser(i + 1), 0

        def wait_judged(seq: int) -> None:
            if client_kind == "poll":
                while client.get(f"/api/v1/games/{gid}")["pending"]:
                    time.sleep(0.002)
                return
            while True:  # pending: the long-poll gave up (LIVE_WAIT): ask again
                status = client.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0").get("status")
                if status is None:  # 503: the process's long-poll slots are taken (warlog.web.pages.LIVE_WAITERS)
                    time.sleep(0.05)
                elif status != "pending":
                    return

        while count < moves_per_game:
            asked = time.time()
            info = client.get(f"/api/v1/games/{gid}")
            if info["status"] != "active":
                break
            if info["pending"]:
                time.sleep(0.002)
                continue
            auth = {"Authorization": f"Bearer {seats[info['active_seats'][0]]}"}
            listed = time.time()
            listing = client.get(f"/api/v1/games/{gid}/actions", auth)
            if not listing["actions"]:
                time.sleep(0.002)
                continue
            sent = time.time()
            status, answer = client.post(f"/api/v1/games/{gid}/moves", {
                "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
                "idempotency_key": uuid.uuid4().hex}, auth)
            posted = time.time()
            if status == 202:
                count += 1
                seq = answer["seq"]
                wait_judged(seq)
                moves.append({"game": gid, "seq": seq, "sent": sent, "posted": posted, "seen": time.time(),
                              "info": listed - asked, "actions": sent - listed})
        while client.get(f"/api/v1/games/{gid}")["pending"]:
            time.sleep(0.002)
        done.append(count)

    return play


def figure_end_to_end(pg_schema: Any, redis_url: str, game: str, games: int, moves_per_game: int,
                      fig: dict[str, float], client_kind: str = "wait", web: str | None = "2:32") -> None:
    """`web`: gunicorn's "workers:threads" (gthread), or None for the app in this process."""
    from rq import Queue, Worker
    from rq.serializers import JSONSerializer

    from ledger.factory import open_store
    from warlog.app import create_app

    where = f"gunicorn -w {web.split(':')[0]} -k gthread --threads {web.split(':')[1]}" if web else "the app in-process"
    print(f"2. end to end with 2 RQ workers ({games} games played concurrently, {moves_per_game} moves each; "
          f"web: {where}; client: {client_kind})")
    r = redis.Redis.from_url(redis_url)
    r.flushdb()
    schema = pg_schema()
    with tempfile.TemporaryDirectory() as tmp:
        open_store(schema.url, upgrade=True).close()
        procs = start_workers(schema.url, redis_url, 2, tmp)
        web_proc, base_url, app, store = None, None, None, None
        try:
            if web:
                web_proc, base_url = start_gunicorn(schema.url, redis_url, web, tmp)
                store = open_store(schema.url)
            else:
                app = create_app({"WARLOG_DB": schema.url, "WARLOG_REDIS": redis_url, "WARLOG_ALLOW_SUPERUSER": True,
                                  "WARLOG_CLIENT_LIMIT": "off"})
                store = app.extensions["warlog"].store
            web_pids = [web_proc.pid, *children(web_proc.pid)] if web_proc else []
            # bare RQ: no-op jobs through the same Redis and workers
            q = Queue("warlog", connection=r, serializer=JSONSerializer)
            n = games * moves_per_game
            start = time.perf_counter()
            jobs = [q.enqueue_call("warlog.judging.jobs.noop", args=("x",), result_ttl=60) for _ in range(n)]
            while any(j.get_status(refresh=True) != "finished" for j in jobs[-5:]) or q.count:
                time.sleep(0.01)
            noop_rate = n / (time.perf_counter() - start)
            ran_noop = sum(w.successful_job_count + w.failed_job_count for w in Worker.all(connection=r))
            r.delete(STAGES_KEY)
            done: list[int] = []
            moves: list[dict[str, Any]] = []
            play = player(app, base_url, game, moves_per_game, client_kind, done, moves)

            def cpu() -> list[float]:
                return ([cpu_seconds(os.getpid()), sum(cpu_seconds(p) for p in web_pids)]
                        + [cpu_seconds(p.pid) for p in procs] + [cpu_by_name("redis-server")])

            cpu0, pg0 = cpu(), backend_cpu(schema.url)
            start = time.perf_counter()
            threads = [threading.Thread(target=play, args=(i,)) for i in range(games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
            cpu1, pg1 = cpu(), backend_cpu(schema.url)
            cpu0.insert(len(cpu0) - 1, 0.0)
            cpu1.insert(len(cpu1) - 1, backend_cpu_used(pg0, pg1))
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
            print("  a player's turn between two moves (ms per move: p50, p95), not in submit -> resolved")
            for key, name in (("info", "GET /api/v1/games/<id>"), ("actions", "GET /api/v1/games/<id>/actions")):
                values = [1000 * m[key] for m in moves]
                say(f"  {name}", f"p50 {pct(values, 0.5):7.1f}, p95 {pct(values, 0.95):7.1f}")
            print("  where a move's time goes (ms per move: p50, p95)")
            for name, values in stage_breakdown(store, moves, runs):
                say(f"  {name}", f"p50 {pct(values, 0.5):7.1f}, p95 {pct(values, 0.95):7.1f}")
            labels = [f"this process ({games} client threads{'' if web else ' and the web app'})",
                      f"gunicorn ({len(web_pids)} processes)" if web else "gunicorn (not used)"] + \
                [f"worker {i}" for i in range(len(procs))] + \
                ["PostgreSQL, the bench's own backends", "Redis"]
            print(f"  CPU seconds during the {elapsed:.1f} s of play (2 cores: {2 * elapsed:.1f} s at most), "
                  "and per move")
            for label, a, b in zip(labels, cpu0, cpu1):
                say(f"  {label}", f"{b - a:6.1f} s  {1000 * (b - a) / max(sum(done), 1):6.1f} ms/move")
        finally:
            stop(procs + ([web_proc] if web_proc else []))
            if app is not None:
                app.extensions["warlog"].store.close()
            elif store is not None:
                store.close()
            schema.drop()
