#!/usr/bin/env python3
"""The chaos soak across three hosts: bots play games through the HTTP API of a deployment split
over three Linux network namespaces on this machine — "web" (gunicorn, 3 web workers), "workers"
(2 `warlog worker`s) and "data" (a PostgreSQL cluster and a redis-server of the soak's own, never
the machine's) — joined by veth pairs on a bridge, while the network misbehaves:

- a partition between a pair of hosts (web-data, workers-data, web-workers) for 5-60 s: nftables
  rules in both namespaces silently drop what the other sends (no reset, no refusal: a cable
  pulled), one partition at a time;
- 1% packet loss on every host's input (nftables `numgen random`), all the run;
- 50-200 ms of one-way latency between the data host and the others, drawn afresh at each fault
  (bench/netlag.py's relay, since this kernel has no netem);
- one host's clock 30 s off (`--skew-host`: the wall clock of every Python process of that host moved
  by bench/skewclock/sitecustomize.py, or for the data host libfaketime preloaded into PostgreSQL,
  the workers by default): the app's skew guard (`GameClock.skew`) must notice, nothing may break;
- with `--kills`, also bench/chaos_soak.py's process faults: SIGKILL of a worker or of gunicorn.

Needs root, iproute2 (`ip netns`), nft, redis-server, PostgreSQL's binaries in
/usr/lib/postgresql/*/bin and, to skew the data host's clock, libfaketime (Debian's `faketime`).
The namespaces, the bridge and every process in them are removed on exit, failure or Ctrl-C.

Afterwards the soak's own audit, by plain SQL on the ledger and independent of the code under
test: every move answered 202 must be in the ledger at the seq it was answered, with the seat,
the expected seq and the action the bot sent; every submission in the ledger must be one a bot
sent, and no sent move may be in it twice (under two seqs); every submission is judged exactly
once; every game's export passes `warlog verify`. Judgement latency is measured on the soak's
clock (the hosts' clocks may be off): from the first send of a move to the moment a poller,
reading the ledger by SQL every 0.25 s, sees its judgement. Its allowance is the time the
judging path was cut (partitions of the data host, killed processes) while the move waited,
plus 5 s; the soak fails when the 95th percentile of (latency - outage overlap) is over 5 s.

    python bench/netsoak.py                      # 10 minutes, 12 games
    python bench/netsoak.py --quick              # about 75 s (tests/deploy/test_netsoak.py)
    python bench/netsoak.py --minutes 5 --games 9 --seed 7 --kills
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if sys.path and sys.path[0] and Path(sys.path[0]).resolve() == BENCH:
    sys.path[0] = str(ROOT)  # run as a script: bench/bench.py would hide the bench/ directory
elif str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.chaos_soak import GAMES, GRACE, Api, Bot, Outage, Stats, hms, verify_exports  # noqa: E402

BIN = Path(sys.executable).parent
HOSTS = ("web", "workers", "data")
PAIRS = (("web", "data"), ("workers", "data"), ("web", "workers"))
PG_PORT, REDIS_PORT, PG_LAG_PORT, REDIS_LAG_PORT, WEB_PORT = 5432, 6379, 15432, 16379, 8000
FAKETIME_LIB = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")  # the data host's skew only
SKEWCLOCK = BENCH / "skewclock"  # the app hosts' skew: a sitecustomize that moves Python's wall clock


def run(*cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(list(cmd), capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip() or r.stdout.strip()}")
    return r


def missing_tools() -> str:
    """Why this machine cannot run the soak ('' when it can)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "nft", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        return "PostgreSQL's pg_ctl is not in /usr/lib/postgresql/*/bin"
    probe = f"wlprobe{os.getpid()}"
    if run("ip", "netns", "add", probe, check=False).returncode:
        return "`ip netns add` is refused here"
    try:
        nft = run("ip", "netns", "exec", probe, "nft", "add", "table", "inet", "probe", check=False)
        if nft.returncode:
            return f"nftables does not work in a namespace: {nft.stderr.strip()}"
    finally:
        run("ip", "netns", "del", probe, check=False)
    return ""


# --- the three hosts --------------------------------------------------------------------------

