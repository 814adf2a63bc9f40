"""The players' tables, in one place (one future migration). Idempotent DDL.

* `players` — id, display name, e-mail (unique, as typed but compared lower-cased), the SHA-256
  of the personal API token (NULL until one is issued), created_at.
* `signin_links` — the SHA-256 of a sign-in link's secret, the player it signs in (NULL for an
  address with no account yet: then it carries the e-mail and the display name to register),
  created/expires/used times. Single use: consuming sets used_at where it was NULL. At most one
  link per address per `signin_every` (nobody can flood an inbox through us; the link already
  sent stays valid, so nobody can lock an address out either).
* `player_sessions` — the SHA-256 of a browser's session cookie, its player and expiry.
* `player_seats` — which player owns which seat of which game ((game_id, seat) unique; a player
  holds at most one seat of a game).
"""

from __future__ import annotations

from warlog.ops.sqldb import Ddl

_TABLES = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL UNIQUE,
    token_sha256 TEXT UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS signin_links (
    token_sha256 TEXT PRIMARY KEY,
    player_id TEXT REFERENCES players (id),
    email TEXT NOT NULL,
    email_key TEXT NOT NULL,
    display_name TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE TABLE IF NOT EXISTS player_sessions (
    token_sha256 TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS player_seats (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
);
CREATE INDEX IF NOT EXISTS player_seats_player ON player_seats (player_id);
CREATE INDEX IF NOT EXISTS signin_links_email ON signin_links (email_key, created_at);
CREATE INDEX IF NOT EXISTS player_sessions_player ON player_sessions (player_id)
"""

DDL = Ddl("players", sqlite=_TABLES, postgresql=_TABLES)
