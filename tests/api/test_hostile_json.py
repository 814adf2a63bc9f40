"""Hostile JSON bodies: nesting deep enough to exhaust the parser's stack, and lone UTF-16
surrogates (`\\ud800`, not text, not storable), are a 400 with a reason on every JSON route and
on the pages' JSON form fields, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import Player

DEEP = "[" * 5000 + "]" * 5000
JUST_TOO_DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> Player:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def _post(client: FlaskClient, url: str, text: str, **headers: str) -> Any:
    return client.post(url, data=text, content_type="application/json", headers=headers)


def _refused_with_reason(r: Any, reason: str) -> None:
    assert r.status_code == 400, (r.status_code, r.get_data(as_text=True)[:300])
    assert reason in r.get_json()["error"], r.get_json()


def _routes(game: Player) -> list[tuple[str, dict[str, str]]]:
    seat = game.info()["active_seats"][0]
    return [
        ("/api/v1/games", {}),
        (f"/api/v1/games/{game.id}/moves", game.auth(seat)),
        (f"/api/v1/games/{game.id}/join", game.auth(seat)),
        (f"/api/v1/games/{game.id}/rulings", game.auth("director")),
        (f"/api/v1/games/{game.id}/fork", game.auth("director")),
        (f"/api/v1/games/{game.id}/clock", game.auth("director")),
        ("/api/v1/players", {}),
        ("/api/v1/players/signin", {}),
        ("/api/v1/tournaments", {}),
    ]


@pytest.mark.parametrize("nesting", [DEEP, JUST_TOO_DEEP])
@pytest.mark.slow
def test_deeply_nested_json_is_a_400_on_every_json_route(game: Player, nesting: str) -> None:
    for url, auth in _routes(game):
        for body in (nesting, '{"game": "dice-duel", "scenario": "short", "options": ' + nesting + "}",
                     '{"action": ' + nesting + ', "expected_seq": 0, "idempotency_key": "k"}'):
            _refused_with_reason(_post(game.client, url, body, **auth), "nested more than")
    assert game.info()["pending"] is False  # nothing recorded


def test_a_lone_surrogate_in_an_idempotency_key_is_a_400(game: Player) -> None:
    seat = game.info()["active_seats"][0]
    body = '{"action": {"type": "roll"}, "expected_seq": SEQ, "idempotency_key": "a\\ud800b"}'
    body = body.replace("SEQ", str(game.info()["seq"]))
    r = _post(game.client, f"/api/v1/games/{game.id}/moves", body, **game.auth(seat))
    _refused_with_reason(r, "lone surrogate")
    assert "idempotency_key" in r.get_json()["error"]
    assert game.info()["pending"] is False


def test_a_lone_surrogate_anywhere_is_a_400_on_every_json_route(game: Player) -> None:
    for url, auth in _routes(game):
        for body in ('{"email": "a\\udfff@example.org"}', '{"x\\ud800": 1}', '["\\ud800"]'):
            _refused_with_reason(_post(game.client, url, body, **auth), "lone surrogate")


def test_a_deep_json_form_field_on_a_page_is_a_400(game: Player) -> None:
    seat = game.info()["active_seats"][0]
    client = game.client
    client.set_cookie(f"warlog_seat_{game.id}", game.created["seats"][seat])
    client.get(f"/games/{game.id}")
    csrf = client.get_cookie("warlog_csrf").value
    r = client.post(f"/games/{game.id}/act", data={"action": DEEP, "expected_seq": "0", "csrf": csrf},
                    headers={"Origin": "http://localhost"})
    assert r.status_code == 400, r.status_code
    assert "Traceback" not in r.get_data(as_text=True)


def test_ordinary_bodies_still_work(game: Player) -> None:
    seat = game.info()["active_seats"][0]
    out = game.play(seat, {"type": "roll"})
    assert out["seq"] >= 1, out