class Net:
    """Three namespaces on a bridge of their own; the soak itself (the players, the auditor) is
    the root namespace, on the bridge too, and is never partitioned from anyone."""

    def __init__(self, tag: int, subnet: int) -> None:
        self.tag = tag  # the soak's pid: leftovers of a soak killed with SIGKILL are found by it
        self.ns = {h: f"warlog-{tag}-{h}" for h in HOSTS}
        self.bridge = f"wlbr{tag}"
        self.prefix = f"10.{subnet // 256 + 200}.{subnet % 256}"
        self.me = f"{self.prefix}.1"
        self.ip = {h: f"{self.prefix}.{i + 2}" for i, h in enumerate(HOSTS)}
        self.cut: set[tuple[str, str]] = set()
        self.loss = 0
        self.dropped: dict[tuple[str, ...], int] = {}  # packets the partitions dropped, by pair of hosts
        self.lock = threading.Lock()

    def up(self) -> None:
        run("ip", "link", "add", self.bridge, "type", "bridge")
        run("ip", "addr", "add", f"{self.me}/24", "dev", self.bridge)
        run("ip", "link", "set", self.bridge, "up")
        for i, h in enumerate(HOSTS):
            ns, outer = self.ns[h], f"wl{self.tag}{i}"
            run("ip", "netns", "add", ns)
            run("ip", "link", "add", outer, "type", "veth", "peer", "name", "eth0", "netns", ns)
            run("ip", "link", "set", outer, "master", self.bridge, "up")
            run("ip", "-n", ns, "addr", "add", f"{self.ip[h]}/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")
            self.rules(h)

    @staticmethod
    def leftovers() -> None:
        """Remove the hosts and bridges of earlier soaks whose process is gone (killed with
        SIGKILL, no cleanup ran)."""
        for line in run("ip", "netns", "list", check=False).stdout.splitlines():
            parts = line.split()[0].split("-") if line.strip() else []
            if len(parts) == 3 and parts[0] == "warlog" and parts[1].isdigit() and not Path(f"/proc/{parts[1]}").exists():
                Net(int(parts[1]), 0).down()

    def down(self) -> None:
        """Every process of the three hosts killed, the namespaces and the bridge deleted."""
        for ns in self.ns.values():
            pids = run("ip", "netns", "pids", ns, check=False).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            run("ip", "netns", "del", ns, check=False)
        run("ip", "link", "del", self.bridge, check=False)

    def rules(self, host: str) -> None:
        """The host's input filter, rewritten whole: drop what a host it is cut from sends, and
        `loss`% of the rest (never its own loopback)."""
        lines = ["table inet soak {", " chain input {", "  type filter hook input priority 0; policy accept;"]
        for a, b in sorted(self.cut):
            if host in (a, b):
                lines.append(f"  ip saddr {self.ip[b if host == a else a]} counter drop")
        if self.loss:
            lines.append(f'  iifname != "lo" numgen random mod 100 < {self.loss} drop')
        lines += [" }", "}"]
        script = "\n".join(lines) + "\n"
        flush = "table inet soak\ndelete table inet soak\n"
        subprocess.run(["ip", "netns", "exec", self.ns[host], "nft", "-f", "-"], input=flush + script,
                       text=True, check=True, capture_output=True)

    def count_dropped(self, host: str) -> None:
        """Add what the host's partition rules dropped so far to `dropped` (before a rewrite
        resets their counters): a partition that dropped nothing cut a link nobody used."""
        listing = run(*self.exec(host), "nft", "list", "table", "inet", "soak", check=False).stdout
        by_ip = {ip: h for h, ip in self.ip.items()}
        for m in re.finditer(r"ip saddr (\S+) counter packets (\d+)", listing):
            pair = tuple(sorted((host, by_ip[m.group(1)])))
            self.dropped[pair] = self.dropped.get(pair, 0) + int(m.group(2))

    def partition(self, a: str, b: str, cut: bool) -> None:
        with self.lock:
            self.count_dropped(a)
            self.count_dropped(b)
            (self.cut.add if cut else self.cut.discard)((a, b))
            self.rules(a)
            self.rules(b)

    def set_loss(self, percent: int) -> None:
        with self.lock:
            self.loss = percent
            for h in HOSTS:
                self.rules(h)

    def exec(self, host: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns[host]]


