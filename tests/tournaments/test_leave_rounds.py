"""An entrant's leave in the tournament (warlog.tournaments.leavewire), with a real SMTP server
and the time moved through the injected clock (nothing sleeps): the tournament records the leave
in its own stream when it is declared and when it ends, its round deadlines follow its policy
(`round_deadlines`: `extend` moves them by the leave, `keep` does not), and the exported bundle
carries the record, which `warlog verify` checks against the games' own ledgers."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask

from ledger.events import LEAVE_DECLARED, LEAVE_ENDED, Event
from tests.clock.test_leave import _game, _mailed, _player, _subjects, _types
from tests.notify.conftest import Smtp, smtp  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import FakeNow, close_app, make_app, settle
from tests.tournaments.conftest import Desk
from warlog.cli import main
from warlog.clock import TimeControl
from warlog.clock.leave import LeavePolicy
from warlog.tournaments import events as T
from warlog.tournaments.bundle import verify_bundle_bytes
from warlog.trust.verify import VerifyFailure

API = "/api/v1/tournaments"


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()  # Sunday 2026-03-01 12:00 UTC


@pytest.fixture
def lapp(db_url: str, fake: FakeNow, smtp: Smtp) -> Iterator[Flask]:  # noqa: F811
    app = make_app(db_url, WARLOG_PERIODIC=False, WARLOG_SMTP_URL=smtp.url, WARLOG_PUBLIC_URL="https://warlog.example")
    app.extensions["warlog_clock"].now = fake
    yield app
    close_app(app)


def _round(desk: Desk, round_deadlines: str) -> tuple[str, str, str, str, str]:
    """A running one-round tournament of dice-duel with a three-day clock and the given leave
    policy: (its id, the game, the entrant to move, their seat, their opponent's name)."""
    desk.player("Director")
    for name in ("Ann", "Bob"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "Weekly", "game": "dice-duel", "scenario": "short",
                                    "format": {"kind": "swiss", "rounds": 1},
                                    "time_control": {"days": 3, "policy": "forfeit", "remind_hours": 0},
                                    "leave": {"round_deadlines": round_deadlines}}, status=201)
    tid = str(t["id"])
    assert t["leave_policy"] == LeavePolicy(round_deadlines=round_deadlines).to_json()  # stated in its stream
    assert desk.app.extensions["warlog_away"].policy(tid).round_deadlines == round_deadlines
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    game = desk.get(f"{API}/{tid}")["games"][0]
    mover = game["to_move"][0]
    seat = next(r for r, s in game["seats"].items() if s["player_id"] == mover)
    other = next(desk.name(s["player_id"]) for s in game["seats"].values() if s["player_id"] != mover)
    return tid, game["game_id"], desk.name(mover), seat, other


def _declare(desk: Desk, name: str) -> dict[str, Any]:
    _, token = _player(desk.app, name.lower())  # the player's newest token
    r = desk.client.post("/api/v1/players/me/leave", json={"from": "2026-03-03", "to": "2026-03-09"},
                         headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json()["leave"])


def _bundle(desk: Desk, tid: str) -> bytes:
    r = desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Director"))
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return r.get_data()


def _warlog_verify(data: bytes) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bundle.jsonl"
        path.write_bytes(data)
        r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0 and "OK tournament" in r.output, r.output
    return str(r.output)


