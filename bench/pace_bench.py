"""The pace record's cost (warlog.clock.pace): how long re-deriving it takes, beside reading the
same events, for a player page and for a tournament bundle's verification (not a test; nothing
asserts).

    python bench/pace_bench.py              # 200 games of 2,000 events, two seats, one leave each
    python bench/pace_bench.py --games 20   # fewer

Prints events/s of `game_pace` (per game, under a per-move time control) and of `record` over
every game, and the time of the whole record.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.canonical import GENESIS_HASH  # noqa: E402
from ledger.events import Event, NewEvent, seal  # noqa: E402
from warlog.clock.pace import game_pace, record  # noqa: E402

STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


def scripted_game(game_id: str, moves: int) -> list[Event]:
    """Seats a and b alternate, each reply 1 to 30 hours after its turn began; a two-day leave."""
    at = datetime(2026, 1, 5, tzinfo=UTC)
    events: list[Event] = []

    def add(type_: str, seat: str | None, payload: dict[str, object], step: timedelta) -> None:
        nonlocal at
        at += step
        prev = events[-1].hash if events else GENESIS_HASH
        events.append(seal(game_id, len(events), NewEvent(type_, seat, payload), at.strftime(STAMP), prev))

    add("game_created", None, {"roles": ["a", "b"]}, timedelta())
    add("game_started", None, {"active_seats": ["a"]}, timedelta(hours=1))
    seat = "a"
    for i in range(moves):
        if i == moves // 2:
            start = (at + timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")
            end = (at + timedelta(days=3)).strftime("%Y-%m-%dT00:00:00Z")
            add("leave_declared", seat, {"from": start, "to": end, "leave": f"v{game_id}"}, timedelta(minutes=5))
        add("submitted", seat, {}, timedelta(hours=1 + (i * 7) % 30))
        seat = "b" if seat == "a" else "a"
        add("resolved", None, {"active_seats": [seat]}, timedelta(seconds=1))
    return events


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args()
    games = [scripted_game(f"g{i:04d}", args.moves) for i in range(args.games)]
    total = sum(len(g) for g in games)
    control = {"mode": "per_move", "days": 1}
    t0 = time.perf_counter()
    paces = [game_pace(g, control)["a"] for g in games]
    t1 = time.perf_counter()
    doc = record(paces)
    t2 = time.perf_counter()
    print(f"{args.games} games, {total} events: game_pace {total / (t1 - t0):,.0f} events/s "
          f"({(t1 - t0) * 1000 / args.games:.1f} ms a game); record over all {(t2 - t1) * 1000:.1f} ms; "
          f"overall median {doc['overall']['median_seconds']} s, p90 {doc['overall']['p90_seconds']} s, "
          f"last hour {doc['overall']['last_hour']}, late {doc['overall']['late']}")


if __name__ == "__main__":
    main()
