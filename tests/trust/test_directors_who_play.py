"""A tournament director who plays in their own event never acts as director on their own
games: rulings, adjudications, extensions, answers to disputes and the dispute sandbox there are
refused ("a co-director rules your own games"), the desk shows those games without forms and
says why, and a co-director named with a `director_added` event rules them, each ruling recorded
under the acting director's id."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import sign_in
from tests.tournaments.conftest import Desk
from warlog.tournaments import events as T

API = "/api/v1/tournaments"
OWN = "a co-director rules your own games"


def _signed_in(tapp: Flask, desk: Desk, name: str) -> FlaskClient:
    """A browser signed in as `name`, who also has an API token in `desk`."""
    client = tapp.test_client()
    sign_in(tapp, client, f"{name.lower()}@example.org", name)
    store = tapp.extensions["warlog_players"]
    me = store.by_email(f"{name.lower()}@example.org")
    desk.tokens[name], desk.ids[name] = store.issue_token(me.id), me.id
    return client


def _event_where_the_director_plays(tapp: Flask) -> tuple[Desk, FlaskClient, str, dict[str, Any]]:
    """An UP FRONT tournament whose director, Dana, registers and is paired against Ann; Ann
    disputes an event of their game."""
    desk = Desk(tapp)
    dana = _signed_in(tapp, desk, "Dana")
    desk.player("Ann")
    tid = desk.post(API, "Dana", {"name": "Cards", "game": "up-front", "scenario": "A",
                                  "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    for name in ("Dana", "Ann"):
        desk.post(f"{API}/{tid}/register", name)
    game = desk.post(f"{API}/{tid}/rounds", "Dana", status=201)["games"][0]
    desk.post(f"{API}/{tid}/disputes", "Ann", {"game_id": game["game_id"], "seq": 3, "text": "that card?"},
              status=201)
    return desk, dana, tid, game


def test_an_entrant_who_is_also_the_director_can_neither_rule_nor_open_the_sandbox_of_their_own_game(
        tapp: Flask) -> None:
    desk, dana, tid, game = _event_where_the_director_plays(tapp)
    gid = game["game_id"]
    dispute = desk.get(f"{API}/{tid}")["disputes"][0]["dispute_seq"]
    before = tapp.extensions["warlog"].store.last_seq(gid)
    r = dana.post(f"/tournaments/{tid}/desk/sandbox/{dispute}", headers=ORIGIN,
                  data={"csrf": csrf_of(dana, f"/tournaments/{tid}/desk")})
    assert r.status_code == 403 and OWN in r.get_data(as_text=True)
    award = {"ruling": {"kind": "award", "winner": "americans", "result": "Americans win"}, "text": "mine"}
    for path, body in ((f"{API}/{tid}/games/{gid}/rulings", award),
                       (f"{API}/{tid}/games/{gid}/adjudicate", {"decision": "draw", "winner": None, "reason": "x"}),
                       (f"{API}/{tid}/games/{gid}/extend", {"player_id": desk.ids["Dana"], "days": 3, "reason": "x"}),
                       (f"{API}/{tid}/disputes/{dispute}", {"decision": "dismiss", "text": "no"})):
        assert OWN in desk.post(path, "Dana", body, status=403)["error"]
    assert tapp.extensions["warlog"].store.last_seq(gid) == before  # nothing recorded, nothing looked at
    # The desk lists the game without its forms, and says why.
    html = dana.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert 'id="own-games"' in html and OWN in html
    assert f'name="game_id" value="{gid}"' not in html
    assert f"/desk/sandbox/{dispute}" not in html


@pytest.mark.slow
def test_a_co_director_rules_the_directors_own_game_and_the_ruling_names_who_made_it(tapp: Flask) -> None:
    desk, dana, tid, game = _event_where_the_director_plays(tapp)
    gid = game["game_id"]
    cole = desk.player("Cole")
    desk.post(f"{API}/{tid}/directors", "Ann", {"player_id": cole}, status=403)  # only the director names one
    doc = desk.post(f"{API}/{tid}/directors", "Dana", {"player_id": cole})
    assert doc["co_directors"] == [{"player_id": cole, "name": "Cole"}]
    assert "Cole" in dana.get(f"/tournaments/{tid}").get_data(as_text=True)
    stream = tapp.extensions["warlog_tournaments"].store.read(tid)
    assert [e for e in stream if e.type == T.DIRECTOR_ADDED][0].payload["player_id"] == cole
    out = desk.post(f"{API}/{tid}/games/{gid}/rulings", "Cole", {
        "ruling": {"kind": "award", "winner": "germans", "result": "Germans win"}, "text": "conceded"}, status=202)
    ruling = tapp.extensions["warlog_tournaments"].store.read(tid)[out["event"]]
    assert ruling.type == T.RULING and ruling.payload["by"] == cole


def test_a_director_who_plays_a_running_game_cannot_export_the_bundle_and_a_co_directors_export_is_recorded(
        tapp: Flask) -> None:
    desk, _dana, tid, game = _event_where_the_director_plays(tapp)
    r = desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Dana"))
    assert r.status_code == 403 and "co-director" in r.get_json()["error"]
    cole = desk.player("Cole")
    desk.post(f"{API}/{tid}/directors", "Dana", {"player_id": cole})
    assert desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Cole")).status_code == 200
    looks = [e for e in tapp.extensions["warlog"].store.read(game["game_id"]) if e.type == "hidden_viewed"]
    assert len(looks) == 1 and cole in looks[0].payload["by"] and "bundle" in looks[0].payload["what"]


def test_a_dispute_on_the_directors_own_game_is_told_to_the_co_director_not_to_the_director(tapp: Flask) -> None:
    from tests.players.conftest import settle

    desk = Desk(tapp)
    for name in ("Dana", "Ann", "Cole"):
        desk.player(name)
    tid = desk.post(API, "Dana", {"name": "Cards", "game": "up-front", "scenario": "A",
                                  "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    desk.post(f"{API}/{tid}/directors", "Dana", {"player_id": desk.ids["Cole"]})
    for name in ("Dana", "Ann"):
        desk.post(f"{API}/{tid}/register", name)
    game = desk.post(f"{API}/{tid}/rounds", "Dana", status=201)["games"][0]
    desk.post(f"{API}/{tid}/disputes", "Ann", {"game_id": game["game_id"], "seq": 3, "text": "that card?"},
              status=201)
    settle(tapp)
    outbox = tapp.extensions["warlog_notifier"].outbox

    def told(name: str) -> bool:
        return any(": a dispute (" in m["subject"] for m in outbox(to=f"{name.lower()}@example.org"))

    assert told("Cole") and not told("Dana")
