""""Your turn", "game ended" and "ruling" notices from the worker, by real SMTP, in the embedded
app and through real RQ worker processes; a move is never blocked by a mail server that is down
(notifications)."""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Player as Driver
from tests.notify.conftest import Smtp, free_port, subject_of
from tests.players.conftest import close_app, make_app, settle
from tests.worker.test_rq_workers import Workers


def _owned_game(app: Flask) -> tuple[Driver, dict[str, str]]:
    """A dice-duel whose two seats belong to two players: (driver, seat -> player id)."""
    client = app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    game = Driver(client, app, r.get_json())
    players = app.extensions["warlog_players"]
    owners = {}
    for seat in sorted(game.created["seats"]):
        p = players.register(seat.title(), f"{seat}@example.org")
        players.claim_seat(game.id, seat, p.id)
        owners[seat] = p.id
    game.join_all()
    return game, owners


def _subjects(smtp: Smtp, to: str) -> list[str]:
    return [subject_of(m) for m in smtp.messages if m["To"] == to]


@pytest.fixture
def smtp_app(db_url: str, smtp: Smtp) -> Iterator[Flask]:
    app = make_app(db_url, WARLOG_SMTP_URL=smtp.url, WARLOG_PUBLIC_URL="https://warlog.example")
    yield app
    close_app(app)


def test_your_turn_at_the_start_then_after_each_pass_then_game_ended_by_smtp(smtp_app: Flask, smtp: Smtp) -> None:
    game, _ = _owned_game(smtp_app)
    first = game.info()["active_seats"][0]
    other = "south" if first == "north" else "north"
    settle(smtp_app)
    [start] = smtp.wait_for(1)  # the game started: the first mover is told
    assert start["To"] == f"{first}@example.org"
    # the game and scenario by their titles, the game's id at the end and in a header (for filters)
    assert subject_of(start) == f"Your turn: Dice Duel (test game) — First to 10 [{game.id}]", subject_of(start)
    assert start["X-Warlog-Game"] == game.id
    start_subject = subject_of(start)
    game.play(first, {"type": "roll"})  # a roll keeps the turn (or loses it on a 1)
    settle(smtp_app)
    if game.info()["active_seats"] == [first]:
        assert len(smtp.messages) == 1  # still the same seat's turn: no new mail
        game.play(first, {"type": "bank"})  # banks and passes the turn
        settle(smtp_app)
    msg = smtp.wait_for(2)[1]
    assert msg["To"] == f"{other}@example.org" and subject_of(msg) == start_subject
    assert f"https://warlog.example/games/{game.id}" in msg.get_payload(decode=True).decode()
    # a director's award ends the game: both owners hear of the ruling's end
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                         json={"kind": "award", "winner": first, "result": "win", "reason": "opponent resigned"})
    assert r.status_code == 202, r.get_json()
    game.wait()
    settle(smtp_app)
    smtp.wait_for(4)
    for seat in (first, other):
        assert f"Game ended: Dice Duel (test game) — First to 10 [{game.id}]" in _subjects(smtp, f"{seat}@example.org")


@pytest.mark.slow
def test_open_games_without_owners_send_nothing(smtp_app: Flask, smtp: Smtp, new_game: Any) -> None:
    client = smtp_app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    game = Driver(client, smtp_app, r.get_json())
    game.join_all()
    game.play(game.info()["active_seats"][0], {"type": "bank"})
    settle(smtp_app)
    assert smtp.messages == []
    assert smtp_app.extensions["warlog_notifier"].deliveries() == []


def test_a_dead_mail_server_never_blocks_a_move(db_url: str) -> None:
    app = make_app(db_url, WARLOG_SMTP_URL=f"smtp://127.0.0.1:{free_port()}")
    try:
        game, owners = _owned_game(app)
        first = game.info()["active_seats"][0]
        res = game.play(first, {"type": "bank"})
        assert res["status"] == "resolved"
        assert game.info()["active_seats"] != [first]
        settle(app)
        failed = app.extensions["warlog_notifier"].failed()
        assert [f.kind for f in failed] == ["your_turn", "your_turn"]  # at the start, and after the pass
        assert all(f.status == "retrying" and "SMTP" in (f.last_error or "") for f in failed)
        assert {f.player_id for f in failed} == set(owners.values())
    finally:
        close_app(app)


class _Monitor:
    """Redis's MONITOR of the test database, kept for a failure: every command that names the
    notification queue or a delivery's job, with the client's port (CLIENT LIST names the port)."""

    def __init__(self, url: str) -> None:
        import redis

        self.conn = redis.Redis.from_url(url)
        self.db = self.conn.connection_pool.connection_kwargs.get("db", 0)
        self.seen: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        self.ready.wait(5)

    def _run(self) -> None:
        try:
            with self.conn.monitor() as m:
                self.ready.set()
                for cmd in m.listen():
                    text = str(cmd.get("command", ""))
                    if cmd.get("db") == self.db and ("warlog-notify" in text or "deliver" in text):
                        self.seen.append(f"{cmd['time']:.3f} :{cmd.get('client_port')} {text[:160]}")
        except Exception as err:  # the test's end closes the connection
            self.seen.append(f"monitor ended: {err}")

    def report(self) -> str:
        clients = [(c.get("port") or c.get("addr"), c.get("name"), c.get("cmd"), c.get("db"))
                   for c in self.conn.client_list()]
        # from the first: the start's notice is queued before the worker starts (the last 80 lines
        # a whole run printed began after it, with the worker's start)
        return "redis commands:\n" + "\n".join(self.seen[:400]) + f"\nclients: {clients}"


