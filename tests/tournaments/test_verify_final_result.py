"""`warlog verify` on a tournament bundle re-derives each game's final result from the game's own
stream, rulings after its end included, and fails naming both events — the game's and the
tournament's — when the tournament records another result."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from flask import Flask

from tests.tournaments.test_desk_truth import API, _ann, _club
from warlog.cli import main


def test_verify_fails_naming_both_events_when_a_result_disagrees_with_its_game(tapp: Flask, tmp_path: Path) -> None:
    desk, _director, tid, g = _club(tapp)
    gid = g["game_id"]
    desk.post(f"{API}/{tid}/games/{gid}/adjudicate", "Director",
              {"decision": "win", "winner": desk.ids["Ann"], "reason": "position won"}, status=202)
    desk.drain()
    desk.get(f"{API}/{tid}")  # the tournament looks: the result is recorded
    svc = tapp.extensions["warlog_tournaments"]
    result_seq = next(e.seq for e in svc.store.read(tid) if e.type == "result_recorded")
    runner = CliRunner()
    out = tmp_path / "t.bundle.jsonl"
    r = runner.invoke(main, ["export-tournament", tid, "--db", tapp.config["WARLOG_DB"], "--out", str(out)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["verify", str(out)])
    assert r.exit_code == 0 and f"OK tournament {tid}" in r.output, r.output
    # An award after the end changes the game's result; the tournament has not looked since.
    _ann_seat, bob = _ann(desk, g)
    svc.warlog.rule_as_owner(gid, svc.store.director_hash(gid), {
        "kind": "award", "winner": bob, "result": "Bob wins (appeal)", "reason": "appeal upheld"})
    desk.drain()
    ended = [e.seq for e in svc.warlog.store.read(gid) if e.type == "game_ended"]
    assert len(ended) == 2
    r = runner.invoke(main, ["export-tournament", tid, "--db", tapp.config["WARLOG_DB"], "--out", str(out)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["verify", str(out)])
    assert r.exit_code == 1, r.output
    assert f"FAIL tournament {tid} event {result_seq}:" in r.output, r.output
    assert f"game {gid} event {ended[-1]}" in r.output and "Bob wins" in r.output and "Ann wins" in r.output
    # Once the tournament has looked, it records the correction and the bundle verifies again.
    desk.get(f"{API}/{tid}")
    r = runner.invoke(main, ["export-tournament", tid, "--db", tapp.config["WARLOG_DB"], "--out", str(out)])
    r = runner.invoke(main, ["verify", str(out)])
    assert r.exit_code == 0, r.output
