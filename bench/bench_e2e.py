"""For bench/bench.py: figure 2, moves resolved end to end, and where a move's time goes.

The deployment (docs/deployment.md's): gunicorn (gthread; `web` = "workers:threads"), the PostgreSQL
ledger, Redis, and 2 `warlog worker` processes (bench/stage_worker.py: worker.py with each judging
run timed into Redis); the players are threads of this process, one per game, on httpx. With
`web=None` the app runs in this process instead (Flask's test client): then the players and the
web app share one GIL, and the figure is the bench's, not the deployment's. Beside it, the bare
no-op RQ job rate of the same workers.

A player (one thread per game) reads the game and its actions, submits a move, then waits for
its judgement. `client="listing"` (the default) asks the POST itself to wait for the judgement and
answer with the seat's next listing (`?wait=8&listing=true`, docs/api.md "The next listing"): one
request a move, and a GET of the actions when the turn passes to the other seat (which the same
thread holds). `client="wait"` waits the way the play page does: one long-poll
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


def start_gunicorn(db: str, redis_url: str, web: str, log_dir: str,
                   app_spec: str = "warlog.app:create_app()") -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn as docs/deployment.md deploys it (`web`: "W:T", W gthread workers of T threads each) on a
    free port; (its process, its base URL) once /healthz answers. `app_spec`: Warlog, or the bare
    anchor ("bare_anchor:create_app()", the same settings)."""
    import socket

    import httpx

    workers, threads = web.split(":")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(f"{log_dir}/gunicorn-{app_spec.split(':')[0]}.log", "wb")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-w", workers, "-k", "gthread",
                             "--threads", threads, "-b", f"127.0.0.1:{port}", app_spec],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}", "WARLOG_DB": db,
                                 "WARLOG_REDIS": redis_url, "BARE_PG": db, "BARE_REDIS": redis_url,
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
        # the listing client's POST answers after the judgement: its offer/enqueue is not seen apart
        posted = m["posted"]
        for i, v in enumerate([sub - m["sent"], None if posted is None else posted - sub,
                               max(0.0, begun - (sub if posted is None else posted)),
                               ruling - start, m["seen"] - ruling, m["seen"] - m["sent"]]):
            if v is not None:
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

            # an API client: JSON asked for (a 503 of a long-poll without free slots is then JSON too)
            self._client, self._httpx = httpx.Client(base_url=base_url, timeout=30.0,
                                                     headers={"Accept": "application/json"}), True

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        r = self._client.get(path, headers=headers or {})
        if r.status_code == 503:  # a long-poll without a free slot: ask again (the players' `status is None`)
            return {}
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

        if client_kind == "listing":
            count = play_listing(client, gid, seats, pick, moves_per_game, moves)
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


LISTING = "?wait=8&listing=true"  # the POST waits (at most 8 s) for the judgement and answers the next listing
NO_LISTING: dict[str, Any] = {"status": "active", "actions": [], "active_seats": []}  # ask the game who moves


