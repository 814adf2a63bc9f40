"""The tables of time away from the board (warlog.clock.leave). Idempotent DDL.

* `away_policies` — the leave allowance (JSON of LeavePolicy) of the server (`scope` 'server')
  or of a tournament (`scope` its id).
* `away_leaves` — the player's record of leave: each block from `starts_at` to `ends_at`,
  when it was declared, and whether its end has been told (`ended_told`).
* `away_grants` — extra leave days a director granted a player for a year, with the reason.
* `away_quiet` — a player's weekly quiet hours (JSON list of windows, UTC).
* `away_pauses` — a game's pauses: asked by a seat, agreed by the others, ended by either;
  `remaining` keeps each seat's clock (seconds) while it is paused.
"""

from __future__ import annotations

from warlog.ops.sqldb import Ddl

_TABLES = """
CREATE TABLE IF NOT EXISTS away_policies (
    scope TEXT PRIMARY KEY,
    policy TEXT NOT NULL,
    set_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS away_leaves (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL,
    days INTEGER NOT NULL,
    declared_at TEXT NOT NULL,
    ended_told INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS away_leaves_player ON away_leaves (player_id, starts_at);
CREATE INDEX IF NOT EXISTS away_leaves_end ON away_leaves (ended_told, ends_at);
CREATE TABLE IF NOT EXISTS away_grants (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    year INTEGER NOT NULL,
    days INTEGER NOT NULL,
    reason TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    game_id TEXT,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS away_grants_player ON away_grants (player_id, year);
CREATE TABLE IF NOT EXISTS away_quiet (
    player_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    set_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS away_pauses (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    asked_by TEXT NOT NULL,
    asked_seq INTEGER NOT NULL,
    asked_at TEXT NOT NULL,
    agreed TEXT NOT NULL,
    paused_at TEXT,
    ended_at TEXT,
    remaining TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS away_pauses_game ON away_pauses (game_id, asked_at)
"""

DDL = Ddl("away", sqlite=_TABLES, postgresql=_TABLES)
