"""Sign-in and creation cannot be abused: one address gets at most one sign-in mail every
WARLOG_SIGNIN_EVERY minutes, and asking again answers "sent recently" without error while the
link already sent keeps working (seven requests used to lock the address out for an hour);
every route that mails or creates is limited per client address (50 mails to 50 addresses
and 100 anonymous games went out in about a second)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import FakeNow, close_app, make_app, settle
from warlog.players.web import RECENT, SENT


@pytest.fixture
def tapp(tmp_path: object) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_CLIENT_LIMIT="5 per minute")
    yield app
    close_app(app)


def _mails(app: Flask, to: str) -> list[dict[str, Any]]:
    settle(app)
    return list(app.extensions["warlog_notifier"].outbox(to=to))


def test_repeated_link_requests_cannot_lock_an_address_out(tmp_path: object) -> None:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    try:
        clock = FakeNow()
        app.extensions["warlog_players"].now = clock
        attacker = app.test_client()
        answers = []
        for i in range(7):
            r = attacker.post("/api/v1/players/signin", json={"email": "ann@example.org"},
                              environ_base={"REMOTE_ADDR": f"198.51.100.{i}"})
            answers.append((r.status_code, r.get_json()["message"]))
        assert answers[0] == (202, SENT)
        assert set(answers[1:]) == {(202, RECENT)}
        mails = _mails(app, "ann@example.org")
        assert len(mails) == 1
        # the owner asks after the attacker: told a link was sent, and that link works
        r = app.test_client().post("/api/v1/players/signin", json={"email": "ann@example.org"})
        assert r.get_json()["message"] == RECENT
        secret = mails[0]["body"].split("/signin/")[1].split()[0]
        r = app.test_client().post(f"/api/v1/players/signin/{secret}", json={"display_name": "Ann"})
        assert r.status_code == 200, r.get_json()
        # minutes later (not an hour) a new link is sent
        clock.advance(minutes=5, seconds=1)
        r = app.test_client().post("/api/v1/players/signin", json={"email": "ann@example.org"})
        assert r.get_json()["message"] == SENT
        assert len(_mails(app, "ann@example.org")) == 2
    finally:
        close_app(app)


def test_the_signin_page_says_a_link_was_sent_recently(tapp: Flask) -> None:
    client = tapp.test_client()
    for expected in (SENT, RECENT):
        r = client.post("/signin", data={"csrf": csrf_of(client, "/signin"), "email": "bob@example.org"},
                        headers=ORIGIN)
        assert r.status_code == 200
        assert expected.split(",")[0].replace("'", "&#39;") in r.get_data(as_text=True)


def test_one_client_cannot_mail_fifty_addresses(tapp: Flask) -> None:
    client = tapp.test_client()
    codes = [client.post("/api/v1/players/signin", json={"email": f"p{i}@example.org"}).status_code
             for i in range(50)]
    assert codes[:5] == [202] * 5 and set(codes[5:]) == {429}
    settle(tapp)
    assert len(tapp.extensions["warlog_notifier"].outbox()) == 5
    r = client.post("/api/v1/players", json={"email": "x@example.org", "display_name": "X"})
    assert r.status_code == 429 and "Retry-After" in r.headers and "wait" in r.get_json()["error"]
    other = tapp.test_client()
    r = other.post("/api/v1/players/signin", json={"email": "z@example.org"}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert r.status_code == 202  # another client is not held up


def test_one_client_cannot_create_a_hundred_games(tapp: Flask) -> None:
    client = tapp.test_client()
    codes = [client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).status_code
             for _ in range(100)]
    assert codes.count(201) == 5 and codes.count(429) == 95
    r = client.post("/games", data={"csrf": csrf_of(client, "/"), "game": "dice-duel:short"}, headers=ORIGIN)
    assert r.status_code == 429 and "Traceback" not in r.get_data(as_text=True)
    assert client.get("/api/v1/games").status_code == 200  # reading is not limited


def test_a_deployment_is_limited_by_default(tmp_path: object) -> None:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3", TESTING=False)
    try:
        client = app.test_client()
        codes = [client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).status_code
                 for _ in range(21)]
        assert codes.count(201) == 20 and codes[-1] == 429
    finally:
        close_app(app)


def test_behind_a_proxy_the_forwarded_client_is_counted(tmp_path: object) -> None:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_CLIENT_LIMIT="2 per minute", WARLOG_PROXIES=1)
    try:
        client = app.test_client()
        for who in ("203.0.113.1", "203.0.113.2"):
            codes = [client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"},
                                 headers={"X-Forwarded-For": who}).status_code for _ in range(3)]
            assert codes == [201, 201, 429], (who, codes)
    finally:
        close_app(app)


def test_once_the_link_is_used_another_device_may_ask_at_once(tapp: Flask) -> None:
    from tests.players.conftest import sign_in

    sign_in(tapp, tapp.test_client(), "ann@example.org", "Ann")
    sign_in(tapp, tapp.test_client(), "ann@example.org")  # the phone, a minute later
    assert len(_mails(tapp, "ann@example.org")) == 2
