"""PostgreSQL migrations (see ledger.migrations). Statements run with `search_path` set to the
ledger's schema; `schema` (a quoted identifier) is given for the places that must name it."""

from __future__ import annotations

from ledger.migrations import Migration, partitions
from ledger.migrations.services import SERVICES

INITIAL = """
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL CHECK (seq >= 0),
    type TEXT NOT NULL,
    seat TEXT,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    scenario TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL,
    active_seats TEXT NOT NULL DEFAULT '[]',
    last_submitted_seq BIGINT NOT NULL DEFAULT -1,
    last_handled_seq BIGINT NOT NULL DEFAULT -1,
    sandbox BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at);
CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (game_id, key),
    FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
);
CREATE TABLE IF NOT EXISTS secrets (
    game_id TEXT PRIMARY KEY,
    secret BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)
"""

APPEND_ONLY = """
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only (% refused)', TG_OP;
END
$$
"""

TRIGGERS = """
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'events'::regclass
                   AND tgname = 'events_no_update_delete') THEN
        CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION events_append_only();
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'events'::regclass
                   AND tgname = 'events_no_truncate') THEN
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
    END IF;
END
$$
"""


def initial(schema: str) -> list[str]:
    return [s for s in INITIAL.split(";\n")] + [APPEND_ONLY, TRIGGERS]


# The submission a judgement answers, from its payload text. PostgreSQL's JSON functions refuse
# the \u0000 escape that canonical JSON may hold anywhere in a payload; turning each one into
# \u0001 first keeps the text valid JSON (only the four digits change) and the number intact.
SUBMISSION_SEQ = r"(replace({}, '\u0000', '\u0001')::json ->> 'submission_seq')::bigint"


def pending_and_paging(schema: str) -> list[str]:
    """The `pending` set kept by the database itself, and one index per listing filter.

    `pending` holds each submission without a judgement. Only the trigger below writes it: it
    runs as the owner (SECURITY DEFINER, its search_path pinned to the ledger's schema so that
    no temporary table can stand in), so an app role that may only read `pending` and insert
    events cannot hide a submission from the sweeper except by appending a judgement to the
    ledger, where it is history."""
    return [
        "CREATE TABLE pending (game_id TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (game_id, seq))",
        "INSERT INTO pending (game_id, seq) "
        "SELECT game_id, seq FROM events WHERE type = 'submitted' "
        f"EXCEPT SELECT game_id, {SUBMISSION_SEQ.format('payload')} FROM events "
        "WHERE type IN ('resolved', 'rejected')",
        f"""CREATE FUNCTION events_track_pending() RETURNS trigger LANGUAGE plpgsql
SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
    IF NEW.type = 'submitted' THEN
        INSERT INTO {schema}.pending (game_id, seq) VALUES (NEW.game_id, NEW.seq);
    ELSE
        DELETE FROM {schema}.pending
         WHERE game_id = NEW.game_id AND seq = {SUBMISSION_SEQ.format('NEW.payload')};
    END IF;
    RETURN NULL;
END
$$""",
        "REVOKE ALL ON FUNCTION events_track_pending() FROM PUBLIC",
        "CREATE TRIGGER events_pending AFTER INSERT ON events FOR EACH ROW "
        "WHEN (NEW.type IN ('submitted', 'resolved', 'rejected')) EXECUTE FUNCTION events_track_pending()",
        "DROP INDEX IF EXISTS games_created",
        *PAGING_INDEXES,
        # A generic plan (psycopg prepares a statement after 5 runs) guesses `status = $1`
        # matches 1 / n_distinct of the rows: with 3 statuses it would rather filter the
        # created_at index than use the status one, and read 50 rows per row shown when the
        # status is rare. A large n_distinct makes the equality index its choice; custom
        # plans still use the real frequencies of each value (ANALYZE's common values).
        "ALTER TABLE games ALTER COLUMN status SET (n_distinct = 10000)",
        "ALTER TABLE games ALTER COLUMN game SET (n_distinct = 10000)",
    ]


# Migration 5: leaf `idx` of the log is its row; an entry is logged once (game, kind, seq).
TRANSPARENCY_LOG = """CREATE TABLE transparency_log (
    idx {idx} PRIMARY KEY CHECK (idx >= 0),
    kind TEXT NOT NULL CHECK (kind IN ('created', 'head')),
    game_id TEXT NOT NULL,
    seq {idx} NOT NULL,
    hash TEXT NOT NULL,
    logged_at TEXT NOT NULL,
    UNIQUE (game_id, kind, seq)
)"""


# Migration 7: the transparency log's complete subtrees (ledger.logtree), written once each.
TRANSPARENCY_NODES = """CREATE TABLE transparency_nodes (
    level INTEGER NOT NULL CHECK (level >= 0 AND level < 64),
    idx {idx} NOT NULL CHECK (idx >= 0),
    hash TEXT NOT NULL,
    PRIMARY KEY (level, idx)
)"""


# One index per listing statement (ledger.paging): newest first is a backward scan of each.
PAGING_INDEXES = [
    "CREATE INDEX games_by_created ON games (created_at, game_id)",
    "CREATE INDEX games_by_status ON games (status, created_at, game_id)",
    "CREATE INDEX games_by_game ON games (game, created_at, game_id)",
    "CREATE INDEX games_by_game_status ON games (game, status, created_at, game_id)",
    "CREATE INDEX games_open ON games (created_at, game_id) WHERE status <> 'ended'",
    "CREATE INDEX games_open_by_game ON games (game, created_at, game_id) WHERE status <> 'ended'",
]

MIGRATIONS = [
    Migration(1, "initial: events, games, idempotency, secrets, snapshots; append-only triggers", initial),
    Migration(2, "pending set kept by a trigger; listing indexes", pending_and_paging),
    Migration(3, "seed periods: the fresh seeds a reopened game commits (ledger.dice step 7)",
              lambda schema: ["CREATE TABLE IF NOT EXISTS seed_periods (game_id TEXT NOT NULL, seq BIGINT NOT NULL, "
                              "secret BYTEA NOT NULL, PRIMARY KEY (game_id, seq))"]),
    Migration(4, "players, sign-in links and sessions, notifications, clocks, tournaments (issue 10)",
              lambda schema: list(SERVICES)),
    Migration(5, "transparency log: the entries of the Merkle tree across games (issue 14)",
              lambda schema: [TRANSPARENCY_LOG.replace("{idx}", "BIGINT"),
                              "CREATE TRIGGER transparency_log_append_only BEFORE UPDATE OR DELETE ON transparency_log "
                              "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
                              "CREATE TRIGGER transparency_log_no_truncate BEFORE TRUNCATE ON transparency_log "
                              "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()"]),
    Migration(6, "events, snapshots and idempotency partitioned by the game's creation month (issue 16)",
              lambda schema: partitions.convert(schema)),
    Migration(7, "transparency log: stored subtree hashes, O(log n) heads and proofs (issue 14)",
              lambda schema: [TRANSPARENCY_NODES.replace("{idx}", "BIGINT"),
                              "CREATE TRIGGER transparency_nodes_append_only BEFORE UPDATE OR DELETE ON "
                              "transparency_nodes FOR EACH ROW EXECUTE FUNCTION events_append_only()",
                              "CREATE TRIGGER transparency_nodes_no_truncate BEFORE TRUNCATE ON transparency_nodes "
                              "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()"]),
]
