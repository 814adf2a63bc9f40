"""What migration 10 costs an append on PostgreSQL: the functions that named their schema
(`ledger_append` with `<schema>.` in its body, the `pending` trigger and `game_period` pinned to
`search_path = <schema>`) against the schema-free ones (the trigger sets its search_path from
TG_TABLE_SCHEMA; the others use the caller's).

Two schemas at the latest version; in one the pre-10 definitions are put back. Each round appends
ROUNDS single-`submitted`-event batches (the trigger fires on each) to one game per schema,
alternating schemas, and the medians of the per-append times are printed.

    python bench/schema_free_bench.py   # WARLOG_BENCH_PG_URL (default: the local `test` database)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.events import GAME_CREATED, SUBMITTED, NewEvent  # noqa: E402
from ledger.migrations import partitions  # noqa: E402
from ledger.migrations.postgres import SUBMISSION_SEQ, append_function_one_insert  # noqa: E402
from ledger.postgres import PostgresStore  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
ROUNDS, PER_ROUND = 5, 300

OLD_TRIGGER = """CREATE OR REPLACE FUNCTION events_track_pending() RETURNS trigger LANGUAGE plpgsql
SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
    IF NEW.type = 'submitted' THEN
        INSERT INTO {schema}.pending (game_id, seq) VALUES (NEW.game_id, NEW.seq);
    ELSE
        DELETE FROM {schema}.pending
         WHERE game_id = NEW.game_id AND seq = """ + SUBMISSION_SEQ.format("NEW.payload") + """;
    END IF;
    RETURN NULL;
END
$$"""


def pinned(schema: str) -> list[str]:
    quoted = sql.Identifier(schema).as_string(None)
    return [OLD_TRIGGER.replace("{schema}", quoted),
            partitions.GAME_PERIOD.format(schema=quoted).replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"),
            append_function_one_insert(quoted)[0]]


def main() -> None:
    schemas = {"schema-free (10)": f"bench_free_{uuid.uuid4().hex[:8]}",
               "pinned (before 10)": f"bench_pinned_{uuid.uuid4().hex[:8]}"}
    stores = {}
    try:
        for label, schema in schemas.items():
            store = PostgresStore(PG, schema=schema)
            store.create_schema()
            stores[label] = store
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schemas["pinned (before 10)"])))
            for statement in pinned(schemas["pinned (before 10)"]):
                conn.execute(statement)  # type: ignore[arg-type]
        games = {}
        for label, store in stores.items():
            game = f"g{uuid.uuid4().hex[:8]}"
            store.append(game, -1, [NewEvent(GAME_CREATED, None, {"game": "x"})], game_info=("x", "s", False))
            games[label] = [game, 0]
        times: dict[str, list[float]] = {label: [] for label in stores}
        for _ in range(ROUNDS):
            for label, store in stores.items():
                game, last = games[label]
                for _ in range(PER_ROUND):
                    t0 = time.perf_counter()
                    store.append(game, last, [NewEvent(SUBMITTED, "a", {"action": {"type": "roll"}})])
                    times[label].append(time.perf_counter() - t0)
                    last += 1
                games[label][1] = last
        for label, samples in times.items():
            print(f"{label:>20}: median {statistics.median(samples) * 1e6:7.0f} us per append "
                  f"(p90 {statistics.quantiles(samples, n=10)[-1] * 1e6:.0f} us, {len(samples)} appends)")
    finally:
        for store in stores.values():
            store.close()
        with psycopg.connect(PG, autocommit=True) as conn:
            for schema in schemas.values():
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()
