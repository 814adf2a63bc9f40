"""Migration 6 (PostgreSQL only): events, snapshots and idempotency partitioned by the game's
creation period (archiving).

A stream's period is the month of its first event, `left(recorded_at, 7)` (`2026-11`), which is
also `left(games.created_at, 7)`; each row carries it in a `period` column (not hashed, never
exported: the chain is unchanged). Each table is `PARTITION BY LIST (period)` with a partition
per month (`events_2026_11`, ...) and a DEFAULT partition, so that an insert never fails when
the owner has not yet made next month's partition (`warlog db partitions` makes them ahead).

The conversion copies every row (INSERT ... SELECT into the new partitioned table, then drops
the old table once the counts agree): no row is updated or deleted in place. The append-only
row trigger is made on the partitioned parent, so PostgreSQL (13+) clones it onto every
partition, present and future; statement-level TRUNCATE triggers are not cloned, so
`ledger_add_period` gives each events partition its own. The grants that roles held on the old
tables are given again on the new ones.
"""

from __future__ import annotations

COLUMNS = {
    "events": """game_id TEXT NOT NULL,
    seq BIGINT NOT NULL CHECK (seq >= 0),
    type TEXT NOT NULL,
    seat TEXT,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    period TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, period)""",
    "snapshots": """game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL,
    period TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, period)""",
    "idempotency": """game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq BIGINT NOT NULL,
    period TEXT NOT NULL,
    PRIMARY KEY (game_id, key, period),
    CONSTRAINT idempotency_event FOREIGN KEY (game_id, seq, period) REFERENCES events (game_id, seq, period)""",
}
TABLES = ("events", "snapshots", "idempotency")  # the order they are made in (idempotency refers to events)

# The creation period of every stream: the month of its event 0.
PERIOD_OF = "(SELECT left(e0.recorded_at, 7) FROM events_v5 e0 WHERE e0.game_id = {t}.game_id AND e0.seq = 0)"


# A stream's period for the per-game reads (`... AND period = game_period(game_id)`): STABLE,
# so PostgreSQL prunes to one partition when the statement starts, prepared or not. A game's
# row in `games`, else a tournament's in `tournaments` (the other streams of `events`).
GAME_PERIOD = """CREATE FUNCTION game_period(g TEXT) RETURNS TEXT LANGUAGE sql STABLE
SET search_path = {schema}, pg_temp AS $$
SELECT COALESCE((SELECT left(created_at, 7) FROM games WHERE game_id = g),
                (SELECT left(created_at, 7) FROM tournaments WHERE id = g))
$$"""


def add_period_function(schema: str) -> str:
    """`ledger_add_period('2026-11')`: the period's three partitions, if missing (owner only).

    Rows of that period already in a DEFAULT partition (no partition existed when they came)
    are moved by copying: the default partition is detached and renamed, a new empty default
    and the period's partitions are made, every row is inserted again through the parent, and
    the old default table is dropped. No row is updated or deleted in place."""
    return f"""CREATE FUNCTION ledger_add_period(p TEXT) RETURNS BOOLEAN LANGUAGE plpgsql
SET search_path = {schema}, pg_temp AS $$
DECLARE
    t TEXT;
    part TEXT;
    stray BOOLEAN := FALSE;
BEGIN
    IF p !~ '^[0-9]{{4}}-(0[1-9]|1[0-2])$' THEN
        RAISE EXCEPTION 'a period is a month like 2026-11, not %', p;
    END IF;
    IF to_regclass(format('%I', 'events_' || replace(p, '-', '_'))) IS NOT NULL THEN
        RETURN FALSE;
    END IF;
    FOREACH t IN ARRAY ARRAY['events', 'snapshots', 'idempotency'] LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE period = $1)', t || '_default')
            INTO stray USING p;
        EXIT WHEN stray;
    END LOOP;
    IF stray THEN
        FOREACH t IN ARRAY ARRAY['idempotency', 'snapshots', 'events'] LOOP
            EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', t, t || '_default');
            EXECUTE format('ALTER TABLE %I RENAME TO %I', t || '_default', t || '_default_old');
            EXECUTE format('ALTER INDEX %I RENAME TO %I', t || '_default_pkey', t || '_default_old_pkey');
            IF t = 'idempotency' THEN
                ALTER TABLE idempotency_default_old DROP CONSTRAINT idempotency_event;
            END IF;
        END LOOP;
    END IF;
    FOREACH t IN ARRAY ARRAY['events', 'snapshots', 'idempotency'] LOOP
        part := t || '_' || replace(p, '-', '_');
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%L)', part, t, p);
        IF stray THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t || '_default', t);
        END IF;
    END LOOP;
    EXECUTE format('CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON %I '
                   'FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()', 'events_' || replace(p, '-', '_'));
    IF stray THEN
        EXECUTE 'CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events_default '
                'FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()';
        -- pending is already right for these rows: the copy must not add to it
        ALTER TABLE events DISABLE TRIGGER events_pending;
        INSERT INTO events SELECT * FROM events_default_old ORDER BY game_id, seq;
        ALTER TABLE events ENABLE TRIGGER events_pending;
        INSERT INTO snapshots SELECT * FROM snapshots_default_old;
        INSERT INTO idempotency SELECT * FROM idempotency_default_old;
        DROP TABLE idempotency_default_old, snapshots_default_old, events_default_old;
    END IF;
    RETURN TRUE;
END
$$"""


