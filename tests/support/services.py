"""Throw-away Redis and PostgreSQL servers that a test starts, kills and restarts on a free
port of its own (outages), never touching the machine's shared ones."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.ports import free_port  # noqa: F401  (imported from here by other tests)


def _wait_port(port: int, up: bool, timeout: float = 20.0) -> None:
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
    raise AssertionError(f"port {port} did not come {'up' if up else 'down'} in {timeout}s")


class RedisServer:
    """redis-server on its own port, in memory only (a restart loses the queue: the worst case)."""

    def __init__(self, tmp: Path) -> None:
        if shutil.which("redis-server") is None:
            pytest.fail("redis-server is required for the outage tests", pytrace=False)
        self.port, self.tmp = free_port(), tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = open(self.tmp / f"redis-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp)], stdout=log, stderr=subprocess.STDOUT)
        _wait_port(self.port, up=True)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        _wait_port(self.port, up=False)


class PostgresServer:
    """A PostgreSQL cluster of its own (initdb in a fresh temporary directory), trust auth, on
    its own port. As root, it runs as the `postgres` user (initdb refuses root)."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            pytest.fail("PostgreSQL's pg_ctl is required for the outage tests", pytrace=False)
        self.bin = found[-1].parent
        self.root = Path(tempfile.mkdtemp(prefix="warlog-pg-"))
        self.port, self.data = free_port(), self.root / "data"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:
            shutil.chown(self.root, "postgres")
        subprocess.run([*self.as_postgres, str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                        "-U", "postgres", "--no-sync"], check=True, capture_output=True)

    @property
    def url(self) -> str:
        return f"postgresql://postgres:s3cret-pw@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        subprocess.run([*self.as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                        str(self.data / "log"), "-o", f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 "
                        "-c fsync=off", "start"], check=True, capture_output=True)

    def stop(self) -> None:
        subprocess.run([*self.as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                        "-w", "stop"], check=False, capture_output=True)
        _wait_port(self.port, up=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
