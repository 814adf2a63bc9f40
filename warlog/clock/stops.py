"""Time a seat's clock does not run: the interval arithmetic behind leave, pauses and quiet days.

A *stop* is a half-open interval [start, end) of UTC time (end None: open, until further
notice). A clock counts only the running time outside every stop: `running_seconds` measures
it between two moments, `run_until` finds the moment a budget of running time is used up
(None when an open stop swallows it). Quiet days repeat weekly (`weekly_windows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

Stop = tuple[datetime, datetime | None]
WEEK = timedelta(days=7)
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def merged(stops: Iterable[Stop]) -> list[Stop]:
    """The stops sorted and merged where they overlap or touch."""
    out: list[Stop] = []
    for start, end in sorted(stops, key=lambda s: s[0]):
        if end is not None and end <= start:
            continue
        if out and (out[-1][1] is None or start <= out[-1][1]):  # type: ignore[operator]
            last_start, last_end = out[-1]
            out[-1] = (last_start, None if end is None or last_end is None else max(last_end, end))
        else:
            out.append((start, end))
    return out


def stopped_seconds(stops: Iterable[Stop], a: datetime, b: datetime) -> int:
    """Seconds of [a, b) inside the stops."""
    total = 0.0
    for start, end in merged(stops):
        lo, hi = max(a, start), min(b, end) if end is not None else b
        if hi > lo:
            total += (hi - lo).total_seconds()
    return int(total)


def running_seconds(stops: Iterable[Stop], a: datetime, b: datetime) -> int:
    """Seconds of [a, b) that a clock with these stops counts."""
    if b <= a:
        return 0
    return int((b - a).total_seconds()) - stopped_seconds(stops, a, b)


def run_until(stops: Iterable[Stop], start: datetime, seconds: int) -> datetime | None:
    """The moment a clock started at `start` has run `seconds` (skipping every stop); None
    when an open stop begins before the budget is spent."""
    at, left = start, timedelta(seconds=max(0, seconds))
    for s_start, s_end in merged(stops):
        if s_end is not None and s_end <= at:
            continue
        if s_start > at:
            if at + left <= s_start:
                return at + left
            left -= s_start - at
        if s_end is None:
            return None
        at = max(at, s_end)
    return at + left


def weekly_windows(spec: list[dict[str, str]], a: datetime, b: datetime) -> list[Stop]:
    """The quiet windows of a weekly `spec` ([{"day": "sat", "from": "00:00", "to": "24:00"}],
    UTC) that meet [a, b)."""
    out: list[Stop] = []
    monday = datetime(a.year, a.month, a.day, tzinfo=UTC) - timedelta(days=a.weekday())
    while monday < b:
        for w in spec:
            day = monday + timedelta(days=DAYS.index(w["day"]))
            start, end = day + _clock_time(w["from"]), day + _clock_time(w["to"])
            if end > a and start < b:
                out.append((start, end))
        monday += WEEK
    return out


def weekly_seconds(spec: list[dict[str, str]]) -> int:
    """Quiet seconds in one week of `spec` (overlaps counted once)."""
    monday = datetime(2026, 1, 5, tzinfo=UTC)
    return stopped_seconds(weekly_windows(spec, monday, monday + WEEK), monday, monday + WEEK)


def _clock_time(text: str) -> timedelta:
    hours, minutes = text.split(":")
    return timedelta(hours=int(hours), minutes=int(minutes))


PAUSED = datetime(9999, 12, 31, 0, 0, tzinfo=UTC)  # the due time of a deadline whose clock is stopped until further notice
StopsOf = Callable[[str, str, datetime, datetime], list[Stop]]  # (game_id, seat, a, b) -> the stops meeting [a, b)


def due_after(stops_of: StopsOf | None, game_id: str, seat: str,
              start: datetime, seconds: int) -> datetime:
    """When the seat's clock, started at `start`, has run `seconds` of its own time; PAUSED while
    an open stop (a pause) holds it."""
    if stops_of is None:
        return start + timedelta(seconds=seconds)
    horizon = start + timedelta(seconds=2 * seconds) + timedelta(days=14)
    while True:
        due = run_until(stops_of(game_id, seat, start, horizon), start, seconds)
        if due is None:
            return PAUSED
        if due < horizon or horizon >= PAUSED - timedelta(days=3650):
            return due
        horizon = start + (horizon - start) * 2


def used_between(stops_of: StopsOf | None, game_id: str, seat: str,
                 a: datetime, b: datetime) -> int:
    """The seat's own time between `a` and `b` (what a chess clock is charged)."""
    if stops_of is None or b <= a:
        return max(0, int((b - a).total_seconds()))
    return running_seconds(stops_of(game_id, seat, a, b), a, b)
