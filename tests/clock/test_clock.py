"""Deadlines on both backends with an injected clock (time controls for PBEM — days per
move, a chess clock in days — reminders, expiry policies notify_director / extend / forfeit,
every act recorded with its time, deadlines in the database surviving a restart)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from ledger.factory import open_store
from tests.conftest import Player as Driver
from tests.players.conftest import FakeNow, close_app, make_app, settle
from warlog.clock import ClockAct, ClockError, GameClock, TimeControl
from warlog.ops.sqldb import SqlDb


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()


def _app(db: str, fake: FakeNow) -> Flask:
    app = make_app(db, WARLOG_PERIODIC=False)
    app.extensions["warlog_clock"].now = fake
    return app


@pytest.fixture
def capp(db_url: str, fake: FakeNow) -> Iterator[Flask]:
    app = _app(db_url, fake)
    yield app
    close_app(app)


def _game(app: Flask, owned: bool = True, join: bool = True) -> Driver:
    client = app.test_client()
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    game = Driver(client, app, r.get_json())
    if owned:
        players = app.extensions["warlog_players"]
        for seat in game.created["seats"]:
            p = players.by_email(f"{seat}@example.org") or players.register(seat.title(), f"{seat}@example.org")
            players.claim_seat(game.id, seat, p.id)
    if join:
        game.join_all()
    return game


def _clock(app: Flask) -> GameClock:
    clock: GameClock = app.extensions["warlog_clock"]
    return clock


def _mails(app: Flask, to: str) -> list[str]:
    settle(app)
    return [m["subject"] for m in app.extensions["warlog_notifier"].outbox(to=to)]


def _acts(clock: GameClock, game_id: str) -> list[tuple[str, str, str]]:
    return [(a.act, a.seat, a.at) for a in clock.acts(game_id)]


def test_days_per_move_reminds_then_expires_to_the_director(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    seen: list[ClockAct] = []
    clock.register_expiry_handler("notify_director", seen.append)
    clock.set_time_control(game.id, TimeControl(days=3, remind_hours=24), tournament_id="t1")
    d = clock.deadline(game.id, "north")
    assert d is not None and d.due_at == "2026-03-04T12:00:00Z" and d.tournament_id == "t1"
    fake.advance(days=1)
    assert clock.sweep() == {"handled": 0, "started": 0, "reminded": 0, "extended": 0, "expired": 0}
    fake.advance(days=1)
    assert clock.sweep()["reminded"] == 1
    assert clock.sweep()["reminded"] == 0  # once
    assert f"Deadline soon: Dice Duel (test game) — First to 10 [{game.id}]" in _mails(capp, "north@example.org")
    fake.advance(days=1)
    assert clock.sweep()["expired"] == 1
    assert [a.act for a in seen] == ["expired"] and seen[0].detail["policy"] == "notify_director"
    assert seen[0].at == "2026-03-04T12:00:00Z" and seen[0].tournament_id == "t1"
    assert [(d.game_id, d.seat) for d in clock.overdue("t1")] == [(game.id, "north")]
    assert any(s.startswith("Time is up") for s in _mails(capp, "north@example.org"))
    assert [a[0] for a in _acts(clock, game.id)] == ["deadline_set", "reminder_sent", "expired"]
    assert clock.sweep()["expired"] == 0  # fired once


def test_a_move_clears_the_deadline_and_starts_the_next_seat(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    clock.set_time_control(game.id, TimeControl(days=2))
    fake.advance(hours=5)
    game.play("north", {"type": "bank"})
    assert clock.deadline(game.id, "north").status == "cleared"
    south = clock.deadline(game.id, "south")
    assert south is not None and south.status == "open" and south.due_at == "2026-03-03T17:00:00Z"
    settle(capp)
    mails = capp.extensions["warlog_notifier"].outbox(to="south@example.org")
    assert "due by 2026-03-03T17:00:00Z" in mails[0]["body"]  # the your-turn mail names the deadline
    assert capp.extensions["warlog_deadline_of"](game.id, "south")["due_at"] == south.due_at


def test_extensions_from_the_bank_then_forfeit(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    forfeits: list[ClockAct] = []
    extended: list[ClockAct] = []
    clock.register_expiry_handler("forfeit", forfeits.append)
    clock.register_expiry_handler("extended", extended.append)
    clock.set_time_control(game.id, TimeControl(days=1, bank_days=2, extension_days=1, policy="extend",
                                                then="forfeit", remind_hours=0))
    for day in (1, 2):
        fake.advance(days=1)
        assert clock.sweep()["extended"] == 1
        assert clock.bank(game.id, "north") == (2 - day) * 86400
    assert [a.detail["due_at"] for a in extended] == ["2026-03-03T12:00:00Z", "2026-03-04T12:00:00Z"]
    fake.advance(days=1)
    assert clock.sweep()["expired"] == 1
    assert [(a.act, a.detail["policy"]) for a in forfeits] == [("expired", "forfeit")]
    assert clock.deadline(game.id, "north").status == "expired"


def test_chess_clock_in_days_charges_each_turn(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    clock.set_time_control(game.id, TimeControl(mode="bank", bank_days=5, increment_hours=6, remind_hours=0))
    assert clock.deadline(game.id, "north").due_at == "2026-03-06T12:00:00Z"
    fake.advance(days=2)
    game.play("north", {"type": "bank"})
    assert clock.bank(game.id, "north") == 3 * 86400 + 6 * 3600  # 5 days - 2 used + 6 hours
    fake.advance(days=1)
    game.play("south", {"type": "bank"})
    assert clock.bank(game.id, "south") == 4 * 86400 + 6 * 3600
    assert clock.deadline(game.id, "north").due_at == "2026-03-07T18:00:00Z"  # 03-04 12:00 + 3 d 6 h
    acts = [a for a in clock.acts(game.id) if a.act == "bank_charged"]
    assert [(a.seat, a.detail["used_seconds"]) for a in acts] == [("north", 2 * 86400), ("south", 86400)]


def test_a_failing_handler_is_called_again_at_the_next_sweep(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    calls: list[str] = []

    def flaky(act: ClockAct) -> None:
        calls.append(act.id)
        if len(calls) == 1:
            raise RuntimeError("tournament stream busy")

    clock.register_expiry_handler("forfeit", flaky)
    clock.set_time_control(game.id, TimeControl(days=1, policy="forfeit", remind_hours=0))
    fake.advance(days=1)
    assert clock.sweep()["handled"] == 0 and len(calls) == 1
    assert clock.sweep()["handled"] == 1 and calls == [calls[0], calls[0]]  # the same act, again
    assert clock.sweep()["handled"] == 0 and len(calls) == 2


@pytest.mark.slow
def test_a_game_that_starts_later_gets_its_deadline_when_it_starts(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp, join=False)
    clock = _clock(capp)
    clock.set_time_control(game.id, TimeControl(days=4))
    assert clock.sweep()["started"] == 0 and clock.deadline(game.id, "north") is None
    fake.advance(hours=1)
    game.join_all()  # the service's on_started hook
    assert clock.deadline(game.id, "north").due_at == "2026-03-05T13:00:00Z"
    assert clock.sweep()["started"] == 0


def test_the_sweep_catches_up_with_a_start_the_hooks_missed(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp, join=False)
    clock = _clock(capp)
    clock.set_time_control(game.id, TimeControl(days=4))
    capp.extensions["warlog"].on_started = None  # as if the web process died right after the start
    game.join_all()
    assert clock.deadline(game.id, "north") is None
    fake.advance(hours=1)
    assert clock.sweep()["started"] == 1
    assert clock.deadline(game.id, "north").due_at == "2026-03-05T13:00:00Z"
    assert clock.sweep()["started"] == 0


@pytest.mark.slow
def test_deadlines_survive_a_restart(db_url: str, fake: FakeNow) -> None:
    first = _app(db_url, fake)
    game = _game(first)
    _clock(first).set_time_control(game.id, TimeControl(days=1, policy="forfeit"))
    close_app(first)
    fake.advance(days=2)
    second = _app(db_url, fake)
    try:
        seen: list[ClockAct] = []
        _clock(second).register_expiry_handler("forfeit", seen.append)
        assert _clock(second).sweep()["expired"] == 1
        assert [(a.game_id, a.seat) for a in seen] == [(game.id, "north")]
    finally:
        close_app(second)


def test_two_sweepers_at_once_fire_each_expiry_once(capp: Flask, db_url: str, fake: FakeNow) -> None:
    games = [_game(capp, owned=False) for _ in range(6)]
    for g in games:
        _clock(capp).set_time_control(g.id, TimeControl(days=1, policy="forfeit"))
    fake.advance(days=1)
    store = open_store(db_url)
    other = GameClock(SqlDb(store), store, now=fake)
    results: list[dict[str, int]] = []
    threads = [threading.Thread(target=lambda c=c: results.append(c.sweep())) for c in (_clock(capp), other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    assert len(results) == 2, "both sweeps ran to the end"
    assert sum(r["expired"] for r in results) == 6
    expired = [a for g in games for a in _clock(capp).acts(g.id) if a.act == "expired"]
    assert len(expired) == 6


def test_bad_time_controls_and_deadlines_are_refused(capp: Flask, fake: FakeNow) -> None:
    bad: list[dict[str, Any]] = [{"mode": "hourglass"}, {"days": 0}, {"mode": "bank", "bank_days": 0},
                                 {"policy": "shrug"}, {"then": "extend"}, {"days": -1}, {"days": True}]
    for doc in bad:
        with pytest.raises(ClockError):
            TimeControl.from_json(doc)
    with pytest.raises(ClockError):
        TimeControl.from_json({"speed": 3})
    clock = _clock(capp)
    with pytest.raises(ClockError):
        clock.set_deadline("g", "north", fake() + timedelta(days=1), "shrug")
    with pytest.raises(ClockError):
        clock.register_expiry_handler("reminder", print)


def test_set_deadline_directly_for_a_tournament(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp)
    clock = _clock(capp)
    clock.set_bank(game.id, "north", 3600 * 12)
    d = clock.set_deadline(game.id, "north", fake() + timedelta(days=2), "extend", "t9", then="forfeit")
    assert (d.policy, d.then_policy, d.remind_at) == ("extend", "forfeit", "2026-03-02T12:00:00Z")
    fake.advance(days=2)
    assert clock.sweep()["extended"] == 1
    assert clock.deadline(game.id, "north").due_at == "2026-03-04T00:00:00Z"  # 12 hours from the bank
    fake.advance(hours=12)
    assert clock.sweep()["expired"] == 1
    assert [a.act for a in clock.acts(tournament_id="t9")] == ["deadline_set", "extended", "expired"]
    # the seat's move after a director's decision clears nothing that is already expired
    game.play("north", {"type": "bank"})
    assert clock.deadline(game.id, "north").status == "expired"


def test_my_games_shows_the_deadline(capp: Flask, fake: FakeNow) -> None:
    from tests.players.conftest import sign_in

    game = _game(capp)
    _clock(capp).set_time_control(game.id, TimeControl(days=3))
    browser = capp.test_client()
    sign_in(capp, browser, "north@example.org")
    html = browser.get("/me").get_data(as_text=True)
    assert "2026-03-04T12:00:00Z" in html and "Your turn" in html


def test_the_director_sets_an_ordinary_games_clock_through_the_api(capp: Flask, fake: FakeNow) -> None:
    game = _game(capp, owned=False)
    url = f"/api/v1/games/{game.id}/clock"
    body = {"mode": "per_move", "days": 2, "policy": "notify_director"}
    assert game.client.post(url, json=body).status_code == 401
    assert game.client.post(url, json=body, headers=game.auth("north")).status_code == 403
    assert game.client.post(url, json={"days": 0}, headers=game.auth("director")).status_code == 422
    assert game.client.post(url, json={"speed": 1}, headers=game.auth("director")).status_code == 422
    assert game.client.post(url, json=[1], headers=game.auth("director")).status_code == 400
    assert game.client.get("/api/v1/games/nope/clock").status_code == 404
    r = game.client.post(url, json=body, headers=game.auth("director"))
    assert r.status_code == 200 and r.get_json()["deadlines"]["north"]["due_at"] == "2026-03-03T12:00:00Z"
    public = game.client.get(url).get_json()
    assert public["control"]["days"] == 2 and [a["act"] for a in public["acts"]] == ["deadline_set"]
