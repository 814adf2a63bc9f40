"""The deadline sweep over 1,000 running games (prints figures; not a test, nothing asserts).

    python bench/clock_bench.py                  # 1,000 games on SQLite and on PostgreSQL
    python bench/clock_bench.py --games 200 --backend sqlite
    WARLOG_BENCH_PG_URL=postgresql://… python bench/clock_bench.py

Each game (the two-seat test game Dice Duel, every seat owned by a player) is created and
started through the service, then put under a time control of 3 days per move. Timed, on an
injected clock that jumps forward (nothing sleeps):

* the sweep that finds 1,000 games with nothing due (the common case, every 30 s);
* the sweep that sends 1,000 reminders (each records a deadline_soon notification);
* the sweep that fires 1,000 expiries (policy notify_director, each recorded as an act).

The issue's goal: the sweep over 1,000 games in at most 1 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tests.support.dice_duel_plugin  # noqa: E402,F401  (registers the test game)
from ledger.factory import open_store  # noqa: E402
from warlog.clock import GameClock, TimeControl  # noqa: E402
from warlog.games.service import Warlog  # noqa: E402
from warlog.services import Settings, build  # noqa: E402

PG_URL = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


class Jump:
    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


def run(url: str, games: int) -> None:
    store = open_store(url)
    services = build(store, Settings())
    now = Jump()
    services.notifier.now = now
    clock: GameClock = services.clock
    clock.now = now
    svc = Warlog(store, lambda game_id: None)
    t0 = time.perf_counter()
    for i in range(games):
        created = svc.create_game("dice-duel", "short", {})
        for seat, token in created["seats"].items():
            player = services.players.register(f"P{i}{seat}", f"p{i}-{seat}@bench.example")
            services.players.claim_seat(created["id"], seat, player.id)
            svc.join(created["id"], token)
        clock.set_time_control(created["id"], TimeControl(days=3, remind_hours=24))
    print(f"  set-up: {games} games started, each under a time control, in {time.perf_counter() - t0:.1f} s")

    def timed(label: str) -> None:
        t = time.perf_counter()
        counts = clock.sweep()
        ms = (time.perf_counter() - t) * 1000
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        print(f"  sweep, {label:<28} {ms:8.1f} ms  ({shown or 'nothing due'})")

    now.at += timedelta(hours=1)
    timed("nothing due:")
    timed("nothing due (again):")
    now.at += timedelta(days=2)
    timed(f"{games} reminders due:")
    now.at += timedelta(days=1)
    timed(f"{games} expiries due:")
    timed("after them, nothing due:")
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            print(f"SQLite ({args.games} games)")
            run(f"sqlite:///{tmp}/bench.sqlite3", args.games)
    if args.backend in ("postgres", "both"):
        import psycopg
        from psycopg import sql

        schema = f"warlog_bench_{uuid.uuid4().hex[:8]}"
        sep = "&" if "?" in PG_URL else "?"
        print(f"PostgreSQL ({args.games} games)")
        try:
            run(f"{PG_URL}{sep}options=-csearch_path%3D{schema}", args.games)
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()
