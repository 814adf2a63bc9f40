"""Names that reach a mail header refuse control characters: a CR/LF in a tournament's name
(it is in every mail's subject) used to be accepted, and then every mail of that tournament
failed. Refused on the API (422 naming the field) and on the pages; display names likewise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app, sign_in
from warlog.notify.transports import mail_message

BAD = ["Spring\r\nBcc: all@example.org", "Spring\nCup", "Spring\x1bCup", "Spring\u2028Cup",
       "Spring\x85Cup"]
FORMAT = {"kind": "swiss", "rounds": 2}


@pytest.fixture
def happ(tmp_path: object) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    yield app
    close_app(app)


def _director(app: Flask) -> dict[str, str]:
    store = app.extensions["warlog_players"]
    p = store.register("Dee", "dee@example.org")
    return {"Authorization": f"Bearer {store.issue_token(p.id)}"}


@pytest.mark.parametrize("name", BAD)
@pytest.mark.slow
def test_a_tournament_name_with_a_control_character_is_refused_by_the_api(happ: Flask, name: str) -> None:
    r = happ.test_client().post("/api/v1/tournaments", headers=_director(happ),
                                json={"name": name, "game": "dice-duel", "format": FORMAT})
    assert r.status_code in (400, 422), r.get_json()
    assert "control characters" in str(r.get_json()), r.get_json()
    assert "name" in r.get_json()["fields"]


def test_a_tournament_name_with_a_line_break_is_refused_by_the_page(happ: Flask) -> None:
    client = happ.test_client()
    sign_in(happ, client, "dee@example.org", "Dee")
    r = client.post("/tournaments", headers=ORIGIN, data={
        "csrf": csrf_of(client, "/tournaments"), "name": "Spring\r\nCup", "game": "dice-duel:short",
        "kind": "swiss", "rounds": "2"})
    assert r.status_code in (400, 422), r.status_code
    assert "control characters" in r.get_data(as_text=True)


def test_an_ordinary_tournament_name_is_taken(happ: Flask) -> None:
    r = happ.test_client().post("/api/v1/tournaments", headers=_director(happ),
                                json={"name": "Spring Cup — ümlaut", "game": "dice-duel", "format": FORMAT})
    assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("name", BAD)
@pytest.mark.slow
def test_a_display_name_with_a_control_character_is_refused(happ: Flask, name: str) -> None:
    client = happ.test_client()
    r = client.post("/api/v1/players", json={"email": "ann@example.org", "display_name": name})
    assert r.status_code in (400, 422), r.get_json()
    assert "control characters" in r.get_json()["error"]
    store = happ.extensions["warlog_players"]
    with pytest.raises(Exception, match="control characters"):
        store.register(name, "bob@example.org")


def test_a_subject_recorded_with_a_line_break_still_makes_a_mail() -> None:
    msg = mail_message("Warlog <w@example.org>", "ann@example.org", "Old\r\nCup: round 2", "text")
    assert msg["Subject"] == "Old Cup: round 2"
    assert b"Bcc" not in msg.as_bytes()
