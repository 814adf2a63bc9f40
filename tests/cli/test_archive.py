"""`warlog archive export/check` (the export part): a period's ended
games written as verifiable exports with a manifest; each verifies and re-imports with the
same chain head; a changed file is caught. On both backends."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import Player
from warlog.app import create_app
from warlog.cli import main


@pytest.mark.slow
def test_a_period_exports_checks_and_reimports(db_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": db_url})
    try:
        client = app.test_client()
        players = []
        for _ in range(3):
            r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
            p = Player(client, app, r.get_json())
            p.join_all()
            players.append(p)
        for p in players[:2]:
            while p.info()["status"] != "ended":
                p.play(p.info()["active_seats"][0], {"type": "roll"})
        heads = {p.id: p.client.get(f"/api/v1/games/{p.id}/export").get_data(as_text=True).splitlines()[-1]
                 for p in players[:2]}
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
    today = datetime.now(UTC).date()
    runner, out = CliRunner(), tmp_path / "2026-period"
    r = runner.invoke(main, ["archive", "export", str(out), "--db", db_url, "--from", str(today),
                             "--before", str(today + timedelta(days=1))])
    assert r.exit_code == 0 and r.output.startswith("2 ended games"), r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(g["game_id"] for g in manifest["games"]) == sorted(heads)
    for entry in manifest["games"]:
        assert entry["head"] == json.loads(heads[entry["game_id"]])["hash"]
    r = runner.invoke(main, ["archive", "check", str(out)])
    assert r.exit_code == 0 and r.output.startswith("OK 2 games"), r.output

    fresh = f"sqlite:///{tmp_path}/restored.sqlite3"
    for entry in manifest["games"]:
        r = runner.invoke(main, ["import", str(out / entry["file"]), "--db", fresh])
        assert r.exit_code == 0, r.output
        again = tmp_path / "again.jsonl"
        runner.invoke(main, ["export", entry["game_id"], "--db", fresh, "--out", str(again)])
        assert again.read_bytes() == (out / entry["file"]).read_bytes()

    r = runner.invoke(main, ["archive", "export", str(tmp_path / "old"), "--db", db_url, "--from", "2000-01-01",
                             "--before", "2000-02-01"])
    assert r.exit_code == 0 and r.output.startswith("0 ended games"), r.output
    victim = out / manifest["games"][0]["file"]
    victim.write_text(victim.read_text().replace('"roll"', '"bank"', 1))
    r = runner.invoke(main, ["archive", "check", str(out)])
    assert r.exit_code == 1 and "SHA-256 differs" in r.output and "FAIL" in r.output, r.output
    r = runner.invoke(main, ["archive", "export", str(out), "--db", db_url, "--from", "yesterday", "--before", "x"])
    assert r.exit_code == 2 and "--from" in r.output
