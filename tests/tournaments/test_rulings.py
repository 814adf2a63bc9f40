"""Rulings from the desk and the API on a tournament game without a dispute (rulings
from a page): a move voided and re-resolved is a ruling in the game and a `ruling_made` event in
the tournament naming it; only the director rules; a malformed ruling is a clear 422."""

from __future__ import annotations

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import sign_in
from tests.tournaments.conftest import Desk
from tests.tournaments.test_swiss_flow import _setup
from warlog.tournaments import events as T

API = "/api/v1/tournaments"


def test_void_a_move_from_the_api_and_rule_from_the_desk(desk: Desk) -> None:
    tid = _setup(desk)["id"]
    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    g = doc["games"][0]
    belgian = desk.name(g["seats"]["belgium"]["player_id"])
    acts = desk.client.get(f"/api/v1/games/{g['game_id']}/actions", headers=desk.auth(belgian)).get_json()
    r = desk.client.post(f"/api/v1/games/{g['game_id']}/moves", headers=desk.auth(belgian),
                         json={"action": acts["actions"][0], "expected_seq": acts["expected_seq"],
                               "idempotency_key": "m1"})
    assert r.status_code == 202
    desk.drain()
    resolved = desk.client.get(f"/api/v1/games/{g['game_id']}/moves/{r.get_json()['seq']}").get_json()["event_seq"]
    body = {"ruling": {"kind": "void", "target": resolved, "re_resolve": True}, "text": "misclick, replayed"}
    desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", belgian, body, status=403)
    desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", "Director", {"ruling": {"kind": "nuke"}, "text": "x"},
              status=422)
    out = desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", "Director", body, status=202)
    desk.drain()
    events = desk.app.extensions["warlog"].store.read(g["game_id"])
    ruling = events[out["game_ruling_seq"]]
    assert ruling.seat == "director" and ruling.payload["ruling"]["kind"] == "void"
    judged = [e for e in events if e.type == "resolved" and e.payload.get("submission_seq") == ruling.seq]
    assert judged and judged[0].payload["facts"][0]["data"]["overrides"]
    stream = desk.app.extensions["warlog_tournaments"].store.read(tid)
    made = next(e for e in stream if e.type == T.RULING)
    assert made.payload["game_ruling_seq"] == ruling.seq
    desk.get(f"{API}/{tid}")  # a look records the game's verdict
    verdict = [e for e in desk.app.extensions["warlog_tournaments"].store.read(tid) if e.type == T.RULING_JUDGED]
    assert [(v.payload["ruling"], v.payload["outcome"]) for v in verdict] == [(made.seq, "made")]


def test_rule_from_the_desk_page(tapp) -> None:  # type: ignore[no-untyped-def]
    desk = Desk(tapp)
    director = tapp.test_client()
    sign_in(tapp, director, "director@example.org", "Director")
    store = tapp.extensions["warlog_players"]
    me = store.by_email("director@example.org")
    desk.tokens["Director"], desk.ids["Director"] = store.issue_token(me.id), me.id
    for name in ("Ann", "Bob"):
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "Desk rulings", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    g = desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"][0]
    page = f"/tournaments/{tid}/desk"
    r = director.post(f"/tournaments/{tid}/desk/rule", headers=ORIGIN, data={
        "csrf": csrf_of(director, page), "game_id": g["game_id"], "kind": "award", "winner": "belgium",
        "result": "Belgium wins (conceded)", "text": "Germany conceded by mail", "confirmed": "1"})
    assert r.status_code == 303, r.get_data(as_text=True)
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    assert doc["games"][0]["result"]["winner"] == g["seats"]["belgium"]["player_id"]
