"""The arithmetic of a clock that stops (warlog.clock.stops): leave, pauses and quiet hours are
skipped, an open stop holds the clock, weekly windows repeat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from warlog.clock.stops import merged, run_until, running_seconds, weekly_seconds, weekly_windows

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)  # a Sunday
H = timedelta(hours=1)


def test_run_until_skips_every_stop_and_an_open_stop_holds_the_clock() -> None:
    stops = [(T0 + 2 * H, T0 + 5 * H), (T0 + 4 * H, T0 + 6 * H)]  # overlapping: 4 hours stopped
    assert merged(stops) == [(T0 + 2 * H, T0 + 6 * H)]
    assert run_until(stops, T0, 3 * 3600) == T0 + 7 * H
    assert run_until(stops, T0, 2 * 3600) == T0 + 2 * H  # used up exactly as the stop begins
    assert run_until(stops + [(T0 + 8 * H, None)], T0, 10 * 3600) is None
    assert run_until(stops + [(T0 + 8 * H, None)], T0, 3 * 3600) == T0 + 7 * H
    assert running_seconds(stops, T0, T0 + 10 * H) == 6 * 3600


def test_weekly_windows_are_utc_days_repeating_each_week() -> None:
    spec = [{"day": "sat", "from": "00:00", "to": "24:00"}, {"day": "sun", "from": "00:00", "to": "12:00"}]
    assert weekly_seconds(spec) == 36 * 3600
    windows = weekly_windows(spec, T0, T0 + timedelta(days=8))  # Sun 12:00 .. next Mon 12:00
    assert (datetime(2026, 3, 7, tzinfo=UTC), datetime(2026, 3, 8, tzinfo=UTC)) in windows
    # a day's budget from Friday noon: 12 hours to Saturday, still until Sunday noon, 12 hours more
    assert run_until(windows, datetime(2026, 3, 6, 12, tzinfo=UTC), 86400) == datetime(2026, 3, 9, tzinfo=UTC)
