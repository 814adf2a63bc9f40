"""PostgreSQL migrations (see ledger.migrations). Statements run with `search_path` set to the
ledger's schema; `schema` (a quoted identifier) is given for the places that must name it."""

from __future__ import annotations

from ledger.migrations import Migration, partitions
from ledger.migrations.services import SERVICES
from ledger.migrations.services_11 import SERVICES_11
from ledger.migrations.services_12 import SERVICES_12

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
    Migration(4, "players, sign-in links and sessions, notifications, clocks, tournaments",
              lambda schema: list(SERVICES)),
    Migration(5, "transparency log: the entries of the Merkle tree across games",
              lambda schema: [TRANSPARENCY_LOG.replace("{idx}", "BIGINT"),
                              "CREATE TRIGGER transparency_log_append_only BEFORE UPDATE OR DELETE ON transparency_log "
                              "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
                              "CREATE TRIGGER transparency_log_no_truncate BEFORE TRUNCATE ON transparency_log "
                              "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()"]),
    Migration(6, "events, snapshots and idempotency partitioned by the game's creation month",
              lambda schema: partitions.convert(schema)),
    Migration(7, "transparency log: stored subtree hashes, O(log n) heads and proofs",
              lambda schema: [TRANSPARENCY_NODES.replace("{idx}", "BIGINT"),
                              "CREATE TRIGGER transparency_nodes_append_only BEFORE UPDATE OR DELETE ON "
                              "transparency_nodes FOR EACH ROW EXECUTE FUNCTION events_append_only()",
                              "CREATE TRIGGER transparency_nodes_no_truncate BEFORE TRUNCATE ON transparency_nodes "
                              "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()"]),
]


