"""Versioned migrations on both backends: a ledger made by the release before versions were
recorded upgrades in place (its pending submissions found from its events), an upgrade is
idempotent, and a store that only checks refuses a schema that is behind."""

from __future__ import annotations

import json
import sqlite3
import uuid

import psycopg
import pytest
from psycopg import sql

from ledger.factory import open_store
from ledger.migrations import SchemaOutOfDate
from ledger.migrations import postgres as pg_migrations
from ledger.migrations import sqlite as sqlite_migrations
from ledger.postgres import PostgresStore
from ledger.sqlite import SqliteStore
from tests.ledger.conftest import PG_URL

LEGACY_EVENTS = [  # g1: submission 2 judged, submission 4 not; g2: nothing pending
    ("g1", 0, "game_created", None, {"game": "ardennes", "scenario": "s1"}),
    ("g1", 1, "game_started", None, {}),
    ("g1", 2, "submitted", "red", {"action": {}}),
    ("g1", 3, "resolved", None, {"submission_seq": 2, "note": "nul \u0000 in a payload"}),
    ("g1", 4, "submitted", "blue", {"action": {}}),
    ("g2", 0, "game_created", None, {"game": "kursk", "scenario": "s1"}),
    ("g2", 1, "submitted", "red", {}),
    ("g2", 2, "rejected", None, {"submission_seq": 1}),
]


def _rows(placeholder: str) -> tuple[str, list[tuple[object, ...]]]:
    text = ("INSERT INTO events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash) VALUES "
            f"({', '.join([placeholder] * 8)})")
    return text, [(g, s, t, seat, json.dumps(p, separators=(",", ":")), f"2026-01-01T00:00:0{s}.000000Z", "p", "h")
                  for g, s, t, seat, p in LEGACY_EVENTS]


def _games(placeholder: str) -> tuple[str, list[tuple[object, ...]]]:
    text = ("INSERT INTO games (game_id, game, scenario, status, created_at, last_seq, last_submitted_seq, "
            f"last_handled_seq) VALUES ({', '.join([placeholder] * 8)})")
    return text, [("g1", "ardennes", "s1", "active", "2026-01-01T00:00:00.000000Z", 4, 4, 2),
                  ("g2", "kursk", "s1", "active", "2026-01-01T00:00:01.000000Z", 2, 1, 1)]


@pytest.fixture(params=["sqlite", "postgres"])
def legacy_url(request, tmp_path):
    """A ledger as the release before versioned migrations left it (no schema_version)."""
    if request.param == "sqlite":
        path = tmp_path / "legacy.sqlite3"
        conn = sqlite3.connect(path, isolation_level=None)
        for statement in sqlite_migrations.MIGRATIONS[0].statements(""):
            conn.execute(statement)
        conn.executemany(*_rows("?"))
        conn.executemany(*_games("?"))
        conn.close()
        yield f"sqlite:///{path}"
        return
    schema = f"warlog_test_{uuid.uuid4().hex}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        for statement in pg_migrations.MIGRATIONS[0].statements(schema):
            conn.execute(statement)  # type: ignore[arg-type]
        with conn.cursor() as cur:
            # PostgreSQL text cannot hold a raw NUL: canonical JSON escapes it (\u0000)
            cur.executemany(*_rows("%s"))
            cur.executemany(*_games("%s"))
    yield PostgresStore(PG_URL, schema=schema).url
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def test_a_legacy_ledger_upgrades_in_place_and_finds_its_pending_moves(legacy_url):
    if legacy_url.startswith("postgresql"):
        latest = pg_migrations.MIGRATIONS[-1].version
        with pytest.raises(SchemaOutOfDate, match=f"version 0; this release needs version {latest}"):
            open_store(legacy_url)  # the app only checks
    store = open_store(legacy_url, upgrade=True)
    try:
        assert store.schema_version() == store.latest_version() == len(pg_migrations.MIGRATIONS)
        assert store.pending_games() == ["g1"]
        assert store.summary("g1").oldest_pending == 4 and not store.summary("g2").pending
        assert [g.game_id for g in store.list_games(status="active")] == ["g2", "g1"]
        store.create_schema()  # again: nothing to do
        assert store.schema_version() == len(pg_migrations.MIGRATIONS)
        # from now on the trigger keeps the set
        from ledger.events import NewEvent

        store.append("g1", 4, [NewEvent("rejected", None, {"submission_seq": 4})])
        assert store.pending_games() == []
    finally:
        store.close()
    open_store(legacy_url).close()  # current: the check passes


def test_an_empty_postgresql_schema_is_refused_until_upgraded(pg_url):
    schema = f"warlog_test_{uuid.uuid4().hex}"
    url = PostgresStore(PG_URL, schema=schema).url
    with pytest.raises(SchemaOutOfDate, match=r"warlog db upgrade"):
        open_store(url)
    try:
        open_store(url, upgrade=True).close()
        open_store(url).close()
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def test_a_schema_newer_than_the_release_is_refused(tmp_path):
    store = SqliteStore(str(tmp_path / "new.sqlite3"))
    store.create_schema()
    with sqlite3.connect(store.path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', 'now')")
    with pytest.raises(SchemaOutOfDate, match="newer than this release"):
        open_store(store.url, upgrade=False)
    store.close()


def test_the_password_is_not_in_the_message():
    err = SchemaOutOfDate(PostgresStore.display_url(type("S", (), {"url": "postgresql://app:s3cret@db/x"})()), 0, 2)
    assert "s3cret" not in str(err) and "app:***@db" in str(err)


def test_the_pending_set_follows_the_events_with_nul_escapes_in_payloads(store, make_game):
    from ledger.events import NewEvent

    make_game(store, "g1")
    store.append("g1", 0, [NewEvent("submitted", "red", {"reason": "a\u0000b"})])
    store.append("g1", 1, [NewEvent("submitted", "blue", {})])
    assert store.summary("g1").oldest_pending == 1
    store.append("g1", 2, [NewEvent("resolved", None, {"submission_seq": 1, "facts": ["x\u0000", "\\u0000"]})])
    assert store.summary("g1").oldest_pending == 2 and store.pending_games() == ["g1"]
    store.append("g1", 3, [NewEvent("rejected", None, {"submission_seq": 2, "reasons": [{"m": "\\\u0000"}]})])
    assert not store.summary("g1").pending and store.pending_games() == []
