"""Operator traps. Passwords never printed; a queue with an embedded SQLite
ledger refuses to start unless allowed; the running configuration logged once; liveness and
readiness (ledger, Redis, a recent worker heartbeat); `warlog worker --name`; an award's winner
is a seat or "draw"; killed workers' failed jobs are cleaned up."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from flask import Flask

from tests.conftest import REDIS_URL, Player
from warlog.app import ConfigError, create_app
from warlog.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rq_redis() -> str:
    conn = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    conn.ping()
    conn.flushdb()
    return REDIS_URL


def _close(app: Flask) -> None:
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    app.extensions["warlog"].store.close()


# -- passwords -------------------------------------------------------------------------------

def test_mask_url_hides_passwords_only() -> None:
    from ledger.urls import mask_url

    assert mask_url("postgresql://warlog:hunter2@db:5432/w") == "postgresql://warlog:***@db:5432/w"
    assert mask_url("redis://:hunter2@redis:6379/0") == "redis://:***@redis:6379/0"
    assert mask_url("host=db password=hunter2 user=w") == "host=db password=*** user=w"
    assert mask_url("postgresql://warlog@db/w") == "postgresql://warlog@db/w"


# Port 1 refuses at once: the store fails after waiting for a first connection (10 s in
# production, ledger.postgres.CONNECT_WAIT); the error it prints is the same after 1 s.
UNREACHABLE_WAIT = ("WARLOG_TEST_CONNECT_WAIT", "1")


@pytest.mark.parametrize("args", [
    ["games", "--db", "postgresql://warlog:hunter2@127.0.0.1:1/w"],
    ["export", "g", "--db", "postgresql://warlog:hunter2@127.0.0.1:1/w"],
    ["worker", "--burst", "--db", "postgresql://warlog:hunter2@127.0.0.1:1/w", "--redis", "redis://:pw2@127.0.0.1:1/0"],
    ["serve", "--db", "postgresql://warlog:hunter2@127.0.0.1:1/w", "--redis", "redis://:pw2@127.0.0.1:1/0"],
])
@pytest.mark.slow
def test_connection_errors_never_print_the_password(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(UNREACHABLE_WAIT[0], UNREACHABLE_WAIT[1])
    r = CliRunner().invoke(main, args)
    assert r.exit_code != 0 and "Error:" in r.output, r.output
    assert "hunter2" not in r.output and "pw2" not in r.output, r.output
    assert "***" in r.output


@pytest.mark.slow
def test_worker_py_never_prints_the_password() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "worker.py"), "--burst", "--db",
                          "postgresql://warlog:hunter2@127.0.0.1:1/w", "--redis", "redis://127.0.0.1:1/0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**os.environ, UNREACHABLE_WAIT[0]: UNREACHABLE_WAIT[1]})
    assert out.returncode == 2 and "hunter2" not in out.stdout + out.stderr and "***" in out.stderr, out.stderr


# -- explicit configuration ------------------------------------------------------------------

def test_a_queue_with_an_embedded_ledger_refuses_to_start(tmp_path: Path, rq_redis: str) -> None:
    with pytest.raises(ConfigError, match="WARLOG_DB"):
        create_app({"WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3", "WARLOG_REDIS": rq_redis})
    app = create_app({"WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3", "WARLOG_REDIS": rq_redis,
                      "WARLOG_ALLOW_EMBEDDED_LEDGER": True})
    _close(app)


def test_gunicorn_style_start_with_only_warlog_redis_set_refuses(tmp_path: Path, rq_redis: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The trap as it was met: WARLOG_DB unset (or misspelt), WARLOG_REDIS set."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARLOG_DB", raising=False)
    monkeypatch.setenv("WARLOG_REDIS", rq_redis)
    monkeypatch.setenv("WARLOG_DATABASE", "postgresql://warlog@db/w")  # misspelt
    with pytest.raises(ConfigError) as err:
        create_app()
    assert "WARLOG_DATABASE" in str(err.value) and "WARLOG_DB" in str(err.value)


def test_the_worker_refuses_an_embedded_ledger_too(tmp_path: Path, rq_redis: str) -> None:
    r = CliRunner().invoke(main, ["worker", "--burst", "--db", f"sqlite:///{tmp_path}/w.sqlite3", "--redis", rq_redis])
    assert r.exit_code != 0 and "embedded" in r.output and "Traceback" not in r.output, r.output


def test_the_running_configuration_is_logged_once_masked(pg_url: str, rq_redis: str,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="warlog")
    url = pg_url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    app = create_app({"TESTING": True, "WARLOG_DB": url, "WARLOG_REDIS": rq_redis})
    try:
        lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("warlog web:")]
        assert len(lines) == 1, lines
        assert "postgresql://postgres:***@" in lines[0] and "RQ" in lines[0] and "hunter2" not in caplog.text
    finally:
        _close(app)


@pytest.mark.slow
def test_warlog_worker_takes_a_name(pg_url: str, rq_redis: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin"}
    proc = subprocess.Popen([sys.executable, "-c", "from warlog.cli import main; main()", "worker", "--db", pg_url, "--redis", rq_redis,
                             "--name", "night-shift-1"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        conn = redis.Redis.from_url(rq_redis)
        deadline = time.monotonic() + 30
        # warlog's heartbeat thread starts before RQ's worker registers itself: both, in either order
        while conn.zscore("warlog:workers", "night-shift-1") is None or not conn.exists("rq:worker:night-shift-1"):
            assert time.monotonic() < deadline and proc.poll() is None, (
                f"night-shift-1: heartbeat {conn.zscore('warlog:workers', 'night-shift-1')}, "
                f"RQ registration {bool(conn.exists('rq:worker:night-shift-1'))}")
            time.sleep(0.2)
    finally:  # never left running: a worker on the test database would take later tests' jobs
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
            raise


# -- health ----------------------------------------------------------------------------------

def test_healthz_is_liveness_and_readyz_checks_the_embedded_deployment(client: Any) -> None:
    assert client.get("/healthz").get_json()["ok"] is True
    r = client.get("/readyz")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["checks"]["database"]["ok"] and r.get_json()["checks"]["workers"]["ok"]


def test_readyz_needs_a_recent_worker_heartbeat_and_redis(pg_url: str, tmp_path: Path) -> None:
    from tests.support.services import RedisServer
    from warlog.ops.health import beat

    own = RedisServer(tmp_path)
    own.start()
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own.url})
    try:
        client = app.test_client()
        r = client.get("/readyz")
        assert r.status_code == 503 and not r.get_json()["checks"]["workers"]["ok"], r.get_json()
        assert "no worker" in r.get_json()["checks"]["workers"]["error"]
        conn = redis.Redis.from_url(own.url)
        beat(conn, "w-1")
        r = client.get("/readyz")
        assert r.status_code == 200 and r.get_json()["checks"]["workers"]["recent"] == ["w-1"], r.get_json()
        conn.zadd("warlog:workers", {"w-1": time.time() - 600})  # a heartbeat ten minutes old
        assert client.get("/readyz").status_code == 503
        own.kill()
        r = client.get("/readyz")
        assert r.status_code == 503 and not r.get_json()["checks"]["redis"]["ok"]
        assert r.get_json()["checks"]["database"]["ok"]
        assert client.get("/healthz").status_code == 200  # alive, not ready
    finally:
        own.kill()
        _close(app)


# -- award -----------------------------------------------------------------------------------

@pytest.mark.parametrize("winner, status", [("nobody-at-all", 422), ("NORTH", 422), ("", 422),
                                            ("north", 202), ("draw", 202), (None, 202)])
def test_an_award_names_a_seat_or_draw(new_game: Any, winner: Any, status: int) -> None:
    p: Player = new_game()
    r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"),
                      json={"kind": "award", "winner": winner, "result": "adjudicated", "reason": "time"})
    assert r.status_code == status, r.get_json()
    if status == 422:
        assert "north" in r.get_json()["error"] and "draw" in r.get_json()["error"]


# -- failed jobs of killed workers -------------------------------------------------------------

@pytest.mark.slow
def test_failed_jobs_of_killed_workers_are_cleaned_up(pg_url: str, rq_redis: str, tmp_path: Path) -> None:
    from rq.registry import FailedJobRegistry, StartedJobRegistry

    from warlog.judging.queue import RQQueue

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": rq_redis})
    log = open(tmp_path / "slow.log", "wb")
    slow = subprocess.Popen([sys.executable, str(ROOT / "worker.py"), "--db", pg_url, "--redis", rq_redis,
                             "--name", "slow"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_FAULT_DELAY_BEFORE_APPEND": "30",
                                 "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin"})
    try:
        client = app.test_client()
        p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel"}).get_json())
        p.join_all()
        client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth("north"), json={
            "action": {"type": "roll"}, "expected_seq": p.info()["seq"], "idempotency_key": "k"})
        queue: RQQueue = app.extensions["warlog_queue"]
        started = StartedJobRegistry(queue=queue.queue)
        deadline = time.monotonic() + 20
        while not started.get_job_ids(cleanup=False):  # the slow worker is in the job
            assert time.monotonic() < deadline, (tmp_path / "slow.log").read_text()
            time.sleep(0.1)
        slow.kill()
        slow.wait()
        assert started.get_job_ids(cleanup=False), "the killed worker's job is left as started"
        # an hour on, RQ counts the job abandoned; the clean-up drops it rather than keep it as failed
        # (the clean-up of another process sharing the queue, e.g. the app's own sweep, may have
        # moved it first: what matters is that no registry keeps it)
        assert queue.clean_failed(now=time.time() + 3600) in (0, 1)
        assert started.count == 0 and FailedJobRegistry(queue=queue.queue).count == 0
    finally:
        if slow.poll() is None:
            slow.kill()
        _close(app)
