"""Leave, pauses and quiet days stop a seat's clock (warlog.clock.leave), on both backends, with a
real SMTP server and the time moved through the injected clock (nothing sleeps)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from ledger.events import LEAVE_DECLARED, LEAVE_ENDED, LEAVE_GRANTED, PAUSE_AGREED, PAUSE_ASKED, PAUSE_ENDED
from tests.conftest import Player as Driver
from tests.notify.conftest import Smtp, smtp  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import FakeNow, close_app, make_app, settle
from tests.support.documented import Documented
from warlog.clock import GameClock, TimeControl
from warlog.trust.verify import verify_bytes


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()  # Sunday 2026-03-01 12:00 UTC


@pytest.fixture
def lapp(db_url: str, fake: FakeNow, smtp: Smtp) -> Iterator[Flask]:  # noqa: F811
    app = make_app(db_url, WARLOG_PERIODIC=False, WARLOG_SMTP_URL=smtp.url, WARLOG_PUBLIC_URL="https://warlog.example")
    app.extensions["warlog_clock"].now = fake
    yield app
    close_app(app)


def _player(app: Flask, name: str) -> tuple[str, str]:
    players = app.extensions["warlog_players"]
    p = players.by_email(f"{name}@example.org") or players.register(name.title(), f"{name}@example.org")
    return p.id, players.issue_token(p.id)


def _game(app: Flask, north: str, south: str) -> Driver:
    client = app.test_client()
    game = Driver(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
    players = app.extensions["warlog_players"]
    for seat, name in (("north", north), ("south", south)):
        players.claim_seat(game.id, seat, _player(app, name)[0])
    game.join_all()
    return game


def _clock(app: Flask) -> GameClock:
    found: GameClock = app.extensions["warlog_clock"]
    return found


def _types(app: Flask, game_id: str) -> list[str]:
    return [ev.type for ev in app.extensions["warlog"].store.read(game_id)]


def _subjects(smtp: Smtp, to: str) -> list[str]:  # noqa: F811
    return [str(m["Subject"]) for m in smtp.messages if m["To"] == to]


def _mailed(smtp: Smtp, to: str, text: str) -> bool:  # noqa: F811
    """Whether a mail to `to` whose subject holds `text` arrives (waits for the SMTP server, up to 10 s)."""
    with smtp.handler.arrived:
        return smtp.handler.arrived.wait_for(lambda: any(text in s for s in _subjects(smtp, to)), 10)


def _verifies(game: Driver) -> None:
    """The director's export (the game runs still) passes `warlog verify`."""
    import tempfile
    from pathlib import Path

    from click.testing import CliRunner

    from warlog.cli import main

    data = game.client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director")).get_data()
    verify_bytes(data)  # raises naming the bad event
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.jsonl"
        path.write_bytes(data)
        r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0 and r.output.startswith("OK"), r.output


