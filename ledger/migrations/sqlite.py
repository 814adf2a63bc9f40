"""SQLite migrations (see ledger.migrations); the embedded ledger applies them on open."""

from __future__ import annotations

from ledger.migrations import Migration
from ledger.migrations.postgres import PAGING_INDEXES, TRANSPARENCY_LOG, TRANSPARENCY_NODES
from ledger.migrations.services import SERVICES
from ledger.migrations.services_11 import SERVICES_11
from ledger.migrations.services_12 import SERVICES_12

INITIAL = [
    """CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    type TEXT NOT NULL,
    seat TEXT,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID""",
    """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    scenario TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq INTEGER NOT NULL,
    active_seats TEXT NOT NULL DEFAULT '[]',
    last_submitted_seq INTEGER NOT NULL DEFAULT -1,
    last_handled_seq INTEGER NOT NULL DEFAULT -1,
    sandbox INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS games_created ON games (created_at)",
    """CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (game_id, key),
    FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
)""",
    "CREATE TABLE IF NOT EXISTS secrets (game_id TEXT PRIMARY KEY, secret BLOB NOT NULL)",
    """CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
]

PENDING = [
    "CREATE TABLE pending (game_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID",
    "INSERT INTO pending (game_id, seq) "
    "SELECT game_id, seq FROM events WHERE type = 'submitted' "
    "EXCEPT SELECT game_id, json_extract(payload, '$.submission_seq') FROM events "
    "WHERE type IN ('resolved', 'rejected')",
    """CREATE TRIGGER events_pending_add AFTER INSERT ON events WHEN NEW.type = 'submitted'
BEGIN INSERT INTO pending (game_id, seq) VALUES (NEW.game_id, NEW.seq); END""",
    """CREATE TRIGGER events_pending_done AFTER INSERT ON events WHEN NEW.type IN ('resolved', 'rejected')
BEGIN DELETE FROM pending WHERE game_id = NEW.game_id AND seq = json_extract(NEW.payload, '$.submission_seq'); END""",
    "DROP INDEX IF EXISTS games_created",
]

MIGRATIONS = [
    Migration(1, "initial: events, games, idempotency, secrets, snapshots; append-only triggers",
              lambda schema: list(INITIAL)),
    Migration(2, "pending set kept by triggers; listing indexes", lambda schema: PENDING + PAGING_INDEXES),
    Migration(3, "seed periods: the fresh seeds a reopened game commits (ledger.dice step 7)",
              lambda schema: ["CREATE TABLE IF NOT EXISTS seed_periods (game_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                              "secret BLOB NOT NULL, PRIMARY KEY (game_id, seq))"]),
    Migration(4, "players, sign-in links and sessions, notifications, clocks, tournaments",
              lambda schema: list(SERVICES)),
    Migration(5, "transparency log: the entries of the Merkle tree across games",
              lambda schema: [TRANSPARENCY_LOG.replace("{idx}", "INTEGER"),
                              "CREATE TRIGGER transparency_log_no_update BEFORE UPDATE ON transparency_log "
                              "BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END",
                              "CREATE TRIGGER transparency_log_no_delete BEFORE DELETE ON transparency_log "
                              "BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END"]),
    # Migration 6 partitions events, snapshots and idempotency by month on PostgreSQL; the embedded
    # SQLite ledger is not partitioned (one file, archived by copying it): the version is kept in step.
    Migration(6, "nothing on SQLite (PostgreSQL partitions by the game's creation month)",
              lambda schema: []),
    Migration(7, "transparency log: stored subtree hashes, O(log n) heads and proofs",
              lambda schema: [TRANSPARENCY_NODES.replace("{idx}", "INTEGER"),
                              "CREATE TRIGGER transparency_nodes_no_update BEFORE UPDATE ON transparency_nodes "
                              "BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END",
                              "CREATE TRIGGER transparency_nodes_no_delete BEFORE DELETE ON transparency_nodes "
                              "BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END"]),
    # Migration 8 makes PostgreSQL's one-statement append function; SQLite appends in-process.
    Migration(8, "nothing on SQLite (PostgreSQL's ledger_append function)", lambda schema: []),
    Migration(9, "nothing on SQLite (PostgreSQL's ledger_append: one event, one cached INSERT)",
              lambda schema: []),
    Migration(10, "readiness probe: a row per host whose web processes check they can write (warlog.ops.health)",
              lambda schema: ["CREATE TABLE IF NOT EXISTS ready_probe (name TEXT PRIMARY KEY, "
                              "checked_at TEXT NOT NULL)"]),
    Migration(11, "play by mail and time away: their tables (warlog.mailin, warlog.clock.leave)",
              lambda schema: list(SERVICES_11)),
    Migration(12, "messages between the seats, calendar links, players' languages: their tables (warlog.messages, warlog.tournaments.publish, warlog.i18n)",
              lambda schema: list(SERVICES_12)),
]
