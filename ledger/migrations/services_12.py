"""Migration 12's tables: messages between the seats of a game (warlog.messages), the players'
private calendar links (warlog.tournaments.publish) and each player's language (warlog.i18n).

Frozen copies of the DDL that warlog/messages/book.py, warlog/tournaments/publish.py and
warlog/i18n.py keep beside their code, so that
`warlog db upgrade` (the owner) makes them and the app role never runs DDL (as migrations 4 and
11 do for the other service tables; tests/ledger/test_migration_copies.py checks that the copies
and the module's DDL make the same tables). A later change to one of these tables is a new
migration, never an edit here. Plain SQL that both SQLite and PostgreSQL accept.
"""

from __future__ import annotations

import re

SERVICES_12 = [
    """CREATE TABLE IF NOT EXISTS game_messages (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seq INTEGER,
    sender TEXT NOT NULL,
    recipients TEXT NOT NULL,
    text TEXT NOT NULL,
    salt TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    reported_at TEXT,
    reported_by TEXT,
    report_reason TEXT
)""",
    "CREATE INDEX IF NOT EXISTS game_messages_game ON game_messages (game_id, sent_at)",
    """CREATE TABLE IF NOT EXISTS game_message_mutes (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    muted_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)""",
    # a player's private calendar link (warlog.tournaments.publish): only the token's SHA-256
    """CREATE TABLE IF NOT EXISTS calendar_tokens (
    player_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    # each player's language of the interface and of their mails (warlog.i18n)
    """CREATE TABLE IF NOT EXISTS player_languages (
    player_id TEXT PRIMARY KEY,
    lang TEXT NOT NULL,
    updated_at TEXT NOT NULL
)""",
]

_TABLE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+)")


def tables() -> list[str]:
    """The names of the tables SERVICES_12 creates (for the app role's grants)."""
    return [m.group(1) for m in (_TABLE.match(s) for s in SERVICES_12) if m]
