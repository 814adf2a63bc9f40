"""Least-privilege deployment on the real PostgreSQL: an owner role runs
`warlog db upgrade --app-role`, the app runs as a role that owns nothing, and that role can
neither rewrite history (UPDATE/DELETE/TRUNCATE events, disable, drop or replace a trigger,
session_replication_role) nor hide a pending submission from the sweeper. The roles are
made per test with unique names and dropped afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from click.testing import CliRunner
from psycopg import sql

from ledger.events import NewEvent
from ledger.factory import open_store
from ledger.migrations import SchemaOutOfDate
from ledger.migrations import postgres as pg_migrations
from tests.conftest import PG_URL
from warlog.cli import main
from warlog.ops.dbrole import SuperuserRefused


def role_url(role: str, schema: str) -> str:
    conninfo = psycopg.conninfo.conninfo_to_dict(PG_URL)
    return (f"postgresql://{role}@{conninfo.get('host', '127.0.0.1')}:{conninfo.get('port', 5432)}/"
            f"{conninfo.get('dbname', 'test')}?options=-csearch_path%3D{schema}")


class Deployment:
    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:10]
        self.owner, self.app, self.schema = f"warlog_owner_{tag}", f"warlog_app_{tag}", f"warlog_deploy_{tag}"

    def admin(self, statement: sql.Composable | str) -> None:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def create(self) -> None:
        ident = sql.Identifier
        self.admin(sql.SQL("CREATE ROLE {} LOGIN").format(ident(self.owner)))
        self.admin(sql.SQL("CREATE ROLE {} LOGIN").format(ident(self.app)))
        self.admin(sql.SQL("CREATE SCHEMA {} AUTHORIZATION {}").format(ident(self.schema), ident(self.owner)))

    def drop(self) -> None:
        ident = sql.Identifier
        self.admin(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(ident(self.schema)))
        for role in (self.app, self.owner):
            self.admin(sql.SQL("DROP OWNED BY {}").format(ident(role)))
            self.admin(sql.SQL("DROP ROLE IF EXISTS {}").format(ident(role)))

    @property
    def owner_url(self) -> str:
        return role_url(self.owner, self.schema)

    @property
    def app_url(self) -> str:
        return role_url(self.app, self.schema)

    def as_app(self, statement: str) -> None:
        with psycopg.connect(self.app_url, autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]


@pytest.fixture
def deployment() -> Iterator[Deployment]:
    try:
        psycopg.connect(PG_URL, connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is required at {PG_URL}: {exc}", pytrace=False)
    d = Deployment()
    d.create()
    try:
        yield d
    finally:
        d.drop()


LATEST = pg_migrations.MIGRATIONS[-1].version


def upgrade(d: Deployment) -> None:
    r = CliRunner().invoke(main, ["db", "upgrade", "--db", d.owner_url, "--app-role", d.app])
    assert r.exit_code == 0 and f"schema at version {LATEST}" in r.output and f"granted the app's DML to {d.app}" in r.output, \
        r.output


def test_the_app_refuses_a_schema_that_is_behind_and_names_the_upgrade_command(deployment: Deployment) -> None:
    with pytest.raises(SchemaOutOfDate, match=rf"version 0; this release needs version {LATEST}.*warlog db upgrade"):
        open_store(deployment.owner_url)
    r = CliRunner().invoke(main, ["games", "--db", deployment.owner_url])
    assert r.exit_code == 1 and "warlog db upgrade" in r.output and "Traceback" not in r.output
    upgrade(deployment)
    open_store(deployment.app_url).close()  # current now: the app role starts
    r = CliRunner().invoke(main, ["db", "version", "--db", deployment.app_url])
    assert r.exit_code == 0 and f"schema version {LATEST}; this release needs {LATEST}" in r.output


@pytest.mark.slow
def test_the_app_role_plays_but_cannot_rewrite_history(deployment: Deployment) -> None:
    upgrade(deployment)
    store = open_store(deployment.app_url)
    try:
        created = NewEvent("game_created", None, {"game": "g", "scenario": "s", "sandbox": None})
        store.append("g1", -1, [created], game_info=("g", "s", False), secret=b"seed")
        store.append("g1", 0, [NewEvent("submitted", "red", {"action": {}})], idempotency_key="k")
        store.save_snapshot("g1", 1, {"x": 1})
        assert store.delete_snapshots("g1") == 1  # a cache: the app may clear it
        assert store.pending_games() == ["g1"] and store.summary("g1").pending
        assert [g.game_id for g in store.list_games()] == ["g1"]
        from ledger import logstore  # the transparency log (migration 5): the app role appends

        assert logstore.sync(store) == 2 and logstore.sync(store) == 0
    finally:
        store.close()

    refused = {
        "UPDATE events SET payload = '{}'": "permission denied",
        "DELETE FROM events": "permission denied",
        "TRUNCATE events": "permission denied",
        "ALTER TABLE events DISABLE TRIGGER events_no_update_delete": "must be owner",
        "ALTER TABLE events DISABLE TRIGGER ALL": "must be owner",
        # the monthly partitions (migration 6): none is the app role's to touch or detach
        "DELETE FROM events_default": "permission denied",
        "TRUNCATE events_default": "permission denied",
        "ALTER TABLE events DETACH PARTITION events_default": "must be owner",
        "SELECT ledger_add_period('2030-01')": "permission denied",
        "DROP TRIGGER events_no_update_delete ON events": "must be owner",
        "DROP TRIGGER events_pending ON events": "must be owner",
        "SET session_replication_role = replica": "permission denied",
        "CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql "
        "AS $$ BEGIN RETURN NEW; END $$": "(must be owner|permission denied)",
        "CREATE TABLE shadow (x int)": "permission denied",
        # what decides "pending" is not the app role's to write
        "DELETE FROM pending": "permission denied",
        "INSERT INTO pending VALUES ('g1', 99)": "permission denied",
        "UPDATE pending SET seq = 0": "permission denied",
        "UPDATE secrets SET secret = 'x'": "permission denied",
        "UPDATE schema_version SET version = 99": "permission denied",
        "UPDATE transparency_log SET hash = 'x'": "permission denied",  # the log is append-only
        "DELETE FROM transparency_log": "permission denied",
        "TRUNCATE transparency_log": "permission denied",
        "UPDATE transparency_nodes SET hash = 'x'": "permission denied",  # its subtrees too (migration 7)
        "DELETE FROM transparency_nodes": "permission denied",
    }
    for statement, says in refused.items():
        with pytest.raises(psycopg.Error, match=says):
            deployment.as_app(statement)

    # The projection is the app's to write, but it no longer decides what is pending: the
    # attack on the queue (mark everything handled) hides nothing from the sweeper.
    deployment.as_app("UPDATE games SET last_handled_seq = last_submitted_seq")
    store = open_store(deployment.app_url)
    try:
        assert store.pending_games() == ["g1"] and store.summary("g1").oldest_pending == 1
    finally:
        store.close()


def test_a_temporary_table_cannot_stand_in_for_the_pending_set(deployment: Deployment) -> None:
    """The trigger that keeps `pending` runs as the owner with its search_path pinned: a
    session's own temporary `pending` table does not catch the submission."""
    upgrade(deployment)
    store = open_store(deployment.app_url)
    store.append("g1", -1, [NewEvent("game_created", None, {"game": "g", "scenario": "s"})], game_info=("g", "s", False))
    store.close()
    with psycopg.connect(deployment.app_url, autocommit=True) as conn:
        conn.execute("CREATE TEMPORARY TABLE pending (game_id TEXT, seq BIGINT)")
        conn.execute("SET search_path TO pg_temp, " + deployment.schema)
        conn.execute(f"INSERT INTO {deployment.schema}.events (game_id, seq, type, seat, payload, recorded_at, "
                     "prev_hash, hash, period) VALUES ('g1', 1, 'submitted', 'red', '{}', 'now', 'p', 'h', "
                     f"(SELECT period FROM {deployment.schema}.events WHERE game_id = 'g1' AND seq = 0))")
        assert conn.execute("SELECT count(*) FROM pg_temp.pending").fetchone()[0] == 0
    store = open_store(deployment.app_url)
    try:
        assert store.pending_games() == ["g1"]
    finally:
        store.close()


