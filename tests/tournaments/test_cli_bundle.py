"""`warlog export-tournament T` writes the bundle; `warlog verify` on it checks every game and
re-derives pairings and standings, and exits 1 naming the first tournament event that does not
reproduce when a result in it is changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask

from ledger.canonical import canonical_bytes
from tests.tournaments.conftest import Desk
from tests.tournaments.test_swiss_flow import _finish_round, _rechain, _setup
from warlog.cli import main

API = "/api/v1/tournaments"


@pytest.mark.slow
def test_export_tournament_and_verify_the_bundle(tapp: Flask, tmp_path: Path) -> None:
    desk = Desk(tapp)
    tid = _setup(desk)["id"]
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    _finish_round(desk, tid, [("win", 0), ("draw", None)])
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    _finish_round(desk, tid, [("win", 1), ("win", 0)])
    desk.post(f"{API}/{tid}/end", "Director")
    out = tmp_path / "t.bundle.jsonl"
    runner = CliRunner()
    r = runner.invoke(main, ["export-tournament", tid, "--db", tapp.config["WARLOG_DB"], "--out", str(out)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["verify", str(out)])
    assert r.exit_code == 0, r.output
    assert f"OK tournament {tid}" in r.output and "2 round(s) re-paired" in r.output and r.output.count("OK ") == 5
    # A changed round-1 result, re-chained so that only the re-derivation can tell.
    lines = out.read_bytes().splitlines(keepends=True)
    for i, raw in enumerate(lines[1:], start=1):
        doc = json.loads(raw)
        if doc["game_id"] == tid and doc["type"] == "result_recorded" and doc["payload"]["winner"] is None:
            a = next(iter(doc["payload"]["points"]))
            doc["payload"]["winner"] = a
            doc["payload"]["points"] = {p: (2 if p == a else 0) for p in doc["payload"]["points"]}
            lines[i] = canonical_bytes(doc) + b"\n"
            target = doc["seq"]
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(_rechain(lines, tid)))
    r = runner.invoke(main, ["verify", str(bad)])
    assert r.exit_code == 1 and f"FAIL tournament {tid} event {target}:" in r.output, r.output
    r = runner.invoke(main, ["export-tournament", "tffffffffffffffff", "--db", tapp.config["WARLOG_DB"]])
    assert r.exit_code != 0 and "no tournament" in r.output
