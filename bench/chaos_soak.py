#!/usr/bin/env python3
"""The chaos soak: bots play games through the HTTP API of a real deployment while
its processes are killed at random; afterwards the ledger must show nothing lost, nothing
judged twice, every chain verifying, and no move pending longer than the outages it lived
through plus 5 s. An outage lasts from the kill until the restarted component is ready (a
worker: RQ holds its registration with the new pid; gunicorn: /healthz answers; Redis: PING;
PostgreSQL: it accepts a connection), not merely until its process is spawned; the soak prints
both. A restarted worker that exits instead of becoming ready is printed and fails the soak
(before, its wait ended when it exited, and the outage counted as over).

The deployment is docs/deployment.md's, on servers of its own in a temporary directory (never the
machine's shared ones): a PostgreSQL cluster (initdb + pg_ctl) with an owner role that runs
`warlog db upgrade --app-role` and an app role that owns nothing; a redis-server; gunicorn
(3 web workers) and 2 `warlog worker`s, all as the app role. The faults, one at a time, each
followed by a restart after 1-6 s: SIGKILL of a `warlog worker` (often mid-judgement), of a
gunicorn web worker, of the whole gunicorn, of redis-server (in memory: the queue is lost),
and an immediate-mode stop of PostgreSQL.

    python bench/chaos_soak.py                 # 10 minutes, 24 games
    python bench/chaos_soak.py --quick         # about 60 s
    python bench/chaos_soak.py --minutes 3 --games 30 --seed 7

It prints tried / recorded / lost / duplicated / max pending / outages, and exits 1 when a
submission is lost or judged twice, a chain fails `warlog verify`, or a move stayed pending
longer than its allowance.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BIN = Path(sys.executable).parent
GAMES = [("assault-on-belgium", "may-1940"), ("vietnam-battles", "boys67"), ("lock-n-load", "demo")]
GRACE = 5.0  # seconds a move may stay pending beyond the outages it overlapped


# --- servers of our own ---------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, up: bool, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise RuntimeError(f"port {port} did not come {'up' if up else 'down'} in {timeout}s")


class Postgres:
    """A cluster of its own: initdb into a temporary directory, trust auth, its own port (as root,
    it runs as the `postgres` user since initdb refuses root)."""

    def __init__(self, root: Path, port: int) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise SystemExit("chaos soak: PostgreSQL's pg_ctl is required (/usr/lib/postgresql/*/bin)")
        self.bin, self.port, self.data = found[-1].parent, port, root / "pgdata"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:
            shutil.chown(root, "postgres")
        subprocess.run([*self.as_postgres, str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                        "-U", "postgres", "--no-sync"], check=True, capture_output=True)

    def url(self, role: str = "postgres", db: str = "postgres") -> str:
        return f"postgresql://{role}:pw@127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        subprocess.run([*self.as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                        str(self.data / "log"), "-o", f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 "
                        "-c max_connections=200", "start"], check=True, capture_output=True)
        wait_port(self.port, up=True)

    def stop(self, mode: str = "immediate") -> None:
        subprocess.run([*self.as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode,
                        "-w", "stop"], check=False, capture_output=True)
        wait_port(self.port, up=False)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Ready: accepts a connection."""
        import psycopg
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with psycopg.connect(self.url(), connect_timeout=2):
                    return
            except psycopg.Error:
                time.sleep(0.05)

    def sql(self, statement: str, db: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(db=db), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]


