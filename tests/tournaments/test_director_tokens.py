"""tournament_games keeps no game's director token: only its SHA-256, the
hash the game's game_created already publishes; the tournament still rules in its games, and a
row an older release wrote with the token in plain text is hashed in place when the store opens."""

from __future__ import annotations

import hashlib

import pytest

from tests.tournaments.conftest import Desk

API = "/api/v1/tournaments"


def _league(desk: Desk) -> tuple[str, list[dict[str, object]]]:
    desk.player("Director")
    for name in ("Ann", "Bob"):
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "GBV league", "game": "green-beret-vietnam",
                                      "format": {"kind": "duplicate", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    return tid, [g for g in doc["games"] if g["round"] == 1]


@pytest.mark.slow
def test_tournament_games_keeps_only_the_hash_and_still_rules(desk: Desk) -> None:
    tid, games = _league(desk)
    tstore = desk.app.extensions["warlog_tournaments"].store
    store = desk.app.extensions["warlog"].store
    for g in games:
        gid = str(g["game_id"])
        kept = tstore.db.one("SELECT director_token FROM tournament_games WHERE game_id = ?", (gid,))[0]
        assert kept == store.read(gid, upto=0)[0].payload["director_token_sha256"]  # public already: no secret
    # The tournament still rules in its games (the desk's adjudication is a ruling in the game).
    gid = str(games[0]["game_id"])
    desk.post(f"{API}/{tid}/games/{gid}/adjudicate", "Director", {"decision": "end", "reason": "deadline"},
              status=202)
    desk.drain()
    assert desk.app.extensions["warlog"].store.summary(gid).status == "ended"
    # A player is not the director: the same form is refused.
    r = desk.client.post(f"{API}/{tid}/games/{games[1]['game_id']}/adjudicate", headers=desk.auth("Ann"),
                         json={"decision": "end", "reason": "I say so"})
    assert r.status_code == 403, r.get_json()


def test_a_plain_token_left_by_an_older_release_is_hashed_when_the_store_opens(desk: Desk) -> None:
    tstore = desk.app.extensions["warlog_tournaments"].store
    token = "t" * 32  # what an older release kept: secrets.token_urlsafe(24)
    tstore.db.execute("INSERT INTO tournament_games (game_id, tournament_id, round, director_token) "
                      "VALUES (?, ?, ?, ?)", ("g-legacy", "t-legacy", 1, token))
    tstore.create_schema()  # what every process does at start
    row = tstore.db.one("SELECT director_token FROM tournament_games WHERE game_id = ?", ("g-legacy",))
    assert row[0] == hashlib.sha256(token.encode()).hexdigest()
    assert tstore.hash_legacy_tokens() == 0  # idempotent
