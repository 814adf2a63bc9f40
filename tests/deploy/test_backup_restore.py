"""Backing up a running PostgreSQL deployment and restoring it under another schema name, as
docs/deployment.md ("Backups and restores") says: `pg_dump -n <schema> -Fc` while games are played, `pg_restore` into
another database, `ALTER SCHEMA ... RENAME TO ...`, and the restored deployment serves and plays
on, its unrevealed seeds with it (a game finished after the restore verifies). No function of
the ledger may name its schema (migration 10): pinned to the old name, every game read of the
restored copy failed."""

from __future__ import annotations

import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests.conftest import PG_URL, Player
from warlog.app import create_app
from warlog.trust.verify import verify_bytes


def _db_url(dbname: str, schema: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(PG_URL)
    user = info.get("user", "postgres")
    return (f"postgresql://{user}@{info.get('host', '127.0.0.1')}:{info.get('port', 5432)}/{dbname}"
            f"?options=-csearch_path%3D{schema}")


def _admin(statement: Any, dbname: str | None = None) -> None:
    url = PG_URL if dbname is None else _db_url(dbname, "public").split("?")[0]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


@pytest.fixture
def deployment(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """A schema in the test database (the deployment) and a scratch database to restore into."""
    from ledger.factory import open_store

    tag = uuid.uuid4().hex[:10]
    schema, scratch = f"warlog_live_{tag}", f"warlog_restore_{tag}"
    open_store(_db_url(PG_URL.rsplit("/", 1)[1].split("?")[0], schema), upgrade=True).close()
    _admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(scratch)))
    monkeypatch.setenv("WARLOG_ALLOW_SUPERUSER", "1")
    yield schema, scratch
    _admin(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    _admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(scratch)))


def _app(url: str) -> Any:
    return create_app({"TESTING": True, "WARLOG_DB": url})


def _close(app: Any) -> None:
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


def _roll(p: Player) -> None:
    seat = p.info()["active_seats"][0]
    p.play(seat, {"type": "roll"})


def _dump_args(url: str, schema: str, out: Path) -> list[str]:
    info = psycopg.conninfo.conninfo_to_dict(url)
    return ["pg_dump", "-h", str(info.get("host", "127.0.0.1")), "-p", str(info.get("port", 5432)),
            "-U", str(info.get("user", "postgres")), "-d", str(info["dbname"]), "-n", schema, "-Fc", "-f", str(out)]


@pytest.mark.slow
def test_a_backup_of_a_running_deployment_restores_under_a_new_name_and_plays_on(
        deployment: tuple[str, str], tmp_path: Path) -> None:
    schema, scratch = deployment
    live_db = str(psycopg.conninfo.conninfo_to_dict(PG_URL)["dbname"])
    live = _app(_db_url(live_db, schema))
    try:
        client = live.test_client()
        created = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        assert created.status_code == 201, created.get_json()
        p = Player(client, live, created.get_json())
        p.join_all()
        _roll(p)

        # The backup is taken while another game is being played (pg_dump reads one snapshot).
        busy = Player(client, live, client.post("/api/v1/games", json={"game": "dice-duel",
                                                                         "scenario": "short"}).get_json())
        busy.join_all()
        stop = threading.Event()

        def play_meanwhile() -> None:
            while not stop.is_set() and busy.info()["status"] != "ended":
                _roll(busy)

        player = threading.Thread(target=play_meanwhile)
        player.start()
        dump = tmp_path / "warlog.dump"
        try:
            subprocess.run(_dump_args(_db_url(live_db, schema), schema, dump), check=True, capture_output=True)
        finally:
            stop.set()
            player.join(timeout=60)
        at_backup = p.info()["seq"]
    finally:
        _close(live)

    info = psycopg.conninfo.conninfo_to_dict(PG_URL)
    subprocess.run(["pg_restore", "-h", str(info.get("host", "127.0.0.1")), "-p", str(info.get("port", 5432)),
                    "-U", str(info.get("user", "postgres")), "-d", scratch, "--no-owner", str(dump)],
                   check=True, capture_output=True)
    renamed = f"warlog_restored_{uuid.uuid4().hex[:8]}"
    _admin(sql.SQL("ALTER SCHEMA {} RENAME TO {}").format(sql.Identifier(schema), sql.Identifier(renamed)),
           dbname=scratch)

    restored = _app(_db_url(scratch, renamed))
    try:
        client = restored.test_client()
        again = Player(client, restored, p.created)
        read = client.get(f"/api/v1/games/{p.id}")
        assert read.status_code == 200, read.get_data(as_text=True)[:300]
        assert read.get_json()["seq"] == at_backup
        assert client.get(f"/games/{p.id}").status_code == 200
        assert client.get("/readyz").status_code == 200, client.get("/readyz").get_json()
        for _ in range(200):  # play the game to its end: its dice come from the restored seeds
            if again.info()["status"] == "ended":
                break
            _roll(again)
        assert again.info()["status"] == "ended"
        exported = client.get(f"/api/v1/games/{p.id}/export")
        assert exported.status_code == 200
        report = verify_bytes(exported.get_data())  # every die, before and after the restore, from the seed
        assert report.seed_revealed and report.dice_derived > 0 and report.events > at_backup + 1, report.summary()
        fresh = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        assert fresh.status_code == 201
    finally:
        _close(restored)
    with psycopg.connect(_db_url(scratch, renamed).split("?")[0]) as conn:  # the pending trigger wrote here
        assert conn.execute(sql.SQL("SELECT count(*) FROM {}.pending").format(sql.Identifier(renamed))).fetchone() == (0,)