def play_listing(client: Http, gid: str, seats: dict[str, str], pick: Callable[[list[dict[str, Any]]], dict[str, Any]],
                 moves_per_game: int, moves: list[dict[str, Any]]) -> int:
    """`moves_per_game` moves played from the POSTs' answers (client "listing"): a GET of the
    actions only when the turn passes to the other seat, and a GET of the game only when a
    judgement was still pending at the answer; the moves made."""
    count, seat, listing = 0, "", NO_LISTING
    while count < moves_per_game and listing["status"] == "active":
        asked = time.time()
        if not listing["actions"]:
            active = listing["active_seats"]
            if not active:
                info = client.get(f"/api/v1/games/{gid}")
                if info["status"] != "active":
                    break
                if info["pending"] or not info["active_seats"]:
                    time.sleep(0.002)
                    continue
                active = info["active_seats"]
            seat = active[0]
            listing = client.get(f"/api/v1/games/{gid}/actions", {"Authorization": f"Bearer {seats[seat]}"})
            if not listing["actions"]:
                listing = NO_LISTING
                time.sleep(0.002)
                continue
        sent = time.time()
        status, answer = client.post(f"/api/v1/games/{gid}/moves{LISTING}", {
            "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
            "idempotency_key": uuid.uuid4().hex}, {"Authorization": f"Bearer {seats[seat]}"})
        seen = time.time()
        if status != 202:
            listing = NO_LISTING
            continue
        count += 1
        if answer["judgement"]["status"] == "pending":  # the wait ended first (or no slot was free)
            while (judged := client.get(f"/games/{gid}/live?last={answer['seq']}&wait=1&panel=0").get("status")
                   ) in ("pending", None):
                if judged is None:  # 503: the process's waiting slots are taken (warlog.web.pages.LIVE_WAITERS)
                    time.sleep(0.05)
            seen, listing = time.time(), NO_LISTING
        else:
            listing = answer["listing"]
        moves.append({"game": gid, "seq": answer["seq"], "sent": sent, "posted": None, "seen": seen,
                      "info": 0.0, "actions": sent - asked})
    return count


def new_game(client: Http, game: str) -> tuple[str, dict[str, str]]:
    """A game of `game` with every seat joined: (its id, its seat tokens)."""
    _status, created = client.post("/api/v1/games", {"game": game})
    for token in created["seats"].values():
        client.post(f"/api/v1/games/{created['id']}/join", {}, {"Authorization": f"Bearer {token}"})
    return created["id"], created["seats"]


def one_move(client: Http, gid: str, seats: dict[str, str], pick: Callable[[list[dict[str, Any]]], dict[str, Any]]
             ) -> tuple[float, float] | None:
    """A move by the seat whose turn it is, waited for as the play page waits: (POST sent, judgement
    seen) as Unix times, or None when the game takes no move now."""
    info = client.get(f"/api/v1/games/{gid}")
    if info["status"] != "active" or info["pending"] or not info["active_seats"]:
        return None
    auth = {"Authorization": f"Bearer {seats[info['active_seats'][0]]}"}
    listing = client.get(f"/api/v1/games/{gid}/actions", auth)
    if not listing["actions"]:
        return None
    sent = time.time()
    status, answer = client.post(f"/api/v1/games/{gid}/moves", {
        "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
        "idempotency_key": uuid.uuid4().hex}, auth)
    if status != 202:
        return None
    while True:
        judged = client.get(f"/games/{gid}/live?last={answer['seq']}&wait=1&panel=0").get("status")
        if judged is None:
            time.sleep(0.05)
        elif judged != "pending":
            return sent, time.time()


