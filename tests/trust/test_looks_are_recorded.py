"""Every look at hidden information while a game runs is recorded in the game's ledger before it
is shown (`hidden_viewed`: who, what, at which step), so that no peek can be secret: a director's
full-view replay page of a running UP FRONT game appends one such event, which the seats' play
pages and the audit page show; the same look again adds nothing; nothing is recorded for a game
without hidden information nor for an ended one. The event changes no state and rolls no dice:
a seat's move made before it still goes in, and `warlog verify` passes over it (and fails on
one that carries dice)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ledger.events import NewEvent, seal
from ledger.export import parse_export
from warlog.trust.verify import VerifyFailure, verify_bytes, verify_events

HIDDEN_VIEWED, UMPIRE_INVITED = "hidden_viewed", "umpire_invited"  # ledger.events (the names old ledgers lack)


def _browser(app: Flask, game: Any, seat: str) -> FlaskClient:
    c = app.test_client()
    token = game.created["director_token"] if seat == "director" else game.created["seats"][seat]
    assert c.get(f"/games/{game.id}/seat/{token}").status_code == 303
    return c


def _looks(app: Flask, gid: str) -> list[Any]:
    return [e for e in app.extensions["warlog"].store.read(gid) if e.type == HIDDEN_VIEWED]


@pytest.mark.slow
def test_a_directors_full_view_replay_page_of_a_running_up_front_game_appends_one_look_the_seats_see(
        app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A")
    game.play("americans", {"type": "ready"})
    step = game.info()["seq"]
    director = _browser(app, game, "director")
    assert director.get(f"/games/{game.id}/replay/{step}").status_code == 200
    looks = _looks(app, game.id)
    assert len(looks) == 1
    assert looks[0].seat == "director" and looks[0].payload["step"] == step and looks[0].payload["by"] == "director"
    assert "replay" in looks[0].payload["what"]
    # the same look again, or its board picture, records nothing more
    assert director.get(f"/games/{game.id}/replay/{step}").status_code == 200
    director.get(f"/games/{game.id}/replay/{step}.png")
    assert len(_looks(app, game.id)) == 1
    # every seat sees it on its play page, and the audit page lists it
    for seat in ("americans", "germans"):
        html = _browser(app, game, seat).get(f"/games/{game.id}").get_data(as_text=True)
        assert 'id="looks-at-hidden"' in html and f"viewed the full state (the replay page) at step {step}" in html
    audit = app.test_client().get(f"/games/{game.id}/audit").get_data(as_text=True)
    assert f'data-look="{looks[0].seq}"' in audit
    # the API's full views are looks too: the state at another step is one more
    client.get(f"/api/v1/games/{game.id}/state?at=3", headers=game.auth("director"))
    assert [e.payload["step"] for e in _looks(app, game.id)] == [step, 3]


def test_a_move_made_before_a_look_still_goes_in(app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A")
    seen = game.actions("americans")
    client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director"))
    assert _looks(app, game.id)
    r = client.post(f"/api/v1/games/{game.id}/moves", headers=game.auth("americans"), json={
        "action": {"type": "ready"}, "expected_seq": seen["expected_seq"], "idempotency_key": "k1"})
    assert r.status_code == 202, r.get_json()


def test_no_look_is_recorded_for_a_game_without_secrets_or_an_ended_game(
        app: Flask, client: FlaskClient, new_game: Any) -> None:
    duel = new_game("dice-duel")
    _browser(app, duel, "director").get(f"/games/{duel.id}/replay/{duel.info()['seq']}")
    client.get(f"/api/v1/games/{duel.id}/state", headers=duel.auth("director"))
    assert _looks(app, duel.id) == []
    game = new_game("up-front", "A")
    r = client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"), json={
        "kind": "award", "winner": "germans", "result": "conceded", "reason": "the Americans conceded"})
    assert r.status_code == 202
    game.wait()
    assert game.info()["status"] == "ended"
    director = _browser(app, game, "director")
    director.get(f"/games/{game.id}/replay/{game.info()['seq']}")
    client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director"))
    assert _looks(app, game.id) == []


def test_verify_passes_over_a_look_and_fails_on_one_that_rolls_dice(
        app: Flask, client: FlaskClient, new_game: Any) -> None:
    game = new_game("up-front", "A")
    client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director"))
    game.play("americans", {"type": "ready"})
    client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"), json={
        "kind": "award", "winner": "germans", "result": "conceded", "reason": "conceded"})
    game.wait()
    data = client.get(f"/api/v1/games/{game.id}/export").get_data()
    assert verify_bytes(data).ended
    events = parse_export(data.decode().splitlines())
    at = next(i for i, e in enumerate(events) if e.type == HIDDEN_VIEWED)
    forged = events[:at]
    for e in events[at:]:  # the same game, its look carrying dice, the chain sealed again
        payload = {**e.payload, "dice": [{"index": 0, "faces": 6, "value": 6}]} if e.seq == events[at].seq \
            else e.payload
        forged.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, payload), e.recorded_at, forged[-1].hash))
    with pytest.raises(VerifyFailure) as err:
        verify_events(forged)
    assert err.value.seq == events[at].seq and "rolls no dice" in err.value.reason