class Deployment:
    """The README's deployment spread over the three hosts: PostgreSQL (an owner role runs
    `warlog db upgrade --app-role`, the app role owns nothing) and Redis on "data", behind the
    latency relay; gunicorn on "web"; the workers on "workers"."""

    def __init__(self, net: Net, tmp: Path, skew_host: str, skew: float, db_params: str = "") -> None:
        self.net, self.tmp, self.skew_host, self.skew = net, tmp, skew_host, skew
        self.log_sql = False
        self.peer_timeout = 0
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        self.pg_bin, self.pgdata = found[-1].parent, tmp / "pg" / "data"
        self.delay_file = tmp / "delay_ms"
        self.delay_file.write_text("0")
        self.web: subprocess.Popen[bytes] | None = None
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        data = net.ip["data"]
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_REFUSED_LIMIT": "100000",
                    "WARLOG_CLIENT_LIMIT": "off",
                    "WARLOG_DB": f"postgresql://warlog_app:pw@{data}:{PG_LAG_PORT}/warlog" + (f"?{db_params}" if db_params else ""),
                    "WARLOG_REDIS": f"redis://{data}:{REDIS_LAG_PORT}/0"}

    def url(self, role: str = "postgres", db: str = "postgres") -> str:
        """PostgreSQL as the soak reaches it: directly, from the root namespace (no relay)."""
        return f"postgresql://{role}:pw@{self.net.ip['data']}:{PG_PORT}/{db}"

    def host_env(self, host: str) -> dict[str, str]:
        if host != self.skew_host:
            return dict(self.env)
        if host == "data":  # PostgreSQL's clock: libfaketime preloaded
            return {**self.env, "LD_PRELOAD": str(FAKETIME_LIB), "FAKETIME": f"{self.skew:+.0f}s"}
        # The app's hosts: their Python processes read a wall clock `skew` ahead (bench/skewclock), and
        # only the wall clock, as on a real host whose clock is wrong. libfaketime, preloaded there
        # before, broke Python itself: with the monotonic clock faked, Lock.acquire(timeout=...) never
        # returned (a pool's 5 s wait for a connection lasted until something woke it, minutes
        # later); with it left alone, time.sleep failed with EINVAL.
        return {**self.env, "PYTHONPATH": f"{SKEWCLOCK}{os.pathsep}{self.env['PYTHONPATH']}",
                "NETSOAK_CLOCK_SKEW": f"{self.skew:.3f}"}

    def _log(self, name: str) -> Any:
        return open(self.tmp / f"{name}.log", "ab")

    def _spawn(self, host: str, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen([*self.net.exec(host), *cmd], cwd=ROOT, env=self.host_env(host),
                                stdout=self._log(name), stderr=subprocess.STDOUT, start_new_session=True)

    # data
    def start_data(self) -> None:
        pg_root = self.pgdata.parent
        pg_root.mkdir()
        shutil.chown(pg_root, "postgres")
        as_pg = ["runuser", "-u", "postgres", "--"]
        run(*as_pg, str(self.pg_bin / "initdb"), "-D", str(self.pgdata), "-A", "trust", "-U", "postgres", "--no-sync")
        with open(self.pgdata / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.net.prefix}.0/24 trust\n")
        env = self.host_env("data")
        subprocess.run([*self.net.exec("data"), *as_pg, str(self.pg_bin / "pg_ctl"), "-D", str(self.pgdata), "-w",
                        "-l", str(self.pgdata / "log"), "-o",
                        f"-p {PG_PORT} -k {pg_root} -c listen_addresses='127.0.0.1,{self.net.ip['data']}' "
                        "-c max_connections=200" + (" -c log_statement=all -c log_line_prefix='%m [%p] %a '"
                                                     if self.log_sql else ""), "start"], env=env, check=True, capture_output=True)
        self._spawn("data", "redis", ["redis-server", "--port", str(REDIS_PORT), "--bind", f"127.0.0.1 {self.net.ip['data']}",
                                      "--protected-mode", "no", "--save", "", "--appendonly", "no", "--dir", str(self.tmp)])
        self._spawn("data", "netlag", [sys.executable, str(BENCH / "netlag.py"), "--delay-file", str(self.delay_file),
                                       f"0.0.0.0:{PG_LAG_PORT}=127.0.0.1:{PG_PORT}@{self.peer_timeout}",
                                       f"0.0.0.0:{REDIS_LAG_PORT}=127.0.0.1:{REDIS_PORT}"])
        self.wait_tcp(self.net.ip["data"], PG_PORT)
        self.wait_tcp(self.net.ip["data"], REDIS_LAG_PORT)
        self.wait_tcp(self.net.ip["data"], PG_LAG_PORT)

    def stop_data(self) -> None:
        subprocess.run([*self.net.exec("data"), "runuser", "-u", "postgres", "--", str(self.pg_bin / "pg_ctl"),
                        "-D", str(self.pgdata), "-m", "fast", "-w", "stop"], capture_output=True, check=False)

    def schema(self) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            for statement in ("CREATE ROLE warlog_owner LOGIN", "CREATE ROLE warlog_app LOGIN",
                              "CREATE DATABASE warlog OWNER warlog_owner"):
                conn.execute(statement)
        up = subprocess.run([str(BIN / "warlog"), "db", "upgrade", "--db", self.url("warlog_owner", "warlog"),
                             "--app-role", "warlog_app"], cwd=ROOT, capture_output=True, text=True)
        if up.returncode:
            raise RuntimeError(f"warlog db upgrade failed: {up.stdout}{up.stderr}")

    @staticmethod
    def wait_tcp(host: str, port: int, timeout: float = 60.0) -> None:
        import socket

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection((host, port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{host}:{port} did not come up in {timeout:.0f} s")

    # web
    def start_web(self) -> None:
        self.web = self._spawn("web", "gunicorn", [str(BIN / "gunicorn"), "-w", "3", "-b", f"0.0.0.0:{WEB_PORT}",
                                                   "--timeout", "60", "warlog.app:create_app()"])

    def wait_web_ready(self, timeout: float = 90.0) -> None:
        """Ready: /healthz answers 200. A gunicorn that exits (its workers failed to boot) or does
        not answer in time stops the soak, saying so, rather than leave the bots knocking."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.web is not None and self.web.poll() is not None:
                raise RuntimeError(f"gunicorn on the web host exited ({self.web.returncode}): see its log "
                                   "(gunicorn.log in the soak's folder; --keep keeps it)")
            try:
                with urllib.request.urlopen(f"http://{self.net.ip['web']}:{WEB_PORT}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the web host did not answer /healthz within {timeout:.0f} s")

    # workers
    def start_worker(self, name: str) -> None:
        self.workers[name] = self._spawn("workers", name, [str(BIN / "warlog"), "worker", "--name", name])

    def wait_worker_ready(self, name: str, timeout: float = 90.0) -> None:
        """Ready: RQ holds its registration with the new process's pid (the pid inside its host,
        the same here: the namespaces share the machine's pid space)."""
        import redis

        proc = self.workers[name]
        conn = redis.Redis(host=self.net.ip["data"], port=REDIS_PORT, socket_timeout=2, socket_connect_timeout=2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if conn.hget(f"rq:worker:{name}", "pid") == str(proc.pid).encode():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)

    @staticmethod
    def kill(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGKILL) -> None:
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def stop_apps(self) -> None:
        for proc in [self.web, *self.workers.values()]:
            self.kill(proc, signal.SIGTERM)

    def set_delay(self, ms: float) -> None:
        """Round trips between the data host and the others grow by `ms`, as with `tc qdisc add
        dev eth0 root netem delay <ms>ms` on the data host: half of it each way in the relay."""
        self.delay_file.write_text(f"{ms / 2:.0f}")


# --- the players, with what they sent kept for the audit ---------------------------------------

@dataclass
class Sent:
    gid: str
    seat: str
    key: str
    expected: int
    action: dict[str, Any]
    first_sent: float  # the soak's wall clock
    status: int = 0  # the final answer (0: none came)
    seq: int = -1  # the seq a 202 named


@dataclass
class Sends:
    items: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sent: Sent) -> None:
        with self.lock:
            self.items.append(sent)


class AuditedBot(Bot):
    """bench/chaos_soak.py's bot, keeping every move it sent and the answer it finally got."""

    def __init__(self, api: Api, game: str, scenario: str, seed: int, stats: Stats, stop: threading.Event,
                 sends: Sends) -> None:
        super().__init__(api, game, scenario, seed, stats, stop)
        self.sends = sends

    def submit(self, seat: str, action: dict[str, Any], expected: int) -> None:
        key = uuid.uuid4().hex
        sent = Sent(self.gid, seat, key, expected, action, time.time())
        self.sends.add(sent)
        body = {"action": action, "expected_seq": expected, "idempotency_key": key}
        with self.stats.lock:
            self.stats.tried += 1
        delay, first = 0.1, True
        while True:
            status, answer = self.api.call("POST", f"/games/{self.gid}/moves", self.tokens[seat], body)
            if status in (0, 502, 503, 504):  # no answer: the same key again, until one comes
                if self.stop.is_set() and time.monotonic() - self.stopped_at() > 120:
                    with self.stats.lock:
                        self.stats.unanswered += 1
                    return
                with self.stats.lock:
                    self.stats.retried += 0 if first else 1
                first = False
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            sent.status = status
            with self.stats.lock:
                if status == 202:
                    sent.seq = int(answer["seq"])
                    self.stats.recorded += 1
                    self.stats.duplicate_answers += bool(answer.get("duplicate"))
                else:
                    self.stats.refused[status] = self.stats.refused.get(status, 0) + 1
                    if status >= 500:
                        self.stats.server_errors += 1
            self.moves += 1
            return


class JudgementWatch(threading.Thread):
    """Reads the ledger by SQL every 0.25 s and notes, on the soak's clock, when each
    submission's judgement (resolved or rejected) first appears."""

    def __init__(self, url: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url, self.stop = url, stop
        self.seen: dict[tuple[str, int], float] = {}
        self.after: dict[str, int] = {}
        self.games: list[str] = []
        self.lock = threading.Lock()

    def watch(self, gid: str) -> None:
        with self.lock:
            self.games.append(gid)
            self.after[gid] = -1

    def run(self) -> None:
        import psycopg

        while not self.stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=3) as conn:
                    while not self.stop.wait(0.25):
                        self.poll(conn)
            except psycopg.Error:
                time.sleep(0.5)

    def poll(self, conn: Any) -> None:
        with self.lock:
            games = list(self.games)
            after = [self.after[g] for g in games]
        rows = conn.execute(
            "SELECT e.game_id, e.seq, e.type, e.payload FROM events e "
            "JOIN unnest(%s::text[], %s::bigint[]) AS g(id, after) ON e.game_id = g.id AND e.seq > g.after "
            "ORDER BY e.game_id, e.seq", (games, after)).fetchall()
        now = time.time()
        with self.lock:
            for gid, seq, kind, payload in rows:
                self.after[gid] = max(self.after[gid], seq)
                if kind in ("resolved", "rejected"):
                    self.seen.setdefault((gid, json.loads(payload)["submission_seq"]), now)


# --- the faults ------------------------------------------------------------------------------

class NetChaos(threading.Thread):
    """One fault at a time, a random gap between two; before each, a fresh latency."""

    def __init__(self, net: Net, dep: Deployment, rng: random.Random, stop: threading.Event,
                 gap: tuple[float, float], partition: tuple[float, float], latency: tuple[float, float],
                 kinds: list[str]) -> None:
        super().__init__(daemon=True)
        self.net, self.dep, self.rng, self.stop, self.gap, self.span = net, dep, rng, stop, gap, partition
        self.latency, self.kinds = latency, kinds
        self.outages: list[Outage] = []
        self.delays: list[float] = []
        self.failed_starts: list[str] = []
        self.error = ""

    def run(self) -> None:
        try:
            while not self.stop.wait(self.rng.uniform(*self.gap)):
                delay = self.rng.uniform(*self.latency)
                self.dep.set_delay(delay)
                self.delays.append(delay)
                self.fault(self.rng.choice(self.kinds))
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def fault(self, kind: str) -> None:
        start = time.time()
        if kind.startswith("partition"):
            a, b = kind.split()[1].split("-")
            self.net.partition(a, b, True)
            self.stop.wait(self.rng.uniform(*self.span))  # the soak's end heals it at once
            self.net.partition(a, b, False)
            self.outages.append(Outage(kind, start, time.time(), time.time()))
            return
        down = self.rng.uniform(1.0, 6.0)
        if kind == "kill worker":
            name = self.rng.choice(sorted(self.dep.workers))
            self.dep.kill(self.dep.workers[name])
            time.sleep(down)
            self.dep.start_worker(name)
            spawned = time.time()
            self.dep.wait_worker_ready(name)
            if self.dep.workers[name].poll() is not None:
                self.failed_starts.append(f"worker {name} at {hms(spawned)} exited {self.dep.workers[name].returncode}")
        else:
            self.dep.kill(self.dep.web)
            time.sleep(down)
            self.dep.start_web()
            spawned = time.time()
            self.dep.wait_web_ready()
        self.outages.append(Outage(kind, start, time.time(), spawned))


def cuts_judging(o: Outage) -> bool:
    """Outages that hold a move back: the data host cut off, a process killed (the web-workers
    link carries nothing: a partition there is no excuse)."""
    return o.kind != "partition web-workers"


def overlap(outages: list[Outage], a: float, b: float) -> float:
    return sum(max(0.0, min(b, o.end) - max(a, o.start)) for o in outages if cuts_judging(o))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the audit -------------------------------------------------------------------------------

def audit(dep: Deployment, sends: list[Sent], watch: JudgementWatch, outages: list[Outage], bots: list[Bot],
          api: Api, tmp: Path, settle: float) -> dict[str, Any]:
    """What the ledger says, read by plain SQL, against what the bots sent and were told."""
    import psycopg

    deadline = time.monotonic() + settle
    with psycopg.connect(dep.url(db="warlog"), autocommit=True) as conn:
        def unjudged() -> int:
            return int(conn.execute(
                "SELECT count(*) FROM events s WHERE s.type = 'submitted' AND NOT EXISTS ("
                " SELECT 1 FROM events j WHERE j.game_id = s.game_id AND j.type IN ('resolved', 'rejected')"
                " AND (j.payload::jsonb->>'submission_seq')::bigint = s.seq)").fetchone()[0])  # type: ignore[index]
        while unjudged() and time.monotonic() < deadline:
            time.sleep(0.5)
        rows = conn.execute("SELECT game_id, seq, type, seat, payload FROM events "
                            "WHERE type IN ('submitted', 'resolved', 'rejected') ORDER BY game_id, seq").fetchall()
        times = conn.execute("SELECT game_id, recorded_at FROM events ORDER BY game_id, seq").fetchall()
    backwards = sum(1 for (g1, t1), (g2, t2) in zip(times, times[1:]) if g1 == g2 and t2 < t1)
    time.sleep(0.5)  # the watcher's last poll
    submitted: dict[tuple[str, int], tuple[str, dict[str, Any]]] = {}
    judged: dict[tuple[str, int], int] = {}
    for gid, seq, kind, seat, payload in rows:
        body = json.loads(payload)
        if kind == "submitted":
            submitted[(gid, seq)] = (seat, body)
        else:
            judged[(gid, body["submission_seq"])] = judged.get((gid, body["submission_seq"]), 0) + 1

    def same(sent: Sent, seat: str, body: dict[str, Any]) -> bool:
        return (seat == sent.seat and body.get("expected_seq") == sent.expected
                and json.dumps(body.get("action"), sort_keys=True) == json.dumps(sent.action, sort_keys=True))

    ours = {s.gid for s in sends}
    by_move: dict[tuple[str, str, int, str], list[int]] = {}  # (game, seat, expected, action) -> seqs in the ledger
    for (gid, seq), (seat, body) in submitted.items():
        if gid in ours and "action" in body:
            move = (gid, seat, body.get("expected_seq"), json.dumps(body["action"], sort_keys=True))
            by_move.setdefault(move, []).append(seq)  # type: ignore[arg-type]
    sent_moves = {(s.gid, s.seat, s.expected, json.dumps(s.action, sort_keys=True)) for s in sends}
    lost = [s for s in sends if s.status == 202 and (s.gid, s.seq) not in submitted]
    mismatched = [(s.gid, s.seq, s.seat, s.expected) for s in sends if s.status == 202
                  and (s.gid, s.seq) in submitted and not same(s, *submitted[(s.gid, s.seq)])]
    twice = {m: seqs for m, seqs in by_move.items() if len(seqs) > 1}
    unsent = [m for m in by_move if m not in sent_moves]
    refused_yet_recorded = [(s.gid, s.status) for s in sends if s.status not in (0, 202)
                            and len(by_move.get((s.gid, s.seat, s.expected, json.dumps(s.action, sort_keys=True)), [])) > 0
                            and not any(o.status == 202 and o.gid == s.gid and o.expected == s.expected and o.seat == s.seat
                                        for o in sends)]
    not_judged = [k for k in submitted if k[0] in ours and k not in judged]
    judged_twice = [k for k, n in judged.items() if n > 1]
    latencies, excess, calm, starts = [], [], [], []
    for s in sends:
        if s.status == 202 and (s.gid, s.seq) in watch.seen:
            took = watch.seen[(s.gid, s.seq)] - s.first_sent
            latencies.append(took)
            excess.append(took - overlap(outages, s.first_sent, watch.seen[(s.gid, s.seq)]))
            starts.append(s.first_sent)
            if not any(o.start <= watch.seen[(s.gid, s.seq)] and o.end >= s.first_sent for o in outages):
                calm.append(took)  # no fault of any kind while it waited: the latency's own cost
    unwatched = sum(1 for s in sends if s.status == 202 and (s.gid, s.seq) not in watch.seen)
    verified, failed = verify_exports(api, bots, tmp)
    return {"lost": lost, "mismatched": mismatched, "twice": twice, "unsent": unsent,
            "refused_yet_recorded": refused_yet_recorded, "not_judged": not_judged, "judged_twice": judged_twice,
            "latencies": latencies, "excess": excess, "calm": calm, "starts": starts, "backwards": backwards, "unwatched": unwatched, "verified": verified,
            "verify_failed": failed, "in_ledger": sum(1 for k in submitted if k[0] in ours)}


def skew_lines(tmp: Path, host_logs: list[str]) -> int:
    """Log lines in which the app's skew guard said its clock is off the database's (warlog.clock:
    a clock sweep that fires nothing)."""
    count = 0
    for name in host_logs:
        path = tmp / f"{name}.log"
        if path.exists():
            count += sum(1 for line in path.read_text(errors="replace").splitlines() if "off the database's" in line)
    return count


# --- the run ---------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="how long the bots play under faults")
    ap.add_argument("--quick", action="store_true", help="about 75 s of play, shorter partitions (the test's run)")
    ap.add_argument("--games", type=int, default=4, help="games played at once (two workers at 200 ms round "
                    "trips judge about one move a second: more games measure the queue, not the faults)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gap", type=float, nargs=2, default=(3.0, 10.0), metavar=("MIN", "MAX"),
                    help="seconds between two faults")
    ap.add_argument("--partition", type=float, nargs=2, default=(5.0, 60.0), metavar=("MIN", "MAX"),
                    help="seconds a partition lasts")
    ap.add_argument("--loss", type=int, default=1, help="percent of packets each host drops on input")
    ap.add_argument("--skew-host", choices=(*HOSTS, "none"), default="workers")
    ap.add_argument("--skew", type=float, default=30.0, help="seconds the skewed host's clock is ahead")
    ap.add_argument("--latency", type=float, nargs=2, default=(50.0, 200.0), metavar=("MIN", "MAX"),
                    help="milliseconds added to a round trip to the data host, drawn afresh before each fault")
    ap.add_argument("--kills", action="store_true", help="also kill workers and gunicorn (bench/chaos_soak.py's faults)")
    ap.add_argument("--only", default="", help="comma-separated fault kinds to draw from (e.g. 'partition workers-data')")
    ap.add_argument("--db-params", default="", help="libpq parameters added to WARLOG_DB's URL (a=1&b=2)")
    ap.add_argument("--server-peer-timeout", type=int, default=0,
                    help="seconds after which PostgreSQL gives up a silent client (its tcp_user_timeout and "
                         "keepalives, done by the relay); 0: the kernel's default (hours)")
    ap.add_argument("--log-sql", action="store_true", help="PostgreSQL logs every statement (to count round trips)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, exports)")
    args = ap.parse_args(argv)
    if args.quick:
        seconds, args.partition = 75.0, (5.0, 15.0)
    else:
        seconds = args.minutes * 60
    why = missing_tools()
    if why:
        print(f"three-host soak: cannot run here: {why}", file=sys.stderr)
        return 2
    if args.skew_host == "data" and not FAKETIME_LIB.exists():
        print(f"three-host soak: a skewed clock needs libfaketime ({FAKETIME_LIB}; Debian: apt install faketime), "
              "or --skew-host none", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="warlog-netsoak-"))
    os.chmod(tmp, 0o755)
    Net.leftovers()
    net = Net(os.getpid(), os.getpid() % 5000)
    atexit.register(net.down)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # through the finally: and atexit
    dep = Deployment(net, tmp, args.skew_host, args.skew, args.db_params)
    dep.log_sql, dep.peer_timeout = args.log_sql, args.server_peer_timeout
    stop, watching = threading.Event(), threading.Event()
    stats, sends = Stats(), Sends()
    bots: list[Bot] = []
    chaos: NetChaos | None = None
    t0 = time.monotonic()
    try:
        net.up()
        dep.start_data()
        dep.schema()
        dep.start_web()
        for name in ("net-w1", "net-w2"):
            dep.start_worker(name)
        dep.wait_web_ready()
        for name in dep.workers:
            dep.wait_worker_ready(name)
        net.set_loss(args.loss)
        dep.set_delay(rng.uniform(*args.latency))
        print(f"three hosts up in {time.monotonic() - t0:.1f} s on {net.prefix}.0/24: web {net.ip['web']} "
              f"(gunicorn -w 3), workers {net.ip['workers']} (2 warlog workers), data {net.ip['data']} "
              f"(PostgreSQL + redis-server of their own, behind the latency relay); loss {args.loss}% per host; "
              f"clock of {args.skew_host} {args.skew:+.0f} s "
              f"({'libfaketime' if args.skew_host == 'data' else 'bench/skewclock'}); {tmp}", flush=True)
        api = Api(f"http://{net.ip['web']}:{WEB_PORT}/api/v1")
        watch = JudgementWatch(dep.url(db="warlog"), watching)  # watches until the audit is done
        watch.start()

        def new_bot(i: int) -> Bot:
            bot = AuditedBot(api, *GAMES[i % len(GAMES)], args.seed * 1000 + i, stats, stop, sends)
            bot.create()
            watch.watch(bot.gid)
            return bot

        bots = [new_bot(i) for i in range(args.games)]
        drawn = [f"partition {a}-{b}" for a, b in PAIRS] + (["kill worker", "kill web"] if args.kills else [])
        if args.only:
            drawn = [k.strip() for k in args.only.split(",")]
        chaos = NetChaos(net, dep, rng, stop, tuple(args.gap), tuple(args.partition), tuple(args.latency), drawn)
        started = time.monotonic()
        for bot in bots:
            bot.start()
        chaos.start()
        running = list(bots)
        while time.monotonic() - started < seconds:
            time.sleep(1)
            for bot in [b for b in running if not b.is_alive()]:  # a game ended: another takes its place
                running.remove(bot)
                fresh = new_bot(len(bots))
                fresh.start()
                bots.append(fresh)
                running.append(fresh)
        stop.set()
        chaos.join()
        for bot in bots:
            bot.join(timeout=150)
        played = time.monotonic() - started
        result = audit(dep, sends.items, watch, chaos.outages, bots, api, tmp, settle=90.0)
    finally:
        stop.set()
        watching.set()
        dep.stop_apps()
        dep.stop_data()
        net.down()
    outages = chaos.outages if chaos else []
    kinds: dict[str, int] = {}
    for o in outages:
        kinds[o.kind] = kinds.get(o.kind, 0) + 1
    lat, exc, calm = result["latencies"], result["excess"], result["calm"]
    ended = sum(1 for b in bots if b.finished)
    skewed = skew_lines(tmp, [*dep.workers, "gunicorn"]) if args.skew_host != "none" else 0
    delays = chaos.delays if chaos else []
    print(f"played {played:.0f} s: {len(bots)} games, {ended} to their end ({', '.join(f'{g}/{s}' for g, s in GAMES)}), "
          f"seed {args.seed}")
    print(f"tried {stats.tried}  recorded {stats.recorded} (202)  refused {dict(sorted(stats.refused.items()))}  "
          f"resent after no answer or 503: {stats.retried} (answered duplicate: {stats.duplicate_answers})  "
          f"never answered: {stats.unanswered}  5xx other than 503: {stats.server_errors}")
    print(f"audit (plain SQL on the ledger): lost {len(result['lost'])}  duplicated {len(result['twice'])}  "
          f"seat/expected seq/action differing {len(result['mismatched'])}  in the ledger but never sent "
          f"{len(result['unsent'])}  refused yet recorded {len(result['refused_yet_recorded'])}  "
          f"unjudged {len(result['not_judged'])}  judged twice {len(result['judged_twice'])}  "
          f"(submissions in the ledger {result['in_ledger']})")
    print(f"judgement latency on the soak's clock (first send -> judgement seen), {len(lat)} moves: "
          f"p50 {percentile(lat, 0.5):.2f} s  p95 {percentile(lat, 0.95):.2f} s  max {max(lat, default=0):.2f} s; "
          f"minus the outage it waited through: p95 {percentile(exc, 0.95):+.2f} s  max {max(exc, default=0):+.2f} s  "
          f"over outage + {GRACE:.0f} s: {sum(1 for e in exc if e > GRACE)}  (judgement not seen by the poller: "
          f"{result['unwatched']})")
    print(f"  of which {len(calm)} waited through no fault (the latency's own cost): p50 {percentile(calm, 0.5):.2f} s  "
          f"p95 {percentile(calm, 0.95):.2f} s  max {max(calm, default=0):.2f} s")
    down = sum(o.end - o.start for o in outages if cuts_judging(o))
    print(f"faults {len(outages)} {dict(sorted(kinds.items()))}  judging path cut {down:.0f} s in all, longest "
          f"{max((o.end - o.start for o in outages), default=0):.1f} s; {min(delays, default=0):.0f}-"
          f"{max(delays, default=0):.0f} ms added to each round trip to the data host")
    print("packets the partitions dropped: " + ", ".join(
        f"{a}-{b} {net.dropped.get(tuple(sorted((a, b))), 0)}" for a, b in PAIRS))
    print(f"clock of {args.skew_host} {args.skew:+.0f} s: skew guard warnings in the logs {skewed}; events recorded "
          f"earlier than the event before them {result['backwards']}")
    print(f"chains verified {result['verified']}/{sum(1 for b in bots if b.gid)}  failed {len(result['verify_failed'])}")
    for what in ("lost", "mismatched", "twice", "unsent", "refused_yet_recorded", "not_judged", "judged_twice",
                 "verify_failed"):
        if result[what]:
            shown = list(result[what].items())[:5] if isinstance(result[what], dict) else result[what][:5]
            print(f"  {what}: {shown}")
    late = sorted(((e, o, t) for e, o, t in zip(exc, lat, result["starts"]) if e > GRACE), reverse=True)
    if late:
        print("  latest (first sent, latency, over the allowance by): " + ", ".join(
            f"{hms(t)} {o:.1f} s +{e - GRACE:.1f} s" for e, o, t in late[:8]))
    for bot in bots:
        if bot.error:
            print(f"  bot {bot.gid}: {bot.error}")
    if chaos and chaos.error:
        print(f"  chaos: {chaos.error}")
    if chaos and chaos.failed_starts:
        print(f"  restarts that failed: {chaos.failed_starts}")
    bad = bool(result["lost"] or result["mismatched"] or result["twice"] or result["unsent"]
               or result["refused_yet_recorded"] or result["not_judged"] or result["judged_twice"]
               or result["verify_failed"] or percentile(exc, 0.95) > GRACE or stats.server_errors
               or stats.unanswered or (chaos and (chaos.error or chaos.failed_starts)) or not lat)
    print("netsoak: " + ("FAILED" if bad else "OK: 0 lost, 0 duplicated, nothing judged twice, every chain verifies, "
                                               "p95 judgement within outage + 5 s"))
    if args.keep or bad:
        (tmp / "faults.txt").write_text("".join(f"{hms(o.start)} .. {hms(o.end)} {o.kind}\n" for o in outages))
        print(f"logs, exports and the faults' times (faults.txt) kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
