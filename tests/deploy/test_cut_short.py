"""An owner cutting a game short is refused, loudly: on PostgreSQL, the owner turns the
append-only triggers off and deletes a game's last events (the games row put back to match).
The server checks its ledger against its transparency log's entries at start and periodically
(warlog.trust.tlog.check_heads), and a game whose chain no longer extends the last head the log
recorded of it is answered 503 with why, on the API and on its pages, and logged CRITICAL; the
other games are served, and the log's proofs stay readable for auditors."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg import sql

from ledger.logstore import sync
from tests.conftest import PG_URL, Player
from warlog.app import create_app
from warlog.trust.tlog import check_heads


def _play(app: Any) -> Player:
    client = app.test_client()
    p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
    p.join_all()
    for _ in range(3):
        info = p.info()
        if info["status"] == "ended":
            break
        p.play(info["active_seats"][0], {"type": "roll"})
    return p


def _close(app: Any) -> None:
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog_log_watch_stop"].set()
    app.extensions["warlog"].store.close()


def _cut_short(schema: str, game_id: str, keep: int) -> None:
    """What an owner (here the superuser) can do: triggers off, the last events deleted."""
    with psycopg.connect(PG_URL, autocommit=True) as conn, conn.transaction():
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(schema)))
        conn.execute("DELETE FROM events WHERE game_id = %s AND seq > %s", (game_id, keep))
        conn.execute("UPDATE games SET last_seq = %s, status = 'active' WHERE game_id = %s", (keep, game_id))


@pytest.mark.slow
def test_a_game_cut_short_under_the_server_is_refused_loudly(pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        cut, kept = _play(app), _play(app)
        store = app.extensions["warlog"].store
        sync(store)  # the sweeper logs the games' heads
        head = cut.info()["seq"]
        schema = pg_url.rsplit("%3D", 1)[1]
        _cut_short(schema, cut.id, head - 2)
        assert cut.client.get(f"/api/v1/games/{cut.id}").status_code == 200  # not yet checked

        with caplog.at_level("CRITICAL"):
            refused = check_heads(app)  # what the periodic check runs
        assert list(refused) == [cut.id]
        assert any(r.levelname == "CRITICAL" and cut.id in r.getMessage() for r in caplog.records)
        api = cut.client.get(f"/api/v1/games/{cut.id}")
        assert api.status_code == 503
        assert f"no longer extends what the transparency log recorded of it (event {head}" in api.get_json()["error"]
        page = cut.client.get(f"/games/{cut.id}")
        assert page.status_code == 503 and "transparency log" in page.get_data(as_text=True)
        move = cut.client.post(f"/api/v1/games/{cut.id}/moves", headers=cut.auth(next(iter(cut.created["seats"]))),
                               json={"action": {"type": "roll"}, "expected_seq": head - 2, "idempotency_key": "k"})
        assert move.status_code == 503
        proof = cut.client.get(f"/api/v1/log/proof/{cut.id}")  # auditors still read the log (here it has no key)
        assert "no longer extends" not in proof.get_data(as_text=True)
        assert kept.client.get(f"/api/v1/games/{kept.id}").status_code == 200
    finally:
        _close(app)

    again = create_app({"TESTING": True, "WARLOG_DB": pg_url})  # and at start
    try:
        assert again.test_client().get(f"/api/v1/games/{cut.id}").status_code == 503
        assert again.test_client().get(f"/api/v1/games/{kept.id}").status_code == 200
    finally:
        _close(again)


@pytest.mark.slow
def test_a_game_cut_short_with_its_log_entries_is_refused_with_every_game(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The owner also deletes the log's tail (entries and stored subtrees): the log no longer
    extends the tree this server saw, and no game is served until it does again."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        cut, kept = _play(app), _play(app)
        store = app.extensions["warlog"].store
        sync(store)
        assert check_heads(app) == {}  # the server sees the log
        schema = pg_url.rsplit("%3D", 1)[1]
        with psycopg.connect(PG_URL, autocommit=True) as conn, conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(schema)))
            (first,) = conn.execute("SELECT MIN(idx) FROM transparency_log WHERE game_id = %s AND kind = 'head'",
                                    (cut.id,)).fetchone()
            conn.execute("DELETE FROM transparency_log WHERE idx >= %s", (first,))
            conn.execute("DELETE FROM transparency_nodes WHERE (idx + 1) * (1::bigint << level) > %s", (first,))
        _cut_short(schema, cut.id, 2)

        with caplog.at_level("CRITICAL"):
            refused = check_heads(app)
        assert "fewer than" in refused["*"], refused
        assert any("REFUSING TO SERVE EVERY GAME" in r.getMessage() for r in caplog.records)
        for game in (cut, kept):
            r = game.client.get(f"/api/v1/games/{game.id}")
            assert r.status_code == 503 and "transparency log" in r.get_json()["error"]
    finally:
        _close(app)