def open_loop(base_url: str, game: str, rate: float, count: int, fig: dict[str, float]) -> None:
    """Players arriving at a fixed rate (open loop: an arrival does not wait for the one before it
    to be judged): `count` moves at `rate` a second, each on a game with nothing in flight (a game
    per arrival in flight at most), each by its own thread; p50/p95 of POST sent -> judgement seen,
    and of arrival -> judgement seen (the listing and any wait for a thread included)."""
    import concurrent.futures

    games = max(8, int(rate * 8) + 8)  # arrivals finding every game busy are counted and skipped
    print(f"  open loop: {count} moves arriving at {rate:.1f}/s (half the closed-loop rate above) over {games} games")
    client = Http(None, base_url)
    ready = [new_game(client, game) for _ in range(games)]
    # each game's player keeps its client (a keep-alive connection), as a player's device does:
    # a client made per arrival cost the bench's own process more than the move (httpx builds an
    # SSL context for each), its threads then waiting on each other for the GIL
    players = [Http(None, base_url) for _ in range(games)]
    idle = list(range(games))
    lock = threading.Lock()
    submit: list[float] = []
    arrival: list[float] = []
    busy_skipped = [0]
    picks = [chooser(i + 101) for i in range(games)]

    def arrive(at: float, k: int) -> None:
        try:
            done = one_move(players[k], *ready[k], picks[k])
            if done is not None:
                with lock:
                    submit.append(1000 * (done[1] - done[0]))
                    arrival.append(1000 * (done[1] - at))
        finally:
            with lock:
                idle.append(k)

    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=games) as pool:
        for i in range(count):
            at = start + i / rate
            time.sleep(max(0.0, at - time.time()))
            with lock:
                k = idle.pop(0) if idle else None
            if k is None:
                busy_skipped[0] += 1
                continue
            pool.submit(arrive, at, k)
    elapsed = time.time() - start
    fig["open p95"] = pct(submit, 0.95)
    say("open loop: moves judged / arrivals with every game busy", f"{len(submit)} of {count} in {elapsed:.1f} s / "
        f"{busy_skipped[0]}")
    say("open loop: POST sent -> judged (goal p95 <= 100 ms)",
        f"p50 {pct(submit, 0.5):.0f} ms, p95 {pct(submit, 0.95):.0f} ms")
    say("open loop: arrival -> judged (listing included)", f"p50 {pct(arrival, 0.5):.0f} ms, "
        f"p95 {pct(arrival, 0.95):.0f} ms")


def memory_after_games(base_url: str, game: str, count: int, web_pids: list[int], worker_pids: list[int],
                       fig: dict[str, float]) -> None:
    """`count` more games made, joined and moved once each (8 client threads), with the web and
    worker processes' RSS before, halfway and after: memory stays flat or it does not."""
    import concurrent.futures

    def rss_now() -> tuple[float, float]:
        return (sum(rss_mb(p)[0] for p in web_pids if Path(f"/proc/{p}").exists()),
                max((rss_mb(p)[0] for p in worker_pids if Path(f"/proc/{p}").exists()), default=0.0))

    print(f"  memory: {count} more games (created, joined, one move each)")
    marks = [(0, *rss_now())]

    def play(i: int) -> None:
        client = Http(None, base_url)
        gid, seats = new_game(client, game)
        one_move(client, gid, seats, chooser(i + 7))

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        half = count // 2
        list(pool.map(play, range(half)))
        marks.append((half, *rss_now()))
        list(pool.map(play, range(half, count)))
        marks.append((count, *rss_now()))
    fig["web rss"], fig["worker rss"] = marks[-1][1], marks[-1][2]
    fig["web rss start"], fig["worker rss start"] = marks[0][1], marks[0][2]
    say(f"web RSS (all {len(web_pids)} gunicorn processes) after 0 / {count // 2} / {count} games",
        " / ".join(f"{w:.0f}" for _n, w, _k in marks) + " MB")
    say(f"worker RSS (the larger of {len(worker_pids)}) after 0 / {count // 2} / {count} games",
        " / ".join(f"{k:.0f}" for _n, _w, k in marks) + " MB")


def figure_end_to_end(pg_schema: Any, redis_url: str, game: str, games: int, moves_per_game: int,
                      fig: dict[str, float], client_kind: str = "listing", web: str | None = "2:32",
                      open_loop_moves: int = 0, rss_games: int = 0) -> None:
    """`web`: gunicorn's "workers:threads" (gthread), or None for the app in this process.
    `open_loop_moves`: then that many moves arriving at half the closed-loop rate (`open_loop`);
    `rss_games`: then that many more games, with the processes' RSS (`memory_after_games`)."""
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
            fig.update({"e2e": rate, "noop": noop_rate, "p95": p95,
                        "web ms": 1000 * (cpu1[1] - cpu0[1]) / max(sum(done), 1)})
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
            if web:  # next, while the load is what it was (Warlog's processes stay up, idle)
                figure_anchor(pg_schema, redis_url, game, games, moves_per_game, fig, client_kind, web)
            if web_proc is not None and open_loop_moves:
                open_loop(base_url, game, rate / 2, open_loop_moves, fig)
            if web_proc is not None and rss_games:
                memory_after_games(base_url, game, rss_games, [web_proc.pid, *children(web_proc.pid)],
                                   [p.pid for p in procs], fig)
        finally:
            stop(procs + ([web_proc] if web_proc else []))
            if app is not None:
                app.extensions["warlog"].store.close()
            elif store is not None:
                store.close()
            schema.drop()
    if not web:
        print("  (the bare anchor runs on gunicorn only: --e2e-web W:T)")


