"""Liveness means what it says: `/healthz` answers 503 when a restart might mend the process
(every request failing with an internal error for a while), and stays 200 through what a
restart cannot mend (a full disk, an unreachable database: readiness reports those)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Player
from warlog.app import create_app
from warlog.ops import health


def test_healthz_fails_when_every_request_fails_and_recovers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "FAILING_FOR", 0.0)  # the window, not the rule, is shortened
    monkeypatch.setattr(health, "FAILING", health.Failing())
    db = tmp_path / "warlog.sqlite3"
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{db}"})
    try:
        client = app.test_client()
        p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
        assert client.get("/healthz").status_code == 200
        with sqlite3.connect(db) as conn:  # a projection row that no code can read: each read is a bug's 500
            conn.execute("UPDATE games SET active_seats = 'not json' WHERE game_id = ?", (p.id,))
        for _ in range(health.FAILING_AFTER):
            assert client.get(f"/api/v1/games/{p.id}").status_code == 500
        live = client.get("/healthz")
        assert live.status_code == 503
        assert "all failed with an internal error" in live.get_json()["errors"][0]
        fresh = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        assert fresh.status_code == 201  # one request goes through: live again
        assert client.get("/healthz").status_code == 200
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
