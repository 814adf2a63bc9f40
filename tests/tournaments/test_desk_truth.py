"""The director's desk says what the ledger says: a dispute keeps the game's step and its own
tournament seq apart; a ruling is pending until the game judges it, and only a made ruling closes
a dispute or mails "Ruled"; a forfeit names the player who forfeits; a wrong result is corrected
(and `sync` follows a game whose outcome changed after its result); a repeated act is one act;
a void shows what it will undo before it is confirmed."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import settle, sign_in
from tests.tournaments.conftest import Desk
from warlog.tournaments import events as T
from warlog.tournaments.bundle import verify_bundle
from warlog.tournaments.web import bundle_lines

API = "/api/v1/tournaments"


def _director_and_players(tapp: Flask) -> tuple[Desk, FlaskClient]:
    """A director signed in on the pages (a client) and with an API token, and players Ann and Bob."""
    desk = Desk(tapp)
    director = tapp.test_client()
    sign_in(tapp, director, "director@example.org", "Director")
    store = tapp.extensions["warlog_players"]
    me = store.by_email("director@example.org")
    desk.tokens["Director"], desk.ids["Director"] = store.issue_token(me.id), me.id
    for name in ("Ann", "Bob"):
        desk.player(name)
    return desk, director


def _club(tapp: Flask) -> tuple[Desk, FlaskClient, str, dict[str, Any]]:
    """A signed-in director (page client and API token), Ann and Bob, round 1 paired."""
    desk, director = _director_and_players(tapp)
    tid = desk.post(API, "Director", {"name": "Desk truth", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    g = desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"][0]
    return desk, director, tid, g


@contextmanager
def held(app: Flask) -> Iterator[None]:
    """The game's umpire waits (its one thread is busy) until the block ends: what is submitted
    in it stays pending, not judged yet."""
    gate = threading.Event()
    app.extensions["warlog_queue"].pool.submit(gate.wait, 30)
    try:
        yield
    finally:
        gate.set()


def _play(desk: Desk, g: dict[str, Any], moves: int) -> list[int]:
    """`moves` legal moves by whoever is to act; the seq of each accepted move's resolution."""
    store = desk.app.extensions["warlog"].store
    out = []
    for n in range(moves):
        seat = store.summary(g["game_id"]).active_seats[0]
        who = desk.name(g["seats"][seat]["player_id"])
        acts = desk.client.get(f"/api/v1/games/{g['game_id']}/actions", headers=desk.auth(who)).get_json()
        r = desk.client.post(f"/api/v1/games/{g['game_id']}/moves", headers=desk.auth(who),
                             json={"action": acts["actions"][0], "expected_seq": acts["expected_seq"],
                                   "idempotency_key": f"{g['game_id']}-{n}-{acts['expected_seq']}"})
        assert r.status_code == 202, r.get_json()
        desk.drain()
        judged = desk.client.get(f"/api/v1/games/{g['game_id']}/moves/{r.get_json()['seq']}").get_json()
        assert judged["status"] == "resolved", judged
        out.append(judged["event_seq"])
    return out


def _form(client: FlaskClient, path: str, data: dict[str, str], page: str) -> Any:
    return client.post(path, data={"csrf": csrf_of(client, page), **data}, headers=ORIGIN)


def _ann(desk: Desk, g: dict[str, Any]) -> tuple[str, str]:
    """Ann's seat in the game and Bob's."""
    ann = next(r for r, s in g["seats"].items() if s["player_id"] == desk.ids["Ann"])
    return ann, next(r for r in g["seats"] if r != ann)


