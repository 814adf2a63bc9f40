"""The creator of an ordinary game chooses whether they play a seat or are its umpire. A
player-creator gets no director token (no one can see what the rules hide); if a dispute needs
an umpire, a seat has an umpire invitation made, which the game records (`umpire_invited`) for
every seat to see, and every look the umpire then takes is recorded too."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.pages.conftest import post_form

HIDDEN_VIEWED, UMPIRE_INVITED = "hidden_viewed", "umpire_invited"  # ledger.events (the names old ledgers lack)


def test_a_player_creator_gets_no_director_token(app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A", creator="americans")
    assert "director_token" not in game.created and game.created["creator_seat"] == "americans"
    created = app.extensions["warlog"].created(game.id).payload
    assert created["director_token_sha256"] is None and created["director"] == "none"
    # no token of the game sees more than its seat; the export waits for the end
    for seat in ("americans", "germans"):
        assert client.get(f"/api/v1/games/{game.id}/export", headers=game.auth(seat)).status_code == 403
    # the umpire is the default, as before
    assert "director_token" in new_game("up-front", "A").created
    r = client.post("/api/v1/games", json={"game": "up-front", "scenario": "A", "creator": "russians"})
    assert r.status_code == 422 and "creator" in r.get_json()["fields"]


def test_the_lobby_asks_the_creator_and_a_player_creator_sees_no_director_link(app: Flask, client: FlaskClient) -> None:
    assert 'name="creator"' in client.get("/").get_data(as_text=True)
    r = post_form(client, "/games", {"game": "up-front/A", "creator": "seat2"})
    assert r.status_code == 201
    html = r.get_data(as_text=True)
    assert 'aria-label="Director link"' not in html and 'id="no-director"' in html
    gid = re.search(r"/games/([0-9a-f]+)/seat/", html).group(1)
    assert app.extensions["warlog"].created(gid).payload["creator_seat"] == "germans"


def test_an_umpire_invitation_is_recorded_and_each_look_of_the_umpire_too(
        app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A", creator="americans")
    r = client.post(f"/api/v1/games/{game.id}/umpire", json={"text": "we disagree on a card"})
    assert r.status_code == 401
    r = client.post(f"/api/v1/games/{game.id}/umpire", headers=game.auth("germans"),
                    json={"text": "we disagree on a card"})
    assert r.status_code == 201, r.get_json()
    umpire = r.get_json()["umpire_token"]
    # the invitation is in the game, for every seat and spectator to read (without its token)
    events = client.get(f"/api/v1/games/{game.id}/events", headers=game.auth("americans")).get_json()["events"]
    invited = [e for e in events if e["type"] == UMPIRE_INVITED]
    assert invited and invited[0]["seat"] == "germans" and umpire not in str(invited)
    # the umpire sees everything, and that look is recorded under "umpire"
    state = client.get(f"/api/v1/games/{game.id}/state", headers={"Authorization": f"Bearer {umpire}"}).get_json()
    assert state["viewer"] == "director" and state["state"]["hands"]["americans"]
    looks = [e for e in app.extensions["warlog"].store.read(game.id) if e.type == HIDDEN_VIEWED]
    assert [e.payload["by"] for e in looks] == ["umpire"]
    # and rules
    r = client.post(f"/api/v1/games/{game.id}/rulings", headers={"Authorization": f"Bearer {umpire}"},
                    json={"kind": "award", "winner": "draw", "result": "agreed draw", "reason": "both agreed"})
    assert r.status_code == 202
    # a game with a director has its director rule: no umpire invitation there
    ruled = new_game("up-front", "A")
    assert client.post(f"/api/v1/games/{ruled.id}/umpire", headers=ruled.auth("germans"),
                       json={"text": "x"}).status_code == 403


def test_a_seat_asks_for_an_umpire_from_the_game_page(app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A", creator="germans")
    seat = app.test_client()
    assert seat.get(f"/games/{game.id}/seat/{game.created['seats']['americans']}").status_code == 303
    assert 'id="umpire-form"' in seat.get(f"/games/{game.id}").get_data(as_text=True)
    r = post_form(seat, f"/games/{game.id}/umpire", {"text": "a card we disagree on"}, f"/games/{game.id}")
    assert r.status_code == 201
    link = re.search(r'value="http://localhost(/games/[0-9a-f]+/seat/[^"]+)" aria-label="Umpire link"',
                     r.get_data(as_text=True)).group(1)
    umpire = app.test_client()
    assert umpire.get(link).status_code == 303
    assert 'id="rule-form"' in umpire.get(f"/games/{game.id}").get_data(as_text=True)  # the umpire rules
    other = app.test_client()
    other.get(f"/games/{game.id}/seat/{game.created['seats']['germans']}")
    html = other.get(f"/games/{game.id}").get_data(as_text=True)
    assert "had an umpire invitation made" in html and "umpire viewed the full state" in html
