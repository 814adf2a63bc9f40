"""The pace record where people read it: on the player's profile (and its API), and at the
director's desk beside an overdue game — the same figures the tournament bundle carries."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.players.conftest import FakeNow, close_app, make_app, sign_in
from tests.tournaments.conftest import Desk
from tests.tournaments.test_pace_bundle import _play_first_move, _stores
from warlog.clock.pace_web import duration
from warlog.tournaments.bundle import bundle_lines

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


def test_duration_reads_as_people_say_it() -> None:
    assert [duration(s) for s in (None, 30, 2700, 7500, 64800, 200000)] == [
        "—", "30 s", "45 min", "2 h 05 min", "18 h 00 min", "2 d 7 h"]


def test_profile_and_desk_show_the_pace_record_the_bundle_carries(clapp: Flask, fake: FakeNow) -> None:
    desk = Desk(clapp)
    director = clapp.test_client()
    sign_in(clapp, director, "director@example.org", "Director")
    store = clapp.extensions["warlog_players"]
    me = store.by_email("director@example.org")
    desk.tokens["Director"], desk.ids["Director"] = store.issue_token(me.id), me.id
    for name in ("Ann", "Bob"):
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "Paced desk", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1},
                                      "time_control": {"days": 1, "policy": "notify_director"}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    game = desk.get(f"{API}/{tid}")["games"][0]
    gid = game["game_id"]
    seat = _play_first_move(desk, game)
    mover = game["seats"][seat]["player_id"]
    header = json.loads(next(iter(bundle_lines(*_stores(clapp), tid))))
    carried: dict[str, Any] = header["pace"][mover]

    # The profile's API and page: the bundle's figures, in words on the page.
    doc = desk.get(f"/api/v1/players/{mover}/pace")  # checked against the OpenAPI document
    assert doc["overall"] == carried["overall"] and doc["games"][gid] == carried["games"][gid]
    assert desk.client.get("/api/v1/players/nobody/pace").status_code == 404
    page = html.unescape(desk.client.get(f"/players/{mover}").get_data(as_text=True))
    assert 'id="pace-overall"' in page and "1 move(s)" in page
    assert f"median {duration(carried['overall']['median_seconds'])}" in page
    assert "0 in the last hour before a deadline" in page

    # The desk: nothing beside a game on time; the pace of both seats beside it once overdue.
    page = director.get(f"/tournaments/{tid}/desk").get_data(as_text=True)
    assert f'id="pace-{gid}"' not in page
    fake.advance(days=3)
    clapp.extensions["warlog_clock"].sweep()
    page = html.unescape(director.get(f"/tournaments/{tid}/desk").get_data(as_text=True))
    assert f'id="pace-{gid}"' in page
    beside = page.split(f'id="pace-{gid}"', 1)[1].split("</div>", 1)[0]
    assert all(desk.name(s["player_id"]) in beside for s in game["seats"].values())
    assert "1 move(s)" in beside and beside.count("to move since") == len(desk.get(f"{API}/{tid}")["games"][0]["to_move"])
