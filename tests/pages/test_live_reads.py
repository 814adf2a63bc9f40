"""The play page's live panel reads the ledger once per thing it shows (warlog.games.readview):
after the judgement is in, `/games/{id}/live?last=N&wait=1` costs a handful of SQL statements on
PostgreSQL (it cost 16: each of the summary, state, actions, judgement and event list re-read the
game), and it still shows what each part showed before."""

from __future__ import annotations

import collections
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from flask import Flask

from warlog.app import create_app

LIVE_STATEMENTS_AT_MOST = 7  # 6 before Assault on Belgium had hidden information (rules version 2): one read more


@contextmanager
def counted_statements() -> Iterator[collections.Counter[str]]:
    """Every statement psycopg executes on this thread (the in-process worker's are not counted)."""
    me, seen = threading.get_ident(), collections.Counter[str]()
    execute = psycopg.Cursor.execute

    def counting(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() == me:
            seen[" ".join(str(query).split())[:60]] += 1
        return execute(self, query, *args, **kwargs)

    psycopg.Cursor.execute = counting  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]


def _moved_game(app: Flask, judged: bool = True) -> tuple[Any, str, dict[str, str], int]:
    """A started Assault on Belgium game whose first move is submitted (and judged, unless not
    `judged`: then the in-process worker's one thread waits until the test sets the event
    `app.extensions["warlog_test_gate"]`); the client carries that seat's cookie."""
    c = app.test_client()
    if not judged:
        gate = threading.Event()
        app.extensions["warlog_queue"].pool.submit(gate.wait)  # the worker waits: the move stays pending
        app.extensions["warlog_test_gate"] = gate
    created = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()
    gid, seats = created["id"], created["seats"]
    for seat, token in seats.items():
        c.post(f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers={"Authorization": f"Bearer {token}"})
    seat = c.get(f"/api/v1/games/{gid}").get_json()["active_seats"][0]
    auth = {"Authorization": f"Bearer {seats[seat]}"}
    listing = c.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
    r = c.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
        "action": listing["actions"][0], "expected_seq": listing["expected_seq"], "idempotency_key": uuid.uuid4().hex})
    assert r.status_code == 202, r.get_json()
    if judged:
        app.extensions["warlog_queue"].drain()
    c.set_cookie(f"warlog_seat_{gid}", seats[seat])
    return c, gid, auth, r.get_json()["seq"]


def test_the_live_panel_after_a_judgement_reads_the_ledger_a_few_times_not_sixteen(pg_url: str) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, _auth, seq = _moved_game(app)
        c.get(f"/games/{gid}")  # the page as its player has it open (the process's caches warm)
        with counted_statements() as seen:
            r = c.get(f"/games/{gid}/live?last={seq}&wait=1")
        assert r.status_code == 200
        assert sum(seen.values()) <= LIVE_STATEMENTS_AT_MOST, dict(seen)
    finally:
        app.extensions["warlog"].store.close()


def test_the_live_panel_read_in_one_view_shows_what_separate_reads_show(pg_url: str) -> None:
    """The same panel, built with the view and with every part reading for itself."""
    from warlog.games.service import Warlog

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, _auth, seq = _moved_game(app)
        viewed = c.get(f"/games/{gid}/live?last={seq}").get_data(as_text=True)
        one_view = Warlog.one_view

        @contextmanager
        def no_view(self: Warlog) -> Iterator[None]:
            yield

        Warlog.one_view = no_view  # type: ignore[method-assign,assignment]
        try:
            separate = c.get(f"/games/{gid}/live?last={seq}").get_data(as_text=True)
        finally:
            Warlog.one_view = one_view  # type: ignore[method-assign]
        def fresh_keys_out(html: str) -> str:  # each answer mints its own idempotency key for the forms
            return re.sub(r'value="[0-9a-f]{32}(-[a-z]+)?"', 'value="KEY"', html)

        assert fresh_keys_out(viewed) == fresh_keys_out(separate)
        assert "Event" in viewed or "event" in viewed
    finally:
        app.extensions["warlog"].store.close()


