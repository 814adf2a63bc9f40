"""Every answer is documented by the schema the document gives it. Random
requests (the schemathesis test) rarely reach a resolved move, an ended game, a signed-in
player or a clock; this test walks those answers on purpose, through a whole game of the test
dice game and a player's sign-in, and checks each body against the schema the live document
declares for its path, method and status (OpenAPI 3.0 semantics: nullable, strict objects)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.conftest import Player
from tests.players.conftest import last_link
from tests.support.documented import Documented


def test_a_whole_game_answers_as_documented(app: Flask, client: Any) -> None:
    d = Documented(client)
    d.call("get", "/api/v1/catalogue")
    created = d.call("post", "/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()
    p = Player(client, app, created)
    gid = p.id
    d.call("get", "/api/v1/games")
    d.call("get", f"/api/v1/games/{gid}")
    d.call("get", f"/api/v1/games/{gid}/state")  # before the start: a null state
    early = d.call("post", f"/api/v1/games/{gid}/rulings", headers=p.auth("director"),
                   json={"kind": "award", "reason": "too soon", "result": "none"})
    assert early.status_code == 409 and early.get_json()["current_seq"] == 0  # not started: still current_seq
    for seat in created["seats"]:
        d.call("post", f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers=p.auth(seat))
    d.call("post", f"/api/v1/games/{gid}/join", json={}, headers=p.auth("north"))  # already joined
    stale = d.call("post", f"/api/v1/games/{gid}/moves", headers=p.auth("north"), json={
        "action": {"type": "roll"}, "expected_seq": 0, "idempotency_key": "stale"})
    assert stale.status_code == 409 and stale.get_json()["current_seq"] > 0
    d.call("post", f"/api/v1/games/{gid}/moves", headers=p.auth("north"), json={
        "action": {"type": "fly"}, "expected_seq": 0, "idempotency_key": "bad"})  # 422: not a dice-duel action
    for _ in range(400):
        info = d.call("get", f"/api/v1/games/{gid}").get_json()
        if info["status"] == "ended":
            break
        seat = info["active_seats"][0]
        listing = d.call("get", f"/api/v1/games/{gid}/actions", headers=p.auth(seat)).get_json()
        other = "south" if seat == "north" else "north"
        d.call("get", f"/api/v1/games/{gid}/actions", headers=p.auth(other))  # waiting: no actions
        sent = d.call("post", f"/api/v1/games/{gid}/moves", headers=p.auth(seat), json={
            "action": listing["actions"][0], "expected_seq": listing["expected_seq"],
            "idempotency_key": f"k{listing['expected_seq']}"}).get_json()
        p.wait()
        d.call("get", f"/api/v1/games/{gid}/moves/{sent['seq']}", headers=p.auth(seat))
        d.call("get", f"/api/v1/games/{gid}/moves/{sent['seq']}")  # a spectator's view
    else:
        raise AssertionError("the game did not end")
    ended = d.call("post", f"/api/v1/games/{gid}/moves", headers=p.auth("north"), json={
        "action": {"type": "roll"}, "expected_seq": info["seq"], "idempotency_key": "late"})
    assert ended.status_code == 409 and ended.get_json()["current_seq"] == info["seq"]  # an ended game too
    assert info["outcome"]["winner"] in created["seats"]
    d.call("get", f"/api/v1/games/{gid}/events?after=-1&limit=50", headers=p.auth("north"))
    d.call("get", f"/api/v1/games/{gid}/state?at=3", headers=p.auth("south"))
    d.call("post", f"/api/v1/games/{gid}/rulings", headers=p.auth("director"),
           json={"kind": "award", "reason": "checking the document", "result": "confirmed", "winner": "draw"})
    d.call("get", f"/api/v1/games/{gid}/clock")
    bad = d.call("post", f"/api/v1/games/{gid}/clock", headers=p.auth("director"), json={"days": 0, "speed": 1})
    assert bad.status_code == 422 and set(bad.get_json()["fields"]) == {"days", "speed"}  # the documented schema's
    d.call("get", "/api/v1/games/nope")
    for code in ("200", "201", "202", "409", "422"):
        assert any(c == code for _, _, c in d.checked), code


def test_a_players_answers_are_as_documented(app: Flask, client: Any) -> None:
    d = Documented(client)
    d.call("post", "/api/v1/players", json={"email": "doc@example.org", "display_name": "Doc"})
    secret = last_link(app, "doc@example.org").rsplit("/", 1)[1]
    signed = d.call("post", f"/api/v1/players/signin/{secret}", json={}).get_json()
    d.call("post", "/api/v1/players/signin", json={"email": "doc@example.org"})
    assert d.call("post", f"/api/v1/players/signin/{secret}", json={}).status_code == 410  # used once
    me = {"Authorization": f"Bearer {signed['token']}"}
    d.call("get", "/api/v1/players/me", headers=me)
    d.call("get", f"/api/v1/players/{signed['player']['id']}")
    created = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    d.call("post", "/api/v1/players/claim", headers=me,
           json={"game_id": created["id"], "seat_token": created["seats"]["north"]})
    d.call("get", "/api/v1/players/me", headers=me)  # now with a game
    token = d.call("post", "/api/v1/players/me/token", headers=me).get_json()["token"]
    assert token != signed["token"]
