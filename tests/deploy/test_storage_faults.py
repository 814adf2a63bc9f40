"""Storage faults say so: a full disk, a read-only ledger and a schema dropped under a running
web process answer 503 with Retry-After (as an unreachable database does), never 500, and
`/readyz` is not ready with the reason; a read-only ledger is refused at start with a clear error.

The full disk is real: the SQLite file lives on a small tmpfs that the test fills (mounting one
needs root; the test is skipped with the reason elsewhere). The dropped schema is PostgreSQL's."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from psycopg import sql

from ledger.store import LedgerError
from tests.conftest import PG_URL
from warlog.app import create_app


def _mount(point: Path, *options: str) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(point)], check=True,
                   capture_output=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB tmpfs of the test's own, unmounted afterwards."""
    point = tmp_path / "disk"
    point.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a real full disk needs a small tmpfs, and mounting one needs root")
    try:
        _mount(point, "size=3m")
    except subprocess.CalledProcessError as err:
        pytest.skip(f"cannot mount a tmpfs here: {err.stderr.decode().strip()}")
    yield point
    subprocess.run(["umount", "-l", str(point)], check=False)


def _close(app: Flask) -> None:
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    app.extensions["warlog"].store.close()


def _new_game(client: Any) -> Any:
    return client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 512, 1):  # to the last byte
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


@pytest.mark.slow
def test_a_full_disk_answers_503_with_retry_after_and_readyz_says_why(small_disk: Path) -> None:
    from tests.conftest import Player

    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{small_disk}/warlog.sqlite3",
                      "WARLOG_SWEEP_INTERVAL": 1.0})
    try:
        client = app.test_client()
        created = _new_game(client)
        assert created.status_code == 201
        p = Player(client, app, created.get_json())
        p.join_all()
        filler = _fill(small_disk)
        info = p.info()
        move = client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(info["active_seats"][0]), json={
            "action": {"type": "roll"}, "expected_seq": info["seq"], "idempotency_key": uuid.uuid4().hex})
        answers = [move] + [_new_game(client) for _ in range(100)]
        statuses = {r.status_code for r in answers}
        assert 500 not in statuses, [r.get_json() for r in answers if r.status_code == 500][:1]
        refused = [r for r in answers if r.status_code == 503]
        assert refused, f"the disk never filled: {statuses}"
        assert refused[-1].headers["Retry-After"]
        assert "disk is full" in refused[-1].get_json()["error"]
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert "disk is full" in ready.get_json()["checks"]["database"]["error"]
        assert client.get("/healthz").status_code == 200  # alive: restarting it would not help

        filler.unlink()
        assert _new_game(client).status_code == 201
        assert client.get("/readyz").status_code == 200
        p.wait()  # a move accepted before the disk filled, or while it was, is judged once it has room
        if move.status_code == 202:
            judged = client.get(f"/api/v1/games/{p.id}/moves/{move.get_json()['seq']}").get_json()
            assert judged["status"] != "pending"
    finally:
        _close(app)


