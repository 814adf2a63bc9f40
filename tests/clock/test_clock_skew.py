"""A worker whose clock is off fires nothing (a forfeit cannot be taken back): deadlines are set
and compared in the database's time, and a sweep in a process whose own clock disagrees with the
database's by more than the tolerance fires nothing and says why. The process's clock is skewed
for real (the module's `datetime`), the database's is left alone. On both backends."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from tests.clock.test_clock import _game
from tests.players.conftest import close_app, make_app
from warlog.clock import ClockAct, GameClock, TimeControl
from warlog.ops import sqldb


class _TwoDaysAhead(datetime):
    """`datetime` as seen by a host whose clock jumped two days ahead."""

    @classmethod
    def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
        return datetime.now(UTC) + timedelta(days=2)


def test_the_database_clock_is_the_real_time_on_both_backends(db_url: str) -> None:
    app = make_app(db_url, WARLOG_PERIODIC=False)
    try:
        clock: GameClock = app.extensions["warlog_clock"]
        assert abs((clock.db.now() - datetime.now(UTC)).total_seconds()) < 5
        assert clock.skew() is None
    finally:
        close_app(app)


def test_a_worker_two_days_ahead_forfeits_nothing_and_says_why(db_url: str, monkeypatch: pytest.MonkeyPatch,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    app = make_app(db_url, WARLOG_PERIODIC=False)
    try:
        game = _game(app)
        clock: GameClock = app.extensions["warlog_clock"]
        fired: list[ClockAct] = []
        clock.register_expiry_handler("forfeit", fired.append)
        clock.set_time_control(game.id, TimeControl(days=1, policy="forfeit"))
        monkeypatch.setattr(sqldb, "datetime", _TwoDaysAhead)  # this process's clock jumps ahead
        with caplog.at_level(logging.WARNING, logger="warlog.clock"):
            counts = clock.sweep()
        assert counts["expired"] == 0 and counts["reminded"] == 0 and fired == []
        assert abs(counts["skew_seconds"] - 2 * 86400) < 60
        assert "fired nothing" in caplog.text and "off the database's" in caplog.text
        d = clock.deadline(game.id, "north")
        assert d is not None and d.status == "open"
        monkeypatch.undo()  # the host's time is fixed: the deadline is still a day away
        assert clock.sweep()["expired"] == 0 and fired == []
        assert [a.act for a in clock.acts(game.id)] == ["deadline_set"]
    finally:
        close_app(app)
