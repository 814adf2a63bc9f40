"""The mail-in tables (warlog.mailin.schema): reply tokens, inbound mails and their verdicts,
each player's mode of play."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import errors as pg_errors

from warlog.mailin.schema import DDL
from warlog.ops.sqldb import Clock, SqlDb, iso, sortable_id, utc_now

MODES = ("both", "mail", "page")
_UNIQUE = (sqlite3.IntegrityError, pg_errors.UniqueViolation)


@dataclass(frozen=True)
class TokenRow:
    nonce: str
    game_id: str
    seat: str
    player_id: str
    at_seq: int
    codes: list[dict[str, Any]]
    content: dict[str, Any]
    created_at: str
    used_at: str | None
    used_by: str | None


@dataclass(frozen=True)
class Inbound:
    id: str
    received_at: str
    envelope_from: str
    rcpt: str
    from_addr: str | None
    size: int
    raw: bytes | None
    status: str
    verdict: str | None
    reason: str | None
    codes: list[str]
    results: list[dict[str, Any]]
    answer_id: str | None
    game_id: str | None
    seat: str | None


_TOKEN_COLS = "nonce, game_id, seat, player_id, at_seq, codes, content, created_at, used_at, used_by"
_IN_COLS = ("id, received_at, envelope_from, rcpt, from_addr, size, raw, status, verdict, reason, codes, results, "
            "answer_id, game_id, seat")


def _inbound(r: tuple[Any, ...]) -> Inbound:
    return Inbound(r[0], r[1], r[2], r[3], r[4], int(r[5]), base64.b64decode(r[6]) if r[6] is not None else None,
                   r[7], r[8], r[9], json.loads(r[10] or "[]"), json.loads(r[11] or "[]"), r[12], r[13], r[14])


class MailStore:
    def __init__(self, db: SqlDb, now: Clock = utc_now) -> None:
        self.db, self.now = db, now

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    # -- reply tokens --------------------------------------------------------------------
    def add_token(self, nonce: str, game_id: str, seat: str, player_id: str, at_seq: int,
                  codes: list[dict[str, Any]], content: dict[str, Any]) -> None:
        self.db.execute(f"INSERT INTO mail_tokens ({_TOKEN_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
                        (nonce, game_id, seat, player_id, at_seq, json.dumps(codes), json.dumps(content),
                         iso(self.now())))

    def token(self, nonce: str) -> TokenRow | None:
        r = self.db.one(f"SELECT {_TOKEN_COLS} FROM mail_tokens WHERE nonce = ?", (nonce,))
        if r is None:
            return None
        return TokenRow(r[0], r[1], r[2], r[3], int(r[4]), json.loads(r[5]), json.loads(r[6]), r[7], r[8], r[9])

    def use_token(self, nonce: str, inbound_id: str) -> bool:
        """Spend a token for one inbound mail (single use); True also when that very mail spent
        it already (its processing is being resumed)."""
        with self.db.transaction() as tx:
            tx.execute("UPDATE mail_tokens SET used_at = ?, used_by = ? WHERE nonce = ? AND used_at IS NULL",
                       (iso(self.now()), inbound_id, nonce))
            row = tx.one("SELECT used_by FROM mail_tokens WHERE nonce = ?", (nonce,))
        return row is not None and row[0] == inbound_id

    # -- inbound mail --------------------------------------------------------------------
    def receive(self, envelope_from: str, rcpt: str, raw: bytes, kept: bytes) -> str | None:
        """Record a message as taken (before the listener answers 250): its size, digest and the
        bytes `kept` (all of them, or only the headers of one too big). None: this very message
        was taken before (a mail server's resend)."""
        digest = hashlib.sha256(raw).hexdigest()
        inbound_id = sortable_id("m")
        try:
            self.db.execute("INSERT INTO mail_inbound (id, received_at, envelope_from, rcpt, digest, size, raw, "
                            "status) VALUES (?, ?, ?, ?, ?, ?, ?, 'received')",
                            (inbound_id, iso(self.now()), envelope_from, rcpt.lower(), digest, len(raw),
                             base64.b64encode(kept).decode("ascii")))
        except _UNIQUE:
            return None
        return inbound_id

    def inbound(self, inbound_id: str) -> Inbound | None:
        r = self.db.one(f"SELECT {_IN_COLS} FROM mail_inbound WHERE id = ?", (inbound_id,))
        return _inbound(r) if r else None

    def received(self) -> list[str]:
        """The mails not yet done, oldest first (after a crash: where processing resumes)."""
        return [r[0] for r in self.db.rows("SELECT id FROM mail_inbound WHERE status = 'received' "
                                           "ORDER BY received_at, id")]

    def recent(self, limit: int = 100, game_id: str | None = None) -> list[Inbound]:
        rows = self.db.rows(f"SELECT {_IN_COLS} FROM mail_inbound WHERE (CAST(? AS TEXT) IS NULL OR game_id = ?) "
                            "ORDER BY received_at DESC, id DESC LIMIT ?", (game_id, game_id, limit))
        return [_inbound(r) for r in rows]

    def note(self, inbound_id: str, **fields: Any) -> None:
        """Keep what processing has learnt so far (sender, token, codes, each move's result)."""
        cols = {"from_addr", "message_id", "token_nonce", "game_id", "seat", "codes", "results"}
        unknown = set(fields) - cols
        if unknown:
            raise ValueError(f"not a column: {sorted(unknown)}")
        vals = {k: json.dumps(v) if k in ("codes", "results") else v for k, v in fields.items()}
        sets = ", ".join(f"{k} = ?" for k in vals)
        self.db.execute(f"UPDATE mail_inbound SET {sets} WHERE id = ?", (*vals.values(), inbound_id))

    def finish(self, inbound_id: str, verdict: str, reason: str, answer_id: str | None,
               answered_to: str | None = None) -> None:
        self.db.execute("UPDATE mail_inbound SET status = 'done', verdict = ?, reason = ?, answer_id = ?, "
                        "answered_to = ?, processed_at = ? WHERE id = ?",
                        (verdict, reason, answer_id, answered_to.lower() if answered_to else None, iso(self.now()),
                         inbound_id))

    def refusals_answered(self, address: str, within: timedelta) -> int:
        """How many refused mails were answered to `address` lately."""
        row = self.db.one("SELECT COUNT(*) FROM mail_inbound WHERE answered_to = ? AND verdict <> 'applied' "
                          "AND processed_at >= ?", (address.lower(), iso(self.now() - within)))
        return int(row[0]) if row else 0

    # -- modes ---------------------------------------------------------------------------
    def mode(self, player_id: str, game_id: str) -> str:
        """How `player_id` plays `game_id`: its own setting, else the player's default, else both."""
        rows = dict(self.db.rows("SELECT game_id, mode FROM mail_modes WHERE player_id = ? AND game_id IN (?, '')",
                                 (player_id, game_id)))
        return str(rows.get(game_id) or rows.get("") or "both")

    def set_mode(self, player_id: str, mode: str, game_id: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"a mode of play is one of {', '.join(MODES)}, not {mode!r}")
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM mail_modes WHERE player_id = ? AND game_id = ?", (player_id, game_id or ""))
            tx.execute("INSERT INTO mail_modes (player_id, game_id, mode, updated_at) VALUES (?, ?, ?, ?)",
                       (player_id, game_id or "", mode, iso(self.now())))
