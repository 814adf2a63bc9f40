"""The pace record in the tournament bundle: the header carries every entrant's record
(warlog.clock.pace), `warlog verify` re-derives it from the games' own events, and a changed
figure fails naming the player and the figure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from flask import Flask

from ledger.events import Event
from tests.tournaments.conftest import Desk
from warlog.cli import main
from warlog.clock.pace import parse_time
from warlog.tournaments.bundle import bundle_lines, verify_bundle

API = "/api/v1/tournaments"


def _stores(app: Flask) -> tuple[Any, Any]:
    return app.extensions["warlog"].store, app.extensions["warlog_tournaments"].store


def _play_first_move(desk: Desk, game: dict[str, Any]) -> str:
    """The seat to move plays its first legal action (as its player, by the API); returns the seat."""
    info = desk.client.get(f"/api/v1/games/{game['game_id']}").get_json()
    seat = info["active_seats"][0]
    who = desk.name(game["seats"][seat]["player_id"])
    acts = desk.client.get(f"/api/v1/games/{game['game_id']}/actions", headers=desk.auth(who)).get_json()
    r = desk.client.post(f"/api/v1/games/{game['game_id']}/moves", headers=desk.auth(who), json={
        "action": acts["actions"][0], "expected_seq": acts["expected_seq"], "idempotency_key": "pace-1"})
    assert r.status_code == 202, r.get_json()
    desk.drain()
    return str(seat)


def test_the_bundle_carries_the_pace_record_and_verify_re_derives_it(tapp: Flask, tmp_path: Path) -> None:
    desk = Desk(tapp)
    desk.player("Director")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "Paced", "game": "assault-on-belgium",
                                    "format": {"kind": "swiss", "rounds": 1}, "time_control": {"days": 1}},
                  status=201)
    tid = t["id"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.post(f"{API}/{tid}/register", name)
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    game = desk.get(f"{API}/{tid}")["games"][0]
    gid = game["game_id"]
    seat = _play_first_move(desk, game)
    mover = game["seats"][seat]["player_id"]
    desk.post(f"{API}/{tid}/games/{gid}/extend", "Director", {"player_id": mover, "days": 2, "reason": "a move"})

    bundle = "".join(bundle_lines(*_stores(tapp), tid))
    lines = bundle.splitlines(keepends=True)
    header = json.loads(lines[0])
    assert sorted(header["pace"]) == sorted(desk.ids[n] for n in ("Ann", "Bob", "Cid", "Dee"))
    # By hand from the game's own events: the turn began at game_started, the move is the submission.
    events = [Event.from_json(json.loads(x)) for x in lines[1:] if json.loads(x)["game_id"] == gid]
    started = next(e for e in events if e.type == "game_started")
    moved = next(e for e in events if e.type == "submitted" and e.seat == seat)
    seconds = int((parse_time(moved.recorded_at) - parse_time(started.recorded_at)).total_seconds())
    record = header["pace"][mover]
    assert record["games"][gid]["seat"] == seat and record["games"][gid]["moves"] == 1
    assert record["overall"]["median_seconds"] == record["overall"]["p90_seconds"] == seconds
    assert record["overall"]["extensions"] == 1 and record["overall"]["extension_hours"] == 48
    assert record["overall"]["last_hour"] == 0 and record["overall"]["late"] == 0  # well inside a day
    report = verify_bundle(lines)
    assert report.pace_players == 4 and "pace record of 4 player(s) re-derived" in report.summary()

    out = tmp_path / "paced.jsonl"
    out.write_text(bundle)
    r = CliRunner().invoke(main, ["verify", str(out)])
    assert r.exit_code == 0 and "pace record of 4 player(s) re-derived" in r.output, r.output

    # A header that claims a faster player: the events say otherwise.
    header["pace"][mover]["overall"]["median_seconds"] = seconds + 3600
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    r = CliRunner().invoke(main, ["verify", str(bad)])
    assert r.exit_code == 1 and f"the pace record of player {mover}" in r.output and "median_seconds" in r.output


def test_a_bundle_written_before_the_pace_record_still_verifies(tapp: Flask) -> None:
    desk = Desk(tapp)
    desk.player("Director")
    for name in ("Ann", "Bob"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "Old", "game": "assault-on-belgium",
                                    "format": {"kind": "swiss", "rounds": 1}}, status=201)
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{t['id']}/register", name)
    desk.post(f"{API}/{t['id']}/rounds", "Director", status=201)
    lines = list(bundle_lines(*_stores(tapp), t["id"]))
    header = json.loads(lines[0])
    del header["pace"]
    report = verify_bundle([json.dumps(header) + "\n", *lines[1:]])
    assert report.pace_players is None and any("no pace record" in n for n in report.notes)