class Procs:
    """The deployment's processes: gunicorn, the workers and redis-server, each restartable."""

    def __init__(self, tmp: Path, pg: Postgres, redis_port: int, web_port: int) -> None:
        self.tmp, self.pg, self.redis_port, self.web_port = tmp, pg, redis_port, web_port
        self.redis: subprocess.Popen[bytes] | None = None
        self.web: subprocess.Popen[bytes] | None = None
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        self.env = {**os.environ, "WARLOG_DB": pg.url("warlog_app", "warlog"),
                    "WARLOG_REDIS": f"redis://127.0.0.1:{redis_port}/0", "PYTHONPATH": str(ROOT),
                    "WARLOG_REFUSED_LIMIT": "100000", "WARLOG_CLIENT_LIMIT": "off"}

    def _log(self, name: str) -> Any:
        return open(self.tmp / f"{name}.log", "ab")

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)], stdout=self._log("redis"), stderr=subprocess.STDOUT)
        wait_port(self.redis_port, up=True)

    def start_web(self) -> None:
        self.web = subprocess.Popen(
            [str(BIN / "gunicorn"), "-w", "3", "-b", f"127.0.0.1:{self.web_port}", "--timeout", "60",
             "warlog.app:create_app()"], cwd=ROOT, env=self.env, stdout=self._log("gunicorn"),
            stderr=subprocess.STDOUT, start_new_session=True)
        wait_port(self.web_port, up=True, timeout=60)

    def start_worker(self, name: str) -> None:
        self.workers[name] = subprocess.Popen(
            [str(BIN / "warlog"), "worker", "--name", name], cwd=ROOT, env=self.env,
            stdout=self._log(name), stderr=subprocess.STDOUT, start_new_session=True)

    def wait_worker_ready(self, name: str, timeout: float = 60.0) -> None:
        """Ready: RQ holds its registration with the new process's pid (it listens on the queue)."""
        import redis
        proc = self.workers[name]
        conn = redis.Redis(port=self.redis_port, socket_timeout=2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if conn.hget(f"rq:worker:{name}", "pid") == str(proc.pid).encode():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.05)

    def wait_web_ready(self, timeout: float = 60.0) -> None:
        """Ready: /healthz answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.05)

    def wait_redis_ready(self, timeout: float = 30.0) -> None:
        """Ready: PING answers."""
        import redis
        conn = redis.Redis(port=self.redis_port, socket_timeout=2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if conn.ping():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.05)

    def web_children(self) -> list[int]:
        if self.web is None:
            return []
        out = subprocess.run(["pgrep", "-P", str(self.web.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    @staticmethod
    def kill(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGKILL) -> None:
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                proc.send_signal(sig)
            proc.wait()

    def kill_web(self) -> None:
        self.kill(self.web)
        wait_port(self.web_port, up=False)

    def kill_redis(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()
        wait_port(self.redis_port, up=False)

    def stop_all(self) -> None:
        for proc in [self.web, *self.workers.values()]:
            self.kill(proc, signal.SIGTERM)
        self.kill_redis()


# --- the bots -------------------------------------------------------------------------------

class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, token: str | None = None, body: Any = None,
             raw: bool = False) -> tuple[int, Any]:
        """(status, JSON body); status 0 when the web process could not be reached."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                text = r.read()
                return r.status, (text if raw else json.loads(text or b"null"))
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text or b"null")
            except ValueError:
                return e.code, {"non_json": text[:200].decode(errors="replace")}
        except (OSError, ValueError, http.client.HTTPException):  # refused, reset, timed out, a torn answer
            return 0, None

    def until_ok(self, method: str, path: str, token: str | None = None, body: Any = None,
                 stop: threading.Event | None = None, raw: bool = False) -> tuple[int, Any]:
        """Retry through outages (no answer, 502/503) until an answer that is not one."""
        delay = 0.1
        while True:
            status, data = self.call(method, path, token, body, raw)
            if status not in (0, 502, 503, 504):
                return status, data
            if stop is not None and stop.is_set() and method == "GET":
                return status, data
            time.sleep(delay)
            delay = min(delay * 2, 1.0)


@dataclass
class Stats:
    tried: int = 0          # distinct submissions (idempotency keys) a bot sent
    recorded: int = 0       # answered 202
    refused: dict[int, int] = field(default_factory=dict)  # other final answers by status
    server_errors: int = 0  # 5xx other than 502/503/504 (an outage says 503 by design)
    retried: int = 0        # resends of one key after no answer or a 503
    unanswered: int = 0     # sends still without an answer 2 minutes after the faults stopped
    duplicate_answers: int = 0  # a resend answered "already recorded" (the first send's answer was lost)
    keys: dict[tuple[str, str], int] = field(default_factory=dict)  # (game, key) -> seq answered
    lock: threading.Lock = field(default_factory=threading.Lock)


