"""Shared fixtures: apps on both ledgers (SQLite file, real PostgreSQL schema), a client, and
a helper to drive games through the HTTP API exactly as a player would."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from psycopg import sql

PG_URL = os.environ.get("WARLOG_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")

# Property tests judge what is generated, never how fast: on a loaded machine (the suite's own
# servers and browsers beside them) Hypothesis's timing checks would fail a correct test.
settings.register_profile("warlog", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("warlog")


def _redis_url_of_this_worker(base: str) -> str:
    """The test Redis database of this pytest process. Worker tests empty it (FLUSHDB): under
    pytest-xdist (scripts/test runs the suite in parallel) worker gwN uses database (db - N) mod 16
    of the same server, so that no worker empties the queue another is using."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    head, _, db = base.rpartition("/")
    if not worker.startswith("gw") or not db.isdigit() or not head.startswith("redis"):
        return base
    return f"{head}/{(int(db) - int(worker[2:])) % 16}"


REDIS_URL = _redis_url_of_this_worker(os.environ.get("WARLOG_TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))


def pg_schema_url(schema: str) -> str:
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}"


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BESIDE = os.path.join(os.path.dirname(REPO), "shared") + os.sep


def _no_reading_beside_the_repository(event: str, args: tuple[Any, ...]) -> None:
    """A user's clone has nothing beside it: a test that opens the rulebooks or anything else in
    the `shared` directory beside it (there on our machines and in CI, never on a user's) fails here, on every machine."""
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if path.startswith(BESIDE):
            raise PermissionError(f"tests may not read outside the repository: {path} "
                                  "(quote the excerpt into tests/fixtures/, see tools/rulebook_fixtures.py)")


import sys  # noqa: E402

sys.addaudithook(_no_reading_beside_the_repository)

from tests.support.chromium import browser  # noqa: E402,F401  (the session's Chromium, for every directory)


@pytest.fixture(autouse=True, scope="session")
def _dice_duel() -> None:
    from tests.support.dice_duel import install

    install()


@pytest.fixture(autouse=True)
def _no_stray_rq_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Warns, naming the test, when it leaves an RQ worker waiting on the test Redis database
    (tests/support/stray_workers.py)."""
    import warnings

    import redis

    from tests.support.stray_workers import live_children, registered, rq_threads

    conn = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=2)
    threads, workers = rq_threads(), registered(conn)
    yield
    left = [stack for ident, stack in rq_threads().items() if ident not in threads]
    left += live_children(conn, registered(conn) - workers)
    conn.close()
    if left:
        warnings.warn(f"{request.node.nodeid} left an RQ worker running (it takes later tests' jobs):\n"
                      + "\n".join(left), stacklevel=1)


@pytest.fixture
def pg_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a fresh schema, dropped afterwards. Fails (never
    skips) when PostgreSQL is not there. The schema is upgraded (`warlog db upgrade`) first,
    and apps and workers may connect as the test's superuser (WARLOG_ALLOW_SUPERUSER)."""
    from ledger.factory import open_store

    try:
        psycopg.connect(PG_URL, connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is required at {PG_URL}: {exc}", pytrace=False)
    schema = f"warlog_test_{uuid.uuid4().hex}"
    open_store(pg_schema_url(schema), upgrade=True).close()
    monkeypatch.setenv("WARLOG_ALLOW_SUPERUSER", "1")
    yield pg_schema_url(schema)
    stop_sweepers_of(schema)
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def stop_sweepers_of(schema: str) -> None:
    """Stop the in-process sweepers still reading a schema about to be dropped (an app the test
    did not close): left running, each would meet the missing schema, a storage fault, and keep
    this process's /readyz not ready for every later test."""
    from warlog.judging.queue import RUNNING

    for sweeper in list(RUNNING):
        if getattr(sweeper.store, "schema", None) == schema:
            sweeper.set()
            if sweeper.thread is not None:
                sweeper.thread.join(timeout=5)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/warlog.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def app(tmp_path: Any) -> Iterator[Flask]:
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/warlog.sqlite3"})
    yield app
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    app.extensions["warlog"].store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Player:
    """Drives one game through the HTTP API as its seats would."""

    def __init__(self, client: FlaskClient, app: Flask, created: dict[str, Any]) -> None:
        self.client, self.app, self.created = client, app, created
        self.id = created["id"]

    def auth(self, seat: str) -> dict[str, str]:
        token = self.created["director_token"] if seat == "director" else self.created["seats"][seat]
        return {"Authorization": f"Bearer {token}"}

    def join_all(self) -> None:
        for seat in self.created["seats"]:
            r = self.client.post(f"/api/v1/games/{self.id}/join", json={"entropy": f"{seat}-luck"},
                                 headers=self.auth(seat))
            assert r.status_code == 200, r.get_json()

    def info(self) -> dict[str, Any]:
        return self.client.get(f"/api/v1/games/{self.id}").get_json()

    def actions(self, seat: str) -> dict[str, Any]:
        r = self.client.get(f"/api/v1/games/{self.id}/actions", headers=self.auth(seat))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def wait(self, timeout: float = 30.0) -> None:
        """Wait until the worker has judged every submission."""
        queue = self.app.extensions["warlog_queue"]
        if hasattr(queue, "drain"):
            queue.drain()
        deadline = time.monotonic() + timeout
        while self.info()["pending"]:
            if time.monotonic() > deadline:
                raise AssertionError("the worker did not judge the submissions in time")
            time.sleep(0.05)

    def play(self, seat: str, action: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        expected = self.actions(seat)["expected_seq"]
        r = self.client.post(f"/api/v1/games/{self.id}/moves", headers=self.auth(seat), json={
            "action": action, "expected_seq": expected, "idempotency_key": key or uuid.uuid4().hex})
        assert r.status_code == 202, r.get_json()
        seq = r.get_json()["seq"]
        self.wait()
        return self.client.get(f"/api/v1/games/{self.id}/moves/{seq}", headers=self.auth(seat)).get_json()


@pytest.fixture
def new_game(client: FlaskClient, app: Flask) -> Any:
    def make(game: str = "dice-duel", scenario: str | None = None, join: bool = True, **extra: Any) -> Player:
        r = client.post("/api/v1/games", json={"game": game, "scenario": scenario, **extra})
        assert r.status_code == 201, r.get_json()
        p = Player(client, app, r.get_json())
        if join:
            p.join_all()
        return p

    return make


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives the session's Chromium (the `browser` fixture) is a browser test, marked
    or not, so that `-m "not browser"` (scripts/test --fast) always leaves it out."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
