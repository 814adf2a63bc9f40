"""The notifications' tables, in one place (one future migration). Idempotent DDL.

* `notify_deliveries` — one row per message per channel: who (player, or NULL for a sign-in
  mail to a bare address), channel (`email` | `webhook`), address, kind, subject, body, the game /
  tournament / link it is about, status (`queued` → `sent`; `retrying` after a failed attempt,
  `failed` when the attempts are spent; `digest` while it waits for the player's digest;
  `digested` once it went out in one), attempts, last_error, times.
* `notify_outbox` — the embedded default's mail (no SMTP configured): what would have been sent.
* `notify_prefs` — a player's channels: e-mail on/off, digest, webhook URL + secret + body
  format (`json` | `discord`), kinds muted, tournaments muted.
"""

from __future__ import annotations

from warlog.ops.sqldb import Ddl

_TABLES = """
CREATE TABLE IF NOT EXISTS notify_deliveries (
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
);
CREATE INDEX IF NOT EXISTS notify_deliveries_due ON notify_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS notify_deliveries_tournament ON notify_deliveries (tournament_id, status);
CREATE INDEX IF NOT EXISTS notify_deliveries_player ON notify_deliveries (player_id, created_at);
CREATE TABLE IF NOT EXISTS notify_outbox (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL,
    to_addr TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notify_prefs (
    player_id TEXT PRIMARY KEY,
    email_on INTEGER NOT NULL DEFAULT 1,
    digest INTEGER NOT NULL DEFAULT 0,
    webhook_url TEXT,
    webhook_secret TEXT,
    webhook_format TEXT NOT NULL DEFAULT 'json',
    muted_kinds TEXT NOT NULL DEFAULT '[]',
    muted_tournaments TEXT NOT NULL DEFAULT '[]',
    updated_at TEXT NOT NULL
)
"""

DDL = Ddl("notify", sqlite=_TABLES, postgresql=_TABLES)