class Bot(threading.Thread):
    """Plays one game through the API with the project's fuzz choosers (tools/make_golden.py)
    over each seat's own view, a uniform choice when a chooser cannot read that view."""

    def __init__(self, api: Api, game: str, scenario: str, seed: int, stats: Stats, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.api, self.game, self.scenario, self.stats, self.stop = api, game, scenario, stats, stop
        self.rng, self.moves, self.error, self.finished = random.Random(seed), 0, "", False
        self._stopped_at = 0.0
        self.gid, self.director, self.tokens = "", "", {}  # type: str, str, dict[str, str]

    def create(self) -> None:
        status, created = self.api.until_ok("POST", "/games", body={
            "game": self.game, "scenario": self.scenario, "options": {}})
        if status != 201 and status != 200:
            raise RuntimeError(f"create {self.game}: {status} {created}")
        self.gid, self.director, self.tokens = created["id"], created["director_token"], created["seats"]
        for seat, token in self.tokens.items():
            self.api.until_ok("POST", f"/games/{self.gid}/join", token, {"entropy": f"soak-{seat}"})

    def stopped_at(self) -> float:
        if not self._stopped_at:
            self._stopped_at = time.monotonic()
        return self._stopped_at

    def choose(self, seat: str, listing: dict[str, Any]) -> dict[str, Any]:
        from rules import get_game
        from tools.make_golden import chooser_for

        legal = listing["actions"]
        status, state = self.api.call("GET", f"/games/{self.gid}/state?at={listing['expected_seq'] - 1}",
                                      self.tokens[seat])
        try:
            if status == 200 and isinstance(state, dict):
                return chooser_for(self.game)(get_game(self.game), state.get("state", state), legal,
                                              self.rng, self.moves)
        except Exception:  # a chooser written for the full state may not read a seat's view
            pass
        return dict(self.rng.choice(legal))

    def run(self) -> None:
        try:
            self.play()
        except Exception as exc:  # reported with the figures, never silently
            self.error = f"{type(exc).__name__}: {exc}"

    def play(self) -> None:
        while not self.stop.is_set():
            status, info = self.api.until_ok("GET", f"/games/{self.gid}", stop=self.stop)
            if status != 200 or info.get("status") != "active":
                self.finished = status == 200 and info.get("status") == "ended"
                return
            if info.get("pending"):
                time.sleep(0.1)
                continue
            seat = info["active_seats"][0]
            status, listing = self.api.until_ok("GET", f"/games/{self.gid}/actions", self.tokens[seat],
                                                stop=self.stop)
            if status != 200 or not listing.get("actions"):
                time.sleep(0.2)
                continue
            action = self.choose(seat, listing)
            self.submit(seat, action, int(listing["expected_seq"]))

    def submit(self, seat: str, action: dict[str, Any], expected: int) -> None:
        key = uuid.uuid4().hex
        body = {"action": action, "expected_seq": expected, "idempotency_key": key}
        with self.stats.lock:
            self.stats.tried += 1
        delay, first = 0.1, True
        while True:
            status, answer = self.api.call("POST", f"/games/{self.gid}/moves", self.tokens[seat], body)
            if status in (0, 502, 503, 504):  # no answer: the same key again, until one comes
                if self.stop.is_set() and time.monotonic() - self.stopped_at() > 120:
                    with self.stats.lock:
                        self.stats.unanswered += 1  # the deployment never came back: reported
                    return
                with self.stats.lock:
                    self.stats.retried += 0 if first else 1
                first = False
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            with self.stats.lock:
                if status == 202:
                    self.stats.recorded += 1
                    self.stats.keys[(self.gid, f"{seat}:{key}")] = int(answer["seq"])  # the ledger's scoped key
                    self.stats.duplicate_answers += bool(answer.get("duplicate"))
                else:
                    self.stats.refused[status] = self.stats.refused.get(status, 0) + 1
                    if status >= 500:
                        self.stats.server_errors += 1
            self.moves += 1
            return


# --- the faults -----------------------------------------------------------------------------

@dataclass
class Outage:
    kind: str
    start: float  # wall clock (time.time), to compare with the ledger's recorded_at
    end: float  # when the restarted component is ready again (the outage's end)
    spawned: float = 0.0  # when its replacement process was started


class Chaos(threading.Thread):
    KINDS = ("worker", "worker", "web-worker", "web", "redis", "postgres")

    def __init__(self, procs: Procs, pg: Postgres, rng: random.Random, stop: threading.Event,
                 gap: tuple[float, float]) -> None:
        super().__init__(daemon=True)
        self.procs, self.pg, self.rng, self.stop, self.gap = procs, pg, rng, stop, gap
        self.outages: list[Outage] = []
        self.failed_starts: list[str] = []  # restarted components that exited instead of becoming ready
        self.error = ""

    def run(self) -> None:
        try:
            while not self.stop.wait(self.rng.uniform(*self.gap)):
                self.fault(self.rng.choice(self.KINDS))
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def fault(self, kind: str) -> None:
        down = self.rng.uniform(1.0, 6.0)
        start = time.time()
        if kind == "worker":
            name = self.rng.choice(sorted(self.procs.workers))
            self.procs.kill(self.procs.workers[name])
            time.sleep(down)
            self.procs.start_worker(name)
            spawned = time.time()
            self.procs.wait_worker_ready(name)
            if self.procs.workers[name].poll() is not None:  # exited: its outage did not end here
                self.failed_starts.append(f"worker {name} at {hms(spawned)} exited {self.procs.workers[name].returncode}")
        elif kind == "web-worker":  # gunicorn's master starts another at once
            children = self.procs.web_children()
            if children:
                os.kill(self.rng.choice(children), signal.SIGKILL)
            down = 0.0
        elif kind == "web":
            self.procs.kill_web()
            time.sleep(down)
            self.procs.start_web()
            spawned = time.time()
            self.procs.wait_web_ready()
        elif kind == "redis":
            self.procs.kill_redis()
            time.sleep(down)
            self.procs.start_redis()
            spawned = time.time()
            self.procs.wait_redis_ready()
        elif kind == "postgres":
            self.pg.stop("immediate")
            time.sleep(down)
            self.pg.start()
            spawned = time.time()
            self.pg.wait_ready()
        ready = time.time()
        self.outages.append(Outage(kind, start, ready, spawned if kind != "web-worker" else ready))


# --- the checks -----------------------------------------------------------------------------

def hms(t: float) -> str:
    return datetime.fromtimestamp(t).strftime("%H:%M:%S.%f")[:-4]


def ts(recorded_at: str) -> float:
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).timestamp()