@pytest.mark.slow
def test_the_app_refuses_a_superuser_unless_told(deployment: Deployment, tmp_path, monkeypatch) -> None:
    from warlog.app import create_app

    upgrade(deployment)
    superuser_url = role_url("postgres", deployment.schema) if "postgres@" in PG_URL else PG_URL
    monkeypatch.delenv("WARLOG_ALLOW_SUPERUSER", raising=False)
    with pytest.raises(SuperuserRefused, match="refusing to run as a PostgreSQL superuser"):
        create_app({"TESTING": True, "WARLOG_DB": superuser_url})
    app = create_app({"TESTING": True, "WARLOG_DB": superuser_url, "WARLOG_ALLOW_SUPERUSER": True})
    app.extensions["warlog"].store.close()
    app.extensions["warlog_sweeper_stop"].set()
    app = create_app({"TESTING": True, "WARLOG_DB": deployment.app_url})  # the app role: no flag needed
    try:
        client = app.test_client()
        r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        assert r.status_code == 201, r.get_json()
        assert client.get("/api/v1/games").get_json()["games"][0]["id"] == r.get_json()["id"]
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
    r = CliRunner().invoke(main, ["worker", "--burst", "--db", superuser_url, "--redis", "redis://127.0.0.1:1/0"])
    assert r.exit_code == 1 and "refusing to run as a PostgreSQL superuser" in r.output, r.output


