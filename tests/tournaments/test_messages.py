"""A word to the opponent (warlog.messages): two seats exchange messages that a spectator and the
other game's players never see, that are mailed (a real SMTP server, aiosmtpd) unless muted,
whose text never enters the ledger (only a salted digest, which the reader can check), and that
the tournament's director reads only once a dispute is raised in the game (or a message is
reported to them). Plain text is escaped on the page; length and rate are limited."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from ledger.events import MESSAGE_REPORTED, MESSAGE_SENT
from tests.notify.conftest import Receiver, Smtp, receiver, smtp  # noqa: F401  (real SMTP and HTTP servers)
from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app
from tests.tournaments.conftest import Desk
from tests.tournaments.test_director_mails import PUBLIC, Mailbox
from warlog.messages.book import PER_HOUR, TEXT_MAX, digest_of
from warlog.notify.naming import game_named
from warlog.tournaments.bundle import bundle_lines, verify_bundle

API = "/api/v1/tournaments"


@pytest.fixture
def mapp(db_url: str, smtp: Smtp) -> Iterator[Flask]:  # noqa: F811
    app = make_app(db_url, WARLOG_PERIODIC=False, WARLOG_SMTP_URL=smtp.url, WARLOG_PUBLIC_URL=PUBLIC,
                   WARLOG_WEBHOOK_ALLOW_PRIVATE="1")
    yield app
    close_app(app)


def browser(app: Flask, desk: Desk, name: str) -> Any:
    """A browser signed in as `name` (its session cookie, as the sign-in link gives it)."""
    client = app.test_client()
    secret = app.extensions["warlog_players"].new_session(desk.ids[name])
    client.set_cookie("warlog_player", secret)
    return client


def _two_games(app: Flask) -> tuple[Desk, Any, str, dict[str, Any], dict[str, Any]]:
    """A director signed in on the pages, four players, round 1 paired: two games."""
    desk = Desk(app)
    for name in ("Director", "Ann", "Bob", "Cid", "Dee"):
        desk.player(name)
    director = browser(app, desk, "Director")
    tid = desk.post(API, "Director", {"name": "Words", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.post(f"{API}/{tid}/register", name)
    games = desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"]
    return desk, director, tid, games[0], games[1]


def _seats(desk: Desk, game: dict[str, Any]) -> dict[str, str]:
    """role -> the name of the player in it."""
    return {role: desk.name(s["player_id"]) for role, s in game["seats"].items()}


def _api(desk: Desk, method: str, path: str, who: str | None, body: Any = None) -> Any:
    headers = desk.auth(who) if who else {}
    return desk.client.open(path, method=method, json=body, headers=headers)


def test_two_seats_exchange_messages_nobody_else_reads(mapp: Flask, smtp: Smtp,  # noqa: F811
                                                       receiver: Receiver) -> None:  # noqa: F811
    desk, director, tid, one, other = _two_games(mapp)
    gid = one["game_id"]
    seats = _seats(desk, one)
    (r1, first), (r2, second) = sorted(seats.items())
    outsiders = list(_seats(desk, other).values())
    mailbox = Mailbox(mapp, smtp)
    mailbox.new()  # the pairing mails
    mapp.extensions["warlog_notifier"].set_prefs(desk.ids[second], webhook_url=receiver.url)  # mail and a webhook

    secret = "Shall we call it a draw? <b>no tags</b> & no scripts <script>alert(1)</script>"
    r = _api(desk, "POST", f"/api/v1/games/{gid}/messages", first, {"text": secret})
    assert r.status_code == 201, r.get_json()
    sent = r.get_json()["message"]
    assert sent["from"] == r1 and sent["to"] == [r2]
    r = _api(desk, "POST", f"/api/v1/games/{gid}/messages", second, {"to": [r1], "text": "No.\nPlay on."})
    assert r.status_code == 201, r.get_json()

    # The opponent is mailed the text, as plain text.
    mails = mailbox.new()
    to_second = [m for m in mails if m[0] == f"{second.lower()}@example.org"]
    assert len(to_second) == 1 and secret in to_second[0][2] and r1 in to_second[0][1]
    # the text names the game by its titles and its id, as every notice does, not by its id alone
    titled = game_named(mapp.extensions["warlog"].store, gid).say(None)
    assert titled.startswith("Assault on Belgium (May 1940) game") and f"in the {titled}" in to_second[0][2]
    assert any(m[0] == f"{first.lower()}@example.org" and "Play on." in m[2] for m in mails)
    hooks = [r["json"] for r in receiver.requests if r["json"].get("kind") == "message"]
    assert len(hooks) == 1 and secret in hooks[0]["text"] and hooks[0]["link"].endswith(f"/games/{gid}#messages")

    # Both seats read both; each message checks against the digest the ledger holds.
    for who in (first, second):
        doc = _api(desk, "GET", f"/api/v1/games/{gid}/messages", who).get_json()
        assert [m["text"] for m in doc["messages"]] == [secret, "No.\nPlay on."]
    events = mapp.extensions["warlog"].store.read(gid)
    recorded = [e for e in events if e.type == MESSAGE_SENT]
    assert [e.payload["digest"] for e in recorded] == [digest_of(m["id"], m["salt"], m["text"]) for m in doc["messages"]]
    assert all("text" not in e.payload for e in recorded)
    assert "draw" not in json.dumps([e.to_json() for e in events])  # the ledger never holds the text

    # Nobody else: a spectator, the other game's players, the director before a dispute.
    assert _api(desk, "GET", f"/api/v1/games/{gid}/messages", None).status_code == 401
    for who in outsiders:
        assert _api(desk, "GET", f"/api/v1/games/{gid}/messages", who).status_code == 403
        assert _api(desk, "POST", f"/api/v1/games/{gid}/messages", who, {"text": "hi"}).status_code == 403
    assert _api(desk, "GET", f"/api/v1/games/{gid}/messages", "Director").status_code == 200
    assert _api(desk, "GET", f"/api/v1/games/{gid}/messages", "Director").get_json()["messages"] == []
    spectator = mapp.test_client()
    for client in (spectator, director):
        page = client.get(f"/games/{gid}").get_data(as_text=True)
        assert "draw" not in page and "Play on" not in page
        assert client.get(f"/api/v1/games/{gid}/events").get_data(as_text=True).count("draw") == 0
    outsider = browser(mapp, desk, outsiders[0])
    assert "draw" not in outsider.get(f"/games/{gid}").get_data(as_text=True)

    # Beside the board, for the seat: escaped, never markup.
    reader = browser(mapp, desk, second)
    page = reader.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="messages"' in page and "<script>alert(1)</script>" not in page
    assert html.escape(secret, quote=False) in page.replace("&#34;", '"').replace("&#39;", "'")

    # A dispute is raised: the director now reads every message of the game, page and API.
    desk.post(f"{API}/{tid}/disputes", first, {"game_id": gid, "seq": 0, "text": "he stalls"}, status=201)
    doc = _api(desk, "GET", f"/api/v1/games/{gid}/messages", "Director").get_json()
    assert doc["reader"] == "director" and [m["text"] for m in doc["messages"]] == [secret, "No.\nPlay on."]
    assert "Play on." in director.get(f"/games/{gid}").get_data(as_text=True)
    for who in outsiders:  # the other game's players still never do
        assert _api(desk, "GET", f"/api/v1/games/{gid}/messages", who).status_code == 403

    # The events beside the play keep the game verifiable by anyone.
    bundle = list(bundle_lines(mapp.extensions["warlog"].store, mapp.extensions["warlog_tournaments"].store, tid))
    verify_bundle(bundle)


def test_report_mute_and_limits(mapp: Flask, smtp: Smtp) -> None:  # noqa: F811
    desk, director, tid, one, _ = _two_games(mapp)
    gid = one["game_id"]
    (r1, first), (r2, second) = sorted(_seats(desk, one).items())
    mailbox = Mailbox(mapp, smtp)
    mailbox.new()
    path = f"/api/v1/games/{gid}/messages"

    # Limits: empty, too long, to oneself, to nobody known.
    for body in ({"text": "  "}, {"text": "x" * (TEXT_MAX + 1)}, {"text": "hi", "to": [r1]}, {"text": "hi", "to": 5}):
        r = _api(desk, "POST", path, first, body)
        assert r.status_code == 422 and r.get_json()["error"], body

    # Muted: still recorded and readable, but not mailed, and folded away on the board.
    assert _api(desk, "POST", path + "/mute", second, {"muted": True}).get_json()["muted"] is True
    rude = _api(desk, "POST", path, first, {"text": "you are slow"}).get_json()["message"]
    assert not [m for m in mailbox.new() if m[0] == f"{second.lower()}@example.org"]
    reader = browser(mapp, desk, second)
    page = reader.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="messages-muted"' in page and "you are slow" not in page
    assert _api(desk, "POST", path + "/mute", second, {"muted": False}).get_json()["muted"] is False

    # Reported (by its recipient, through the page's form): the director reads that one, and is mailed it.
    director_doc = _api(desk, "GET", path, "Director").get_json()
    assert director_doc["messages"] == []
    r = reader.post(f"/games/{gid}/messages/{rude['id']}/report",
                    data={"csrf": csrf_of(reader, f"/games/{gid}"), "reason": "rude"}, headers=ORIGIN)
    assert r.status_code == 303
    assert _api(desk, "POST", f"{path}/{rude['id']}/report", first, {"reason": "mine"}).status_code == 404
    director_doc = _api(desk, "GET", path, "Director").get_json()
    assert [m["text"] for m in director_doc["messages"]] == ["you are slow"]
    assert director_doc["messages"][0]["reported"]["reason"] == "rude"
    assert any(m[0] == "director@example.org" and "you are slow" in m[2] and "rude" in m[2] for m in mailbox.new())
    assert [e.type for e in mapp.extensions["warlog"].store.read(gid)][-1] == MESSAGE_REPORTED

    # To the director: the director reads it without a dispute.
    _api(desk, "POST", path, second, {"to": "director", "text": "please look at event 3"})
    texts = [m["text"] for m in _api(desk, "GET", path, "Director").get_json()["messages"]]
    assert "please look at event 3" in texts

    # Rate: at most PER_HOUR an hour from one seat of a game (the refused ones are not counted).
    sent = 1
    while sent < PER_HOUR:
        assert _api(desk, "POST", path, first, {"text": f"note {sent}"}).status_code == 201
        sent += 1
    r = _api(desk, "POST", path, first, {"text": "one more"})
    assert r.status_code == 429 and "an hour" in r.get_json()["error"]
    assert _api(desk, "POST", path, second, {"text": "my own hour"}).status_code == 201
