"""A NUL byte (0x00) in any path, query or body field is a 4xx on
PostgreSQL (whose text cannot hold it), never a 500 — on every route and page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Player


@pytest.fixture
def pg_app(pg_url: str) -> Iterator[Flask]:
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    yield app
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


@pytest.fixture
def game(pg_app: Flask) -> Player:
    client = pg_app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    p = Player(client, pg_app, r.get_json())
    p.join_all()
    return p


def _clear_4xx(r: Any) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])
    assert "Traceback" not in r.get_data(as_text=True)


@pytest.mark.parametrize("url", [
    "/api/v1/games?game=%00", "/api/v1/games?status=%00", "/api/v1/games/%00", "/api/v1/games/a%00b/state",
    "/api/v1/games/a%00b/events", "/api/v1/games/%00/actions", "/api/v1/games/%00/moves/3",
    "/?game=%00", "/?status=%00", "/games/%00", "/games/a%00b/replay/0", "/games/%00/audit",
])
@pytest.mark.slow
def test_nul_in_a_path_or_query_is_a_4xx(pg_app: Flask, url: str) -> None:
    r = pg_app.test_client().get(url)
    _clear_4xx(r)
    if url.startswith("/api/"):
        assert "NUL" in r.get_json()["error"]
    else:
        assert "U+0000" in r.get_data(as_text=True)


def test_nul_in_an_idempotency_key_is_a_4xx(game: Player) -> None:
    seat = game.info()["active_seats"][0]
    r = game.client.post(f"/api/v1/games/{game.id}/moves", headers=game.auth(seat), json={
        "action": {"type": "roll"}, "expected_seq": game.info()["seq"], "idempotency_key": "a\u0000b"})
    _clear_4xx(r)
    assert "NUL" in r.get_json()["error"]
    assert game.info()["pending"] is False  # nothing was recorded


@pytest.mark.parametrize("ruling", [
    {"kind": "award", "result": "a\u0000b", "reason": "r"},
    {"kind": "award", "result": "draw", "winner": None, "reason": "r\u0000"},
    {"kind": "award", "result": "draw", "winner": None, "reason": "r", "idempotency_key": "\u0000"},
    {"kind": "adjust", "patch": [{"op": "replace", "path": "/turn\u0000", "value": 1}], "reason": "r"},
])
@pytest.mark.slow
def test_nul_in_a_ruling_field_is_a_4xx(game: Player, ruling: dict[str, Any]) -> None:
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"), json=ruling)
    _clear_4xx(r)


@pytest.mark.slow
def test_nul_in_a_join_entropy_or_a_create_field_is_a_4xx(game: Player, pg_app: Flask) -> None:
    seat = next(iter(game.created["seats"]))
    _clear_4xx(game.client.post(f"/api/v1/games/{game.id}/join", headers=game.auth(seat), json={"entropy": "\u0000"}))
    _clear_4xx(pg_app.test_client().post("/api/v1/games", json={"game": "dice-duel\u0000"}))
    _clear_4xx(pg_app.test_client().post("/api/v1/games", json={"game": "dice-duel", "options": {"\u0000": 1}}))


def test_nul_in_a_page_form_is_a_4xx(game: Player) -> None:
    r = game.client.post("/games", data={"game": "dice-duel\u0000", "scenario": "short"})
    _clear_4xx(r)
    assert "U+0000" in r.get_data(as_text=True)  # refused for the NUL, not for a missing CSRF token
