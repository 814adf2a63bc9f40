"""Rulings cannot probe hidden state: a ruling whose JSON Patch holds a `test` operation (which
would be made when a hidden path holds the value named and refused when not, so that a hand
could be read card by card) is refused at submission, from the API, a page and a tournament,
and nothing is recorded. Ledgers recorded before keep their judgements: the judge itself is
unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.trust.test_directors_who_play import API, _event_where_the_director_plays

PROBE = [{"op": "test", "path": "/hands/americans/0", "value": "UF120"}]


def test_a_test_op_ruling_is_refused_at_submission(app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A")
    before = game.info()["seq"]
    for patch in (PROBE, [{"op": "replace", "path": "/turn_no", "value": 2}, *PROBE]):
        r = client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                        json={"kind": "adjust", "patch": patch, "reason": "is it UF120?"})
        assert r.status_code == 422 and "test" in str(r.get_json()["fields"]["patch"])
    assert game.info()["seq"] == before


@pytest.mark.slow
def test_a_test_op_ruling_is_refused_in_a_tournament(tapp: Flask) -> None:
    desk, _dana, tid, game = _event_where_the_director_plays(tapp)
    cole = desk.player("Cole")
    desk.post(f"{API}/{tid}/directors", "Dana", {"player_id": cole})
    out = desk.post(f"{API}/{tid}/games/{game['game_id']}/rulings", "Cole",
                    {"ruling": {"kind": "adjust", "patch": PROBE}, "text": "is it UF120?"}, status=422)
    assert "test" in str(out)


def test_an_adjustment_of_a_running_up_front_game_is_recorded_as_a_look(
        app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A")
    r = client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"), json={
        "kind": "adjust", "patch": [{"op": "replace", "path": "/turn_no", "value": 1}], "reason": "the turn"})
    assert r.status_code == 202
    looks = [e for e in app.extensions["warlog"].store.read(game.id) if e.type == "hidden_viewed"]
    assert len(looks) == 1 and "adjustment" in looks[0].payload["what"] and looks[0].seq < r.get_json()["seq"]