class _WebLog(logging.Handler):
    """The warnings and errors the test's own process logs (the web app's: a notice it could not
    queue is logged, and left to the sweep), kept for the report."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []
        logging.getLogger().addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.created:.3f} {record.name}: {record.getMessage()}"
                            + (f" ({record.exc_info[1]!r})" if record.exc_info and record.exc_info[1] else ""))

    def close(self) -> None:
        logging.getLogger().removeHandler(self)
        super().close()


def _what_happened(app: Flask, tmp_path: Path, monitor: _Monitor | None = None) -> str:
    """For a failure: the deliveries recorded (whose, status, error), the notification queue's jobs
    waiting and failed, Redis's commands on the queue, and the worker's log."""
    from rq.registry import FailedJobRegistry, FinishedJobRegistry

    from warlog.notify.jobs import notify_queue

    rows = [(d.id, d.kind, d.player_id, d.status, d.attempts, d.last_error) for d in
            app.extensions["warlog_notifier"].deliveries()]
    q = notify_queue(app.extensions["warlog_queue"].redis)
    failed = FailedJobRegistry(queue=q)
    finished = [(j, (job.args, job.worker_name) if (job := q.fetch_job(j)) else None)
                for j in FinishedJobRegistry(queue=q).get_job_ids()]
    return (f"deliveries: {rows}\nnotify jobs waiting: {q.job_ids}\nfinished: {finished}\nfailed: "
            f"{[(j, (q.fetch_job(j).latest_result() or None)) for j in failed.get_job_ids()]}\n"
            + (monitor.report() + "\n" if monitor else "") + (tmp_path / "notify.log").read_text())


@pytest.mark.slow
def test_real_rq_worker_sends_your_turn(pg_url: str, smtp: Smtp, tmp_path: Path) -> None:
    """Through Redis + RQ: the worker process judges the move, records the notice and sends it. The
    start's notice, recorded by the web process, once never reached the worker's queue (cause not
    found); the worker's sweep now queues such a notice again, and this test warns with Redis's
    commands on the queue when it had to."""
    import redis

    from tests.conftest import REDIS_URL

    redis.Redis.from_url(REDIS_URL).flushdb()
    monitor = _Monitor(REDIS_URL)
    said = _WebLog()  # this process's warnings and errors (a failed enqueue is logged, not raised)
    app = make_app(pg_url, WARLOG_REDIS=REDIS_URL)
    workers = Workers(pg_url, REDIS_URL, tmp_path)
    try:
        workers.start("notify", WARLOG_SMTP_URL=smtp.url)
        game, _ = _owned_game(app)
        first = game.info()["active_seats"][0]
        other = "south" if first == "north" else "north"
        game.play(first, {"type": "bank"})
        deadline = time.monotonic() + 30
        while len(smtp.messages) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        # the start's notice (recorded by the web process) and the pass's (by the worker), both sent by the worker
        assert sorted(m["To"] for m in smtp.messages) == sorted([f"{first}@example.org", f"{other}@example.org"]), \
            f"{_what_happened(app, tmp_path, monitor)}\nthe web process said: {said.records}"
        notifier = app.extensions["warlog_notifier"]
        while any(d.status != "sent" for d in notifier.deliveries()) and time.monotonic() < deadline:
            time.sleep(0.05)  # the worker records "sent" just after the server took the mail
        assert [(d.status, d.kind) for d in notifier.deliveries()] == [("sent", "your_turn")] * 2
        if "whose job was lost" in (tmp_path / "notify.log").read_text():  # sent, by the sweep: say how it was lost
            warnings.warn(f"a notice's job was lost and queued again by the sweep:\n{_what_happened(app, tmp_path, monitor)}"
                          f"\nthe web process said: {said.records}", stacklevel=1)
    finally:
        said.close()
        workers.stop()
        monitor.conn.close()
        app.extensions["warlog"].store.close()


@pytest.mark.slow
def test_a_ruling_tells_every_owner_and_a_refused_ruling_nobody(smtp_app: Flask, smtp: Smtp) -> None:
    game, _ = _owned_game(smtp_app)
    settle(smtp_app)
    before = len(smtp.wait_for(1))
    first = game.info()["active_seats"][0]
    res = game.play(first, {"type": "roll"})
    target = res["event_seq"]
    bad = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                           json={"kind": "void", "target": 0, "reason": "not a resolution"})
    assert bad.status_code == 202
    game.wait()
    settle(smtp_app)
    rulings = [m for m in smtp.messages if m["Subject"].startswith("A ruling")]
    assert rulings == []  # the refused ruling changed nothing: nobody is told
    ok = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                          json={"kind": "void", "target": target, "reason": "misclick"})
    assert ok.status_code == 202
    game.wait()
    settle(smtp_app)
    smtp.wait_for(before + 2)
    told = sorted(m["To"] for m in smtp.messages if m["Subject"].startswith("A ruling"))
    assert told == ["north@example.org", "south@example.org"]