def overlap(outages: list[Outage], a: float, b: float) -> float:
    """Seconds of outage within [a, b] (outages of the judging path: not a web process's)."""
    return sum(max(0.0, min(b, o.end) - max(a, o.start)) for o in outages if o.kind != "web-worker")


def verify_exports(api: Api, bots: list[Bot], tmp: Path) -> tuple[int, list[tuple[str, int, list[str]]]]:
    """Each bot's game exported by its director and checked by `warlog verify`: how many verified,
    and (game, export status, verify's last line) for each that did not."""
    verified, failed = 0, []
    for bot in bots:
        if not bot.gid:
            continue
        status, data = api.until_ok("GET", f"/games/{bot.gid}/export", bot.director, raw=True)
        path = tmp / f"{bot.gid}.jsonl"
        path.write_bytes(data if status == 200 else b"")
        r = subprocess.run([str(BIN / "warlog"), "verify", "-q", str(path)], capture_output=True, text=True)
        if r.returncode == 0:
            verified += 1
        else:
            failed.append((bot.gid, status, (r.stdout + r.stderr).strip().splitlines()[-1:]))
    return verified, failed


def check(pg: Postgres, stats: Stats, outages: list[Outage], bots: list[Bot], api: Api, tmp: Path,
          settle: float) -> dict[str, Any]:
    import psycopg

    deadline = time.monotonic() + settle  # everything back: the pending set must drain
    with psycopg.connect(pg.url(db="warlog"), autocommit=True) as conn:
        while conn.execute("SELECT count(*) FROM pending").fetchone()[0] and time.monotonic() < deadline:  # type: ignore[index]
            time.sleep(0.5)
        left = int(conn.execute("SELECT count(*) FROM pending").fetchone()[0])  # type: ignore[index]
        rows = conn.execute("SELECT game_id, seq, type, payload, recorded_at FROM events "
                            "WHERE type IN ('submitted', 'resolved', 'rejected') ORDER BY game_id, seq").fetchall()
        keys = conn.execute("SELECT game_id, key, seq FROM idempotency").fetchall()
    submitted: dict[tuple[str, int], float] = {}
    judged: dict[tuple[str, int], list[float]] = {}
    for gid, seq, kind, payload, at in rows:
        if kind == "submitted":
            submitted[(gid, seq)] = ts(at)
        else:
            judged.setdefault((gid, json.loads(payload)["submission_seq"]), []).append(ts(at))
    stored_keys = {(g, k): s for g, k, s in keys}
    lost = [k for k, seq in stats.keys.items()
            if stored_keys.get(k) != seq or (k[0], seq) not in submitted or (k[0], seq) not in judged]
    unjudged = [s for s in submitted if s not in judged]
    duplicated = [s for s, j in judged.items() if len(j) > 1]
    orphan = [s for s in judged if s not in submitted]
    worst, worst_excess, late = 0.0, -GRACE, []
    for s, at in submitted.items():
        if s not in judged:
            continue
        took = judged[s][0] - at
        allowed = GRACE + overlap(outages, at, judged[s][0])
        worst = max(worst, took)
        worst_excess = max(worst_excess, took - allowed)
        if took > allowed:
            near = [f"{o.kind} {hms(o.start)}..spawned {hms(o.spawned)}..ready {hms(o.end)}"
                    for o in outages if o.start <= judged[s][0] and o.end >= at - 10]
            late.append((s, datetime.fromtimestamp(at).strftime("%H:%M:%S"), round(took, 2), round(allowed, 2), near))
    verified, failed = verify_exports(api, bots, tmp)
    return {"left_pending": left, "lost": lost, "unjudged": unjudged, "duplicated": duplicated, "orphan": orphan,
            "max_pending": worst, "worst_excess": worst_excess, "late": late, "verified": verified,
            "verify_failed": failed, "submissions_in_ledger": len(submitted)}