@pytest.mark.slow
def test_the_readme_deployment_commands_give_a_least_privilege_app(monkeypatch) -> None:
    """docs/deployment.md's commands, run as written (with unique names): the superuser's SQL, the
    owner's `warlog db upgrade --app-role`, then the app as the app role."""
    from pathlib import Path

    from warlog.app import create_app

    readme = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text(encoding="utf-8")
    setup = readme.split("psql -U postgres <<'SQL'\n", 1)[1].split("\nSQL\n", 1)[0]
    upgrade_line = next(line for line in readme.splitlines() if line.startswith("warlog db upgrade --db"))
    app_line = next(line for line in readme.splitlines() if line.startswith("export WARLOG_DB=postgresql://warlog_app"))
    tag = uuid.uuid4().hex[:10]
    names = {"warlog_owner": f"warlog_owner_{tag}", "warlog_app": f"warlog_app_{tag}"}

    def ours(text: str) -> str:
        for old, new in names.items():
            text = text.replace(old, new)
        host = psycopg.conninfo.conninfo_to_dict(PG_URL)
        text = text.replace("db.internal:5432", f"{host.get('host', '127.0.0.1')}:{host.get('port', 5432)}")
        return text.replace("5432/warlog", f"5432/warlog_{tag}").replace("DATABASE warlog ", f"DATABASE warlog_{tag} ")

    monkeypatch.delenv("WARLOG_ALLOW_SUPERUSER", raising=False)
    try:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            for statement in filter(None, (s.strip() for s in ours(setup).split(";"))):
                conn.execute(statement)  # type: ignore[arg-type]
        args = ours(upgrade_line).split()[1:]
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 0 and f"schema at version {LATEST}" in r.output, r.output
        app_url = ours(app_line).split("=", 1)[1]
        app = create_app({"TESTING": True, "WARLOG_DB": app_url})
        try:
            client = app.test_client()
            created = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()
            assert client.get("/api/v1/games").get_json()["games"][0]["id"] == created["id"]
        finally:
            app.extensions["warlog_sweeper_stop"].set()
            app.extensions["warlog"].store.close()
        with psycopg.connect(app_url, autocommit=True) as conn:
            for statement in ("ALTER TABLE events DISABLE TRIGGER ALL", "DELETE FROM events",
                              "SET session_replication_role = replica", "DELETE FROM pending"):
                with pytest.raises(psycopg.Error, match="must be owner|permission denied"):
                    conn.execute(statement)  # type: ignore[arg-type]
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(f"warlog_{tag}")))
            for role in (names["warlog_app"], names["warlog_owner"]):
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


def _granted_at_then_upgraded(deployment: Deployment, version: int) -> None:
    """A deployment at `version` with the app role granted, upgraded by the owner without --app-role."""
    from ledger.migrations import VERSION_TABLE, apply
    from ledger.postgres import PostgresStore

    with psycopg.connect(deployment.owner_url, autocommit=True) as conn, conn.transaction():
        conn.execute(VERSION_TABLE)
        apply(lambda text, args: conn.execute(text, args or None), pg_migrations.MIGRATIONS[:version], 0,
              deployment.schema, "2026-01-01T00:00:00Z", "%s")
    owner = PostgresStore(deployment.owner_url)
    owner.grant_app_role(deployment.app)
    owner.close()
    r = CliRunner().invoke(main, ["db", "upgrade", "--db", deployment.owner_url])
    assert r.exit_code == 0 and f"schema at version {LATEST}" in r.output, r.output


@pytest.mark.slow
def test_migration_6_keeps_the_app_roles_grants(deployment: Deployment) -> None:
    """A deployment at version 5 (app role granted) upgraded by the owner without --app-role:
    the partitioned tables carry the grants the old ones had."""
    _granted_at_then_upgraded(deployment, 5)
    store = open_store(deployment.app_url)
    try:
        created = NewEvent("game_created", None, {"game": "g", "scenario": "s", "sandbox": None})
        store.append("g1", -1, [created], game_info=("g", "s", False))
        store.append("g1", 0, [NewEvent("submitted", "red", {"action": {}})], idempotency_key="k")
        store.save_snapshot("g1", 1, {"x": 1})
        assert store.delete_snapshots("g1") == 1
        assert [e.seq for e in store.read("g1")] == [0, 1] and store.idempotent_seq("g1", "k", "red") == 1
    finally:
        store.close()
    with pytest.raises(psycopg.Error, match="permission denied"):
        deployment.as_app("DELETE FROM events")


def test_migration_9_keeps_the_app_roles_right_to_append(deployment: Deployment) -> None:
    """A deployment at version 8 (app role granted EXECUTE on ledger_append) upgraded by the owner
    without --app-role: the replaced function keeps the grant, and appends one event or several."""
    _granted_at_then_upgraded(deployment, 8)
    store = open_store(deployment.app_url)
    try:
        created = NewEvent("game_created", None, {"game": "g", "scenario": "s", "sandbox": None})
        store.append("g1", -1, [created], game_info=("g", "s", False))
        store.append("g1", 0, [NewEvent("submitted", "red", {"action": {}})], idempotency_key="k")
        store.append("g1", 1, [NewEvent("resolved", None, {"submission_seq": 1}), NewEvent("submitted", "blue", {})])
        assert [e.seq for e in store.read("g1")] == [0, 1, 2, 3] and store.pending_games() == ["g1"]
        assert store.summary("g1").last_seq == 3 and store.idempotent_seq("g1", "k", "red") == 1
    finally:
        store.close()
