"""Where tournament streams live: the ledger's own `events` table (append-only triggers and all),
a `tournaments` projection for listing (rebuildable from the streams), `tournament_games` (each
game's tournament, round and the SHA-256 of the game's director token — the same hash the game's
game_created publishes, so nothing secret: the tournament rules in its games through the
in-process `Warlog.rule_as_owner`, never with a token a leak of this table would give away), and
the pairing seed in the ledger's `secrets` table. The column keeps its old name `director_token`
(no schema change); rows written by older releases, which held the token itself, are hashed in
place when the store opens (`hash_legacy_tokens`).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from ledger.canonical import GENESIS_HASH
from ledger.events import Event, utc_now
from ledger.sqlstore import EVENT_COLUMNS, event_row, row_event
from ledger.store import Conflict
from warlog.ops.sqldb import Ddl, SqlDb
from warlog.tournaments.events import seal

_TABLES = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    director TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created_at, id);
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    director_token TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournament_games_t ON tournament_games (tournament_id)
"""
DDL = Ddl("tournaments", _TABLES, _TABLES)


def _unique_violation(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return True
    try:
        from psycopg import errors
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, errors.UniqueViolation)


class TournamentStore:
    def __init__(self, db: SqlDb) -> None:
        self.db = db

    def create_schema(self) -> None:
        self.db.create_schema(DDL)
        self.hash_legacy_tokens()

    def hash_legacy_tokens(self) -> int:
        """Replace any director token an older release kept in plain text (32 characters, where a
        SHA-256 is 64 hex digits) by its SHA-256; return how many rows changed. Idempotent."""
        rows = self.db.rows("SELECT game_id, director_token FROM tournament_games WHERE LENGTH(director_token) <> 64")
        for game_id, token in rows:
            self.db.execute("UPDATE tournament_games SET director_token = ? WHERE game_id = ? AND director_token = ?",
                            (hashlib.sha256(str(token).encode()).hexdigest(), game_id, token))
        return len(rows)

    def append(self, tid: str, expected_seq: int, new: list[tuple[str, str | None, dict[str, Any]]],
               *, secret: bytes | None = None, projection: dict[str, Any] | None = None) -> list[Event]:
        """Seal and append `new` (type, seat, payload) after `expected_seq` in one transaction with
        the projection row; Conflict if another writer got there first."""
        ph = "%s" if self.db.dialect == "postgresql" else "?"
        pg = self.db.dialect == "postgresql"  # events are partitioned by the stream's month (migration 6)
        insert = (f"INSERT INTO events ({EVENT_COLUMNS}, period) VALUES ({', '.join([ph] * 9)})" if pg else
                  f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join([ph] * 8)})")
        try:
            with self.db.transaction() as tx:
                created = None
                if pg:
                    created = tx.one("SELECT created_at FROM tournaments WHERE id = ? FOR UPDATE", (tid,))
                row = tx.one("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (tid,))
                current, prev = (int(row[0]), row[1]) if row else (-1, GENESIS_HASH)
                if current != expected_seq:
                    raise Conflict(tid, expected_seq, current)
                now = utc_now()
                sealed = []
                for i, (type_, seat, payload) in enumerate(new):
                    ev = seal(tid, expected_seq + 1 + i, type_, seat, payload, now, prev)
                    prev = ev.hash
                    sealed.append(ev)
                period = ((created[0] if created else sealed[0].recorded_at)[:7],) if pg else ()
                for ev in sealed:
                    tx.conn.execute(insert, (*event_row(ev), *period))
                if secret is not None:
                    tx.execute("INSERT INTO secrets (game_id, secret) VALUES (?, ?)", (tid, secret))
                last = sealed[-1].seq
                if expected_seq == -1:
                    p = projection or {}
                    tx.execute("INSERT INTO tournaments (id, name, game, kind, status, director, created_at, last_seq) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (tid, p["name"], p["game"], p["kind"], p.get("status", "registration"), p["director"],
                                sealed[0].recorded_at, last))
                else:
                    tx.execute("UPDATE tournaments SET last_seq = ?, status = COALESCE(?, status) WHERE id = ?",
                               (last, (projection or {}).get("status"), tid))
                return sealed
        except Conflict:
            raise
        except Exception as exc:
            if _unique_violation(exc):
                raise Conflict(tid, expected_seq, self.last_seq(tid)) from None
            raise

    def import_stream(self, events: list[Event], projection: dict[str, Any], games: dict[str, int]) -> None:
        """Restore a verified tournament stream as it was recorded (its own times and hashes), its
        listing row and its games' rounds, in one transaction; Conflict if the id has events.
        The games' director tokens are secrets no bundle holds: restored rows carry none."""
        tid = events[0].game_id
        ph = "%s" if self.db.dialect == "postgresql" else "?"
        pg = self.db.dialect == "postgresql"  # events are partitioned by the stream's month (migration 6)
        insert = (f"INSERT INTO events ({EVENT_COLUMNS}, period) VALUES ({', '.join([ph] * 9)})" if pg else
                  f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join([ph] * 8)})")
        period = (events[0].recorded_at[:7],) if pg else ()  # the month the tournament was created in
        try:
            with self.db.transaction() as tx:
                found = tx.one("SELECT MAX(seq) FROM events WHERE game_id = ?", (tid,))
                if found is not None and found[0] is not None:
                    raise Conflict(tid, -1, int(found[0]))
                for ev in events:
                    tx.conn.execute(insert, (*event_row(ev), *period))
                tx.execute("INSERT INTO tournaments (id, name, game, kind, status, director, created_at, last_seq) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (tid, projection["name"], projection["game"], projection["kind"], projection["status"],
                            projection["director"], events[0].recorded_at, events[-1].seq))
                for game_id, round_number in games.items():
                    tx.execute("INSERT INTO tournament_games (game_id, tournament_id, round, director_token) "
                               "VALUES (?, ?, ?, ?)", (game_id, tid, round_number, ""))
        except Conflict:
            raise
        except Exception as exc:
            if _unique_violation(exc):
                raise Conflict(tid, -1, self.last_seq(tid)) from None
            raise

    def read(self, tid: str) -> list[Event]:
        return [row_event(r) for r in self.db.rows(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY seq", (tid,))]

    def last_seq(self, tid: str) -> int:
        row = self.db.one("SELECT MAX(seq) FROM events WHERE game_id = ?", (tid,))
        return -1 if row is None or row[0] is None else int(row[0])

    def secret(self, tid: str) -> bytes | None:
        row = self.db.one("SELECT secret FROM secrets WHERE game_id = ?", (tid,))
        return bytes(row[0]) if row else None

    def exists(self, tid: str) -> bool:
        return self.db.one("SELECT 1 FROM tournaments WHERE id = ?", (tid,)) is not None

    def page(self, limit: int, before: tuple[str, str] | None = None) -> list[dict[str, Any]]:
        """Newest first; `before` = (created_at, id) of the last row of the previous page."""
        cols = "id, name, game, kind, status, director, created_at, last_seq"
        if before is None:
            rows = self.db.rows(f"SELECT {cols} FROM tournaments ORDER BY created_at DESC, id DESC LIMIT ?", (limit,))
        else:
            rows = self.db.rows(f"SELECT {cols} FROM tournaments WHERE created_at < ? OR (created_at = ? AND id < ?) "
                                "ORDER BY created_at DESC, id DESC LIMIT ?", (before[0], before[0], before[1], limit))
        keys = cols.split(", ")
        return [dict(zip(keys, r)) for r in rows]

    def all_ids(self) -> list[str]:
        return [r[0] for r in self.db.rows("SELECT id FROM tournaments ORDER BY created_at, id")]

    def add_game(self, game_id: str, tid: str, round_number: int, director_token_sha256: str) -> None:
        if len(director_token_sha256) != 64:
            raise ValueError("tournament_games keeps the SHA-256 of a game's director token, never the token")
        self.db.execute("INSERT INTO tournament_games (game_id, tournament_id, round, director_token) "
                        "VALUES (?, ?, ?, ?)", (game_id, tid, round_number, director_token_sha256))

    def game_tournament(self, game_id: str) -> str | None:
        row = self.db.one("SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,))
        return row[0] if row else None

    def game_status(self, tid: str, round_number: int | None = None) -> dict[str, tuple[str, list[str]]]:
        """game id -> (status, active seats) for every game of the tournament, or of one round
        (the games projection)."""
        sql = ("SELECT g.game_id, g.status, g.active_seats FROM tournament_games t JOIN games g "
               "ON g.game_id = t.game_id WHERE t.tournament_id = ?")
        if round_number is not None:
            rows = self.db.rows(sql + " AND t.round = ?", (tid, round_number))
        else:
            rows = self.db.rows(sql, (tid,))
        return {r[0]: (r[1], json.loads(r[2])) for r in rows}

    def director_hash(self, game_id: str) -> str:
        """The SHA-256 of the game's director token ("" if the game is not a tournament's)."""
        row = self.db.one("SELECT director_token FROM tournament_games WHERE game_id = ?", (game_id,))
        return str(row[0]) if row else ""

    def game_heads(self, tid: str) -> dict[str, int]:
        """game id -> its last seq, for every game of the tournament (the games projection)."""
        return {r[0]: int(r[1]) for r in self.db.rows(
            "SELECT g.game_id, g.last_seq FROM tournament_games t JOIN games g ON g.game_id = t.game_id "
            "WHERE t.tournament_id = ?", (tid,))}

    def transfer_seat(self, game_id: str, seat: str, old: str, new: str) -> None:
        """A substitute takes a tournament game's seat: the seat's owner (warlog.players' table)
        becomes `new`, so `old`'s sign-in no longer acts in it."""
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM player_seats WHERE game_id = ? AND seat = ? AND player_id = ?", (game_id, seat, old))
            tx.execute("INSERT INTO player_seats (game_id, seat, player_id, claimed_at) VALUES (?, ?, ?, ?)",
                       (game_id, seat, new, utc_now()))

    def notice_recorded(self, tid: str, link: str) -> bool:
        """Whether the notifier has recorded a delivery of the tournament's notice at `link`."""
        return self.db.one("SELECT 1 FROM notify_deliveries WHERE tournament_id = ? AND link = ? LIMIT 1",
                           (tid, link)) is not None

    def running_ids(self) -> list[str]:
        """Tournaments paired and not ended (the listing's status)."""
        return [r[0] for r in self.db.rows("SELECT id FROM tournaments WHERE status = 'running' ORDER BY created_at, id")]