@pytest.mark.slow
def test_a_dispute_names_the_disputed_game_step_not_its_own_tournament_seq(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    resolutions = _play(desk, g, 3)
    warlog = tapp.extensions["warlog"]
    step = warlog.store.read(g["game_id"])[resolutions[1]].payload["submission_seq"]  # a submission
    ann, _ = _ann(desk, g)
    opened = desk.post(f"{API}/{tid}/disputes", "Ann",
                       {"game_id": g["game_id"], "seq": step, "text": "that move was illegal"}, status=201)
    assert opened["dispute"] != step
    d = desk.get(f"{API}/{tid}")["disputes"][0]
    assert (d["seq"], d["game_seq"], d["dispute_seq"], d["status"]) == (step, step, opened["dispute"], "open")
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert f'href="/games/{g["game_id"]}/replay/{step}">step {step}</a>' in page
    assert f"#{resolutions[1]}</span> in the replay's list" in page  # the replay list's number of that move
    # The answer form's void target is the move's resolution, chosen already; only moves are offered.
    form = page[page.index(f'id="dispute-{opened["dispute"]}"'):]
    options = re.findall(r'<option value="(\d+)"( selected)?>#', form[:form.index("</form>")])
    assert sorted(int(v) for v, _ in options) == sorted(resolutions)
    assert [int(v) for v, sel in options if sel] == [resolutions[1]]
    # The sandbox rebuilds the position before the disputed step.
    r = _form(director, f"/tournaments/{tid}/desk/sandbox/{opened['dispute']}", {}, f"/tournaments/{tid}/desk")
    assert r.status_code == 201, r.get_data(as_text=True)
    sandbox = re.search(r"game <code>([0-9a-f]+)</code> created", r.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    created = warlog.store.read(sandbox)[0]
    assert created.payload["sandbox"]["state"] == warlog.history(g["game_id"]).state_at(step - 1)
    assert created.payload["sandbox"]["state"] != warlog.history(g["game_id"]).state_at(opened["dispute"] - 1)


@pytest.mark.slow
def test_a_refused_ruling_is_shown_refused_leaves_the_dispute_open_and_mails_nothing(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    resolutions = _play(desk, g, 2)
    ann, _ = _ann(desk, g)
    opened = desk.post(f"{API}/{tid}/disputes", "Ann", {"game_id": g["game_id"], "seq": resolutions[0],
                                                          "text": "wrong"}, status=201)["dispute"]
    # A void of a submission is refused at once, naming the move's resolution to void instead.
    sub = resolutions[1] - 1
    r = desk.client.post(f"{API}/{tid}/disputes/{opened}", headers=desk.auth("Director"), json={
        "decision": "rule", "text": "void it", "ruling": {"kind": "void", "target": sub}})
    assert r.status_code == 422 and f"#{resolutions[1]}" in r.get_json()["error"], r.get_json()
    # A ruling the game refuses (an adjustment of a path the state does not have) is pending, then refused.
    bad = {"kind": "adjust", "patch": [{"op": "replace", "path": "/no/such/thing", "value": 1}]}
    body = {"decision": "rule", "text": "fix the state", "ruling": bad}
    with held(tapp):
        answered = desk.post(f"{API}/{tid}/disputes/{opened}", "Director", body)
        assert answered["status"] == "pending" and answered["answer"]["status"] == "pending"
        page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
        assert "Ruling pending" in page and "<strong>pending</strong>" in page
    desk.drain()
    settle(tapp)
    d = desk.get(f"{API}/{tid}")["disputes"][0]
    assert d["status"] == "open" and d["answer"] is None
    # Assault on Belgium keeps secrets (its standing answers, rules version 2): the public stream holds
    # the game's reason back until the game ends
    hidden = "its reason is hidden until the game ends"
    assert d["refused"][0]["status"] == "refused" and hidden in d["refused"][0]["reasons"][0]
    mails = tapp.extensions["warlog_notifier"].outbox(to="ann@example.org")
    assert not any("Ruled" in m["body"] or "answered" in m["subject"] for m in mails), mails
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert "Refused by the game" in page and hidden in page and "<strong>refused</strong>" in page
    public = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert '<strong class="dispute-status">open</strong>' in public and "1 ruling(s) refused by the game" in public
    # Answered again with a ruling the game makes: the dispute closes and Ann is mailed once.
    void = {"decision": "rule", "text": "replayed", "ruling": {"kind": "void", "target": resolutions[0],
                                                                "re_resolve": True}}
    desk.post(f"{API}/{tid}/disputes/{opened}", "Director", void)
    desk.drain()
    d = desk.get(f"{API}/{tid}")["disputes"][0]
    settle(tapp)
    assert d["status"] == "ruled" and d["answer"]["status"] == "made"
    ruled = [m for m in tapp.extensions["warlog_notifier"].outbox(to="ann@example.org") if "Ruled" in m["body"]]
    assert len(ruled) == 1
    desk.get(f"{API}/{tid}")
    settle(tapp)
    assert len([m for m in tapp.extensions["warlog_notifier"].outbox(to="ann@example.org")
                if "Ruled" in m["body"]]) == 1


@pytest.mark.slow
def test_a_ruled_mail_lost_to_a_crash_is_sent_by_the_next_look_and_only_once(tapp: Flask) -> None:
    desk, _director, tid, g = _club(tapp)
    resolutions = _play(desk, g, 1)
    opened = desk.post(f"{API}/{tid}/disputes", "Ann", {"game_id": g["game_id"], "seq": resolutions[0],
                                                          "text": "wrong"}, status=201)["dispute"]
    svc = tapp.extensions["warlog_tournaments"]
    notify, svc.notify = svc.notify, None  # the process dies between the verdict and its mail
    desk.post(f"{API}/{tid}/disputes/{opened}", "Director", {
        "decision": "rule", "text": "void", "ruling": {"kind": "void", "target": resolutions[0]}})
    desk.drain()
    svc.sync(tid)
    assert any(e.type == T.RULING_JUDGED for e in svc.store.read(tid))
    settle(tapp)
    assert not [m for m in tapp.extensions["warlog_notifier"].outbox(to="ann@example.org") if "Ruled" in m["body"]]
    svc.notify = notify  # the next process
    svc._sent.clear()
    desk.get(f"{API}/{tid}")
    svc._sent.clear()
    desk.get(f"{API}/{tid}")
    settle(tapp)
    assert len([m for m in tapp.extensions["warlog_notifier"].outbox(to="ann@example.org")
                if "Ruled" in m["body"]]) == 1


@pytest.mark.slow
def test_a_forfeit_names_the_player_who_forfeits(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert "Ann forfeits; Bob wins" in page and "Bob forfeits; Ann wins" in page
    assert f'<option value="forfeit:{desk.ids["Ann"]}">Ann forfeits; Bob wins</option>' in page
    # The desk asks first, in words, and records nothing until confirmed.
    data = {"game_id": g["game_id"], "verdict": f"forfeit:{desk.ids['Ann']}", "reason": "Ann resigned by mail"}
    r = _form(director, f"/tournaments/{tid}/desk/adjudicate", data, f"/tournaments/{tid}/desk")
    assert r.status_code == 200 and "Ann forfeits; Bob wins" in r.get_data(as_text=True)
    assert tapp.extensions["warlog"].store.summary(g["game_id"]).status == "active"
    r = _form(director, f"/tournaments/{tid}/desk/adjudicate", {**data, "confirmed": "1"}, f"/tournaments/{tid}/desk")
    assert r.status_code == 303, r.get_data(as_text=True)
    desk.drain()
    result = desk.get(f"{API}/{tid}")["games"][0]["result"]
    assert (result["winner"], result["how"]) == (desk.ids["Bob"], "forfeit")


def test_the_api_forfeit_names_who_forfeits_and_the_older_winner_field_still_works(tapp: Flask) -> None:
    desk, _director, tid, g = _club(tapp)
    path = f"{API}/{tid}/games/{g['game_id']}/adjudicate"
    desk.post(path, "Director", {"decision": "forfeit", "forfeiting": desk.ids["Bob"], "winner": desk.ids["Bob"],
                                 "reason": "x"}, status=422)  # they disagree
    out = desk.post(path, "Director", {"decision": "forfeit", "forfeiting": desk.ids["Bob"], "reason": "no show"},
                    status=202)
    assert out["ruling"]["winner"] == _ann(desk, g)[0]
    desk.drain()
    assert desk.get(f"{API}/{tid}")["games"][0]["result"]["winner"] == desk.ids["Ann"]
    desk2, _d, tid2, g2 = _club_again(tapp)
    desk2.post(f"{API}/{tid2}/games/{g2['game_id']}/adjudicate", "Director",
               {"decision": "forfeit", "winner": desk2.ids["Ann"], "reason": "old client"}, status=202)
    desk2.drain()
    assert desk2.get(f"{API}/{tid2}")["games"][0]["result"]["winner"] == desk2.ids["Ann"]


def _club_again(tapp: Flask) -> tuple[Desk, FlaskClient, str, dict[str, Any]]:
    desk = Desk(tapp)
    store = tapp.extensions["warlog_players"]
    for name in ("Director", "Ann", "Bob"):
        p = store.by_email(f"{name.lower()}@example.org")
        desk.tokens[name], desk.ids[name] = store.issue_token(p.id), p.id
    tid = desk.post(API, "Director", {"name": "Again", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    return desk, tapp.test_client(), tid, desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"][0]


@pytest.mark.slow
def test_a_wrong_result_is_corrected_and_the_standings_and_bundle_follow(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": "win", "winner": desk.ids["Ann"], "reason": "position won"}, status=202)
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    first = doc["games"][0]["result"]
    assert first["winner"] == desk.ids["Ann"]
    # Adjudicating again is refused (correct it instead); the page's correction asks first.
    desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": "win", "winner": desk.ids["Bob"], "reason": "oops"}, status=409)
    data = {"game_id": g["game_id"], "verdict": f"win:{desk.ids['Bob']}", "reason": "the scoresheet was misread"}
    r = _form(director, f"/tournaments/{tid}/desk/correct", data, f"/tournaments/{tid}/desk")
    assert r.status_code == 200 and "Bob wins" in r.get_data(as_text=True)
    r = _form(director, f"/tournaments/{tid}/desk/correct", {**data, "confirmed": "1"}, f"/tournaments/{tid}/desk")
    assert r.status_code == 303, r.get_data(as_text=True)
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    res = doc["games"][0]["result"]
    assert res["winner"] == desk.ids["Bob"] and "the scoresheet was misread" in res["corrected"]
    assert doc["corrections"][0]["corrects"] == first["event"]
    points = {s["player_id"]: s["points"] for s in doc["standings"]}
    assert points == {desk.ids["Bob"]: 2, desk.ids["Ann"]: 0}
    html = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "corrected" in html and "the scoresheet was misread" in html
    svc = tapp.extensions["warlog_tournaments"]
    report = verify_bundle(list(bundle_lines(svc.warlog.store, svc.store, tid)))
    assert report.results == 1


@pytest.mark.slow
def test_sync_records_a_correction_when_a_ruling_changes_a_games_outcome_after_its_result(tapp: Flask) -> None:
    desk, _director, tid, g = _club(tapp)
    desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": "win", "winner": desk.ids["Ann"], "reason": "position won"}, status=202)
    desk.drain()
    desk.get(f"{API}/{tid}")
    _ann_seat, bob = _ann(desk, g)
    desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", "Director", {
        "ruling": {"kind": "award", "winner": bob, "result": "Bob wins (appeal)"}, "text": "appeal upheld"},
        status=202)
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    assert doc["games"][0]["result"]["winner"] == desk.ids["Bob"]
    assert [c["reason"] for c in doc["corrections"]] == ["appeal upheld"]


def test_a_repeated_award_is_one_ruling_and_the_desk_shows_it_pending_at_once(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    data = {"game_id": g["game_id"], "verdict": f"win:{desk.ids['Ann']}", "reason": "conceded", "confirmed": "1"}
    with held(tapp):  # not judged yet
        r = _form(director, f"/tournaments/{tid}/desk/adjudicate", data, f"/tournaments/{tid}/desk")
        assert r.status_code == 303
        page = director.get(r.headers["Location"]).get_data(as_text=True)
        row = page[page.index(f'id="game-{g["game_id"]}"'):]
        row = row[:row.index("</tr>")]
        assert "Pending" in row and "Award…" not in row and "Rule…" not in row
        r = _form(director, f"/tournaments/{tid}/desk/adjudicate", data, f"/tournaments/{tid}/desk")
        assert r.status_code == 303 and "Already" in director.get(r.headers["Location"]).get_data(as_text=True)
    desk.drain()
    r = _form(director, f"/tournaments/{tid}/desk/adjudicate", data, f"/tournaments/{tid}/desk")
    assert r.status_code == 303  # judged and recorded: still the same act, no error page
    events = tapp.extensions["warlog"].store.read(g["game_id"])
    assert len([e for e in events if e.type == "submitted" and e.seat == "director"]) == 1
    out = desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                    {"decision": "win", "winner": desk.ids["Ann"], "reason": "conceded"}, status=202)
    assert out["duplicate"] and out["status"] == "made"


@pytest.mark.slow
def test_a_void_shows_what_it_will_undo_before_it_is_confirmed(tapp: Flask) -> None:
    desk, director, tid, g = _club(tapp)
    resolutions = _play(desk, g, 4)
    store = tapp.extensions["warlog"].store
    before = store.last_seq(g["game_id"])
    data = {"game_id": g["game_id"], "kind": "void", "target": str(resolutions[0]), "re_resolve": "1",
            "text": "misclick"}
    r = _form(director, f"/tournaments/{tid}/desk/rule", data, f"/tournaments/{tid}/desk")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "What this void undoes" in html, html[:300]
    assert "<strong>4 move(s)</strong>" in html and f"up to step {resolutions[-1]}" in html
    seats = [store.read(g["game_id"])[s].payload["seat"] for s in resolutions]
    assert all(f"{s.capitalize()}: {seats.count(s)}" in html for s in set(seats)), html
    assert store.last_seq(g["game_id"]) == before  # nothing recorded yet
    path = f"{API}/{tid}/games/{g['game_id']}/void-preview?target={resolutions[0]}&re_resolve=1"
    assert desk.client.get(path, headers=desk.auth("Ann")).status_code == 403
    r = desk.client.get(path, headers=desk.auth("Director"))
    desk._check("get", path, r)
    preview = r.get_json()
    assert preview["moves"] == 4 and preview["undone"] == resolutions
    r = _form(director, f"/tournaments/{tid}/desk/rule", {**data, "confirmed": "1"}, f"/tournaments/{tid}/desk")
    assert r.status_code == 303
    desk.drain()
    assert desk.get(f"{API}/{tid}")["rulings"][0]["status"] == "made"


@pytest.mark.slow
def test_the_tournament_does_not_end_while_a_ruling_waits_for_its_game(tapp: Flask) -> None:
    desk, _director, tid, g = _club(tapp)
    desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": "win", "winner": desk.ids["Ann"], "reason": "position won"}, status=202)
    desk.drain()
    desk.get(f"{API}/{tid}")
    _ann_seat, bob = _ann(desk, g)
    with held(tapp):
        desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", "Director", {
            "ruling": {"kind": "award", "winner": bob, "result": "Bob wins (appeal)"}, "text": "appeal upheld"},
            status=202)
        desk.post(f"{API}/{tid}/end", "Director", status=409)  # its verdict could change the result
    desk.drain()
    doc = desk.post(f"{API}/{tid}/end", "Director")
    assert doc["status"] == "ended" and doc["games"][0]["result"]["winner"] == desk.ids["Bob"]
    svc = tapp.extensions["warlog_tournaments"]
    assert verify_bundle(list(bundle_lines(svc.warlog.store, svc.store, tid))).results == 1


@pytest.mark.slow
def test_a_duplicate_rounds_desk_ends_games_as_they_stand_and_corrects_them(tapp: Flask) -> None:
    desk, director = _director_and_players(tapp)
    tid = desk.post(API, "Director", {"name": "League", "game": "green-beret-vietnam",
                                      "format": {"kind": "duplicate", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    games = desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"]
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert "End the game, scored as it stands" in page and "forfeits" not in page
    data = {"game_id": games[0]["game_id"], "verdict": "end", "reason": "deadline", "confirmed": "1"}
    assert _form(director, f"/tournaments/{tid}/desk/adjudicate", data, f"/tournaments/{tid}/desk").status_code == 303
    desk.drain()
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert f'id="result-{games[0]["game_id"]}"' in page and "Correct…" in page
