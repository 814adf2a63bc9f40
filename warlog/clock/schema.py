"""The clocks' tables, in one place (one future migration). Idempotent DDL.

* `clock_controls` — a game's time control (JSON of warlog.clock.TimeControl) and tournament.
* `clock_deadlines` — one current deadline per (game, seat): due_at, when to remind, the policy
  on expiry and the fallback after an extension bank is spent, status `open` | `expired` |
  `cleared`, when the turn started (for a chess clock's charge).
* `clock_banks` — seconds left per (game, seat): a chess clock's bank, or the reserve that
  automatic extensions draw from.
* `clock_acts` — every act of the clock with its time (deadline set, reminder sent, extended,
  expired under a policy, cleared, bank charged), and whether the registered handler took it:
  what a tournament turns into events of its stream.
"""

from __future__ import annotations

from warlog.ops.sqldb import Ddl

_TABLES = """
CREATE TABLE IF NOT EXISTS clock_controls (
    game_id TEXT PRIMARY KEY,
    control TEXT NOT NULL,
    tournament_id TEXT,
    set_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clock_deadlines (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    tournament_id TEXT,
    due_at TEXT NOT NULL,
    remind_at TEXT,
    reminded_at TEXT,
    policy TEXT NOT NULL,
    then_policy TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at TEXT NOT NULL,
    closed_at TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS clock_deadlines_due ON clock_deadlines (status, due_at);
CREATE INDEX IF NOT EXISTS clock_deadlines_remind ON clock_deadlines (status, remind_at);
CREATE INDEX IF NOT EXISTS clock_deadlines_tournament ON clock_deadlines (tournament_id, status);
CREATE TABLE IF NOT EXISTS clock_banks (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    seconds BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS clock_acts (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    tournament_id TEXT,
    act TEXT NOT NULL,
    at TEXT NOT NULL,
    detail TEXT NOT NULL,
    handled INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS clock_acts_game ON clock_acts (game_id, id);
CREATE INDEX IF NOT EXISTS clock_acts_tournament ON clock_acts (tournament_id, id);
CREATE INDEX IF NOT EXISTS clock_acts_unhandled ON clock_acts (handled)
"""

DDL = Ddl("clock", sqlite=_TABLES, postgresql=_TABLES)