def convert(schema: str) -> list[str]:
    """The statements of migration 6."""
    out: list[str] = []
    for t in TABLES:
        out += [f"ALTER TABLE {t} RENAME TO {t}_v5", f"ALTER INDEX {t}_pkey RENAME TO {t}_v5_pkey"]
    out.append("ALTER TABLE idempotency_v5 DROP CONSTRAINT IF EXISTS idempotency_game_id_seq_fkey")
    for t in TABLES:
        out += [f"CREATE TABLE {t} (\n    {COLUMNS[t]}\n) PARTITION BY LIST (period)",
                f"CREATE TABLE {t}_default PARTITION OF {t} DEFAULT"]
    out += [
        "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events_default "
        "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()",
        add_period_function(schema),
        "REVOKE ALL ON FUNCTION ledger_add_period(TEXT) FROM PUBLIC",
        "SELECT ledger_add_period(p) FROM (SELECT DISTINCT left(recorded_at, 7) AS p FROM events_v5 "
        "WHERE seq = 0) AS periods ORDER BY p",
    ]
    for t in TABLES:
        cols = {"events": "game_id, seq, type, seat, payload, recorded_at, prev_hash, hash",
                "snapshots": "game_id, seq, state", "idempotency": "game_id, key, seq"}[t]
        out.append(f"INSERT INTO {t} ({cols}, period) SELECT {cols}, {PERIOD_OF.format(t=t + '_v5')} "
                   f"FROM {t}_v5 ORDER BY game_id")
    out.append("""DO $$
DECLARE
    t TEXT;
    old BIGINT;
    new BIGINT;
    g RECORD;
BEGIN
    FOREACH t IN ARRAY ARRAY['events', 'snapshots', 'idempotency'] LOOP
        EXECUTE format('SELECT count(*) FROM %I', t || '_v5') INTO old;
        EXECUTE format('SELECT count(*) FROM %I', t) INTO new;
        IF old <> new THEN
            RAISE EXCEPTION 'migration 6: % has % rows, % before the conversion', t, new, old;
        END IF;
        FOR g IN SELECT grantee, privilege_type FROM information_schema.role_table_grants
                  WHERE table_schema = current_schema() AND table_name = t || '_v5'
                    AND grantee <> (SELECT pg_get_userbyid(relowner) FROM pg_class
                                     WHERE oid = (t || '_v5')::regclass) LOOP
            EXECUTE format('GRANT %s ON %I TO %I', g.privilege_type, t, g.grantee);
        END LOOP;
    END LOOP;
END
$$""")
    out += [
        "DROP TABLE idempotency_v5, snapshots_v5, events_v5",
        GAME_PERIOD.format(schema=schema),
        "CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events "
        "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
        "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events "
        "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()",
        "CREATE TRIGGER events_pending AFTER INSERT ON events FOR EACH ROW "
        "WHEN (NEW.type IN ('submitted', 'resolved', 'rejected')) EXECUTE FUNCTION events_track_pending()",
    ]
    return out

