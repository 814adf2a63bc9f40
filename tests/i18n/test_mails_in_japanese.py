"""Mails in the player's language: a player who chose Japanese (the switch, kept with their
account) gets the worker's "your turn" and "game ended" notices in Japanese, by real SMTP; a
player who chose nothing gets them in English."""

from __future__ import annotations

from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message

import pytest
from flask import Flask

from tests.conftest import Player as Driver
from tests.notify.conftest import Smtp, smtp  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import close_app, make_app, settle


@pytest.fixture
def smtp_app(tmp_path: object, smtp: Smtp) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3", WARLOG_SMTP_URL=smtp.url,
                   WARLOG_PUBLIC_URL="https://warlog.example")
    yield app
    close_app(app)


def subject(msg: Message) -> str:
    return " ".join(str(make_header(decode_header(msg["Subject"]))).split())


def body(msg: Message) -> str:
    payload = msg.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def test_worker_notices_follow_each_players_language(smtp_app: Flask, smtp: Smtp) -> None:
    client = smtp_app.test_client()
    created = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()
    game = Driver(client, smtp_app, created)
    players, languages = smtp_app.extensions["warlog_players"], smtp_app.extensions["warlog_languages"]
    for seat in sorted(created["seats"]):
        p = players.register(seat.title(), f"{seat}@example.org")
        players.claim_seat(game.id, seat, p.id)
        if seat == "north":
            languages.set(p.id, "ja")
    game.join_all()
    settle(smtp_app)
    [start] = smtp.wait_for(1)
    first = game.info()["active_seats"][0]
    if first == "north":
        assert subject(start) == f"あなたの手番:Dice Duel (test game) — First to 10 [{game.id}]", subject(start)
        assert "の手番です。" in body(start) and "https://warlog.example/games/" in body(start)
    else:
        assert subject(start) == f"Your turn: Dice Duel (test game) — First to 10 [{game.id}]", subject(start)
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                         json={"kind": "award", "winner": first, "result": "win", "reason": "opponent resigned"})
    assert r.status_code == 202, r.get_json()
    game.wait()
    settle(smtp_app)
    smtp.wait_for(3)
    ended = {m["To"]: m for m in smtp.messages if subject(m).startswith(("Game ended", "ゲーム終了"))}
    assert subject(ended["north@example.org"]) == f"ゲーム終了:Dice Duel (test game) — First to 10 [{game.id}]"
    assert "が終了しました" in body(ended["north@example.org"])
    assert subject(ended["south@example.org"]) == f"Game ended: Dice Duel (test game) — First to 10 [{game.id}]"


def test_your_turn_names_the_seat_as_the_game_does_in_each_language(smtp_app: Flask, smtp: Smtp) -> None:
    """The "your turn" mail names the seat by its display name in the player's language
    ("ドイツ軍", "Germany"), never by its id ("germany")."""
    client = smtp_app.test_client()
    created = client.post("/api/v1/games", json={"game": "assault-on-belgium", "scenario": "may-1940"}).get_json()
    game = Driver(client, smtp_app, created)
    players, languages = smtp_app.extensions["warlog_players"], smtp_app.extensions["warlog_languages"]
    seats = sorted(created["seats"])
    for i, seat in enumerate(seats):
        p = players.register(f"P{i}", f"{seat}@example.org")
        players.claim_seat(game.id, seat, p.id)
        languages.set(p.id, "ja" if i == 0 else "en")
    game.join_all()
    settle(smtp_app)
    [start] = smtp.wait_for(1)
    first = game.info()["active_seats"][0]
    text = body(start)
    assert f"({first})" not in text and f"\uff08{first}\uff09" not in text, text
    if first == seats[0]:  # chose Japanese
        assert {"belgium": "ベルギー軍", "germany": "ドイツ軍"}[first] in text, text
        # the game and scenario by their titles in the player's language, never by their ids
        assert subject(start) == f"あなたの手番:Assault on Belgium — 1940年5月 [{game.id}]", subject(start)
        assert f"Assault on Belgium(1940年5月)のゲーム {game.id}" in text, text
    else:
        assert f"It is your turn ({first.title()})" in text, text
        assert subject(start) == f"Your turn: Assault on Belgium — May 1940 [{game.id}]", subject(start)
        assert f"in the Assault on Belgium (May 1940) game {game.id}" in text, text
    assert "may-1940" not in subject(start) + text and "assault-on-belgium" not in subject(start) + text
