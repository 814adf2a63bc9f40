"""Migration 12's table: each player's language (warlog.i18n keeps the same DDL beside its code).

A frozen copy, as in services.py: a later change is a new migration. Plain SQL that both SQLite
and PostgreSQL accept.
"""

from __future__ import annotations

PLAYER_LANGUAGES = """CREATE TABLE IF NOT EXISTS player_languages (
    player_id TEXT PRIMARY KEY,
    lang TEXT NOT NULL,
    updated_at TEXT NOT NULL
)"""