def test_a_week_of_leave_stops_both_clocks_moves_the_deadlines_and_is_recorded(
        lapp: Flask, fake: FakeNow, smtp: Smtp) -> None:  # noqa: F811
    one, two = _game(lapp, "alice", "bob"), _game(lapp, "alice", "carol")
    clock = _clock(lapp)
    for g in (one, two):
        clock.set_time_control(g.id, TimeControl(days=3, remind_hours=0))
        assert clock.deadline(g.id, "north").due_at == "2026-03-04T12:00:00Z"
    heard: list[tuple[str, str, int]] = []
    lapp.extensions["warlog_away"].listeners.append(lambda what, lv, games: heard.append((what, lv.id, len(games))))
    _, token = _player(lapp, "alice")
    r = Documented(lapp.test_client()).call("post", "/api/v1/players/me/leave", json={"from": "2026-03-03",
                                            "to": "2026-03-09"}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.get_json()  # and the answer is the one the OpenAPI document describes
    assert r.get_json()["leave"]["days"] == 7 and r.get_json()["allowance"]["left"] == 35
    # 1.5 days run before the leave (03-01 12:00 to 03-03 00:00), the other 1.5 after it (from 03-10 00:00)
    for g in (one, two):
        assert clock.deadline(g.id, "north").due_at == "2026-03-11T12:00:00Z"
        assert _types(lapp, g.id)[-1] == LEAVE_DECLARED
        assert [a.act for a in clock.acts(g.id)][-1] == "retimed"
    settle(lapp)
    assert _mailed(smtp, "bob@example.org", "Alice will be on leave")
    assert _mailed(smtp, "carol@example.org", "Alice will be on leave")
    assert not any("leave" in s for s in _subjects(smtp, "alice@example.org"))
    fake.advance(days=5)  # 03-06: the old deadline has long passed
    assert clock.sweep()["expired"] == 0
    fake.advance(days=4)  # 03-10 12:00: the leave is over
    away = lapp.extensions["warlog_away"]
    assert away.sweep() == 1 and away.sweep() == 0
    assert clock.sweep()["expired"] == 0
    leave_id = r.get_json()["leave"]["id"]
    assert heard == [("declared", leave_id, 2), ("ended", leave_id, 2)]  # what a tournament's stream records
    for g in (one, two):
        assert _types(lapp, g.id)[-1] == LEAVE_ENDED
        _verifies(g)
    settle(lapp)
    assert _mailed(smtp, "bob@example.org", "Alice is back from leave")
    fake.advance(days=1)
    assert clock.sweep()["expired"] == 2  # 03-11 12:00: the moved deadlines fire


@pytest.mark.slow
def test_a_chess_clock_is_not_charged_for_leave(lapp: Flask, fake: FakeNow) -> None:
    game = _game(lapp, "alice", "bob")
    clock = _clock(lapp)
    clock.set_time_control(game.id, TimeControl(mode="bank", bank_days=10, remind_hours=0))
    alice, _ = _player(lapp, "alice")
    lapp.extensions["warlog_away"].declare(alice, *_days("2026-03-03", "2026-03-09"))
    fake.advance(days=10)  # 03-11 12:00: 10 days passed, 7 of them on leave
    game.play("north", {"type": "bank"})
    assert clock.bank(game.id, "north") == 7 * 86400


def _days(a: str, b: str) -> tuple[Any, Any]:
    from datetime import date

    return date.fromisoformat(a), date.fromisoformat(b)


def test_a_pause_asked_and_agreed_stops_the_clock_until_resumed(lapp: Flask, fake: FakeNow, smtp: Smtp) -> None:  # noqa: F811
    game = _game(lapp, "alice", "bob")
    clock = _clock(lapp)
    clock.set_time_control(game.id, TimeControl(days=3, remind_hours=0))
    client = Documented(lapp.test_client())  # every answer checked against the OpenAPI document
    fake.advance(days=1)
    r = client.call("post", f"/api/v1/games/{game.id}/pause", json={"do": "ask"}, headers=game.auth("north"))
    assert r.status_code == 200 and r.get_json()["pause"]["paused"] is False
    assert client.call("post", f"/api/v1/games/{game.id}/pause", json={"do": "agree"},
                       headers=game.auth("north")).status_code == 409  # the asker agreed already
    r = client.call("post", f"/api/v1/games/{game.id}/pause", json={"do": "agree"}, headers=game.auth("south"))
    assert r.get_json()["pause"]["paused"] is True
    fake.advance(days=10)
    assert clock.sweep()["expired"] == 0
    r = client.call("post", f"/api/v1/games/{game.id}/pause", json={"do": "resume"}, headers=game.auth("south"))
    assert r.status_code == 200 and r.get_json()["pause"] is None, r.get_json()
    assert clock.deadline(game.id, "north").due_at == "2026-03-14T12:00:00Z"  # 2 days left of 3, from 03-12 12:00
    assert _types(lapp, game.id)[-3:] == [PAUSE_ASKED, PAUSE_AGREED, PAUSE_ENDED]
    _verifies(game)
    settle(lapp)
    assert _mailed(smtp, "bob@example.org", "Pause asked")


@pytest.mark.slow
def test_the_game_page_asks_and_agrees_to_a_pause(lapp: Flask, fake: FakeNow) -> None:
    from tests.pages.conftest import ORIGIN, csrf_of

    game = _game(lapp, "alice", "bob")
    clock = _clock(lapp)
    clock.set_time_control(game.id, TimeControl(days=3, remind_hours=0))
    seats = {}
    for seat in ("north", "south"):
        c = lapp.test_client()
        assert c.get(f"/games/{game.id}/seat/{game.created['seats'][seat]}").status_code == 303
        seats[seat] = c
    path = f"/games/{game.id}"
    assert "Ask to pause the game" in seats["north"].get(path).get_data(as_text=True)
    assert "Ask to pause" not in lapp.test_client().get(path).get_data(as_text=True)  # a spectator has no control
    for seat, do in (("north", "ask"), ("south", "agree")):
        r = seats[seat].post(f"{path}/pause", data={"csrf": csrf_of(seats[seat], path), "do": do}, headers=ORIGIN)
        assert r.status_code == 303, r.get_data(as_text=True)
    assert "Paused" in seats["north"].get(path).get_data(as_text=True)
    fake.advance(days=5)
    assert clock.sweep()["expired"] == 0


def test_quiet_days_keep_a_clock_still_over_a_weekend(lapp: Flask, fake: FakeNow) -> None:
    game = _game(lapp, "alice", "bob")
    clock = _clock(lapp)
    _, token = _player(lapp, "alice")
    r = lapp.test_client().put("/api/v1/players/me/quiet", json={"windows": [{"day": "sat"}, {"day": "sun"}]},
                               headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.get_json()
    fake.advance(days=5)  # Friday 2026-03-06 12:00
    clock.set_time_control(game.id, TimeControl(days=1, remind_hours=0))
    # half a day on Friday, the weekend still, half a day on Monday
    assert clock.deadline(game.id, "north").due_at == "2026-03-09T12:00:00Z"
    fake.advance(days=2, hours=12)  # Monday 00:00
    assert clock.sweep()["expired"] == 0
    fake.advance(hours=12)
    assert clock.sweep()["expired"] == 1


def test_the_allowance_refuses_short_blocks_late_notice_and_too_many_days_with_422(lapp: Flask) -> None:
    game = _game(lapp, "alice", "bob")
    _player(lapp, "bob")
    _, token = _player(lapp, "alice")
    client = Documented(lapp.test_client())
    auth = {"Authorization": f"Bearer {token}"}

    def declare(a: str, b: str) -> Any:
        return client.call("post", "/api/v1/players/me/leave", json={"from": a, "to": b}, headers=auth)

    r = declare("2026-03-03", "2026-03-05")
    assert r.status_code == 422 and "blocks of at least 7 days; this one is 3" in r.get_json()["error"]
    r = declare("2026-03-01", "2026-03-09")
    assert r.status_code == 422 and "declared at least 1 day(s) before" in r.get_json()["error"]
    r = declare("2026-03-03", "2026-04-23")
    assert r.status_code == 422 and "42 days of leave a year" in r.get_json()["error"], r.get_json()
    assert declare("2026-03-03", "not a date").status_code == 422
    # a director grants ten more days, recorded with the reason in the game
    r = client.call("post", f"/api/v1/games/{game.id}/leave-grants",
                    json={"seat": "north", "days": 10, "reason": "surgery"}, headers=game.auth("director"))
    assert r.status_code == 201 and r.get_json()["allowance"]["left"] == 52
    assert client.call("post", f"/api/v1/games/{game.id}/leave-grants",
                       json={"seat": "north", "days": 10, "reason": "x"}, headers=game.auth("south")).status_code == 403
    assert _types(lapp, game.id)[-1] == LEAVE_GRANTED
    assert declare("2026-03-03", "2026-04-23").status_code == 201  # 52 days
    # one player of a game on leave at a time
    bob = lapp.extensions["warlog_players"].by_email("bob@example.org")
    bob_token = lapp.extensions["warlog_players"].issue_token(bob.id)
    r = client.call("post", "/api/v1/players/me/leave", json={"from": "2026-04-01", "to": "2026-04-08"},
                    headers={"Authorization": f"Bearer {bob_token}"})
    assert r.status_code == 422 and "1 player(s) on leave at once" in r.get_json()["error"]
    _verifies(game)
    r = client.call("put", "/api/v1/players/me/quiet", json={"windows": [{"day": d} for d in ("fri", "sat", "sun")]},
                    headers=auth)
    assert client.call("get", "/api/v1/players/me/leave", headers=auth).status_code == 200
    assert r.status_code == 422 and "at most 48 quiet hours" in r.get_json()["error"]


def test_a_tournaments_policy_is_its_own_no_quiet_hours_and_no_leave(lapp: Flask, fake: FakeNow) -> None:
    from warlog.clock.leave import LeavePolicy

    game = _game(lapp, "alice", "bob")
    clock, away = _clock(lapp), lapp.extensions["warlog_away"]
    away.set_policy(LeavePolicy(days_per_year=0, quiet_hours_per_week=0), tournament_id="t-strict")
    alice, token = _player(lapp, "alice")
    away.set_quiet(alice, [{"day": "sat", "from": "00:00", "to": "24:00"}, {"day": "sun", "from": "00:00", "to": "24:00"}])
    fake.advance(days=5)  # Friday 12:00
    clock.set_time_control(game.id, TimeControl(days=1, remind_hours=0), tournament_id="t-strict")
    assert clock.deadline(game.id, "north").due_at == "2026-03-07T12:00:00Z"  # the weekend is not quiet here
    r = lapp.test_client().post("/api/v1/players/me/leave", json={"from": "2026-03-10", "to": "2026-03-20"},
                                headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 422 and r.get_json()["error"] == "tournament t-strict's rules allow no leave"
    assert away.policy("t-strict").days_per_year == 0 and away.policy().days_per_year == 42


def test_verify_refuses_time_away_that_rolls_dice_or_speaks_for_no_seat(lapp: Flask) -> None:
    import json

    from ledger.events import Event, seal
    from ledger.events import NewEvent as New
    from warlog.trust.verify import VerifyFailure, verify_events

    game = _game(lapp, "alice", "bob")
    client = lapp.test_client()
    client.post(f"/api/v1/games/{game.id}/pause", json={"do": "ask"}, headers=game.auth("north"))
    data = client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director")).get_data()
    events = [Event.from_json(json.loads(line)) for line in data.decode().splitlines()]
    verify_events(events)
    for seat, payload, why in (("north", {"dice": [1]}, "changes no state and rolls no dice"),
                               ("director", {}, "is a seat's")):
        last = events[-2]
        forged = events[:-1] + [seal(game.id, last.seq + 1, New(PAUSE_ASKED, seat, payload), last.recorded_at,
                                     last.hash)]
        with pytest.raises(VerifyFailure, match=why):
            verify_events(forged)


def test_leave_and_quiet_days_on_the_me_page(lapp: Flask, fake: FakeNow) -> None:
    from tests.pages.conftest import ORIGIN, csrf_of
    from warlog.web.pageutil import PLAYER_COOKIE

    _game(lapp, "alice", "bob")
    browser = lapp.test_client()  # signed in as the sign-in link would (tests/players test that path)
    browser.set_cookie(PLAYER_COOKIE, lapp.extensions["warlog_players"].new_session(_player(lapp, "alice")[0]))
    page = browser.get("/me").get_data(as_text=True)
    assert "Leave and quiet days" in page and "42 of 42 days left in 2026" in page
    r = browser.post("/me/leave", data={"csrf": csrf_of(browser, "/me"), "from": "2026-03-03", "to": "2026-03-04"},
                     headers=ORIGIN)
    assert r.status_code == 422 and "blocks of at least 7 days" in r.get_data(as_text=True)
    r = browser.post("/me/leave", data={"csrf": csrf_of(browser, "/me"), "from": "2026-03-03", "to": "2026-03-09"},
                     headers=ORIGIN)
    assert r.status_code == 303
    r = browser.post("/me/quiet", data={"csrf": csrf_of(browser, "/me"), "quiet_sat": "1", "quiet_sun": "1"},
                     headers=ORIGIN)
    assert r.status_code == 303
    page = browser.get("/me").get_data(as_text=True)
    assert "35 of 42 days left" in page and "2026-03-03 to 2026-03-09" in page
    assert 'name="quiet_sat" value="1" checked' in page and 'name="quiet_mon" value="1" >' in page


def test_leave_without_notice_starts_now_never_in_the_past(lapp: Flask, fake: FakeNow) -> None:
    """With no notice asked, leave may start today, but from the moment it is declared: a chess
    clock is not given back the part of the day already played."""
    from warlog.clock.leave import LeavePolicy

    game = _game(lapp, "alice", "bob")
    clock, away = _clock(lapp), lapp.extensions["warlog_away"]
    away.set_policy(LeavePolicy(notice_days=0, min_block_days=1))
    clock.set_time_control(game.id, TimeControl(mode="bank", bank_days=5, remind_hours=0))
    fake.advance(hours=6)  # 18:00
    alice, _ = _player(lapp, "alice")
    leave = away.declare(alice, *_days("2026-03-01", "2026-03-01"))
    assert (leave.starts_at, leave.ends_at) == ("2026-03-01T18:00:00Z", "2026-03-02T00:00:00Z")
    fake.advance(hours=8)  # 02:00 the next day
    game.play("north", {"type": "bank"})
    assert clock.bank(game.id, "north") == 5 * 86400 - 8 * 3600  # 12:00-18:00 and 00:00-02:00


def test_the_servers_allowance_is_a_setting(db_url: str, fake: FakeNow) -> None:
    app = make_app(db_url, WARLOG_PERIODIC=False, WARLOG_LEAVE_POLICY='{"min_block_days": 3, "days_per_year": 20}')
    try:
        app.extensions["warlog_clock"].now = fake
        _, token = _player(app, "alice")
        client = app.test_client()
        assert client.post("/api/v1/players/me/leave", json={"from": "2026-03-03", "to": "2026-03-05"}).status_code == 401
        r = client.post("/api/v1/players/me/leave", json={"from": "2026-03-03", "to": "2026-03-05"},
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201 and r.get_json()["allowance"] == {
            "year": 2026, "days_per_year": 20, "granted": 0, "taken": 3, "left": 17}
    finally:
        close_app(app)
    from warlog.clock.away_web import server_policy

    for bad in ('{"min_block_days": -1}', '{"days": 3}', "[1]", "not json"):
        with pytest.raises(ValueError, match="WARLOG_LEAVE_POLICY is not a leave policy"):
            server_policy({"WARLOG_LEAVE_POLICY": bad})  # what stops the app's start


def test_a_deadline_moved_by_leave_is_reminded_again_before_its_new_time(lapp: Flask, fake: FakeNow) -> None:
    game = _game(lapp, "alice", "bob")
    clock = _clock(lapp)
    clock.set_time_control(game.id, TimeControl(days=3, remind_hours=24))
    fake.advance(days=2, hours=1)  # 03-03 13:00: the reminder for 03-04 12:00 is due
    assert clock.sweep()["reminded"] == 1
    alice, _ = _player(lapp, "alice")
    lapp.extensions["warlog_away"].declare(alice, *_days("2026-03-09", "2026-03-15"))
    d = clock.deadline(game.id, "north")
    assert (d.due_at, d.remind_at, d.reminded_at) == ("2026-03-04T12:00:00Z", "2026-03-03T12:00:00Z",
                                                      "2026-03-03T13:00:00Z")  # before the leave: unmoved
    lapp.extensions["warlog_away"].set_quiet(alice, [{"day": "wed", "from": "00:00", "to": "24:00"}])  # 03-04
    d = clock.deadline(game.id, "north")
    assert (d.due_at, d.remind_at, d.reminded_at) == ("2026-03-05T12:00:00Z", "2026-03-04T12:00:00Z", None)
    fake.advance(days=1)  # 03-04 13:00
    assert clock.sweep()["reminded"] == 1


def test_two_declarations_at_once_cannot_both_spend_the_allowance(lapp: Flask) -> None:
    import threading

    from warlog.clock.leave import AwayRefused

    _game(lapp, "alice", "bob")
    alice, _ = _player(lapp, "alice")
    away = lapp.extensions["warlog_away"]
    start = threading.Barrier(2)
    results: list[str] = []

    def declare(a: str, b: str) -> None:
        start.wait()
        try:
            away.declare(alice, *_days(a, b))
            results.append("ok")
        except AwayRefused as err:
            results.append(str(err))

    threads = [threading.Thread(target=declare, args=days) for days in (("2026-04-01", "2026-04-30"),
                                                                          ("2026-06-01", "2026-06-30"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and results.count("ok") == 1, results  # 30 + 30 days > 42: one is refused
    assert sum(lv.days for lv in away.leaves(alice)) == 30


def test_a_move_made_before_the_opponents_leave_was_recorded_still_goes_in(lapp: Flask) -> None:
    game = _game(lapp, "alice", "bob")
    seen = game.actions("north")["expected_seq"]
    bob, _ = _player(lapp, "bob")
    lapp.extensions["warlog_away"].declare(bob, *_days("2026-03-03", "2026-03-09"))
    assert _types(lapp, game.id)[-1] == LEAVE_DECLARED
    r = game.client.post(f"/api/v1/games/{game.id}/moves", headers=game.auth("north"), json={
        "action": {"type": "bank"}, "expected_seq": seen, "idempotency_key": "k1"})
    assert r.status_code == 202, r.get_json()
    game.wait()
    assert game.info()["active_seats"] == ["south"]
    _verifies(game)
