"""A refusal shown on a page follows the page's language; the API's JSON keeps its English
message whatever the Accept-Language (a client may match it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.players.conftest import close_app, make_app

JA = {"Accept-Language": "ja"}


@pytest.fixture
def app(tmp_path: object) -> Iterator[Flask]:
    a = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3")
    yield a
    close_app(a)


def test_a_pages_refusal_in_japanese_and_the_apis_in_english(app: Flask) -> None:
    players = app.extensions["warlog_players"]
    director = players.register("監督", "td@example.org")
    client = app.test_client()
    r = client.post("/api/v1/tournaments", json={"name": "冬の大会", "game": "assault-on-belgium",
                                                 "format": {"kind": "swiss", "rounds": 1}},
                    headers={"Authorization": f"Bearer {players.issue_token(director.id)}"})
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    page = client.get(f"/tournaments/{tid}/desk", headers=JA)  # nobody signed in: not the director
    assert page.status_code == 403
    html = page.get_data(as_text=True)
    assert "ディレクター画面は大会のディレクター専用です。ディレクターとしてサインインしてください。" in html, html
    assert "Sign in as the director" not in html
    fork = client.get("/games/nosuchgame/fork/1", headers=JA)
    assert fork.status_code == 404 and 'lang="ja"' in fork.get_data(as_text=True)
    api = client.post(f"/api/v1/tournaments/{tid}/register", headers=JA)
    assert api.status_code == 401 and api.get_json()["error"] == "sign in to register"
