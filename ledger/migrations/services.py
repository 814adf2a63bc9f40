"""Migration 4's tables: players, sign-in, notifications, clocks and tournaments.

Frozen copies of the DDL that warlog/players, warlog/notify, warlog/clock and
warlog/tournaments keep beside their code, so that `warlog db upgrade` (the owner) makes them and
the app role never runs DDL. A later change to one of those tables is a new migration, never an
edit here. Plain SQL that both SQLite and PostgreSQL accept.
"""

from __future__ import annotations

import re

SERVICES = [
    """CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL UNIQUE,
    token_sha256 TEXT UNIQUE,
    created_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS signin_links (
    token_sha256 TEXT PRIMARY KEY,
    player_id TEXT REFERENCES players (id),
    email TEXT NOT NULL,
    email_key TEXT NOT NULL,
    display_name TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
)""",
    """CREATE TABLE IF NOT EXISTS player_sessions (
    token_sha256 TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS player_seats (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
)""",
    """CREATE INDEX IF NOT EXISTS player_seats_player ON player_seats (player_id)""",
    """CREATE INDEX IF NOT EXISTS signin_links_email ON signin_links (email_key, created_at)""",
    """CREATE INDEX IF NOT EXISTS player_sessions_player ON player_sessions (player_id)""",
    """CREATE TABLE IF NOT EXISTS notify_deliveries (
    id TEXT PRIMARY KEY,
    player_id TEXT,
    channel TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    game_id TEXT,
    tournament_id TEXT,
    link TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    sent_at TEXT,
    digest_id TEXT
)""",
    """CREATE INDEX IF NOT EXISTS notify_deliveries_due ON notify_deliveries (status, next_attempt_at)""",
    """CREATE INDEX IF NOT EXISTS notify_deliveries_tournament ON notify_deliveries (tournament_id, status)""",
    """CREATE INDEX IF NOT EXISTS notify_deliveries_player ON notify_deliveries (player_id, created_at)""",
    """CREATE TABLE IF NOT EXISTS notify_outbox (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL,
    to_addr TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS notify_prefs (
    player_id TEXT PRIMARY KEY,
    email_on INTEGER NOT NULL DEFAULT 1,
    digest INTEGER NOT NULL DEFAULT 0,
    webhook_url TEXT,
    webhook_secret TEXT,
    webhook_format TEXT NOT NULL DEFAULT 'json',
    muted_kinds TEXT NOT NULL DEFAULT '[]',
    muted_tournaments TEXT NOT NULL DEFAULT '[]',
    updated_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS clock_controls (
    game_id TEXT PRIMARY KEY,
    control TEXT NOT NULL,
    tournament_id TEXT,
    set_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS clock_deadlines (
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
)""",
    """CREATE INDEX IF NOT EXISTS clock_deadlines_due ON clock_deadlines (status, due_at)""",
    """CREATE INDEX IF NOT EXISTS clock_deadlines_remind ON clock_deadlines (status, remind_at)""",
    """CREATE INDEX IF NOT EXISTS clock_deadlines_tournament ON clock_deadlines (tournament_id, status)""",
    """CREATE TABLE IF NOT EXISTS clock_banks (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    seconds BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
)""",
    """CREATE TABLE IF NOT EXISTS clock_acts (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    tournament_id TEXT,
    act TEXT NOT NULL,
    at TEXT NOT NULL,
    detail TEXT NOT NULL,
    handled INTEGER NOT NULL DEFAULT 1
)""",
    """CREATE INDEX IF NOT EXISTS clock_acts_game ON clock_acts (game_id, id)""",
    """CREATE INDEX IF NOT EXISTS clock_acts_tournament ON clock_acts (tournament_id, id)""",
    """CREATE INDEX IF NOT EXISTS clock_acts_unhandled ON clock_acts (handled)""",
    """CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    director TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL
)""",
    """CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created_at, id)""",
    """CREATE TABLE IF NOT EXISTS tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    director_token TEXT NOT NULL
)""",
    """CREATE INDEX IF NOT EXISTS tournament_games_t ON tournament_games (tournament_id)""",
]

_TABLE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+)")


def tables() -> list[str]:
    """The names of the tables SERVICES creates (for the app role's grants)."""
    return [m.group(1) for m in (_TABLE.match(s) for s in SERVICES) if m]
