"""The production recipe's processes, started by a test (or the benchmark) on ports of its own:
gunicorn with deploy/gunicorn.conf.py, `warlog live`, an RQ worker, and nginx running the
shipped deploy/nginx.conf (only its lines marked "local:" rewritten to these ports and paths)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from tests.support.services import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)


def local_nginx_conf(tmp: Path, port: int, web_port: int, live_port: int) -> str:
    """deploy/nginx.conf with its "local:" lines pointed at this run's ports and files."""
    out = []
    for line in NGINX_CONF.read_text().splitlines():
        if "# local:" not in line:
            out.append(line)
            if line.strip() == "http {":  # temporary files in this run's directory
                out += [f"    client_body_temp_path {tmp}/body;", f"    proxy_temp_path {tmp}/proxy;",
                        f"    fastcgi_temp_path {tmp}/fastcgi;", f"    uwsgi_temp_path {tmp}/uwsgi;",
                        f"    scgi_temp_path {tmp}/scgi;"]
            continue
        what = line.split("# local:")[1].strip().split()[0]
        indent = line[: len(line) - len(line.lstrip())]
        new = {
            "dropped": "user root;" if os.geteuid() == 0 else "",
            "pid": f"pid {tmp}/nginx.pid;",
            "error_log": f"error_log {tmp}/nginx-error.log warn;",
            "access_log": f"access_log {tmp}/nginx-access.log warlog;",
            "web": f"server 127.0.0.1:{web_port};",
            "live": f"server 127.0.0.1:{live_port};",
            "listen": f"listen 127.0.0.1:{port} default_server;",
        }[what]
        out.append(indent + new)
    return "\n".join(out) + "\n"


def get(port: int, path: str, timeout: float = 10.0, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def post_json(port: int, path: str, body: dict[str, Any], headers: dict[str, str] | None = None,
              timeout: float = 10.0) -> tuple[int, Any]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def wait_until_up(port: int, path: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{log.name} exited ({proc.returncode}):\n{log.read_text(errors='replace')[-3000:]}")
        try:
            if get(port, path, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{path} on port {port} never answered:\n{log.read_text(errors='replace')[-3000:]}")


class Stack:
    """Start what is asked for; `stop()` ends, in reverse order, only the processes it started."""

    def __init__(self, tmp: Path, db: str, redis_url: str) -> None:
        self.tmp, self.db, self.redis_url = tmp, db, redis_url
        self.procs: list[subprocess.Popen[bytes]] = []
        self.web_port = self.live_port = self.proxy_port = 0
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_DB": db, "WARLOG_REDIS": redis_url,
                    "WARLOG_ALLOW_SUPERUSER": "1", "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin"}

    def _spawn(self, name: str, argv: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.tmp / f"{name}.log"
        proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=open(log, "wb"), stderr=subprocess.STDOUT)
        self.procs.append(proc)
        return proc, log

    def web(self, workers: int = 1, *extra: str) -> int:
        """gunicorn with deploy/gunicorn.conf.py (the test game registered; see wsgi.py)."""
        self.web_port = free_port()
        proc, log = self._spawn("gunicorn", [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "-b",
                                             f"127.0.0.1:{self.web_port}", "-w", str(workers), *extra,
                                             "tests.live.wsgi:app()"])
        wait_until_up(self.web_port, "/healthz", proc, log)
        return self.web_port

    def live(self, *extra: str) -> int:
        self.live_port = free_port()
        proc, log = self._spawn("live", [sys.executable, "-c", "from warlog.cli import main; main()", "live",
                                         "--redis", self.redis_url, "--port", str(self.live_port), *extra])
        wait_until_up(self.live_port, "/healthz", proc, log)
        deadline = time.monotonic() + 20  # subscribed to Redis
        while json.loads(get(self.live_port, "/healthz")[1])["redis"] is not True:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        return self.live_port

    def worker(self) -> None:
        proc, log = self._spawn("worker", [sys.executable, str(ROOT / "worker.py"), "--db", self.db, "--redis",
                                           self.redis_url, "--name", "live-" + uuid.uuid4().hex[:8]])
        deadline = time.monotonic() + 60
        while "Listening on" not in log.read_text(errors="replace"):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.1)

    def nginx(self) -> int:
        binary = nginx_binary()
        assert binary, "nginx is required (scripts/test installs Debian's nginx-light)"
        self.proxy_port = free_port()
        conf = self.tmp / "nginx.conf"
        conf.write_text(local_nginx_conf(self.tmp, self.proxy_port, self.web_port, self.live_port))
        proc, log = self._spawn("nginx", [binary, "-p", str(self.tmp), "-c", str(conf), "-e",
                                          str(self.tmp / "nginx-error.log"), "-g", "daemon off;"])
        wait_until_up(self.proxy_port, "/healthz", proc, log)
        return self.proxy_port

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def new_game(self, port: int) -> dict[str, Any]:
        """A dice-duel game with both seats joined, through `port`."""
        status, created = post_json(port, "/api/v1/games", {"game": "dice-duel", "scenario": "long"})
        assert status == 201, created
        for seat, token in created["seats"].items():
            status, body = post_json(port, f"/api/v1/games/{created['id']}/join", {"entropy": seat},
                                     {"Authorization": f"Bearer {token}"})
            assert status == 200, body
        return created

    def move(self, port: int, game: dict[str, Any], timeout: float = 10.0) -> tuple[int, Any]:
        """The active seat banks (a move every turn allows): (status, body) of the POST."""
        status, info = get(port, f"/api/v1/games/{game['id']}", timeout=timeout)
        doc = json.loads(info)
        seat = doc["active_seats"][0]
        return post_json(port, f"/api/v1/games/{game['id']}/moves",
                         {"action": {"type": "bank"}, "expected_seq": doc["seq"], "idempotency_key": uuid.uuid4().hex},
                         {"Authorization": f"Bearer {game['seats'][seat]}"}, timeout=timeout)


def open_socket(port: int, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    return s


def open_stream(port: int, game_id: str, source: str = "127.0.0.1") -> socket.socket:
    """A page's notice stream, held open (its answer's head read)."""
    s = open_socket(port, source)
    s.sendall(f"GET /games/{game_id}/events HTTP/1.1\r\nHost: warlog\r\nAccept: text/event-stream\r\n\r\n".encode())
    return s


def read_until(s: socket.socket, marker: bytes, timeout: float = 10.0) -> bytes:
    s.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        assert time.monotonic() < deadline, data
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
