"""Deadlines of a tournament's games: the tournament's time control is set on each
game when its round is paired; the clock's sweep (a moved clock, nothing sleeps) reminds, draws
automatic extensions from a player's bank — an `extension_granted` event — and, on expiry under
`forfeit`, the tournament records `deadline_expired` and forfeits the game by a ruling, so the
result is the game's own end. Handlers are idempotent: a second sweep adds nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.players.conftest import FakeNow, close_app, make_app, settle
from tests.tournaments.conftest import Desk
from warlog.tournaments.bundle import verify_bundle

API = "/api/v1/tournaments"


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()


@pytest.fixture
def clapp(db_url: str, fake: FakeNow) -> Iterator[Flask]:
    app = make_app(db_url, WARLOG_PERIODIC=False)
    app.extensions["warlog_clock"].now = fake
    yield app
    close_app(app)


def _tournament(desk: Desk, control: dict) -> str:
    desk.player("Director")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "Timed", "game": "assault-on-belgium",
                                    "format": {"kind": "swiss", "rounds": 1}, "time_control": control}, status=201)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.post(f"{API}/{t['id']}/register", name)
    desk.post(f"{API}/{t['id']}/rounds", "Director", status=201)
    return str(t["id"])


@pytest.mark.slow
def test_timeout_forfeits_by_policy_and_the_bundle_verifies(clapp: Flask, fake: FakeNow) -> None:
    desk = Desk(clapp)
    tid = _tournament(desk, {"days": 2, "policy": "forfeit", "remind_hours": 24})
    clock = clapp.extensions["warlog_clock"]
    doc = desk.get(f"{API}/{tid}")
    assert all(g["deadline"] and not g["deadline"]["overdue"] for g in doc["games"])
    fake.advance(days=1, hours=1)
    clock.sweep()
    settle(clapp)
    to_move = doc["games"][0]["to_move"][0]
    mails = clapp.extensions["warlog_notifier"].outbox(to=f"{desk.name(to_move).lower()}@example.org")
    assert any("Deadline soon" in m["subject"] for m in mails), [m["subject"] for m in mails]
    fake.advance(days=1)
    clock.sweep()
    clock.sweep()  # a second sweep records nothing twice
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    assert len(doc["timeouts"]) == 2 and {x["policy"] for x in doc["timeouts"]} == {"forfeit"}
    assert all(g["result"] and g["result"]["how"] == "forfeit" for g in doc["games"])
    for g in doc["games"]:  # the player who ran out of time lost
        late = next(x["player_id"] for x in doc["timeouts"] if x["game_id"] == g["game_id"])
        assert g["result"]["winner"] != late
    ended = desk.post(f"{API}/{tid}/end", "Director")
    report = verify_bundle(desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True))
    assert report.results == 2 and ended["status"] == "ended"


@pytest.mark.slow
def test_extension_drawn_from_the_bank_is_a_tournament_event(clapp: Flask, fake: FakeNow) -> None:
    desk = Desk(clapp)
    tid = _tournament(desk, {"days": 1, "policy": "extend", "bank_days": 2, "extension_days": 1,
                             "then": "notify_director", "remind_hours": 0})
    clock = clapp.extensions["warlog_clock"]
    fake.advance(days=1, hours=1)
    clock.sweep()
    clock.sweep()
    doc = desk.get(f"{API}/{tid}")
    assert len(doc["extensions"]) == 2 and {e["by"] for e in doc["extensions"]} == {"policy"}
    assert all(e["days"] == 1 for e in doc["extensions"])
    # The director extends by hand from the API: the clock's deadline moves too.
    g = doc["games"][0]
    seat, pid = next((r, s["player_id"]) for r, s in g["seats"].items() if s["player_id"] in g["to_move"])
    before = clock.deadline(g["game_id"], seat).due_at
    desk.post(f"{API}/{tid}/games/{g['game_id']}/extend", "Director",
              {"player_id": pid, "days": 3, "reason": "family emergency"})
    after = clock.deadline(g["game_id"], seat).due_at
    assert after > before
    assert desk.client.post(f"{API}/{tid}/games/{g['game_id']}/extend", headers=desk.auth("Ann"),
                            json={"player_id": pid, "days": 3, "reason": "me"}).status_code == 403