def figure_anchor(pg_schema: Any, redis_url: str, game: str, games: int, moves_per_game: int,
                  fig: dict[str, float], client_kind: str, web: str) -> None:
    """The fair anchor of figure 2, in the same run: bench/bare_anchor.py (Flask + PostgreSQL + RQ, one
    INSERT and one enqueue a move) under the same gunicorn settings, 2 RQ workers, played by the same
    client threads; its moves/s and its web CPU per move beside Warlog's."""
    import bare_anchor

    print(f"2b. the bare anchor (bench/bare_anchor.py) the same way: {games} games, {moves_per_game} moves each, "
          f"gunicorn {web}, 2 RQ workers, client: {client_kind}")
    schema = pg_schema()
    env = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}", "BARE_PG": schema.url, "BARE_REDIS": redis_url}
    with tempfile.TemporaryDirectory() as tmp:
        bare_anchor.create_schema(schema.url)
        procs = [subprocess.Popen([sys.executable, str(ROOT / "bench" / "bare_anchor.py"), "worker"], cwd=ROOT,
                                  stdout=open(f"{tmp}/anchor-worker{i}.log", "wb"), stderr=subprocess.STDOUT, env=env)
                 for i in range(2)]
        web_proc = None
        try:
            web_proc, base_url = start_gunicorn(schema.url, redis_url, web, tmp, "bare_anchor:create_app()")
            web_pids = [web_proc.pid, *children(web_proc.pid)]
            done: list[int] = []
            moves: list[dict[str, Any]] = []
            play = player(None, base_url, game, moves_per_game, client_kind, done, moves)
            pids = [os.getpid(), *web_pids, *(p.pid for p in procs)]
            cpu0 = [cpu_seconds(p) for p in pids]
            start = time.perf_counter()
            threads = [threading.Thread(target=play, args=(i,)) for i in range(games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
            used = [cpu_seconds(p) - c for p, c in zip(pids, cpu0)]
            n = max(sum(done), 1)
            rate = sum(done) / elapsed
            web_ms = 1000 * sum(used[1:1 + len(web_pids)]) / n
            fig.update({"anchor e2e": rate, "anchor web ms": web_ms})
            latencies = [1000 * (m["seen"] - m["sent"]) for m in moves]
            say("moves resolved end to end, bare anchor", f"{rate:,.1f} moves/s ({sum(done)} moves in {elapsed:.1f} s)")
            if "e2e" in fig:
                say("Warlog / bare anchor, moves/s (goal >= 1.0)", f"{fig['e2e'] / rate:.2f}x")
            say("submit -> resolved, bare anchor", f"p50 {pct(latencies, 0.5):.0f} ms, p95 {pct(latencies, 0.95):.0f} ms")
            say(f"web CPU per move (gunicorn, every request of the client {client_kind}), bare anchor", f"{web_ms:.1f} ms")
            if "web ms" in fig:
                say("web CPU per move, Warlog / bare anchor (goal <= 1.3)",
                    f"{fig['web ms']:.1f} ms / {web_ms:.1f} ms = {fig['web ms'] / web_ms:.2f}x")
            say("CPU per move: client threads / workers (bare anchor)",
                f"{1000 * used[0] / n:.1f} ms / {1000 * sum(used[1 + len(web_pids):]) / n:.1f} ms")
        finally:
            stop(procs + ([web_proc] if web_proc else []))
            schema.drop()
