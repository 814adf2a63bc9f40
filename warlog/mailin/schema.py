"""The mail-in tables, in one place (one future migration). Idempotent DDL.

* `mail_tokens` — one row per reply address handed out (a turn mail, or an answer that shows
  the position again): the token's random part (`nonce`), the game, seat, owner and the event
  (`at_seq`, the `expected_seq` a reply is written against), the codes of that mail (JSON: code,
  action, words) and what it showed (JSON), when it was used and by which inbound mail.
* `mail_inbound` — every message the listener took (each with its verdict): envelope and header
  sender, recipient, Message-ID, size, the raw message (base64; NULL when it was refused as too
  big), the token it named, `status` (`received` → `done`), `verdict` (`applied`, `stale`,
  `refused:<reason>`), the reason in words, the codes read, the moves' results (JSON) and the id
  of the answer mail. (`rcpt`, `digest`) is unique: a mail server's resend is not taken twice.
* `mail_modes` — how a player plays a game: `mail`, `page` or `both`; game_id '' is the
  player's default for every game.
"""

from __future__ import annotations

from warlog.ops.sqldb import Ddl

_TABLES = """
CREATE TABLE IF NOT EXISTS mail_tokens (
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
);
CREATE INDEX IF NOT EXISTS mail_tokens_game ON mail_tokens (game_id, seat, at_seq);
CREATE TABLE IF NOT EXISTS mail_inbound (
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
);
CREATE INDEX IF NOT EXISTS mail_inbound_status ON mail_inbound (status, received_at);
CREATE INDEX IF NOT EXISTS mail_inbound_game ON mail_inbound (game_id, received_at);
CREATE INDEX IF NOT EXISTS mail_inbound_answered ON mail_inbound (answered_to, processed_at);
CREATE TABLE IF NOT EXISTS mail_modes (
    player_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (player_id, game_id)
)
"""

DDL = Ddl("mailin", sqlite=_TABLES, postgresql=_TABLES)
