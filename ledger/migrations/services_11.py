"""Migration 11's tables: play by mail and time away from the board.

Frozen copies of the DDL that warlog/mailin/schema.py and warlog/clock/away_schema.py keep beside
their code, so that `warlog db upgrade` (the owner) makes them and the app role never runs DDL
(as migration 4 does for the players', notifications', clocks' and tournaments' tables; a test
checks that the copies and the modules' DDL make the same tables). A later change to one of these
tables is a new migration, never an edit here. Plain SQL that both SQLite and PostgreSQL accept.
"""

from __future__ import annotations

import re

SERVICES_11 = [
    # play by mail (warlog.mailin)
    """CREATE TABLE IF NOT EXISTS mail_tokens (
    nonce TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    player_id TEXT NOT NULL,
    at_seq INTEGER NOT NULL,
    codes TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    used_at TEXT,
    used_by TEXT
)""",
    "CREATE INDEX IF NOT EXISTS mail_tokens_game ON mail_tokens (game_id, seat, at_seq)",
    """CREATE TABLE IF NOT EXISTS mail_inbound (
    id TEXT PRIMARY KEY,
    received_at TEXT NOT NULL,
    envelope_from TEXT NOT NULL,
    rcpt TEXT NOT NULL,
    digest TEXT NOT NULL,
    from_addr TEXT,
    message_id TEXT,
    size INTEGER NOT NULL,
    raw TEXT,
    token_nonce TEXT,
    game_id TEXT,
    seat TEXT,
    status TEXT NOT NULL,
    verdict TEXT,
    reason TEXT,
    codes TEXT,
    results TEXT,
    answer_id TEXT,
    answered_to TEXT,
    processed_at TEXT,
    UNIQUE (rcpt, digest)
)""",
    "CREATE INDEX IF NOT EXISTS mail_inbound_status ON mail_inbound (status, received_at)",
    "CREATE INDEX IF NOT EXISTS mail_inbound_game ON mail_inbound (game_id, received_at)",
    "CREATE INDEX IF NOT EXISTS mail_inbound_answered ON mail_inbound (answered_to, processed_at)",
    """CREATE TABLE IF NOT EXISTS mail_modes (
    player_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (player_id, game_id)
)""",
    # leave, pauses and quiet days (warlog.clock.leave)
    """CREATE TABLE IF NOT EXISTS away_policies (
    scope TEXT PRIMARY KEY,
    policy TEXT NOT NULL,
    set_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS away_leaves (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL,
    days INTEGER NOT NULL,
    declared_at TEXT NOT NULL,
    ended_told INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS away_leaves_player ON away_leaves (player_id, starts_at)",
    "CREATE INDEX IF NOT EXISTS away_leaves_end ON away_leaves (ended_told, ends_at)",
    """CREATE TABLE IF NOT EXISTS away_grants (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    year INTEGER NOT NULL,
    days INTEGER NOT NULL,
    reason TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    game_id TEXT,
    at TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS away_grants_player ON away_grants (player_id, year)",
    """CREATE TABLE IF NOT EXISTS away_quiet (
    player_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    set_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS away_pauses (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    asked_by TEXT NOT NULL,
    asked_seq INTEGER NOT NULL,
    asked_at TEXT NOT NULL,
    agreed TEXT NOT NULL,
    paused_at TEXT,
    ended_at TEXT,
    remaining TEXT NOT NULL DEFAULT '{}'
)""",
    "CREATE INDEX IF NOT EXISTS away_pauses_game ON away_pauses (game_id, asked_at)",
]

_TABLE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+)")


def tables() -> list[str]:
    """The names of the tables SERVICES_11 creates (for the app role's grants)."""
    return [m.group(1) for m in (_TABLE.match(s) for s in SERVICES_11) if m]