# Migration 8: an append in one statement. The client encodes each event's canonical
# body around its prev_hash (ledger.events.body_parts); the function locks the game's row, checks
# the idempotency key and the expected seq, chains and hashes the events, inserts them (the
# `pending` trigger fires as before), binds the key and the fresh seed, and folds the batch into
# the `games` row (ledger.projection.batch_marks) — one round trip, one transaction. It runs
# with the caller's rights (SECURITY INVOKER): the app role needs EXECUTE and the DML it
# already has; its search_path is pinned so that no temporary table can stand in.
APPEND_FUNCTION = """CREATE FUNCTION ledger_append(
    g TEXT, expected BIGINT, head TEXT, payloads TEXT[], tails TEXT[], types TEXT[], seats TEXT[],
    recorded TEXT, idem_key TEXT, idem_at INTEGER, fresh_secret BYTEA, seed_at INTEGER,
    info_game TEXT, info_scenario TEXT, info_sandbox BOOLEAN,
    submitted BIGINT, handled BIGINT, started BOOLEAN, ended BOOLEAN, new_status TEXT, new_seats TEXT,
    OUT outcome TEXT, OUT at_seq BIGINT, OUT chained_from TEXT, OUT hashes TEXT[])
LANGUAGE plpgsql AS $$
DECLARE
    p TEXT;            -- the game's partition (its creation month)
    cur BIGINT := -1;  -- the game's last seq
    prev TEXT := '{genesis}';
    n INTEGER := cardinality(payloads);
BEGIN
    SELECT left(created_at, 7) INTO p FROM {schema}.games WHERE game_id = g FOR UPDATE;
    IF FOUND THEN
        -- a later statement: it sees what the previous holder of the row lock committed
        SELECT e.seq, e.hash INTO cur, prev FROM {schema}.events e WHERE e.game_id = g AND e.period = p
         ORDER BY e.seq DESC LIMIT 1;
        IF NOT FOUND THEN
            cur := -1;
            prev := '{genesis}';
        END IF;
    ELSIF expected <> -1 THEN
        outcome := 'no_row';  -- the projection was lost: the client rebuilds it from the events
        RETURN;
    END IF;
    IF idem_key IS NOT NULL THEN
        SELECT i.seq INTO at_seq FROM {schema}.idempotency i
         WHERE i.game_id = g AND i.period = p AND i.key = idem_key;
        IF FOUND THEN
            outcome := 'duplicate';
            RETURN;
        END IF;
    END IF;
    IF cur <> expected THEN
        outcome := 'conflict';
        at_seq := cur;
        RETURN;
    END IF;
    IF expected = -1 THEN
        p := left(recorded, 7);
    END IF;
    chained_from := prev;
    hashes := ARRAY[]::TEXT[];
    FOR k IN 1..n LOOP
        prev := encode(sha256(convert_to(head || payloads[k] || ',"prev_hash":"' || prev || tails[k], 'UTF8')), 'hex');
        hashes := hashes || prev;
    END LOOP;
    INSERT INTO {schema}.events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash, period)
    SELECT g, expected + k, types[k], seats[k], payloads[k], recorded,
           CASE WHEN k = 1 THEN chained_from ELSE hashes[k - 1] END, hashes[k], p
      FROM generate_series(1, n) AS k ORDER BY k;
    IF idem_key IS NOT NULL THEN
        INSERT INTO {schema}.idempotency (game_id, key, seq, period) VALUES (g, idem_key, expected + idem_at, p);
    END IF;
    IF expected = -1 THEN
        IF fresh_secret IS NOT NULL THEN
            INSERT INTO {schema}.secrets (game_id, secret) VALUES (g, fresh_secret) ON CONFLICT DO NOTHING;
        END IF;
        INSERT INTO {schema}.games (game_id, game, scenario, status, created_at, last_seq, active_seats,
                                    last_submitted_seq, last_handled_seq, sandbox)
        VALUES (g, info_game, info_scenario,
                COALESCE(new_status, CASE WHEN ended THEN 'ended' WHEN started THEN 'active' ELSE 'waiting' END),
                recorded, expected + n, COALESCE(new_seats, '[]'), submitted, handled, info_sandbox)
        ON CONFLICT (game_id) DO UPDATE SET game = EXCLUDED.game, scenario = EXCLUDED.scenario,
            status = EXCLUDED.status, created_at = EXCLUDED.created_at, last_seq = EXCLUDED.last_seq,
            active_seats = EXCLUDED.active_seats, last_submitted_seq = EXCLUDED.last_submitted_seq,
            last_handled_seq = EXCLUDED.last_handled_seq, sandbox = EXCLUDED.sandbox;
    ELSE
        IF fresh_secret IS NOT NULL THEN  -- a fresh seed period (ledger.dice step 7)
            INSERT INTO {schema}.seed_periods (game_id, seq, secret) VALUES (g, expected + seed_at, fresh_secret);
        END IF;
        UPDATE {schema}.games SET last_seq = expected + n,
               last_submitted_seq = GREATEST(last_submitted_seq, submitted),
               last_handled_seq = GREATEST(last_handled_seq, handled),
               status = COALESCE(new_status, CASE WHEN ended THEN 'ended'
                                                  WHEN started AND status = 'waiting' THEN 'active'
                                                  ELSE status END),
               active_seats = COALESCE(new_seats, active_seats)
         WHERE game_id = g;
    END IF;
    outcome := 'ok';
    at_seq := expected + n;
END
$$"""

# Roles that may append (INSERT on events) may call it; nobody else (migration 8).
APPEND_GRANTS = """DO $$
DECLARE
    r RECORD;
BEGIN
    REVOKE ALL ON FUNCTION ledger_append FROM PUBLIC;
    FOR r IN SELECT DISTINCT grantee FROM information_schema.role_table_grants
              WHERE table_schema = current_schema() AND table_name = 'events' AND privilege_type = 'INSERT'
                AND grantee <> (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'events'::regclass) LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION ledger_append TO %I', r.grantee);
    END LOOP;
END
$$"""


def append_function(schema: str) -> list[str]:
    return [APPEND_FUNCTION.replace("{schema}", schema).replace("{genesis}", "0" * 64), APPEND_GRANTS]


MIGRATIONS.append(Migration(8, "ledger_append(): an append in one statement, one round trip",
                            append_function))


# Migration 9: the same function, its common case made cheaper. The batch INSERT's
# `generate_series(1, n)` made PostgreSQL's plan cache plan that statement afresh on every call
# (a custom plan, the generic one being estimated at 1,000 rows): a one-event append now takes
# an INSERT ... VALUES, whose generic plan is cached (~45 us of ~210 us of server time per call,
# measured with EXPLAIN ANALYZE on this machine). CREATE OR REPLACE keeps the grants (migration 8).
_BATCH_INSERT = """    INSERT INTO {schema}.events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash, period)
    SELECT g, expected + k, types[k], seats[k], payloads[k], recorded,
           CASE WHEN k = 1 THEN chained_from ELSE hashes[k - 1] END, hashes[k], p
      FROM generate_series(1, n) AS k ORDER BY k;
"""
_ONE_OR_BATCH_INSERT = """    IF n = 1 THEN
        INSERT INTO {schema}.events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash, period)
        VALUES (g, expected + 1, types[1], seats[1], payloads[1], recorded, chained_from, hashes[1], p);
    ELSE
    """ + _BATCH_INSERT.replace("\n    ", "\n        ") + """    END IF;
"""


