"""The pace record (warlog.clock.pace) against a hand computation on a scripted game.

The script: seats a and b under a one-day move; a takes two days of leave in its second turn,
the game is paused for six hours in b's second turn. Every figure below is worked by hand in
the comments, from the timestamps alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ledger.canonical import GENESIS_HASH
from ledger.events import Event, NewEvent, seal
from warlog.clock.pace import game_pace, median, p90, player_pace, seat_doc

ONE_DAY = {"mode": "per_move", "days": 1}

SCRIPT: list[tuple[str, str, str | None, dict[str, Any]]] = [
    ("2026-03-02T00:00:00", "game_created", None, {"roles": ["a", "b"]}),
    ("2026-03-02T10:00:00", "game_started", None, {"active_seats": ["a"]}),  # a's turn 1 starts
    ("2026-03-02T12:00:00", "submitted", "a", {}),  # a: 2 h = 7200 s
    ("2026-03-02T12:00:01", "resolved", None, {"active_seats": ["b"]}),  # b's turn 1, due 03-03 12:00:01
    ("2026-03-03T11:30:01", "submitted", "b", {}),  # b: 23 h 30 = 84600 s, 30 min before its deadline
    ("2026-03-03T11:30:02", "resolved", None, {"active_seats": ["a"]}),  # a's turn 2
    ("2026-03-03T20:00:00", "leave_declared", "a",
     {"from": "2026-03-04T00:00:00Z", "to": "2026-03-06T00:00:00Z", "leave": "v1"}),  # 2 days away
    ("2026-03-06T05:30:02", "submitted", "a", {}),  # a: 66 h wall less 48 h leave = 18 h = 64800 s
    ("2026-03-06T05:30:03", "resolved", None, {"active_seats": ["b"]}),  # b's turn 2
    ("2026-03-06T11:00:00", "pause_asked", "a", {}),
    ("2026-03-06T12:00:00", "pause_agreed", "b", {"asked": 9, "paused": True}),  # clocks stop
    ("2026-03-06T18:00:00", "pause_ended", "a", {"asked": 9}),  # 6 h later they run again
    # b: 29 h 30 wall less 6 h paused = 84600 s; due: 6:29:57 before the pause, 17:30:03 after
    # it, so 03-07 11:30:03, and this move is 30 minutes before it
    ("2026-03-07T11:00:03", "submitted", "b", {}),
    ("2026-03-07T11:00:04", "resolved", None, {"active_seats": ["a"]}),  # a's turn 3
    ("2026-03-07T11:20:04", "submitted", "a", {}),  # a: 20 min = 1200 s
    ("2026-03-07T11:20:05", "resolved", None, {"active_seats": ["b"]}),  # b to move since then
]


def scripted() -> list[Event]:
    events: list[Event] = []
    for seq, (at, type_, seat, payload) in enumerate(SCRIPT):
        prev = events[-1].hash if events else GENESIS_HASH
        events.append(seal("g-pace", seq, NewEvent(type_, seat, payload), at + ".000000Z", prev))
    return events


def test_median_and_nearest_rank_90th_percentile() -> None:
    assert median([]) is None and p90([]) is None
    assert median([5, 1, 3]) == 3 and median([4, 1, 2, 3]) == 2  # (2 + 3) // 2
    assert p90([10, 20, 30]) == 30  # rank ceil(2.7) = 3
    assert p90(list(range(1, 11))) == 9  # rank ceil(9.0) = 9
    assert p90([7]) == 7


def test_pace_of_a_scripted_game_matches_the_hand_computation() -> None:
    paces = game_pace(scripted(), ONE_DAY)
    a, b = seat_doc(paces["a"]), seat_doc(paces["b"])
    assert [t.seconds for t in paces["a"].turns] == [7200, 64800, 1200]
    assert [t.seconds for t in paces["b"].turns] == [84600, 84600, None]
    assert a == {"moves": 3, "median_seconds": 7200, "p90_seconds": 64800, "last_hour": 0, "late": 0,
                 "extensions": 0, "extension_hours": 0, "leave": 1, "leave_days": 2, "waiting_since": None}
    assert b == {"moves": 2, "median_seconds": 84600, "p90_seconds": 84600, "last_hour": 2, "late": 0,
                 "extensions": 0, "extension_hours": 0, "leave": 0, "leave_days": 0,
                 "waiting_since": "2026-03-07T11:20:05Z"}
    # a's second deadline: 12:29:58 of its day used before the leave, the rest after it
    assert paces["a"].turns[1].due_at == datetime(2026, 3, 6, 11, 30, 2, tzinfo=UTC)
    assert paces["b"].turns[1].due_at == datetime(2026, 3, 7, 11, 30, 3, tzinfo=UTC)


def test_an_extension_moves_the_deadline_and_is_counted() -> None:
    granted = datetime(2026, 3, 7, 5, 0, tzinfo=UTC)  # a day more, during b's second turn
    record = player_pace([("b", scripted())], ONE_DAY, {"g-pace": [(granted, 24)]})
    game = record["games"]["g-pace"]
    assert game["seat"] == "b" and game["extensions"] == 1 and game["extension_hours"] == 24
    assert game["last_hour"] == 1  # the second move is no longer in its last hour
    assert record["overall"]["games"] == 1 and record["overall"]["moves"] == 2


def test_a_move_after_its_deadline_is_late() -> None:
    paces = game_pace(scripted(), {"mode": "per_move", "days": 0, "hours": 20})
    b = seat_doc(paces["b"])
    assert b["late"] == 2 and b["last_hour"] == 0  # 23 h 30 of own time each, 20 allowed


def test_without_a_time_control_there_are_no_deadlines() -> None:
    record = player_pace([("a", scripted())])
    assert record["overall"]["last_hour"] is None and record["overall"]["late"] is None
    assert record["overall"]["median_seconds"] == 7200 and record["overall"]["leave_days"] == 2


def test_a_chess_clock_deadline_is_the_bank_left() -> None:
    """bank_days 1, increment 1 h: a's first turn is due 24 h after it starts; the turn ran
    2 h 1 s (to the judgement that ended it), so its second has 86400 - 7201 + 3600 = 82799 s
    of bank, skipping the leave."""
    paces = game_pace(scripted(), {"mode": "bank", "bank_days": 1, "increment_hours": 1})
    assert paces["a"].turns[0].due_at == datetime(2026, 3, 3, 10, 0, tzinfo=UTC)
    # 03-03 11:30:02 + 12:29:58 (44998 s) to the leave, the other 37801 s = 10:30:01 after it
    assert paces["a"].turns[1].due_at == datetime(2026, 3, 6, 10, 30, 1, tzinfo=UTC)


def test_a_recorded_control_without_a_mode_is_per_move() -> None:
    """As a TimeControl reads it: {"days": 1} is a one-day move."""
    assert seat_doc(game_pace(scripted(), {"days": 1})["b"])["last_hour"] == 2


def test_the_benchmark_runs_short() -> None:
    """bench/pace_bench.py on two small games: each seat's replies alternate, the leave is counted once."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "bench" / "pace_bench.py"
    out = subprocess.run([sys.executable, str(script), "--games", "2", "--moves", "20"], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    assert "2 games, 86 events" in out  # 2 + 20 moves of 2 events + 1 leave, each and "events/s" in out
