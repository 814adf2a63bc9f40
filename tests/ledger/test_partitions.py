"""Partitions by creation month on PostgreSQL (migration 6): a version-5 ledger is
converted with every row kept; the append-only triggers hold on each partition; a month's
partitions made late take over the rows the DEFAULT partition caught; and a period of ended
games is exported, detached (refused until it may be), attached and re-imported with every
game verifying and every chain head unchanged."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from ledger.events import NewEvent
from ledger.factory import open_store
from ledger.migrations import VERSION_TABLE, apply
from ledger.migrations import postgres as pg_migrations
from ledger.partitions import add_periods, attached, heads
from ledger.postgres import PostgresStore
from tests.conftest import Player, pg_schema_url
from warlog.app import create_app
from warlog.cli import main
from warlog.trust.verify import verify_bytes

THIS_MONTH = datetime.now(UTC).strftime("%Y-%m")


def raw(url: str, statement: str, args: tuple[Any, ...] = ()) -> list[Any]:
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(statement, args or None)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def refused(url: str, statement: str) -> None:
    with pytest.raises(psycopg.Error, match="append-only"):
        raw(url, statement)


def test_migration_6_converts_a_version_5_ledger_keeping_every_row(pg_url: str, make_game: Any) -> None:
    """Rows written before partitioning (two creation months) are all there after migration 6,
    each in its month's partition; reads, pending set, keys and snapshots unchanged."""
    schema = "warlog_v5_" + pg_url.rsplit("%3D", 1)[1][-12:]
    old_url = pg_schema_url(schema)
    raw(pg_url, f"CREATE SCHEMA {schema}")
    try:
        with psycopg.connect(old_url, autocommit=True) as conn, conn.transaction():
            conn.execute(VERSION_TABLE)
            apply(lambda text, args: conn.execute(text, args or None), pg_migrations.MIGRATIONS[:5], 0,
                  schema, "2026-01-01T00:00:00Z", "%s")
        store = open_store(pg_url)  # a v6 ledger makes real games; their rows are copied to the v5 one
        for gid in ("old", "new"):
            make_game(store, gid)
            store.append(gid, 0, [NewEvent("submitted", "red", {})], idempotency_key=f"k-{gid}")
            store.save_snapshot(gid, 1, {"n": gid})
        events = {gid: store.read(gid) for gid in ("old", "new")}
        store.close()
        cols = {"events": "game_id, seq, type, seat, payload, recorded_at, prev_hash, hash",
                "snapshots": "game_id, seq, state", "idempotency": "game_id, key, seq",
                "games": "*", "secrets": "*"}
        for table, c in cols.items():
            raw(pg_url, f"INSERT INTO {schema}.{table} SELECT {c} FROM {table}")
        # game "old" was created in March 2025 (the chain is not checked here: rows are compared)
        raw(old_url, "ALTER TABLE events DISABLE TRIGGER USER")
        raw(old_url, "UPDATE events SET recorded_at = '2025-03-04T05:06:07.000000Z' WHERE game_id = 'old'")
        raw(old_url, "ALTER TABLE events ENABLE TRIGGER USER")
        raw(old_url, "UPDATE games SET created_at = '2025-03-04T05:06:07.000000Z' WHERE game_id = 'old'")
        old_events = open_store(pg_url).read("old")  # the v6 copy still holds the original
        converted = open_store(old_url, upgrade=True)
        assert converted.schema_version() >= 6  # the latest release's version
        assert isinstance(converted, PostgresStore)
        assert attached(converted) == ["2025-03", THIS_MONTH]
        assert converted.read("new") == events["new"]
        assert [e.hash for e in converted.read("old")] == [e.hash for e in old_events]
        assert raw(old_url, "SELECT period, count(*) FROM events_2025_03 GROUP BY period") == [("2025-03", 2)]
        assert converted.pending_games() == ["new", "old"]
        assert converted.idempotent_seq("old", "k-old", "red") == 1
        assert converted.latest_snapshot("new", 5) == (1, {"n": "new"})
        for statement in ("UPDATE events SET type = 'x'", "DELETE FROM events_2025_03",
                          "UPDATE events_2025_03 SET payload = '{}'", "TRUNCATE events_2025_03 CASCADE",
                          "TRUNCATE events CASCADE"):
            refused(old_url, statement)
        # a new game goes to its month's partition, and the pending trigger still runs there
        converted.append("new", 1, [NewEvent("resolved", None, {"submission_seq": 1})])
        assert converted.pending_games() == ["old"]
        converted.close()
    finally:
        raw(pg_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def test_a_late_partition_takes_over_the_rows_the_default_caught(pg_url: str, make_game: Any) -> None:
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore)
    try:
        make_game(store, "g1", NewEvent("submitted", "red", {}), secret=b"s" * 32)
        store.save_snapshot("g1", 1, {"x": 1})
        assert raw(pg_url, "SELECT count(*) FROM events_default") == [(2,)]
        before = store.read("g1")
        assert add_periods(store, [THIS_MONTH, THIS_MONTH]) == [THIS_MONTH]
        assert raw(pg_url, "SELECT count(*) FROM events_default") == [(0,)]
        assert raw(pg_url, f"SELECT count(*) FROM events_{THIS_MONTH.replace('-', '_')}") == [(2,)]
        assert store.read("g1") == before and store.pending_games() == ["g1"]
        assert store.latest_snapshot("g1", 3) == (1, {"x": 1})
        refused(pg_url, f"DELETE FROM events_{THIS_MONTH.replace('-', '_')}")
        refused(pg_url, "TRUNCATE events_default CASCADE")  # the new DEFAULT partition has its own TRUNCATE trigger
        store.append("g1", 1, [NewEvent("resolved", None, {"submission_seq": 1})])
        assert store.pending_games() == []
    finally:
        store.close()