def append_function_one_insert(schema: str) -> list[str]:
    if _BATCH_INSERT not in APPEND_FUNCTION:
        raise AssertionError("migration 9 rewrites migration 8's batch INSERT, which has changed")
    text = APPEND_FUNCTION.replace("CREATE FUNCTION ledger_append(", "CREATE OR REPLACE FUNCTION ledger_append(")
    text = text.replace(_BATCH_INSERT, _ONE_OR_BATCH_INSERT)
    return [text.replace("{schema}", schema).replace("{genesis}", "0" * 64)]


MIGRATIONS.append(Migration(9, "ledger_append(): one event is one INSERT ... VALUES, its plan cached",
                            append_function_one_insert))


# Migration 10: no function names the ledger's schema, so that a dump restored under another
# schema name (docs/deployment.md, "Backups and restores") works as it is. Before, `events_track_pending`, `game_period`
# and `ledger_add_period` were pinned to `search_path = <schema>` and `ledger_append` wrote
# `<schema>.events` into its body: restored as `warlog2`, every read and append still went to
# the old name. Now the functions that run with the caller's rights use the caller's search_path
# (the app's connections set it to the ledger's schema), and the pending trigger, which runs as
# the owner, finds its tables in the schema of the table that fired it (TG_TABLE_SCHEMA), its
# search_path fixed to that schema with temporary tables last, so none can stand in for
# `pending`. CREATE OR REPLACE keeps the owners and grants.
TRACK_PENDING = f"""CREATE OR REPLACE FUNCTION events_track_pending() RETURNS trigger LANGUAGE plpgsql
SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM set_config('search_path', format('%I, pg_catalog, pg_temp', TG_TABLE_SCHEMA), true);
    IF NEW.type = 'submitted' THEN
        INSERT INTO pending (game_id, seq) VALUES (NEW.game_id, NEW.seq);
    ELSE
        DELETE FROM pending WHERE game_id = NEW.game_id AND seq = {SUBMISSION_SEQ.format('NEW.payload')};
    END IF;
    RETURN NULL;
END
$$"""

UNPINNED_GAME_PERIOD = partitions.GAME_PERIOD.replace("SET search_path = {schema}, pg_temp ", "").replace(
    "CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")


def schema_free_functions(schema: str) -> list[str]:
    """The statements of migration 10 (`schema` is not used: that is the point)."""
    add_period = partitions.add_period_function("{schema}")
    pinned = "SET search_path = {schema}, pg_temp "
    append = append_function_one_insert("{schema}")[0].replace("{schema}.", "")
    if pinned not in add_period or pinned not in partitions.GAME_PERIOD or "{schema}" in append:
        raise AssertionError("migration 10 rewrites the functions of migrations 6 and 9, which have changed")
    return [
        TRACK_PENDING,
        UNPINNED_GAME_PERIOD,
        add_period.replace(pinned, "").replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"),
        append,
        READY_PROBE,
    ]


# A row per host whose web processes check readiness (warlog.ops.health): `/readyz` writes its row, so that a
# full disk, a read-only database or a missing schema makes the process not ready.
READY_PROBE = "CREATE TABLE IF NOT EXISTS ready_probe (name TEXT PRIMARY KEY, checked_at TEXT NOT NULL)"

MIGRATIONS.append(Migration(10, "functions that name no schema (a dump restores under any name); readiness probe",
                            schema_free_functions))
MIGRATIONS.append(Migration(11, "play by mail and time away: their tables (warlog.mailin, warlog.clock.leave)",
                            lambda schema: list(SERVICES_11)))
MIGRATIONS.append(Migration(12, "messages between the seats, calendar links, players' languages: their tables (warlog.messages, warlog.tournaments.publish, warlog.i18n)",
                            lambda schema: list(SERVICES_12)))
