"""Disaster recovery: every game exported from one ledger and
imported into an empty one (`warlog export` / `warlog import`) comes back with the same chain
heads, the restored log's tree head is the original's, and each restored game still checks
against the tree head the original published."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger import logstore
from ledger import transparency as t
from ledger.factory import open_store
from tests.transparency.helpers import app_on, empty_ledger_like, key_file
from tests.transparency.test_log_api import export, start
from warlog.cli import main


@pytest.mark.slow
def test_export_everything_import_into_an_empty_ledger_same_heads(db_url: str, tmp_path: Path) -> None:
    config = {"WARLOG_LOG_KEY": str(key_file(tmp_path / "log.pem"))}
    with app_on(db_url, **config) as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        games = [start(client, app) for _ in range(3)]
        games[0].play("north", {"type": "roll"})
        games[2].play("north", {"type": "bank"})
        logstore.sync(store)
        head = client.get("/api/v1/log/head").get_json()
        proofs = {g.id: client.get(f"/api/v1/log/proof/{g.id}").get_json() for g in games}
        ids = [s.game_id for s in store.list_games(limit=200)]
        assert sorted(ids) == sorted(g.id for g in games)
        heads = {gid: (store.last_seq(gid), store.read(gid)[-1].hash) for gid in ids}
        files = {gid: export(db_url, gid, tmp_path / f"{gid}.jsonl") for gid in ids}

    with empty_ledger_like(db_url, tmp_path) as restored_url:
        runner = CliRunner()
        for path in files.values():
            r = runner.invoke(main, ["import", str(path), "--db", restored_url])
            assert r.exit_code == 0 and "imported" in r.output, r.output
        restored = open_store(restored_url)
        try:
            assert {gid: (restored.last_seq(gid), restored.read(gid)[-1].hash) for gid in ids} == heads
            logstore.sync(restored)
            leaves = logstore.leaf_hashes(logstore.entries(restored))  # one sync on each side: same order
            assert len(leaves) == head["tree_size"] and t.root(leaves).hex() == head["root_hash"]
        finally:
            restored.close()
        for gid in ids:  # each restored game, exported again, checks against the original's head
            again = export(restored_url, gid, tmp_path / f"{gid}-again.jsonl")
            assert again.read_bytes() == files[gid].read_bytes()
            (tmp_path / "head.json").write_text(json.dumps(head))
            (tmp_path / "proof.json").write_text(json.dumps(proofs[gid]))
            r = runner.invoke(main, ["verify", str(again), "--tree-head", str(tmp_path / "head.json"),
                                     "--proof", str(tmp_path / "proof.json")])
            assert r.exit_code == 0 and "OK the game is the one" in r.output, r.output


@pytest.mark.slow
def test_a_tournament_bundle_imports_into_an_empty_ledger_with_the_same_heads(db_url: str, tmp_path: Path) -> None:
    """Disaster recovery of tournaments: `warlog export-tournament` then
    `warlog import-tournament` into an empty ledger gives back the tournament's chain head, every
    game's chain head, the same tree head once the games are logged, and the same bundle; a
    second import, and a bundle with one byte changed, are refused without writing anything."""
    from tests.players.conftest import close_app, make_app
    from tests.tournaments.conftest import Desk
    from tests.tournaments.test_swiss_flow import _finish_round, _setup
    from warlog.ops.sqldb import SqlDb
    from warlog.tournaments.store import TournamentStore

    app = make_app(db_url, WARLOG_SWEEP_INTERVAL=3600.0, WARLOG_PERIODIC=False)
    try:
        desk = Desk(app)
        tid = _setup(desk)["id"]
        for decisions in ([("win", 0), ("draw", None)], [("win", 1), ("win", 0)]):
            desk.post(f"/api/v1/tournaments/{tid}/rounds", "Director", status=201)
            _finish_round(desk, tid, decisions)
        desk.post(f"/api/v1/tournaments/{tid}/end", "Director")
        store = app.extensions["warlog"].store
        tstore = TournamentStore(SqlDb(store))
        logstore.sync(store)
        games = [s.game_id for s in store.list_games(limit=200)]
        assert len(games) == 4
        heads = {gid: (store.last_seq(gid), store.read(gid)[-1].hash) for gid in games}
        t_head = (tstore.last_seq(tid), tstore.read(tid)[-1].hash)
        root = t.root(logstore.leaf_hashes(logstore.entries(store))).hex()
        listing = tstore.page(10)
    finally:
        close_app(app)
    bundle = tmp_path / "t.bundle.jsonl"
    runner = CliRunner()
    r = runner.invoke(main, ["export-tournament", tid, "--db", db_url, "--out", str(bundle)])
    assert r.exit_code == 0, r.output

    with empty_ledger_like(db_url, tmp_path) as restored_url:
        bad = tmp_path / "bad.jsonl"
        bad.write_bytes(bundle.read_bytes().replace(b'"round":2', b'"round":3', 1))
        r = runner.invoke(main, ["import-tournament", str(bad), "--db", restored_url])
        assert r.exit_code == 1 and "refusing to import" in r.output, r.output
        r = runner.invoke(main, ["import-tournament", str(bundle), "--db", restored_url])
        assert r.exit_code == 0 and f"imported tournament {tid}" in r.output and "4 game(s)" in r.output, r.output
        r = runner.invoke(main, ["import", str(bundle), "--db", restored_url])  # `import` takes bundles too
        assert r.exit_code == 1 and "already exists" in r.output, r.output
        restored = open_store(restored_url)
        try:
            rt = TournamentStore(SqlDb(restored))
            assert (rt.last_seq(tid), rt.read(tid)[-1].hash) == t_head
            assert {gid: (restored.last_seq(gid), restored.read(gid)[-1].hash) for gid in games} == heads
            assert rt.page(10) == listing  # the listing row: name, status ended, created_at, last seq
            assert {gid: rt.game_tournament(gid) for gid in games} == {gid: tid for gid in games}
            logstore.sync(restored)
            assert t.root(logstore.leaf_hashes(logstore.entries(restored))).hex() == root
        finally:
            restored.close()
        again = tmp_path / "again.jsonl"
        r = runner.invoke(main, ["export-tournament", tid, "--db", restored_url, "--out", str(again)])
        assert r.exit_code == 0 and again.read_bytes() == bundle.read_bytes()
        r = runner.invoke(main, ["verify", str(again)])
        assert r.exit_code == 0 and f"OK tournament {tid}" in r.output, r.output
