"""The JSON API acts on a signed-in browser's cookie only for requests from this site: another
site's page (another port of the same host is same-site, so the SameSite=Lax cookie goes along)
auto-submitting a form at the API is refused with a 403, and nothing is done; the same request
from this site's own pages (Origin, Sec-Fetch-Site, or the CSRF token header) and any request with
a bearer token work as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.players.conftest import close_app, make_app, sign_in

FOREIGN = {"Origin": "http://localhost:8001", "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate"}
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def capp(tmp_path: object) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    yield app
    close_app(app)


def _tournament(app: Flask) -> str:
    store = app.extensions["warlog_players"]
    director = store.register("Dee", "dee@example.org")
    r = app.test_client().post("/api/v1/tournaments", headers={"Authorization": f"Bearer {store.issue_token(director.id)}"},
                               json={"name": "Cup", "game": "dice-duel", "format": {"kind": "swiss", "rounds": 1}})
    assert r.status_code == 201, r.get_json()
    return str(r.get_json()["id"])


def _entrants(client: FlaskClient, tid: str) -> int:
    return int(client.get(f"/api/v1/tournaments/{tid}").get_json()["entrants"])


def _browser(app: Flask) -> FlaskClient:
    client = app.test_client()
    sign_in(app, client, "ann@example.org", "Ann")
    return client


def test_a_foreign_form_auto_post_with_the_session_cookie_is_refused(capp: Flask) -> None:
    tid = _tournament(capp)
    ann = _browser(capp)
    r = ann.post(f"/api/v1/tournaments/{tid}/register", data="", content_type=FORM, headers=FOREIGN)
    assert r.status_code == 403, r.get_json()
    assert "does not come from a Warlog page" in r.get_json()["error"]
    assert _entrants(ann, tid) == 0


@pytest.mark.parametrize("headers", [{}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Origin": "https://localhost"}, {"X-CSRF-Token": "guessed-token-000000000"}])
def test_no_origin_a_null_or_foreign_one_or_a_wrong_token_is_refused(capp: Flask, headers: dict[str, str]) -> None:
    tid = _tournament(capp)
    ann = _browser(capp)
    r = ann.post(f"/api/v1/tournaments/{tid}/register", json={}, headers=headers)
    assert r.status_code == 403, r.get_json()
    assert _entrants(ann, tid) == 0


@pytest.mark.parametrize("how", ["origin", "fetch-site", "token"])
def test_the_same_request_from_this_site_works(capp: Flask, how: str) -> None:
    tid = _tournament(capp)
    ann = _browser(capp)
    headers = {"origin": {"Origin": "http://localhost"}, "fetch-site": {"Sec-Fetch-Site": "same-origin"},
               "token": {"X-CSRF-Token": ann.get_cookie("warlog_csrf").value}}[how]
    r = ann.post(f"/api/v1/tournaments/{tid}/register", json={}, headers=headers)
    assert r.status_code == 200, r.get_json()
    assert _entrants(ann, tid) == 1


def test_the_page_flow_still_works(capp: Flask) -> None:
    """Register from the tournament page (a form with the CSRF field, same origin)."""
    from tests.pages.conftest import ORIGIN, csrf_of

    tid = _tournament(capp)
    ann = _browser(capp)
    r = ann.post(f"/tournaments/{tid}/register", data={"csrf": csrf_of(ann, f"/tournaments/{tid}")}, headers=ORIGIN)
    assert r.status_code in (200, 303), r.status_code
    assert _entrants(ann, tid) == 1


def test_a_bearer_token_from_anywhere_still_works(capp: Flask) -> None:
    tid = _tournament(capp)
    store = capp.extensions["warlog_players"]
    bob = store.register("Bob", "bob@example.org")
    client = capp.test_client()
    r = client.post(f"/api/v1/tournaments/{tid}/register", json={}, headers={
        "Authorization": f"Bearer {store.issue_token(bob.id)}", **FOREIGN})
    assert r.status_code == 200, r.get_json()


def test_anonymous_api_calls_without_cookies_are_untouched(capp: Flask) -> None:
    r = capp.test_client().post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"},
                                headers={"Origin": "http://elsewhere.example"})
    assert r.status_code == 201