def _play(pg_url: str, n: int, ended: int) -> list[Player]:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    client = app.test_client()
    players = []
    for _ in range(n):
        r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        p = Player(client, app, r.get_json())
        p.join_all()
        players.append(p)
    for p in players[:ended]:
        finish(p)
    return players


def finish(p: Player) -> None:
    while p.info()["status"] != "ended":
        p.play(p.info()["active_seats"][0], {"type": "roll"})


def close(app: Any) -> None:
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


@pytest.mark.slow
def test_a_period_is_exported_detached_attached_and_reimported(pg_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    players = _play(pg_url, 3, ended=2)
    app, client = players[0].app, players[0].client
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore)
    bundle = tmp_path / THIS_MONTH
    try:
        r = runner.invoke(main, ["db", "partitions", "--db", pg_url, "--ahead", "1"])
        assert r.exit_code == 0 and THIS_MONTH in r.output, r.output
        r = runner.invoke(main, ["archive", "detach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 1 and "have not ended" in r.output and "no bundle" in r.output, r.output
        finish(players[2])
        r = runner.invoke(main, ["archive", "export", str(bundle), "--db", pg_url, "--period", THIS_MONTH])
        assert r.exit_code == 0 and r.output.startswith("3 ended games"), r.output
        # a bundle whose file was changed is refused, and so is one that misses a game
        victim = bundle / f"{players[0].id}.jsonl"
        good = victim.read_bytes()
        victim.write_bytes(good.replace(b'"roll"', b'"bank"', 1))
        r = runner.invoke(main, ["archive", "detach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 1 and "SHA-256 differs" in r.output, r.output
        victim.write_bytes(good)
        manifest = json.loads((bundle / "manifest.json").read_text())
        short = dict(manifest, games=manifest["games"][1:])
        (bundle / "manifest.json").write_text(json.dumps(short))
        r = runner.invoke(main, ["archive", "detach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 1 and "not in the bundle" in r.output, r.output
        (bundle / "manifest.json").write_text(json.dumps(manifest))
        before = heads(store, THIS_MONTH)
        exports = {p.id: client.get(f"/api/v1/games/{p.id}/export").data for p in players}
        assert len(before) == 3
        record = app.extensions["warlog"].created(players[1].id)

        r = runner.invoke(main, ["archive", "detach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 0 and "detached" in r.output, r.output
        archive = f"{store.schema}_archive_{THIS_MONTH.replace('-', '_')}"
        assert THIS_MONTH not in attached(store)
        assert all(store.read(p.id) == [] for p in players)
        table = f"{archive}.events_{THIS_MONTH.replace('-', '_')}"
        assert raw(pg_url, f"SELECT count(*) FROM {table}")[0][0] == sum(h.events for h in before.values())
        for statement in (f"UPDATE {table} SET type = 'x'", f"DELETE FROM {table}", f"TRUNCATE {table}"):
            refused(pg_url, statement)
        fresh = create_app({"TESTING": True, "WARLOG_DB": pg_url})  # nothing of the game cached
        try:
            for path in ("/api/v1/games/{}", "/api/v1/games/{}/export", "/api/v1/games/{}/actions", "/games/{}",
                         "/games/{}/replay"):
                r = fresh.test_client().get(path.format(players[0].id))
                assert r.status_code == 410 and b"archived" in r.data, (path, r.status_code, r.data[:300])
        finally:
            close(fresh)
        # the process that served the games has their creation records cached: each path still
        # answers 410, and the record is dropped (the LRU invalidated on 410)
        svc = app.extensions["warlog"]
        gid = players[1].id
        for path in ("/api/v1/games/{}", "/api/v1/games/{}/export", "/api/v1/games/{}/state",
                     "/api/v1/games/{}/events", "/games/{}", "/games/{}/replay"):
            svc._created[gid] = record  # cached again, as by an earlier request
            assert gid in svc._created
            r = client.get(path.format(gid))
            assert r.status_code == 410 and b"archived" in r.data, (path, r.status_code, r.data[:300])
            assert gid not in svc._created, path

        r = runner.invoke(main, ["archive", "attach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 0 and "every chain head as in the bundle" in r.output, r.output
        assert heads(store, THIS_MONTH) == before
        for p in players:
            assert client.get(f"/api/v1/games/{p.id}/export").data == exports[p.id]
            verify_bytes(exports[p.id])
        refused(pg_url, f"DELETE FROM events_{THIS_MONTH.replace('-', '_')}")
        refused(pg_url, f"TRUNCATE events_{THIS_MONTH.replace('-', '_')} CASCADE")

        # detached again, its schema dropped (the dump lost): the bundle brings every game back
        r = runner.invoke(main, ["archive", "detach", THIS_MONTH, "--bundle", str(bundle), "--db", pg_url])
        assert r.exit_code == 0, r.output
        raw(pg_url, f'DROP SCHEMA "{archive}" CASCADE')
        r = runner.invoke(main, ["archive", "attach", THIS_MONTH, "--db", pg_url])
        assert r.exit_code == 1 and "archive import" in r.output, r.output
        r = runner.invoke(main, ["archive", "import", THIS_MONTH, str(bundle), "--db", pg_url])
        assert r.exit_code == 0 and "imported 3 games" in r.output, r.output
        assert heads(store, THIS_MONTH) == before
        for p in players:
            assert client.get(f"/api/v1/games/{p.id}/export").data == exports[p.id]
    finally:
        store.close()
        close(app)