def test_a_week_of_leave_over_two_games_and_a_round_moves_the_deadlines_and_is_in_the_bundle(
        lapp: Flask, fake: FakeNow, smtp: Smtp) -> None:  # noqa: F811
    desk = Desk(lapp)
    tid, tgame, mover, seat, opponent = _round(desk, "extend")
    casual = _game(lapp, mover.lower(), "zed")  # the mover's second game, outside the tournament
    clock = lapp.extensions["warlog_clock"]
    clock.set_time_control(casual.id, TimeControl(days=3, remind_hours=0))
    assert clock.deadline(tgame, seat).due_at == clock.deadline(casual.id, "north").due_at == "2026-03-04T12:00:00Z"

    leave = _declare(desk, mover)
    # 1.5 days run before the leave (03-01 12:00 to 03-03 00:00), the other 1.5 after it (from 03-10 00:00)
    assert clock.deadline(tgame, seat).due_at == "2026-03-11T12:00:00Z"  # the round's deadline, by its policy
    assert clock.deadline(casual.id, "north").due_at == "2026-03-11T12:00:00Z"
    for game_id in (tgame, casual.id):
        assert _types(lapp, game_id)[-1] == LEAVE_DECLARED
    recorded = desk.get(f"{API}/{tid}")["leave"]
    assert [(x["type"], x["leave"], x["player_id"]) for x in recorded] == [(T.LEAVE_DECLARED, leave["id"],
                                                                            desk.ids[mover])]
    assert recorded[0]["games"] == [{"game_id": tgame, "seat": seat, "round": 1}]  # not the casual game
    assert recorded[0]["round_deadlines"] == "extend"
    assert recorded[0]["deadlines"] == [{"game_id": tgame, "seat": seat, "due_at": "2026-03-11T12:00:00Z"}]
    assert (recorded[0]["from"], recorded[0]["to"]) == (leave["from"], leave["to"])

    settle(lapp)
    for to in (f"{opponent.lower()}@example.org", "zed@example.org", "director@example.org"):
        assert _mailed(smtp, to, f"{mover} will be on leave"), (to, _subjects(smtp, to))
    assert not any("leave" in s for s in _subjects(smtp, f"{mover.lower()}@example.org"))

    fake.advance(days=5)  # 03-06: both old deadlines have long passed; both clocks are stopped
    assert clock.sweep()["expired"] == 0
    fake.advance(days=4)  # 03-10 12:00: the leave is over
    away = lapp.extensions["warlog_away"]
    assert away.sweep() == 1 and away.sweep() == 0
    assert clock.sweep()["expired"] == 0
    for game_id in (tgame, casual.id):
        types = _types(lapp, game_id)
        assert LEAVE_DECLARED in types and types[-1] == LEAVE_ENDED
    assert [x["type"] for x in desk.get(f"{API}/{tid}")["leave"]] == [T.LEAVE_DECLARED, T.LEAVE_ENDED]
    settle(lapp)
    assert _mailed(smtp, "director@example.org", f"{mover} is back from leave")

    data = _bundle(desk, tid)
    report = verify_bundle_bytes(data)
    assert report.leaves == 1
    assert "1 leave(s) found in the games' ledgers" in _warlog_verify(data)
    fake.advance(days=1)
    assert clock.sweep()["expired"] == 2  # 03-11 12:00: the moved deadlines fire


def test_a_tournament_that_keeps_its_round_deadlines_runs_its_clock_through_leave(
        lapp: Flask, fake: FakeNow, smtp: Smtp) -> None:  # noqa: F811
    desk = Desk(lapp)
    tid, tgame, mover, seat, opponent = _round(desk, "keep")
    casual = _game(lapp, mover.lower(), "zed")
    clock = lapp.extensions["warlog_clock"]
    clock.set_time_control(casual.id, TimeControl(days=3, remind_hours=0))
    _declare(desk, mover)
    settle(lapp)
    assert _mailed(smtp, f"{opponent.lower()}@example.org", f"{mover} will be on leave")
    told = next(m for m in smtp.messages if m["To"] == f"{opponent.lower()}@example.org" and "leave" in m["Subject"])
    text = "".join(bytes(part.get_payload(decode=True)).decode() for part in told.walk() if not part.is_multipart())
    assert "keeps its round deadlines" in text, text
    assert clock.deadline(tgame, seat).due_at == "2026-03-04T12:00:00Z"  # kept, as the tournament says
    assert clock.deadline(casual.id, "north").due_at == "2026-03-11T12:00:00Z"  # the server's policy: extend
    recorded = desk.get(f"{API}/{tid}")["leave"]
    assert recorded[0]["round_deadlines"] == "keep"
    assert recorded[0]["deadlines"] == [{"game_id": tgame, "seat": seat, "due_at": "2026-03-04T12:00:00Z"}]
    assert _types(lapp, tgame)[-1] == LEAVE_DECLARED  # the game records the leave all the same
    fake.advance(days=3, minutes=1)
    assert clock.sweep()["expired"] == 1  # the tournament game's deadline, not the casual game's
    assert clock.deadline(casual.id, "north").status == "open"


