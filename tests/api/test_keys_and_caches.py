"""Hidden information, the smaller holes: an idempotency key is its seat's own (unique per game, seat and
key, and never shown to anyone else), and what a seat reads is private to caches."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Player
from tests.pages.secret_game import install as install_secret


@pytest.fixture
def secret(new_game: Any) -> Player:
    install_secret()
    return new_game("secret-test", "only")


def test_hidden_information_an_opponent_cannot_take_a_seats_predictable_key(secret: Player) -> None:
    """Keys are per seat: the same key sent by two seats is two moves, never one seat's move
    answered as the other's duplicate. (A seat can no longer send anything out of turn — the API
    refuses it with 409 — so south uses north's key in its own turn, after north.)"""
    c, url = secret.client, f"/api/v1/games/{secret.id}/moves"
    north = c.post(url, headers=secret.auth("north"), json={
        "action": {"type": "pass"}, "expected_seq": secret.info()["seq"], "idempotency_key": "turn-1"})
    assert north.status_code == 202 and north.get_json()["duplicate"] is False
    secret.wait()
    south = c.post(url, headers=secret.auth("south"), json={
        "action": {"type": "peek"}, "expected_seq": secret.info()["seq"], "idempotency_key": "turn-1"})
    assert south.status_code == 202 and south.get_json()["duplicate"] is False
    assert north.get_json()["seq"] != south.get_json()["seq"]
    secret.wait()
    mine = c.get(f"{url}/{south.get_json()['seq']}", headers=secret.auth("south")).get_json()
    assert mine["status"] == "resolved" and any("south's secret is" in f["text"] for f in mine["facts"])
    again = c.post(url, headers=secret.auth("south"), json={
        "action": {"type": "peek"}, "expected_seq": secret.info()["seq"], "idempotency_key": "turn-1"})
    assert again.get_json() == {**south.get_json(), "status": "duplicate", "duplicate": True}


def test_hidden_information_no_one_reads_another_seats_key(secret: Player) -> None:
    secret.play("north", {"type": "peek"}, key="north-key-peek")
    for who in ("south", None, "director"):
        headers = secret.auth(who) if who else {}
        events = secret.client.get(f"/api/v1/games/{secret.id}/events?after=-1", headers=headers).get_data(as_text=True)
        assert "north-key-peek" not in events
        for path in ("", "/audit", "/replay/5"):
            page = secret.client.get(f"/games/{secret.id}{path}", headers=headers).get_data(as_text=True)
            assert "north-key-peek" not in page
    export = secret.client.get(f"/api/v1/games/{secret.id}/export", headers=secret.auth("director"))
    assert "idempotency_key" not in export.get_data(as_text=True)  # the ledger keeps no key at all


@pytest.mark.parametrize("path", ["", "/events?after=-1", "/state", "/state?at=3", "/actions"])
def test_hidden_information_api_answers_are_private_to_caches(secret: Player, path: str) -> None:
    r = secret.client.get(f"/api/v1/games/{secret.id}{path}", headers=secret.auth("north"))
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "private, no-store"
    assert {"cookie", "authorization"} <= {v.strip().lower() for v in r.headers["Vary"].split(",")}


@pytest.mark.parametrize("path", ["", "/audit", "/replay/3", "/export.jsonl"])
def test_hidden_information_seat_pages_are_private_to_caches(app: Any, secret: Player, path: str) -> None:
    browser = app.test_client()
    browser.set_cookie(f"warlog_seat_{secret.id}", secret.created["seats"]["north"])
    r = browser.get(f"/games/{secret.id}{path}")
    assert r.status_code in (200, 403), r.status_code
    assert r.headers["Cache-Control"] == "private, no-store"
    assert {"cookie", "authorization"} <= {v.strip().lower() for v in r.headers["Vary"].split(",")}
    assert "Cookie" in json.dumps(dict(r.headers))


@pytest.mark.parametrize("vary", [None, "Accept-Language", "cookie", "Accept-Encoding, Authorization"])
def test_private_adds_cookie_and_authorization_to_vary_as_the_header_set_does(vary: str | None) -> None:
    """`private` sets the Vary header at once when there is none: the same header as adding each name."""
    from flask import Response

    from warlog.web.pageutil import private

    ours, theirs = Response("x"), Response("x")
    if vary is not None:
        ours.headers["Vary"] = theirs.headers["Vary"] = vary
    theirs.vary.add("Cookie")
    theirs.vary.add("Authorization")
    assert private(ours).headers.get_all("Vary") == theirs.headers.get_all("Vary")
