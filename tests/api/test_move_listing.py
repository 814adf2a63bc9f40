"""The POST of a move can wait for its judgement (`?wait=S`) and answer with the seat's next
listing (`?listing=true`, docs/api.md "The next listing"), so that an API client plays with one
request a move (and a GET of the actions when the turn passes to a seat it also holds): the
listing is what GET .../actions answers, the judgement what GET .../moves/{seq} answers, and on
PostgreSQL the POST costs at most four SQL statements once the process has seen the game (the
four requests of a move without it cost 1 + 2 + 2 + 2: tests/api/test_move_statements.py)."""

from __future__ import annotations

import uuid
from typing import Any

from flask import Flask

from tests.pages.test_live_reads import _moved_game, counted_statements
from warlog.app import create_app

POST_AT_MOST = 4  # the seat's turn checked (summary), the append, the wait's look (summary), the events
MOVE_AT_MOST = 6  # and, when the turn passes to another seat, that seat's GET .../actions (2)


def _started(app: Flask) -> tuple[Any, str, dict[str, str]]:
    c = app.test_client()
    created = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()
    gid, seats = created["id"], created["seats"]
    for seat, token in seats.items():
        c.post(f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers={"Authorization": f"Bearer {token}"})
    return c, gid, seats


def _pick(actions: list[dict[str, Any]], move: int) -> dict[str, Any]:
    """The standard setup, then the end of the seat's setup when listed, so that the turn
    passes; else one of the list."""
    for wanted in ("standard_setup", "done_setup"):
        found = [a for a in actions if a["type"] == wanted]
        if found:
            return found[0]
    return actions[move % len(actions)]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_move_answered_with_its_judgement_and_the_next_listing(pg_url: str) -> None:
    """Twelve moves played from the POSTs' answers alone (a GET of the actions only when the
    turn passes to the other seat): each answer's listing and judgement are what the GETs
    answer, and the statements stay within their bounds."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, seats = _started(app)
        seat = c.get(f"/api/v1/games/{gid}").get_json()["active_seats"][0]
        listing = c.get(f"/api/v1/games/{gid}/actions", headers=_auth(seats[seat])).get_json()
        worst = {"POST": 0, "move": 0}
        passed = 0
        for move in range(12):
            with counted_statements() as seen:
                r = c.post(f"/api/v1/games/{gid}/moves?wait=8&listing=true", headers=_auth(seats[seat]), json={
                    "action": _pick(listing["actions"], move), "expected_seq": listing["expected_seq"],
                    "idempotency_key": uuid.uuid4().hex})
            posted = sum(seen.values())
            answer = r.get_json()
            assert r.status_code == 202 and answer["status"] == "pending", answer
            assert answer["judgement"]["status"] in ("resolved", "rejected"), answer
            # what the GETs answer now (not counted)
            assert answer["judgement"] == c.get(f"/api/v1/games/{gid}/moves/{answer['seq']}",
                                                headers=_auth(seats[seat])).get_json()
            assert answer["listing"] == c.get(f"/api/v1/games/{gid}/actions", headers=_auth(seats[seat])).get_json()
            listing, fetched = answer["listing"], 0
            assert listing["status"] == "active" and listing["expected_seq"] > answer["seq"], listing
            if not listing["actions"]:  # the turn has passed: the other seat's listing
                passed += 1
                assert seat not in listing["active_seats"], listing
                seat = listing["active_seats"][0]
                with counted_statements() as seen:
                    listing = c.get(f"/api/v1/games/{gid}/actions", headers=_auth(seats[seat])).get_json()
                fetched = sum(seen.values())
                assert listing["actions"], listing
            if move >= 2:  # the first moves warm the process's caches
                worst = {"POST": max(worst["POST"], posted), "move": max(worst["move"], posted + fetched)}
        assert 0 < passed < 12, f"the turn passed {passed} times in 12 moves: the test saw one case of two"
        assert worst["POST"] <= POST_AT_MOST and worst["move"] <= MOVE_AT_MOST, worst
    finally:
        app.extensions["warlog"].store.close()


def test_a_move_not_judged_within_the_wait_is_answered_pending_with_the_listing_before_it(pg_url: str) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, auth, seq = _moved_game(app, judged=False)  # the worker is held: the first move stays pending
        c.post(f"/api/v1/games/{gid}/moves/{seq}/take-back", headers=auth)  # judged by its seat, the turn again
        listing = c.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
        move = {"action": listing["actions"][0], "expected_seq": listing["expected_seq"], "idempotency_key": "k1"}
        r = c.post(f"/api/v1/games/{gid}/moves?wait=0.2&listing=1", headers=auth, json=move)
        answer = r.get_json()
        assert r.status_code == 202, answer
        assert answer["judgement"]["status"] == "pending" and answer["judgement"]["seq"] == answer["seq"], answer
        assert answer["listing"]["pending"] is True and answer["listing"]["expected_seq"] == answer["seq"], answer
        app.extensions["warlog_test_gate"].set()
        app.extensions["warlog_queue"].drain()
        resent = c.post(f"/api/v1/games/{gid}/moves?wait=8", headers=auth, json=move).get_json()  # its judgement now
        assert resent["status"] == "duplicate" and resent["seq"] == answer["seq"] and "listing" not in resent, resent
        assert resent["judgement"]["status"] in ("resolved", "rejected"), resent
    finally:
        app.extensions["warlog"].store.close()


def test_a_wait_out_of_bounds_is_refused_before_anything_is_recorded(pg_url: str) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, seats = _started(app)
        seat = c.get(f"/api/v1/games/{gid}").get_json()["active_seats"][0]
        listing = c.get(f"/api/v1/games/{gid}/actions", headers=_auth(seats[seat])).get_json()
        for bad in ("wait=9", "wait=-1", "wait=soon", "wait=nan", "listing=perhaps", "other=1"):
            r = c.post(f"/api/v1/games/{gid}/moves?{bad}", headers=_auth(seats[seat]), json={
                "action": listing["actions"][0], "expected_seq": listing["expected_seq"],
                "idempotency_key": uuid.uuid4().hex})
            assert r.status_code == 400, (bad, r.get_json())
        assert c.get(f"/api/v1/games/{gid}").get_json()["seq"] == listing["expected_seq"]  # nothing recorded
        plain = c.post(f"/api/v1/games/{gid}/moves", headers=_auth(seats[seat]), json={
            "action": listing["actions"][0], "expected_seq": listing["expected_seq"], "idempotency_key": "k"})
        assert plain.status_code == 202 and set(plain.get_json()) == {"seq", "status", "duplicate"}
    finally:
        app.extensions["warlog"].store.close()


def test_without_a_free_waiting_slot_the_post_answers_at_once(pg_url: str, monkeypatch: Any) -> None:
    """A wait holds a web thread, so it takes one of the long-poll's slots: with none free the
    move is answered pending at once, with no look at the game in between (a wait would look
    at it at every poll interval until its 8 seconds ran out)."""
    from warlog.web import pages

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, auth, seq = _moved_game(app, judged=False)  # the worker is held: moves stay pending
        c.post(f"/api/v1/games/{gid}/moves/{seq}/take-back", headers=auth)
        listing = c.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
        monkeypatch.setattr(pages, "LIVE_WAITERS", 0)
        with counted_statements() as seen:
            r = c.post(f"/api/v1/games/{gid}/moves?wait=8&listing=true", headers=auth, json={
                "action": listing["actions"][0], "expected_seq": listing["expected_seq"], "idempotency_key": "k2"})
        assert r.status_code == 202 and r.get_json()["judgement"]["status"] == "pending", r.get_json()
        assert sum(seen.values()) <= POST_AT_MOST, dict(seen)
        app.extensions["warlog_test_gate"].set()
    finally:
        app.extensions["warlog"].store.close()
