"""Workers ride out a Redis outage and a PostgreSQL outage, and nothing
stays pending once they are back. Each test starts its own redis-server / PostgreSQL cluster on
a free port and kills it; the machine's shared ones are never touched."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.conftest import REDIS_URL, Player
from tests.support.services import PostgresServer, RedisServer
from warlog.app import create_app

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.kill()


def _start_worker(db: str, redis_url: str, tmp: Path, name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
    log = open(tmp / f"{name}.log", "wb")
    return subprocess.Popen(
        [sys.executable, str(ROOT / "worker.py"), "--db", db, "--redis", redis_url, "--name", name, *args],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin", **env})


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _new(app: Any) -> Player:
    client = app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def _submit(p: Player) -> int:
    info = p.info()
    r = p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(info["active_seats"][0]), json={
        "action": {"type": "roll"}, "expected_seq": info["seq"], "idempotency_key": uuid.uuid4().hex})
    assert r.status_code == 202, r.get_json()
    return int(r.get_json()["seq"])


def _wait_judged(p: Player, seq: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        status = p.client.get(f"/api/v1/games/{p.id}/moves/{seq}").get_json().get("status", "pending")
        if status != "pending":
            return str(status)
        assert time.monotonic() < deadline, f"game {p.id}: submission {seq} still pending after {timeout}s"
        time.sleep(0.2)


def _wait_for_text(path: Path, text: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in path.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"{text!r} never appeared in {path.name}:\n{path.read_text()[-2000:]}"
        time.sleep(0.1)


@pytest.fixture(autouse=True)
def _no_sweepers_of_earlier_tests() -> None:
    """The outage lines are counted process-wide (warlog.judging.outage.LEDGER is one per process): a
    sweeper left running by an earlier test's app that was never closed would mark the ledger
    back up between this test's failures, and the outage would be told twice. Stop them first."""
    from warlog.judging.queue import RUNNING

    for sweeper in list(RUNNING):
        sweeper.set()
        if sweeper.thread is not None:
            sweeper.thread.join(timeout=5)


def _outage_lines(caplog: pytest.LogCaptureFixture, word: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if word in r.getMessage() and "unreachable" in r.getMessage()]


