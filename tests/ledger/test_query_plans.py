"""The listing statements and the sweep on PostgreSQL use their indexes, also as generic
plans (the `? IS NULL OR` form lost every index once psycopg prepared it). A plan
regression fails here: a Seq Scan on games, or a Sort (the index no longer gives the order)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql

from ledger import paging
from ledger.postgres import PostgresStore
from ledger.sqlstore import GAME_COLUMNS, SUMMARY_COLUMNS
from tests.ledger.conftest import PG_URL, require_postgres

N = 30_000


@pytest.fixture(scope="module")
def conn() -> Iterator[psycopg.Connection]:
    require_postgres()
    schema = f"warlog_test_{uuid.uuid4().hex}"
    store = PostgresStore(PG_URL, schema=schema)
    store.create_schema()
    store.close()
    with psycopg.connect(PG_URL, autocommit=True) as c:
        c.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        # as on a big site: most games ended, a few waiting, two game names
        c.execute(f"""INSERT INTO games (game_id, game, scenario, status, created_at, last_seq)
                     SELECT 'g' || lpad(i::text, 7, '0'), CASE WHEN i % 3 = 0 THEN 'kursk' ELSE 'ardennes' END, 's',
                            CASE WHEN i % 50 = 0 THEN 'waiting' WHEN i % 10 = 0 THEN 'active' ELSE 'ended' END,
                            to_char(timestamp '2026-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                            10
                     FROM generate_series(1, {N}) AS i""")
        c.execute("INSERT INTO pending SELECT 'g' || lpad(i::text, 7, '0'), 5 FROM generate_series(1, 40) AS i")
        c.execute("ANALYZE")
        c.execute("SET plan_cache_mode = force_generic_plan")
        yield c
        c.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def plan(conn: psycopg.Connection, text: str, args: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Every node of the generic plan of `text` (prepared, then EXPLAIN EXECUTE)."""
    numbered, n = "", 0
    for part in text.split("?"):
        numbered += part
        n += 1
        numbered += f"${n}"
    numbered = numbered[: -len(f"${n}")]
    name = f"q_{uuid.uuid4().hex[:8]}"
    conn.execute(f"PREPARE {name} AS {numbered}")
    try:
        call = sql.SQL("EXPLAIN (FORMAT JSON) EXECUTE {}").format(sql.Identifier(name))
        if args:
            call += sql.SQL("({})").format(sql.SQL(", ").join(sql.Literal(a) for a in args))
        doc = conn.execute(call).fetchone()[0]
    finally:
        conn.execute(f"DEALLOCATE {name}")
    doc = json.loads(doc) if isinstance(doc, str) else doc
    nodes, todo = [], [doc[0]["Plan"]]
    while todo:
        node = todo.pop()
        nodes.append(node)
        todo += node.get("Plans", [])
    return nodes


INDEX = {(False, None): "games_by_created", (False, "status"): "games_by_status", (False, "open"): "games_open",
         (True, None): "games_by_game", (True, "status"): "games_by_game_status", (True, "open"): "games_open_by_game"}


@pytest.mark.parametrize("mode", ["force_generic_plan", "force_custom_plan"])
@pytest.mark.parametrize("game", [None, "kursk"])
@pytest.mark.parametrize("status", [None, "waiting", "ended", "open"])
@pytest.mark.parametrize("deep", [False, True])
def test_each_listing_statement_is_one_ordered_index_scan(conn, mode, game, status, deep):
    conn.execute(f"SET plan_cache_mode = {mode}")
    after = paging.Position("2026-01-10T00:00:00.000000Z", "g0012961") if deep else None
    text = paging.statement(GAME_COLUMNS, game is not None, status, after is not None)
    nodes = plan(conn, text, paging.arguments(game, status, after, 51))
    kinds = [n["Node Type"] for n in nodes]
    scans = [n for n in nodes if "Scan" in n["Node Type"]]
    assert "Sort" not in kinds and "Seq Scan" not in kinds and "Bitmap Heap Scan" not in kinds, kinds
    assert len(scans) == 1 and scans[0]["Node Type"] in ("Index Scan", "Index Only Scan"), kinds
    if mode == "force_generic_plan":  # knows no value: must take the index made for the filter
        want = INDEX[(game is not None, "open" if status == "open" else ("status" if status else None))]
        assert scans[0]["Index Name"] == want, scans[0]
        if deep:  # the cursor is an index condition, not a filter over the rows before it
            assert "created_at" in scans[0].get("Index Cond", ""), scans[0]
    elif status == "waiting":  # a rare status: never the created_at index filtered row by row
        assert scans[0]["Index Name"] in ("games_by_status", "games_by_game_status"), scans[0]


def test_the_sweep_reads_only_the_pending_set(conn):
    nodes = plan(conn, "SELECT DISTINCT game_id FROM pending ORDER BY game_id", ())
    assert {n.get("Relation Name") for n in nodes if "Relation Name" in n} == {"pending"}


def test_a_summary_is_a_primary_key_probe_and_a_look_at_the_pending_set(conn):
    conn.execute("SET plan_cache_mode = force_generic_plan")
    nodes = plan(conn, f"SELECT {SUMMARY_COLUMNS} FROM games WHERE game_id = ?", ("g0000007",))
    games = [n for n in nodes if n.get("Relation Name") == "games"]
    assert [n.get("Index Name") for n in games] == ["games_pkey"], [n["Node Type"] for n in nodes]
    assert {n.get("Relation Name") for n in nodes if "Relation Name" in n} == {"games", "pending"}


@pytest.mark.parametrize("game", [None, "kursk"])
@pytest.mark.parametrize("status", [None, "waiting", "open"])
@pytest.mark.parametrize("deep", [False, True])
def test_sqlite_lists_by_index_too(tmp_path, game, status, deep):
    import sqlite3

    from ledger.sqlite import SqliteStore

    store = SqliteStore(str(tmp_path / "plans.db"))
    store.create_schema()
    store.close()
    after = paging.Position("2026-01-10T00:00:00.000000Z", "g1") if deep else None
    text = paging.statement(GAME_COLUMNS, game is not None, status, deep)
    with sqlite3.connect(store.path) as c:
        steps = [r[3] for r in c.execute("EXPLAIN QUERY PLAN " + text, paging.arguments(game, status, after, 51))]
    want = INDEX[(game is not None, "open" if status == "open" else ("status" if status else None))]
    assert len(steps) == 1 and f"USING INDEX {want}" in steps[0] and "TEMP B-TREE" not in steps[0], steps
    if deep:
        assert "(created_at,game_id)<(?,?)" in steps[0], steps
