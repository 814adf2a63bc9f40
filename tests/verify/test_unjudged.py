"""An accepted move is judged or the game says so: an owner who deletes a row of `pending` by
hand leaves a submission that no worker looks for. `warlog verify` fails on an ended game with a
submission that has no judgement (naming its seq), and the sweep finds a running game's unjudged
submission from the games' projection, not only from `pending`, and gets it judged. On SQLite
and PostgreSQL."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask

from tests.conftest import Player
from warlog.app import create_app
from warlog.cli import main
from warlog.games.service import Warlog
from warlog.judging.queue import sweep
from warlog.trust.verify import VerifyFailure, verify_bytes


@pytest.fixture
def quiet_app(db_url: str) -> Iterator[Flask]:
    """A deployment (SQLite, PostgreSQL) with the in-process worker, its periodic sweep stopped
    (the test sweeps when it says so)."""
    app = create_app({"TESTING": True, "WARLOG_DB": db_url})
    app.extensions["warlog_sweeper_stop"].set()
    yield app
    app.extensions["warlog"].store.close()


def _delete_pending(app: Flask, game_id: str) -> None:
    """What the database's owner can do by hand (here the test's owner or superuser role)."""
    store = app.extensions["warlog"].store
    with store._write() as conn:
        conn.execute(store._sql("DELETE FROM pending WHERE game_id = ?"), (game_id,))


def _game(app: Flask) -> Player:
    client = app.test_client()
    p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
    p.join_all()
    return p


def _submit_then_delete_its_pending_row(app: Flask, p: Player, meanwhile: Any = None) -> int:
    """A seat's move accepted, and its `pending` row deleted by the owner before any worker ran
    (then `meanwhile()`, still before any worker runs)."""
    queue: Any = app.extensions["warlog_queue"]
    hold = threading.Event()
    queue.pool.submit(hold.wait)  # the in-process worker is busy: the move waits in its queue
    info = p.info()
    r = p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(info["active_seats"][0]), json={
        "action": {"type": "roll"}, "expected_seq": info["seq"], "idempotency_key": uuid.uuid4().hex})
    assert r.status_code == 202, r.get_json()
    _delete_pending(app, p.id)
    if meanwhile is not None:
        meanwhile()
    hold.set()
    queue.drain()
    return int(r.get_json()["seq"])


def test_verify_fails_on_an_ended_game_with_a_submission_never_judged(quiet_app: Flask, tmp_path: Path) -> None:
    p = _game(quiet_app)

    def director_ends_the_game() -> None:
        r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"), json={
            "kind": "award", "reason": "the club closes", "result": "ended by the director", "winner": "draw"})
        assert r.status_code == 202, r.get_json()

    lost = _submit_then_delete_its_pending_row(quiet_app, p, director_ends_the_game)
    p.wait()
    assert p.client.get(f"/api/v1/games/{p.id}/moves/{lost}").get_json()["status"] == "pending"
    assert p.info()["status"] == "ended"
    export = p.client.get(f"/api/v1/games/{p.id}/export").get_data()

    with pytest.raises(VerifyFailure) as failed:
        verify_bytes(export)
    assert failed.value.seq == lost
    assert f"submission {lost} was never judged" in failed.value.reason

    path = tmp_path / "export.jsonl"
    path.write_bytes(export)
    cli = CliRunner().invoke(main, ["verify", str(path)])
    assert cli.exit_code == 1 and f"event {lost}" in cli.output, cli.output


def test_a_running_game_with_an_unjudged_submission_verifies_with_a_note(quiet_app: Flask) -> None:
    p = _game(quiet_app)
    reports = []

    def verify_meanwhile() -> None:
        export = p.client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data()
        reports.append(verify_bytes(export))

    lost = _submit_then_delete_its_pending_row(quiet_app, p, verify_meanwhile)
    assert any(f"not judged yet (seq {lost})" in note for note in reports[0].notes), reports[0].notes


def test_the_sweep_finds_a_submission_missing_from_pending_and_gets_it_judged(
        quiet_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    p = _game(quiet_app)
    store = quiet_app.extensions["warlog"].store
    queue: Any = quiet_app.extensions["warlog_queue"]
    # A web process that recorded the move and died before it could queue a job for it ...
    dying = Warlog(store, enqueue=lambda game_id: None)
    info = p.info()
    seat = info["active_seats"][0]
    lost = dying.submit_move(p.id, p.created["seats"][seat], {"type": "roll"}, info["seq"], uuid.uuid4().hex)["seq"]
    # ... and an owner who deleted its row of `pending`: only the events say it is unjudged.
    _delete_pending(quiet_app, p.id)
    assert store.pending_games() == []
    with caplog.at_level("ERROR", logger="warlog.judging.queue"):
        found = sweep(store, queue.enqueue, queue.enqueue_many)
    assert found == [p.id]
    assert any("not in the ledger's pending set" in r.getMessage() for r in caplog.records)
    queue.drain()
    deadline = time.monotonic() + 30
    while p.client.get(f"/api/v1/games/{p.id}/moves/{lost}").get_json()["status"] == "pending":
        assert time.monotonic() < deadline, "the swept submission was not judged"
        time.sleep(0.05)
    assert sweep(store, queue.enqueue, queue.enqueue_many) == []


class _MoveAfterFirstRead:
    """The ledger's store, but `move()` runs right after the first read through it: a web
    process committing a move at that moment (found by bench/netsoak.py, whose slow links
    widen the moment)."""

    def __init__(self, store: Any, move: Any) -> None:
        self._store, self._move = store, move

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)

        def read(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            move, self._move = self._move, None
            if move is not None:
                move()
            return answer
        return read


def test_a_move_committed_while_the_sweep_reads_is_not_taken_for_one_missing_from_pending(
        quiet_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    p = _game(quiet_app)
    store = quiet_app.extensions["warlog"].store
    queue: Any = quiet_app.extensions["warlog_queue"]
    hold = threading.Event()
    queue.pool.submit(hold.wait)  # the in-process worker is busy: the move stays unjudged
    recorded = []

    def move() -> None:
        info = p.info()
        recorded.append(Warlog(store, enqueue=queue.enqueue).submit_move(
            p.id, p.created["seats"][info["active_seats"][0]], {"type": "roll"}, info["seq"], uuid.uuid4().hex))

    try:
        with caplog.at_level("ERROR", logger="warlog.judging.queue"):
            sweep(_MoveAfterFirstRead(store, move), queue.enqueue, queue.enqueue_many)
        assert recorded and store.pending_games() == [p.id]  # the move is in the ledger's pending set
        assert not [r.getMessage() for r in caplog.records if "pending set" in r.getMessage()]
    finally:
        hold.set()
        queue.drain()
