"""Disaster recovery (issue 14, trust over years): every game exported from one ledger and
imported into an empty one (`warlog export` / `warlog import`) comes back with the same chain
heads, the restored log's tree head is the original's, and each restored game still checks
against the tree head the original published."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ledger import logstore
from ledger import transparency as t
from ledger.factory import open_store
from tests.transparency.helpers import app_on, empty_ledger_like, key_file
from tests.transparency.test_log_api import export, start
from warlog.cli import main


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
