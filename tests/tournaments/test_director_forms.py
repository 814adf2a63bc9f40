"""The desk's forms for the acts that were API-only (test client, real database): the create
form's time control in hours with a reminder, a re-pairing refused with a clear message when it
does not place everyone (never a 500), confirmed before it cancels a game; a withdrawal
confirmed first; a failed notification (a webhook nobody answers) listed and tried again; an
old tournament stream (no hours, no new settings) still folds and its page still opens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app, settle, sign_in


def _form(client, path: str, data: dict, page: str):  # type: ignore[no-untyped-def]
    return client.post(path, data={"csrf": csrf_of(client, page), **data}, headers=ORIGIN)


def _event(tapp: Flask, clients: dict) -> tuple[str, str]:  # type: ignore[type-arg]
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    r = _form(director, "/tournaments", {"name": "Form Swiss", "game": "up-front:A", "kind": "swiss",
                                         "rounds": "2", "days": "0", "hours": "36", "remind_hours": "12",
                                         "withdrawal": "adjudicate"}, "/tournaments")
    assert r.status_code == 303, r.get_data(as_text=True)
    page = r.headers["Location"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        c = tapp.test_client()
        sign_in(tapp, c, f"{name.lower()}@example.org", name)
        assert _form(c, f"{page}/register", {}, page).status_code == 303
        clients[name] = c
    clients["Director"] = director
    assert _form(director, f"{page}/desk/pair", {}, f"{page}/desk").status_code == 303
    return page, page.rsplit("/", 1)[1]


@pytest.mark.slow
def test_the_create_form_names_scenarios_and_sets_hours(tapp: Flask) -> None:
    clients: dict = {}  # type: ignore[type-arg]
    page, tid = _event(tapp, clients)
    html = clients["Director"].get("/tournaments").get_data(as_text=True)
    assert ">A: Meeting of Patrols (mountain)</option>" in html  # not a bare "A"
    t = tapp.extensions["warlog_tournaments"].get(tid)
    assert t.time_control["hours"] == 36 and t.time_control["days"] == 0 and t.time_control["remind_hours"] == 12
    assert t.format["withdrawal"] == "adjudicate"
    shown = clients["Ann"].get(page).get_data(as_text=True)
    assert "Meeting of Patrols (mountain)" in shown
    clock = tapp.extensions["warlog_clock"]
    for p in t.rounds[1].pairings:
        for d in clock.deadlines(tid):
            if d.game_id == p.game_id:
                assert d.remind_at is not None  # a 36-hour move is reminded (12 hours before)


@pytest.mark.slow
def test_repair_and_withdraw_forms_confirm_first_and_refuse_clearly(tapp: Flask) -> None:
    clients: dict = {}  # type: ignore[type-arg]
    page, tid = _event(tapp, clients)
    director, desk = clients["Director"], f"{page}/desk"
    svc = tapp.extensions["warlog_tournaments"]
    t = svc.get(tid)
    a, b = t.rounds[1].pairings
    roles = t.roles
    # everyone but one player placed: refused, naming who is missing
    r = _form(director, f"{desk}/repair", {f"table-1-{roles[0]}": a.seats[roles[0]],
                                           f"table-1-{roles[1]}": b.seats[roles[1]], "reason": "swap"}, desk)
    assert r.status_code == 400 and "not placed" in r.get_data(as_text=True)
    swap = {f"table-1-{roles[0]}": a.seats[roles[0]], f"table-1-{roles[1]}": b.seats[roles[1]],
            f"table-2-{roles[0]}": b.seats[roles[0]], f"table-2-{roles[1]}": a.seats[roles[1]],
            "reason": "the sheet was wrong"}
    r = _form(director, f"{desk}/repair", swap, desk)
    text = r.get_data(as_text=True)
    assert r.status_code == 200 and "Confirm: Re-pair round 1" in text and "Cancelled" in text
    assert svc.get(tid).last_seq == t.last_seq  # nothing recorded before the confirmation
    r = _form(director, f"{desk}/repair", {**swap, "confirmed": "1"}, desk)
    assert r.status_code == 303
    t = svc.get(tid)
    assert t.rounds[1].extra["repaired"] == "the sheet was wrong"
    settle(tapp)
    # a withdrawal under the adjudicate policy: confirmed first; the directors are asked to adjudicate
    quitter = t.rounds[1].pairings[0].seats[roles[0]]
    r = _form(director, f"{desk}/withdraw", {"player_id": quitter, "reason": "moved"}, desk)
    assert "left for you to adjudicate" in r.get_data(as_text=True)
    assert _form(director, f"{desk}/withdraw", {"player_id": quitter, "reason": "moved", "confirmed": "1"},
                 desk).status_code == 303
    assert svc.get(tid).entrants[quitter].withdrawn
    settle(tapp)
    mails = tapp.extensions["warlog_notifier"].outbox(to="td@example.org")
    # the game named by its titles, its id at the end (for mail filters)
    quitters_game = t.rounds[1].pairings[0].game_id
    assert any(m["subject"].startswith("Form Swiss: adjudicate a game (")
               and m["subject"].endswith(f" — Meeting of Patrols (mountain)) [{quitters_game}]")
               for m in mails), [m["subject"] for m in mails]
    # an extension in hours from the desk's form
    gid = t.rounds[1].pairings[1].game_id
    pid = t.rounds[1].pairings[1].seats[roles[0]]
    r = _form(director, f"{desk}/extend", {"game_id": gid, "player_id": pid, "amount": "6", "unit": "hours",
                                           "reason": "power cut"}, desk)
    assert r.status_code == 303
    assert svc.get(tid).extensions[-1]["hours"] == 6 and svc.get(tid).extensions[-1]["days"] == 0
    r = _form(director, f"{desk}/extend", {"game_id": gid, "player_id": pid, "amount": "x", "unit": "hours",
                                           "reason": "r"}, desk)
    assert r.status_code == 400


@pytest.fixture
def loopback_hooks_app(db_url: str) -> Iterator[Flask]:
    """An app whose players may point webhooks at loopback (WARLOG_WEBHOOK_ALLOW_PRIVATE): the
    failing webhook below is a closed port on this machine."""
    app = make_app(db_url, WARLOG_WEBHOOK_ALLOW_PRIVATE="1")
    yield app
    close_app(app)


@pytest.mark.slow
def test_a_failed_notification_is_tried_again_from_the_desk(loopback_hooks_app: Flask) -> None:
    tapp = loopback_hooks_app
    clients: dict = {}  # type: ignore[type-arg]
    notifier = tapp.extensions["warlog_notifier"]
    page, tid = _event(tapp, clients)
    ann = tapp.extensions["warlog_players"].by_email("ann@example.org").id
    notifier.set_prefs(ann, email_on=False, webhook_url="http://127.0.0.1:9/nobody-listens")
    director, desk = clients["Director"], f"{page}/desk"
    assert _form(director, f"{desk}/announce", {"text": "Hello all"}, desk).status_code == 303
    settle(tapp)
    failed = notifier.failed(tournament_id=tid)
    assert failed and failed[0].player_id == ann
    html = director.get(desk).get_data(as_text=True)
    assert "Try again" in html and failed[0].id in html
    assert _form(director, f"{desk}/retry", {"delivery_id": failed[0].id}, desk).status_code == 303
    assert notifier.get(failed[0].id).attempts <= 1  # a fresh set of attempts
    assert _form(director, f"{desk}/retry", {"delivery_id": "nope"}, desk).status_code == 404
    assert _form(clients["Bob"], f"{desk}/retry", {"delivery_id": failed[0].id}, page).status_code == 403


@pytest.mark.slow
def test_a_one_day_move_is_reminded(tapp: Flask) -> None:
    """One day per move with the default reminder (24 hours before) used to set no reminder at
    all: 24 hours before the deadline is the turn's start. It is now reminded halfway (12 hours)."""
    from datetime import timedelta

    from tests.tournaments.conftest import Desk
    from warlog.ops.sqldb import parse_iso

    desk = Desk(tapp)
    for name in ("Director", "Ann", "Bob"):
        desk.player(name)
    t = desk.post("/api/v1/tournaments", "Director", {"name": "Daily", "game": "assault-on-belgium",
                                                      "format": {"kind": "swiss", "rounds": 1},
                                                      "time_control": {"days": 1}}, status=201)
    for name in ("Ann", "Bob"):
        desk.post(f"/api/v1/tournaments/{t['id']}/register", name)
    desk.post(f"/api/v1/tournaments/{t['id']}/rounds", "Director", status=201)
    deadlines = tapp.extensions["warlog_clock"].deadlines(t["id"])
    assert deadlines
    for d in deadlines:
        assert d.remind_at is not None
        assert parse_iso(d.due_at) - parse_iso(d.remind_at) == timedelta(hours=12)