# --- the run --------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="how long the bots play under faults")
    ap.add_argument("--quick", action="store_true", help="about 60 s of play (the harness's own check)")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gap", type=float, nargs=2, default=(4.0, 12.0), metavar=("MIN", "MAX"),
                    help="seconds between two faults, drawn uniformly")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, exports)")
    args = ap.parse_args(argv)
    seconds = 60.0 if args.quick else args.minutes * 60
    if shutil.which("redis-server") is None:
        raise SystemExit("chaos soak: redis-server is required")
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="warlog-chaos-"))
    os.chmod(tmp, 0o755)
    pg_root = tmp / "pg"
    pg_root.mkdir()
    pg = Postgres(pg_root, free_port())
    procs = Procs(tmp, pg, free_port(), free_port())
    t0 = time.monotonic()
    try:
        pg.start()
        pg.sql("CREATE ROLE warlog_owner LOGIN")
        pg.sql("CREATE ROLE warlog_app LOGIN")
        pg.sql("CREATE DATABASE warlog OWNER warlog_owner")
        up = subprocess.run([str(BIN / "warlog"), "db", "upgrade", "--db", pg.url("warlog_owner", "warlog"),
                             "--app-role", "warlog_app"], cwd=ROOT, capture_output=True, text=True)
        if up.returncode:
            raise SystemExit(f"chaos soak: warlog db upgrade failed: {up.stdout}{up.stderr}")
        procs.start_redis()
        procs.start_web()
        for name in ("soak-w1", "soak-w2"):
            procs.start_worker(name)
        api = Api(f"http://127.0.0.1:{procs.web_port}/api/v1")
        print(f"deployment up in {time.monotonic() - t0:.1f} s: PostgreSQL :{pg.port} (own cluster), "
              f"redis :{procs.redis_port}, gunicorn -w 3 :{procs.web_port}, 2 workers; {tmp}", flush=True)
        stats, stop = Stats(), threading.Event()
        bots = [Bot(api, *GAMES[i % len(GAMES)], args.seed * 1000 + i, stats, stop) for i in range(args.games)]
        for bot in bots:
            bot.create()
        chaos = Chaos(procs, pg, rng, stop, tuple(args.gap))  # type: ignore[arg-type]
        started = time.monotonic()
        for bot in bots:
            bot.start()
        chaos.start()
        running = list(bots)
        while time.monotonic() - started < seconds:
            time.sleep(1)
            for bot in [b for b in running if not b.is_alive()]:  # a game ended: another takes its place
                running.remove(bot)
                fresh = Bot(api, *GAMES[len(bots) % len(GAMES)], args.seed * 1000 + len(bots), stats, stop)
                fresh.create()
                fresh.start()
                bots.append(fresh)
                running.append(fresh)
        stop.set()
        chaos.join()
        for bot in bots:
            bot.join(timeout=120)
        played = time.monotonic() - started
        # everything runs again (a fault's restart is part of the fault): let the sweep drain
        result = check(pg, stats, chaos.outages, bots, api, tmp, settle=60.0)
    finally:
        procs.stop_all()
        pg.stop("fast")
    kinds: dict[str, int] = {}
    for o in chaos.outages:
        kinds[o.kind] = kinds.get(o.kind, 0) + 1
    down = sum(o.end - o.start for o in chaos.outages)
    longest = max((o.end - o.start for o in chaos.outages), default=0.0)
    ended = sum(1 for b in bots if b.finished)
    print(f"played {played:.0f} s: {len(bots)} games, {ended} to their end ({', '.join(f'{g}/{s}' for g, s in GAMES)}), seed {args.seed}")
    print(f"tried {stats.tried}  recorded {stats.recorded} (202)  refused {dict(sorted(stats.refused.items()))}  "
          f"resent after no answer or 503: {stats.retried} "
          f"(answered duplicate: {stats.duplicate_answers})  never answered: {stats.unanswered}  5xx other than 503: {stats.server_errors}")
    print(f"lost {len(result['lost'])}  duplicated {len(result['duplicated'])}  unjudged {len(result['unjudged'])}  "
          f"orphan judgements {len(result['orphan'])}  still pending after 60 s: {result['left_pending']}")
    print(f"submissions in the ledger {result['submissions_in_ledger']}  max pending {result['max_pending']:.2f} s  "
          f"worst (pending - outage overlap - {GRACE:.0f} s) {result['worst_excess']:+.2f} s  "
          f"over the allowance: {len(result['late'])}")
    print(f"outages {len(chaos.outages)} {dict(sorted(kinds.items()))}  total down {down:.1f} s  longest {longest:.1f} s "
          "(an outage ends when the restarted component is ready)")
    for kind in sorted(kinds):
        ready = [o.end - o.spawned for o in chaos.outages if o.kind == kind]
        print(f"  {kind}: spawn -> ready mean {sum(ready) / len(ready):.2f} s, max {max(ready):.2f} s")
    print(f"chains verified {result['verified']}/{sum(1 for b in bots if b.gid)}  failed {len(result['verify_failed'])}")
    for what in ("lost", "duplicated", "unjudged", "late", "verify_failed"):
        if result[what]:
            print(f"  {what}: {result[what][:5]}")
    for bot in bots:
        if bot.error:
            print(f"  bot {bot.gid}: {bot.error}")
    if chaos.error:
        print(f"  chaos: {chaos.error}")
    if chaos.failed_starts:
        print(f"  restarts that failed: {chaos.failed_starts}")
    bad = (chaos.failed_starts or result["lost"] or result["duplicated"] or result["unjudged"] or result["late"] or result["verify_failed"]
           or result["left_pending"] or stats.server_errors or stats.unanswered or chaos.error)
    if args.keep or bad:
        print(f"logs and exports kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