def test_a_write_inside_the_view_is_read_back(pg_url: str) -> None:
    """A look recorded while the page is built (a director's full view) is an append: the view
    forgets the game's reads, so what follows sees the look."""
    from ledger.events import DIRECTOR, HIDDEN_VIEWED, NewEvent
    from ledger.factory import open_store
    from warlog.games.readview import ReadView

    store = open_store(pg_url)
    try:
        app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
        try:
            _c, gid, _auth, _seq = _moved_game(app)
        finally:
            app.extensions["warlog"].store.close()
        view = ReadView(store)
        before = view.read(gid)
        assert view.summary(gid).last_seq == before[-1].seq
        view.append(gid, before[-1].seq, [NewEvent(HIDDEN_VIEWED, DIRECTOR, {"by": DIRECTOR, "step": before[-1].seq, "what": "the full state"})])
        after = view.read(gid)
        assert len(after) == len(before) + 1 and view.summary(gid).last_seq == after[-1].seq
    finally:
        store.close()


CLIENT_LIVE_STATEMENTS_AT_MOST = 1  # the wait's look at the game's summary with the events, kept for the answer


def test_the_clients_long_poll_after_a_judgement_costs_one_statement(pg_url: str) -> None:
    """`?panel=0` (an API client's wait, bench/bench_e2e.py): the wait's look at the game's
    summary, which finds the move judged and is kept by the answer's view, read in one statement
    with the submission and the events after it (it took 5: the wait, the move and the game's info
    each read again; then 3, the answer's view reading the summary again; then 2, the events read
    on their own)."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, _auth, seq = _moved_game(app)
        c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0")  # the process's caches warm
        with counted_statements() as seen:
            r = c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0")
        assert r.status_code == 200 and r.get_json()["status"] in ("resolved", "rejected"), r.get_json()
        assert sum(seen.values()) <= CLIENT_LIVE_STATEMENTS_AT_MOST, dict(seen)
    finally:
        app.extensions["warlog"].store.close()


def test_a_move_judged_after_many_other_events_is_found(pg_url: str) -> None:
    """`Warlog.move` reads a few events after the submission for its judgement; one further on
    (looks recorded in between) is still found, in the view and out of it."""
    from ledger.events import DIRECTOR, HIDDEN_VIEWED, NewEvent
    from warlog.games.service import JUDGEMENT_NEAR

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, auth, seq = _moved_game(app, judged=False)
        store = app.extensions["warlog"].store
        last = store.last_seq(gid)  # the submission (and, in a game that hides moves, what goes with it)
        for _ in range(JUDGEMENT_NEAR + 3):  # looks recorded before the umpire judges the move
            last = store.append(gid, last, [NewEvent(HIDDEN_VIEWED, DIRECTOR, {"by": DIRECTOR, "step": last,
                                                                                "what": "the full state"})])[-1].seq
        assert c.get(f"/api/v1/games/{gid}/moves/{seq}", headers=auth).get_json()["status"] == "pending"
        app.extensions["warlog_test_gate"].set()
        app.extensions["warlog_queue"].drain()
        judged = next(ev for ev in store.read(gid, after=seq) if ev.payload.get("submission_seq") == seq)
        assert judged.seq > seq + JUDGEMENT_NEAR
        answer = c.get(f"/api/v1/games/{gid}/moves/{seq}", headers=auth).get_json()
        assert answer["status"] in ("resolved", "rejected") and answer["event_seq"] == judged.seq, answer
        live = c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0").get_json()
        assert live["status"] == answer["status"] and live["seq"] == store.last_seq(gid), live
    finally:
        app.extensions["warlog"].store.close()


CLIENT_WAIT_STATEMENTS_AT_MOST = 2  # a look, a look after the wake-up (kept), each with the events


def test_the_clients_long_poll_that_waits_for_the_judgement_looks_once_a_wake_up(pg_url: str, monkeypatch: Any) -> None:
    """`?panel=0` asked before the move is judged (bench/bench_e2e.py's client nearly always asks
    so): a look at the summary, then one look a wake-up, the last kept for the answer, each read
    with the submission and the events after it (it took 8: each look read the last seq and the
    events after the submission, and the answer read the summary again; then 4, the submission and
    the answer's events read on their own). The wait's
    poll is made longer than the test, so that only the worker's wake-up ends it."""
    from warlog.web import pages

    monkeypatch.setattr(pages, "POLL_INLINE", 30.0)
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c, gid, _auth, seq = _moved_game(app, judged=False)
        threading.Timer(0.3, app.extensions["warlog_test_gate"].set).start()  # the worker judges meanwhile
        with counted_statements() as seen:
            r = c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0")
        assert r.status_code == 200 and r.get_json()["status"] in ("resolved", "rejected"), r.get_json()
        assert sum(seen.values()) <= CLIENT_WAIT_STATEMENTS_AT_MOST, dict(seen)
    finally:
        app.extensions["warlog_test_gate"].set()
        app.extensions["warlog"].store.close()
