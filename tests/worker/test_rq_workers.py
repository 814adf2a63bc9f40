"""Real RQ worker processes against the real Redis and PostgreSQL: a full game, a worker
killed in the middle of a job, racing submissions, two workers on one game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Player
from warlog.app import create_app

ROOT = Path(__file__).resolve().parents[2]


class Workers:
    def __init__(self, db: str, redis_url: str, tmp: Path) -> None:
        self.db, self.redis_url, self.tmp = db, redis_url, tmp
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, **env: str) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "wb")
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "worker.py"), "--db", self.db, "--redis", self.redis_url,
             "--sweep-interval", "1", "--name", f"{name}-{uuid.uuid4().hex[:6]}"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin", **env},
        )
        self.procs.append(proc)
        return proc

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.fixture
def rq_app(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Any, Workers]]:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": redis_url})
    workers = Workers(pg_url, redis_url, tmp_path)
    yield app, workers
    workers.stop()
    app.extensions["warlog"].store.close()


def _new(app: Any) -> Player:
    client = app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def _judgements(p: Player) -> list[dict[str, Any]]:
    events = p.client.get(f"/api/v1/games/{p.id}/events", headers=p.auth("director")).get_json()["events"]
    return [e for e in events if e["type"] in ("resolved", "rejected")]


@pytest.mark.slow
def test_two_real_workers_resolve_a_full_game(rq_app) -> None:
    app, workers = rq_app
    workers.start("w1")
    workers.start("w2")
    p = _new(app)
    for _ in range(300):
        info = p.info()
        if info["status"] == "ended":
            break
        res = p.play(info["active_seats"][0], {"type": "roll"})
        assert res["status"] == "resolved"
    assert p.info()["status"] == "ended"
    subs = [j["payload"]["submission_seq"] for j in _judgements(p)]
    assert subs == sorted(set(subs)), "each submission judged once, in ledger order"


@pytest.mark.slow
def test_worker_killed_mid_job_loses_nothing_and_resolves_once(rq_app) -> None:
    app, workers = rq_app
    slow = workers.start("slow", WARLOG_FAULT_DELAY_BEFORE_APPEND="30")
    p = _new(app)
    r = p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth("north"), json={
        "action": {"type": "roll"}, "expected_seq": p.info()["seq"], "idempotency_key": "k"})
    seq = r.get_json()["seq"]
    deadline = time.monotonic() + 20
    while b"resolve_game" not in (workers.tmp / "slow.log").read_bytes():
        assert time.monotonic() < deadline, "the slow worker never picked the job up"
        time.sleep(0.1)
    time.sleep(0.5)
    slow.kill()  # SIGKILL in the middle of the job, after judging, before appending
    slow.wait()
    assert p.client.get(f"/api/v1/games/{p.id}/moves/{seq}").get_json()["status"] == "pending"
    workers.start("rescuer")  # its sweeper finds the submission without a judgement
    p.wait(timeout=30)
    assert p.client.get(f"/api/v1/games/{p.id}/moves/{seq}").get_json()["status"] == "resolved"
    assert [j["payload"]["submission_seq"] for j in _judgements(p)] == [seq]


@pytest.mark.slow
def test_racing_submits_one_wins_the_rest_conflict(rq_app) -> None:
    app, workers = rq_app
    p = _new(app)
    expected = p.info()["seq"]
    codes: list[int] = []
    barrier = threading.Barrier(8)

    def submit(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        r = client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth("north"), json={
            "action": {"type": "roll"}, "expected_seq": expected, "idempotency_key": f"racer-{i}"})
        codes.append(r.status_code)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [202] + [409] * 7
    workers.start("w")
    p.wait()
    assert len(_judgements(p)) == 1


@pytest.mark.slow
def test_real_workers_resolve_a_whole_game_of_assault_on_belgium(rq_app) -> None:
    from tests.assault_on_belgium.api_bot import Bot
    from warlog.trust.verify import verify_bytes

    app, workers = rq_app
    workers.start("w1")
    workers.start("w2")
    client = app.test_client()
    r = client.post("/api/v1/games", json={"game": "assault-on-belgium", "scenario": "may-1940"})
    p = Player(client, app, r.get_json())
    p.join_all()
    bot = Bot(p)
    info = bot.play()
    assert info["status"] == "ended"
    assert {"battle", "land_round", "victory"} <= bot.features
    report = verify_bytes(client.get(f"/api/v1/games/{p.id}/export").get_data())
    assert report.seed_revealed and report.judgements == bot.moves
