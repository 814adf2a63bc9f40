"""An accelerated Swiss (FIDE Baku acceleration, C.04.5.1) chosen on the create form and the API:
recorded in the format, told on the tournament page, refused for other formats; the casual engine
is labelled as not FIDE. Its pairings against bbpPairings: tests/tournaments/test_fide_dutch.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app, sign_in


@pytest.fixture
def aapp(tmp_path: object) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    yield app
    close_app(app)


def _director(app: Flask) -> dict[str, str]:
    store = app.extensions["warlog_players"]
    p = store.register("Dee", "dee@example.org")
    return {"Authorization": f"Bearer {store.issue_token(p.id)}"}


def test_an_accelerated_swiss_by_the_api_is_recorded_and_shown(aapp: Flask) -> None:
    client, auth = aapp.test_client(), _director(aapp)
    r = client.post("/api/v1/tournaments", headers=auth, json={
        "name": "Open", "game": "dice-duel", "format": {"kind": "swiss", "rounds": 7, "accelerated": True}})
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    doc = client.get(f"/api/v1/tournaments/{tid}").get_json()
    assert doc["format"]["accelerated"] is True and doc["format"]["feed"] == 3, doc["format"]
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Paired by the FIDE Dutch system (C.04.3), accelerated (Baku, C.04.5.1)." in page
    for bad, word in (({"kind": "knockout", "accelerated": True}, "Swiss"),
                      ({"kind": "swiss", "accelerated": "maybe"}, "accelerated")):
        r = client.post("/api/v1/tournaments", headers=auth, json={"name": "x", "game": "dice-duel", "format": bad})
        assert r.status_code == 422 and word in str(r.get_json()), r.get_json()


def test_the_form_offers_acceleration_and_labels_casual_as_not_fide(aapp: Flask) -> None:
    client = aapp.test_client()
    sign_in(aapp, client, "dee@example.org", "Dee")
    form = client.get("/tournaments").get_data(as_text=True)
    assert 'name="accelerated"' in form and "Baku acceleration, C.04.5.1" in form
    assert "casual — NOT FIDE" in form and "up to 48" not in form
    r = client.post("/tournaments", headers=ORIGIN, data={
        "csrf": csrf_of(client, "/tournaments"), "name": "Big Open", "game": "dice-duel:short",
        "kind": "swiss", "rounds": "7", "accelerated": "1"}, follow_redirects=True)
    assert r.status_code == 200, r.status_code
    assert "accelerated (Baku, C.04.5.1)" in r.get_data(as_text=True)
    r = client.post("/tournaments", headers=ORIGIN, data={
        "csrf": csrf_of(client, "/tournaments"), "name": "Fast Open", "game": "dice-duel:short",
        "kind": "swiss", "rounds": "5", "engine": "casual"}, follow_redirects=True)
    assert "<strong>not the FIDE Dutch system</strong>" in r.get_data(as_text=True)