def test_a_worker_in_a_job_rides_out_a_redis_outage(pg_url: str, own_redis: RedisServer, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    games = [_new(app) for _ in range(3)]
    worker = _start_worker(pg_url, own_redis.url, tmp_path, "w1", "--sweep-interval", "1",
                           WARLOG_FAULT_DELAY_BEFORE_APPEND="2")
    try:
        first = _submit(games[0])
        _wait_for_text(tmp_path / "w1.log", "resolve_game")  # the worker is in the job
        own_redis.kill()
        during = [(g, _submit(g)) for g in games[1:]]  # recorded while Redis is down: 202 each
        time.sleep(3)  # the job appends its judgement, then RQ's own bookkeeping meets the outage
        assert worker.poll() is None, (tmp_path / "w1.log").read_text()[-3000:]
        own_redis.start()  # back, empty: the queued jobs are gone, the ledger still knows
        assert _wait_judged(games[0], first, 30) == "resolved"
        for g, seq in during:
            assert _wait_judged(g, seq, 30) == "resolved"
        assert worker.poll() is None, "the worker survived the outage"
        # the worker's catch-up may judge the backlog before its RQ loop says Redis is back: wait for it
        _wait_for_text(tmp_path / "w1.log", "back")
    finally:
        _stop(worker)
        app.extensions["warlog"].store.close()
    log = (tmp_path / "w1.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    assert "unreachable" in log and "back" in log, log[-3000:]
    web = _outage_lines(caplog, "Redis")
    assert len(web) == 1, [r.getMessage() for r in web]  # one clear line for the outage, not one per move
    assert all(r.exc_info is None for r in caplog.records), [r.getMessage() for r in caplog.records if r.exc_info]


def test_after_a_redis_outage_the_web_process_queues_what_it_recorded(pg_url: str, own_redis: RedisServer,
                                                                      tmp_path: Path) -> None:
    """The sweep does not depend on a worker having survived: with no worker at all, the web
    process puts back on the queue every submission it recorded during the outage."""
    from rq import Queue
    from rq.serializers import JSONSerializer

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    try:
        games = [_new(app) for _ in range(2)]
        own_redis.kill()
        seqs = [_submit(g) for g in games]
        own_redis.start()
        conn = redis.Redis.from_url(own_redis.url)
        queue = Queue("warlog", connection=conn, serializer=JSONSerializer)
        deadline = time.monotonic() + 20
        while {j.args[0] for j in queue.get_jobs()} != {g.id for g in games}:
            assert time.monotonic() < deadline, [j.args for j in queue.get_jobs()]
            time.sleep(0.2)
        worker = _start_worker(pg_url, own_redis.url, tmp_path, "burst", "--burst")
        assert worker.wait(timeout=60) == 0
        for g, seq in zip(games, seqs):
            assert _wait_judged(g, seq, 5) == "resolved"
    finally:
        app.extensions["warlog"].store.close()


@pytest.fixture
def shared_redis() -> str:
    conn = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    conn.ping()
    conn.flushdb()
    return REDIS_URL


def test_a_worker_rides_out_a_postgresql_outage(tmp_path: Path, shared_redis: str, monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    from ledger.factory import open_store

    caplog.set_level(logging.INFO)
    pg = PostgresServer()
    pg.start()
    open_store(pg.url, upgrade=True).close()  # the owner's `warlog db upgrade`
    monkeypatch.setenv("WARLOG_ALLOW_SUPERUSER", "1")  # this private cluster has only its superuser
    app = create_app({"TESTING": True, "WARLOG_DB": pg.url, "WARLOG_REDIS": shared_redis})
    worker = _start_worker(pg.url, shared_redis, tmp_path, "pgw", "--sweep-interval", "1",
                           WARLOG_FAULT_DELAY_BEFORE_APPEND="2")
    try:
        game = _new(app)
        seq = _submit(game)
        _wait_for_text(tmp_path / "pgw.log", "resolve_game")
        pg.stop()  # in the middle of the job, before its append
        for _ in range(2):  # the web process: a clear 503, not a 500
            r = game.client.get(f"/api/v1/games/{game.id}")
            assert r.status_code == 503, (r.status_code, r.get_data(as_text=True)[:300])
            assert "ledger" in r.get_json()["error"] and r.headers.get("Retry-After")
        time.sleep(3)
        assert worker.poll() is None, (tmp_path / "pgw.log").read_text()[-3000:]
        pg.start()
        assert _wait_judged(game, seq, 30) == "resolved"
        assert worker.poll() is None
    finally:
        _stop(worker)
        app.extensions["warlog"].store.close()
        pg.remove()
    log = (tmp_path / "pgw.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    assert "s3cret-pw" not in log and "s3cret-pw" not in caplog.text, "the password is masked"
    assert len(_outage_lines(caplog, "ledger")) == 1, [r.getMessage() for r in caplog.records]


def test_a_worker_killed_with_minus_9_restarts_under_its_name_at_once(pg_url: str, own_redis: RedisServer,
                                                                      tmp_path: Path) -> None:
    """Found by bench/chaos_soak.py: a worker killed with SIGKILL leaves its RQ registration
    behind, and its restart under the same --name died with RQ's "There exists an active worker
    named ... already" traceback for minutes, so nothing swept at restart. The restart clears
    the dead process's registration and judges at once; a live namesake is refused in words."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    first = _start_worker(pg_url, own_redis.url, tmp_path, "same", "--sweep-interval", "600")
    second = None
    try:
        _wait_for_text(tmp_path / "same.log", "Listening on")
        twin = _start_worker(pg_url, own_redis.url, tmp_path, "twin", "--name", "same")  # while it lives
        assert twin.wait(timeout=60) == 2
        assert "a live worker named 'same' is registered" in (tmp_path / "twin.log").read_text()
        assert "Traceback" not in (tmp_path / "twin.log").read_text()
        first.kill()
        first.wait()
        game = _new(app)
        seq = _submit(game)  # queued while no worker runs
        second = _start_worker(pg_url, own_redis.url, tmp_path, "same", "--sweep-interval", "600")
        assert _wait_judged(game, seq, 20) == "resolved"
        assert second.poll() is None
    finally:
        for proc in (first, second):
            if proc is not None:
                _stop(proc)
        app.extensions["warlog"].store.close()
    log = (tmp_path / "same.log").read_text()
    assert "There exists an active worker" not in log and "cleared the registration left by pid" in log, log[-3000:]


def test_a_worker_started_while_postgresql_restarts_waits_for_it_and_starts(own_redis: RedisServer,
                                                                           tmp_path: Path) -> None:
    """Found by bench/chaos_soak.py: a worker (re)started just before PostgreSQL went down met
    the outage in its first queries (the services' schema check), raised, and hung half-dead
    without ever judging. It now waits for the ledger with a back-off, then starts."""
    from ledger.factory import open_store

    pg = PostgresServer()
    pg.start()
    open_store(pg.url, upgrade=True).close()
    worker = _start_worker(pg.url, own_redis.url, tmp_path, "early", WARLOG_ALLOW_SUPERUSER="1",
                           WARLOG_FAULT_DELAY_BEFORE_SERVICES="3")  # held before its services' first query
    try:
        _wait_for_text(tmp_path / "early.log", "judging:", timeout=60)
        pg.stop()  # before the worker's first query of its services (it waits 3 s after the banner)
        time.sleep(4)
        pg.start()
        _wait_for_text(tmp_path / "early.log", "Listening on", timeout=60)
        _wait_for_text(tmp_path / "early.log", "the ledger is back", timeout=30)
        assert worker.poll() is None
    finally:
        _stop(worker)
        pg.remove()
    log = (tmp_path / "early.log").read_text()
    assert "Traceback" not in log and "the ledger is back" in log, log[-3000:]


def _still_pending(p: Player, seq: int, seconds: float) -> bool:
    """Whether submission `seq` stays pending for `seconds` (nothing is about to judge it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if p.client.get(f"/api/v1/games/{p.id}/moves/{seq}").get_json().get("status", "pending") != "pending":
            return False
        time.sleep(0.2)
    return True


def test_a_move_recorded_but_never_queued_is_judged_as_soon_as_a_web_process_starts(
        pg_url: str, own_redis: RedisServer, tmp_path: Path) -> None:
    """Found by bench/chaos_soak.py: gunicorn killed after recording a move and before queueing
    it left the move pending until a worker's next periodic sweep (every 30 s). A web process in
    RQ mode sweeps as it starts, so the restarted web process queues it at once."""
    killed = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    worker = _start_worker(pg_url, own_redis.url, tmp_path, "idle", "--sweep-interval", "600")
    restarted = None
    try:
        _wait_for_text(tmp_path / "idle.log", "Listening on", timeout=60)
        time.sleep(1)  # its sweep at start is over: its next one is 600 s away
        game = _new(killed)
        killed.extensions["warlog"].enqueue = lambda game_id: None  # recorded, then killed before queueing
        seq = _submit(game)
        assert _still_pending(game, seq, 3), "nothing else queues it"
        restarted = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
        assert _wait_judged(game, seq, 20) == "resolved"
    finally:
        _stop(worker)
        for app in (killed, restarted):
            if app is not None:
                app.extensions["warlog"].store.close()


def test_an_idle_worker_sweeps_as_soon_as_redis_comes_back_empty(pg_url: str, own_redis: RedisServer,
                                                                tmp_path: Path) -> None:
    """Found by bench/chaos_soak.py: a worker waiting for a job rode a Redis outage out in RQ's
    own loop, and a Redis that came back empty had lost the jobs queued before it died; nothing
    swept until the worker's next periodic sweep. It now sweeps as soon as Redis answers."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    worker = _start_worker(pg_url, own_redis.url, tmp_path, "idle", "--sweep-interval", "600")
    try:
        _wait_for_text(tmp_path / "idle.log", "Listening on", timeout=60)
        time.sleep(1)  # its sweep at start is over: its next one is 600 s away
        game = _new(app)
        os.kill(worker.pid, signal.SIGSTOP)  # so that it cannot take the job before Redis dies
        try:
            seq = _submit(game)  # queued in Redis
            own_redis.kill()
            own_redis.start()  # back, empty: the job is gone; only the ledger knows
        finally:
            os.kill(worker.pid, signal.SIGCONT)
        assert _wait_judged(game, seq, 20) == "resolved"
        assert worker.poll() is None
    finally:
        _stop(worker)
        app.extensions["warlog"].store.close()
    log = (tmp_path / "idle.log").read_text()
    assert "Traceback" not in log and "unreachable" in log, log[-3000:]


def test_a_worker_restarts_under_a_name_whose_registration_a_heartbeat_rebuilt(pg_url: str, own_redis: RedisServer,
                                                                              tmp_path: Path) -> None:
    """Found by bench/chaos_soak.py: after Redis restarted empty, a surviving worker's heartbeat
    put back only RQ's heartbeat fields of its registration (no pid, no host); the worker was
    then killed, and its restart took that fragment for a live worker of another host and
    exited ("a live worker named ... (pid 0 on an unknown host)"): one worker fewer for minutes."""
    conn = redis.Redis.from_url(own_redis.url)
    conn.hset("rq:worker:frag", "last_heartbeat", "2026-11-24T14:51:40.000000Z")  # what the heartbeat leaves
    conn.expire("rq:worker:frag", 420)
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": own_redis.url})
    worker = _start_worker(pg_url, own_redis.url, tmp_path, "frag", "--sweep-interval", "600")
    try:
        game = _new(app)
        seq = _submit(game)
        assert _wait_judged(game, seq, 30) == "resolved", (tmp_path / "frag.log").read_text()[-2000:]
        assert worker.poll() is None
    finally:
        _stop(worker)
        app.extensions["warlog"].store.close()
    log = (tmp_path / "frag.log").read_text()
    assert "a live worker named" not in log and "cleared a registration without pid or host" in log, log[-3000:]