@pytest.mark.slow
def test_a_full_disk_under_postgresql_answers_503_and_readyz_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PostgreSQL cluster of the test's own whose ledger tables live in a tablespace on a
    small tmpfs (its WAL on the ordinary disk): a table that cannot grow is SQLSTATE 53100."""
    import shutil

    from ledger.factory import open_store
    from tests.support.services import PostgresServer

    if os.geteuid() != 0:
        pytest.skip("a real full disk needs a small tmpfs, and mounting one needs root")
    pg = PostgresServer()
    small_disk = pg.root / "small"
    small_disk.mkdir()
    try:
        _mount(small_disk, "size=8m")
    except subprocess.CalledProcessError as err:
        pg.remove()
        pytest.skip(f"cannot mount a tmpfs here: {err.stderr.decode().strip()}")
    shutil.chown(small_disk, "postgres")
    pg.start()
    app = None
    try:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE TABLESPACE small LOCATION {}").format(sql.Literal(str(small_disk))))
            conn.execute("ALTER DATABASE postgres SET default_tablespace = small")
        open_store(pg.url, upgrade=True).close()
        monkeypatch.setenv("WARLOG_ALLOW_SUPERUSER", "1")  # this private cluster has only its superuser
        app = create_app({"TESTING": True, "WARLOG_DB": pg.url})
        client = app.test_client()
        assert _new_game(client).status_code == 201
        filler = _fill(small_disk)
        answers = [_new_game(client) for _ in range(300)]
        statuses = {r.status_code for r in answers}
        assert 500 not in statuses, [r.get_json() for r in answers if r.status_code == 500][:1]
        refused = [r for r in answers if r.status_code == 503]
        assert refused, f"the tablespace never filled: {statuses}"
        assert refused[-1].headers["Retry-After"] and "disk is full" in refused[-1].get_json()["error"]
        ready = client.get("/readyz")
        assert ready.status_code == 503 and "disk is full" in ready.get_json()["checks"]["database"]["error"]
        filler.unlink()
        assert _new_game(client).status_code == 201
        assert client.get("/readyz").status_code == 200
    finally:
        if app is not None:
            _close(app)
        pg.stop()
        subprocess.run(["umount", "-l", str(small_disk)], check=False)
        pg.remove()


def test_a_read_only_ledger_is_refused_at_start_with_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "ro" / "warlog.sqlite3"
    db.parent.mkdir()
    _close(create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{db}"}))
    undo = _make_read_only(db.parent)
    try:
        with pytest.raises(LedgerError) as refused:
            create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{db}"})
        message = str(refused.value)
        assert "cannot write the" in message, message
        assert "read-only" in message, message
        assert str(db.parent) in message
    finally:
        subprocess.run(undo, check=False)


def _make_read_only(folder: Path) -> list[str]:
    """Make `folder` read-only for files opened from now on; the command that undoes it."""
    if os.geteuid() == 0:  # root writes through file modes: mount the folder again, read-only, over itself
        try:
            subprocess.run(["mount", "--bind", "-o", "ro", str(folder), str(folder)], check=True,
                           capture_output=True)
        except subprocess.CalledProcessError as err:
            pytest.skip(f"cannot make a read-only mount here: {err.stderr.decode().strip()}")
        return ["umount", "-l", str(folder)]
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)
    return ["chmod", "-R", "u+w", str(folder)]


def test_a_read_only_ledger_under_a_running_process_answers_503(tmp_path: Path) -> None:
    """The file turns read-only under a running process: the connections it opens from then on
    (the pool opens new ones as it turns over; here its idle ones are closed) cannot write."""
    folder = tmp_path / "ro"
    folder.mkdir()
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{folder}/warlog.sqlite3"})
    undo: list[str] = []
    try:
        client = app.test_client()
        assert _new_game(client).status_code == 201
        app.extensions["warlog_sweeper_stop"].set()
        undo = _make_read_only(folder)
        store = app.extensions["warlog"].store
        with store._idle_guard:
            idle, store._idle = store._idle, []
        for conn in idle:
            conn.close()
        r = _new_game(client)
        assert r.status_code == 503, r.get_json()
        assert r.headers["Retry-After"]
        assert "read-only" in r.get_json()["error"] or "cannot be opened" in r.get_json()["error"]
        ready = client.get("/readyz")
        assert ready.status_code == 503, ready.get_json()
    finally:
        if undo:
            subprocess.run(undo, check=False)
        _close(app)


@pytest.fixture
def pg_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    from ledger.factory import open_store
    from tests.conftest import pg_schema_url

    schema = f"warlog_test_{uuid.uuid4().hex}"
    open_store(pg_schema_url(schema), upgrade=True).close()
    monkeypatch.setenv("WARLOG_ALLOW_SUPERUSER", "1")
    yield schema
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.mark.slow
def test_a_schema_dropped_under_a_running_process_answers_503_and_not_ready(pg_schema: str) -> None:
    from tests.conftest import Player, pg_schema_url

    app = create_app({"TESTING": True, "WARLOG_DB": pg_schema_url(pg_schema)})
    try:
        client = app.test_client()
        created = _new_game(client)
        assert created.status_code == 201
        p = Player(client, app, created.get_json())
        p.join_all()
        assert client.get("/readyz").status_code == 200
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(pg_schema)))
        for r in (client.get(f"/api/v1/games/{p.id}"), _new_game(client), client.get("/api/v1/games"),
                  client.get(f"/games/{p.id}")):
            assert r.status_code == 503, (r.status_code, r.get_data(as_text=True)[:300])
            assert r.headers["Retry-After"]
        assert "schema is missing" in _new_game(client).get_json()["error"]
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert "schema" in ready.get_json()["checks"]["database"]["error"]
    finally:
        _close(app)


def test_a_read_only_postgresql_database_is_refused_at_start(pg_schema: str) -> None:
    """Every session read-only (as on a standby, or `default_transaction_read_only`)."""
    from tests.conftest import pg_schema_url

    url = pg_schema_url(pg_schema) + "%20-cdefault_transaction_read_only%3Don"
    with pytest.raises(LedgerError) as refused:
        create_app({"TESTING": True, "WARLOG_DB": url})
    assert "cannot write the ledger" in str(refused.value) and "read-only" in str(refused.value), refused.value
