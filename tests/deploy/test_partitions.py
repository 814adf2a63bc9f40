"""A network partition fails fast and heals promptly (ledger/netopts.py, WARLOG_NET_TIMEOUT).

A partition neither refuses nor resets a connection: packets just vanish. Here an nftables rule
drops, on this machine's loopback, every packet to or from one TCP port — a connection's own
port, or that of a small forwarder in front of the test's PostgreSQL or Redis — so the
connections through it go silent as across a pulled cable, while the rest of the machine (the
other tests' connections) is untouched. Needs root and nft: skipped, with the reason, elsewhere.

- a web request whose database went silent answers 503 with Retry-After within seconds (it hung
  for TCP's retransmissions, about 15 minutes), and the next requests are served once the
  network is back;
- the game lock of a process whose connection went silent is released by PostgreSQL within
  seconds (it was held until the kernel's two-hour keep-alive);
- a worker waiting for a job on a Redis that went silent notices within seconds and carries on
  once the network is back (RQ's wait for a job lasted minutes).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import PG_URL, REDIS_URL

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = "2"  # WARLOG_NET_TIMEOUT for these tests, seconds


def _why_not() -> str:
    if os.geteuid() != 0:
        return "an nftables rule needs root"
    if shutil.which("nft") is None:
        return "nft is not installed"
    return ""


pytestmark = pytest.mark.skipif(bool(_why_not()), reason=f"cannot cut a connection here: {_why_not()}")


class BlackHole:
    """An nftables table of this test's own that drops every packet to or from the given ports
    (no reset, no refusal), removed on `heal` and at the end."""

    def __init__(self) -> None:
        self.table = f"warlog_partition_{os.getpid()}_{uuid.uuid4().hex[:8]}"

    def cut(self, *ports: int) -> None:
        rules = "".join(f"  tcp dport {p} drop\n  tcp sport {p} drop\n" for p in ports)
        script = (f"table inet {self.table} {{\n chain out {{\n  type filter hook output priority 0; policy accept;\n"
                  f"{rules} }}\n}}\n")
        subprocess.run(["nft", "-f", "-"], input=script, text=True, check=True, capture_output=True)

    def heal(self) -> None:
        subprocess.run(["nft", "delete", "table", "inet", self.table], capture_output=True)


@pytest.fixture
def black_hole() -> Iterator[BlackHole]:
    hole = BlackHole()
    try:
        yield hole
    finally:
        hole.heal()


class Forwarder(threading.Thread):
    """A TCP forwarder on a port of its own in front of `target`: what goes through it can be
    black-holed without touching anyone else's connections to the same server."""

    def __init__(self, target: tuple[str, int]) -> None:
        super().__init__(daemon=True)
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []

    def run(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.copy, args=(a, b), daemon=True).start()

    @staticmethod
    def copy(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        for s in self.open:
            s.close()


def _host_port(url: str, default: int) -> tuple[str, int]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default


@pytest.fixture
def pg_forwarder() -> Iterator[Forwarder]:
    fwd = Forwarder(_host_port(PG_URL, 5432))
    fwd.start()
    yield fwd
    fwd.close()


def _through(url: str, fwd: Forwarder, default: int) -> str:
    host, port = _host_port(url, default)
    return url.replace(f"{host}:{port}", f"127.0.0.1:{fwd.port}", 1) if f"{host}:{port}" in url else \
        url.replace(host, f"127.0.0.1:{fwd.port}", 1)


def _in_thread(call: Any, limit: float) -> tuple[Any, float]:
    """`call()` in a thread, waited for at most `limit` s: (its answer or None, seconds taken)."""
    out: list[Any] = []
    start = time.monotonic()
    t = threading.Thread(target=lambda: out.append(call()), daemon=True)
    t.start()
    t.join(limit)
    return (out[0] if out else None), time.monotonic() - start


def test_a_request_whose_database_went_silent_answers_503_at_once_and_the_next_is_served_after_the_heal(
        pg_url: str, pg_forwarder: Forwarder, black_hole: BlackHole, monkeypatch: pytest.MonkeyPatch) -> None:
    from warlog.app import create_app

    monkeypatch.setenv("WARLOG_NET_TIMEOUT", TIMEOUT)
    app = create_app({"TESTING": True, "WARLOG_DB": _through(pg_url, pg_forwarder, 5432)})
    try:
        client = app.test_client()
        created = client.post("/api/v1/games", json={"game": "dice-duel"})
        assert created.status_code == 201, created.get_json()
        gid = created.get_json()["id"]
        assert client.get(f"/api/v1/games/{gid}").status_code == 200

        black_hole.cut(pg_forwarder.port)
        answer, took = _in_thread(lambda: client.get(f"/api/v1/games/{gid}"), 60)
        assert answer is not None, f"the request still hung {took:.0f} s into the partition"
        assert answer.status_code == 503 and answer.headers.get("Retry-After"), (answer.status_code, answer.data)
        assert took < 30, f"503 only after {took:.1f} s"

        black_hole.heal()
        deadline, status = time.monotonic() + 30, 0
        while time.monotonic() < deadline:
            answer, _ = _in_thread(lambda: client.get(f"/api/v1/games/{gid}"), 30)
            status = answer.status_code if answer is not None else 0
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200, f"not served again within 30 s of the heal (last: {status})"
    finally:
        black_hole.heal()
        stop = app.extensions.get("warlog_sweeper_stop")
        if stop is not None:
            stop.set()
        app.extensions["warlog"].store.close()


def test_the_game_lock_of_a_process_whose_connection_went_silent_is_released_by_the_server(
        pg_url: str, black_hole: BlackHole, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL ends the silent session (its keep-alives and user timeout, set by the app per
    session) and so releases its advisory lock: another worker can judge the game."""
    from ledger.postgres import PostgresStore, lock_key

    monkeypatch.setenv("WARLOG_NET_TIMEOUT", TIMEOUT)
    store = PostgresStore(pg_url)
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with store.game_lock("g-silent", timeout=5):
                holding.set()
                done.wait(120)
        except Exception:
            pass  # its session is gone: releasing it fails, as it should

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        assert holding.wait(10)
        key = lock_key(store.schema, "g-silent")
        with psycopg.connect(PG_URL, autocommit=True) as other:
            row = other.execute("SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                                "WHERE l.locktype = 'advisory' AND l.granted AND "
                                "((l.classid::bigint << 32) | l.objid::bigint) = (%s::bigint)", (key,)).fetchone()
            assert row is not None and row[0], "the lock's session was not found"
            black_hole.cut(int(row[0]))
            deadline, got = time.monotonic() + 60, False
            start = time.monotonic()
            while time.monotonic() < deadline and not got:
                got = bool(other.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0])  # type: ignore[index]
                if not got:
                    time.sleep(0.25)
            took = time.monotonic() - start
            if got:
                other.execute("SELECT pg_advisory_unlock(%s)", (key,))
        assert got, "the silent session still held the game's lock after 60 s"
        assert took < 30, f"released only after {took:.1f} s"
    finally:
        black_hole.heal()
        done.set()
        holder.join(30)
        store.close()


def test_a_worker_waiting_on_a_silent_redis_notices_and_carries_on_after_the_heal(
        pg_url: str, black_hole: BlackHole, tmp_path: Path) -> None:
    """`warlog worker` waits for jobs in RQ's BLPOP, minutes long: a partition from Redis must
    end that wait within seconds (one line: unreachable), and the worker must be back at work
    (one line: back) soon after the network is."""
    fwd = Forwarder(_host_port(REDIS_URL, 6379))
    fwd.start()
    redis_url = _through(REDIS_URL, fwd, 6379)
    log = tmp_path / "worker.log"
    env = {**os.environ, "WARLOG_NET_TIMEOUT": TIMEOUT, "WARLOG_ALLOW_SUPERUSER": "1", "PYTHONPATH": str(ROOT)}
    name = f"partition-{uuid.uuid4().hex[:8]}"
    with open(log, "wb") as out:
        worker = subprocess.Popen([sys.executable, str(ROOT / "worker.py"), "--db", pg_url, "--redis", redis_url,
                                   "--name", name], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def wait_for(text: str, limit: float) -> float:
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if text in log.read_text(errors="replace"):
                return time.monotonic() - start
            assert worker.poll() is None, log.read_text(errors="replace")
            time.sleep(0.1)
        raise AssertionError(f"no '{text}' within {limit:.0f} s:\n{log.read_text(errors='replace')}")

    try:
        import redis

        conn = redis.Redis.from_url(REDIS_URL)
        deadline = time.monotonic() + 60
        while not conn.exists(f"rq:worker:{name}"):
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            assert worker.poll() is None, log.read_text(errors="replace")
            time.sleep(0.1)
        time.sleep(1.0)  # into RQ's wait for a job
        black_hole.cut(fwd.port)
        noticed = wait_for("the worker waits for it", 60)  # RQ's own loop met the partition
        assert noticed < 30, f"the worker noticed the partition only after {noticed:.1f} s"
        black_hole.heal()
        back = wait_for("is back after", 30)
        assert back < 15, f"the worker was back only {back:.1f} s after the heal"
    finally:
        black_hole.heal()
        worker.terminate()
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        fwd.close()