def test_verify_fails_a_bundle_whose_leave_its_game_does_not_record(
        lapp: Flask, fake: FakeNow, smtp: Smtp) -> None:  # noqa: F811
    """The tournament's stream re-sealed with other dates for the leave: the chain is whole, but
    the game's own leave_declared says otherwise, and verify names the tournament's event."""
    desk = Desk(lapp)
    tid, _tgame, mover, _seat, _opponent = _round(desk, "extend")
    _declare(desk, mover)
    lines = _bundle(desk, tid).splitlines(keepends=True)
    assert verify_bundle_bytes(b"".join(lines)).leaves == 1
    tournament = [Event.from_json(json.loads(line)) for line in lines[1:]
                  if json.loads(line)["game_id"] == tid]
    forged, prev = [], tournament[0].prev_hash
    for ev in tournament:
        payload = {**ev.payload, "to": "2026-03-20T00:00:00Z"} if ev.type == T.LEAVE_DECLARED else ev.payload
        sealed = T.seal(tid, ev.seq, ev.type, ev.seat, payload, ev.recorded_at, prev)
        prev = sealed.hash
        forged.append(sealed)
    from ledger.canonical import canonical_bytes

    body = [canonical_bytes(ev.to_json()) + b"\n" for ev in forged]
    games = [line for line in lines[1:] if json.loads(line)["game_id"] != tid]
    with pytest.raises(VerifyFailure) as failed:
        verify_bundle_bytes(b"".join([lines[0], *body, *games]))
    declared = next(ev.seq for ev in forged if ev.type == T.LEAVE_DECLARED)
    assert f"tournament {tid} event {declared}" in str(failed.value)
    assert "holds no leave_declared" in str(failed.value)


def test_a_tournament_leave_setting_out_of_bounds_is_a_clear_422(lapp: Flask) -> None:
    desk = Desk(lapp)
    desk.player("Director")
    body = {"name": "Weekly", "game": "dice-duel", "scenario": "short", "format": {"kind": "swiss", "rounds": 1}}
    for leave, word in (({"round_deadlines": "sometimes"}, "round_deadlines"),
                        ({"quiet_hours_per_week": 100}, "quiet_hours_per_week")):
        r = desk.client.post(API, json={**body, "leave": leave}, headers=desk.auth("Director"))
        assert r.status_code == 422 and word in json.dumps(r.get_json()), r.get_json()
    r = desk.client.post(API, json={**body, "leave": {"min_block_days": 3, "days_per_year": 10}},
                         headers=desk.auth("Director"))
    assert r.status_code == 201 and r.get_json()["leave_policy"]["min_block_days"] == 3


def test_the_worker_s_leave_sweep_records_the_end_in_the_tournament(
        lapp: Flask, fake: FakeNow, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker process sweeps ended leave too (worker.py: attach_worker, then the periodic
    tasks): its leave book tells the tournaments as the web process's does."""
    from warlog.judging.jobs import store_for
    from warlog.notify.jobs import services
    from warlog.tournaments.clockwire import attach_worker

    desk = Desk(lapp)
    tid, tgame, mover, _seat, _opponent = _round(desk, "extend")
    leave = _declare(desk, mover)
    monkeypatch.setenv("WARLOG_DB", db_url)
    attach_worker(store_for(), lambda *args, **kw: None)
    assert services().away.sweep() == 1  # the worker's own clock: the March leave is long over
    assert [(x["type"], x["leave"]) for x in desk.get(f"{API}/{tid}")["leave"]] == [
        (T.LEAVE_DECLARED, leave["id"]), (T.LEAVE_ENDED, leave["id"])]
    assert _types(lapp, tgame)[-1] == LEAVE_ENDED
