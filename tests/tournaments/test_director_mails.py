"""Everyone a director's act touches is told, by a real SMTP server (aiosmtpd, started here):
registration confirmed; each pairing with its game's link and a bye announced; the first "your
turn" mail with the game's deadline; a 36-hour move reminded 12 hours before (hours, and a
reminder for a turn shorter than the reminder time); a manual extension (in hours) to the game's
players; an announcement to every entrant; a lost invitation re-issued (the new seat link signs
the player in, the old one stops working); a substitute replacing a player; a re-pairing with the
new pairing; a withdrawal with the event's forfeit policy and the opponent told; the director
told when a round is complete, and the next round paired automatically. Every link in every mail
is absolute (the public URL) and opens its page. The bundle still verifies."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.message import Message
from urllib.parse import urlsplit

import pytest
from flask import Flask

from tests.notify.conftest import Receiver, Smtp, receiver, smtp, subject_of  # noqa: F401  (real SMTP and HTTP servers)
from tests.players.conftest import FakeNow, close_app, make_app, settle
from tests.tournaments.conftest import Desk
from warlog.clock.clock import TimeControl
from warlog.tournaments.bundle import verify_bundle

API = "/api/v1/tournaments"
PUBLIC = "https://warlog.example.org"
URL = re.compile(r"(?:https?://|/tournaments/|/games/)\S+")


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()


@pytest.fixture
def mapp(db_url: str, smtp: Smtp, fake: FakeNow) -> Iterator[Flask]:  # noqa: F811
    app = make_app(db_url, WARLOG_PERIODIC=False, WARLOG_SMTP_URL=smtp.url, WARLOG_PUBLIC_URL=PUBLIC,
                   WARLOG_WEBHOOK_ALLOW_PRIVATE="1")
    app.extensions["warlog_clock"].now = fake
    yield app
    close_app(app)


def _text(msg: Message) -> str:
    part = msg.get_payload(0) if msg.is_multipart() else msg
    return str(part.get_payload(decode=True).decode("utf-8"))  # type: ignore[union-attr]


class Mailbox:
    def __init__(self, app: Flask, smtp: Smtp) -> None:  # noqa: F811
        self.app, self.smtp, self.seen = app, smtp, 0

    def new(self) -> list[tuple[str, str, str]]:
        """(to, subject, text) of the mails arrived since the last look."""
        settle(self.app)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the embedded notifier's thread hands them over
            queued = self.app.extensions["warlog_notifier"].db.one(
                "SELECT COUNT(*) FROM notify_deliveries WHERE status IN ('queued', 'retrying')")[0]
            if not queued:
                break
            time.sleep(0.05)
        got = self.smtp.messages[self.seen:]
        self.seen += len(got)
        return [(str(m["To"]), subject_of(m), _text(m)) for m in got]


def _links_open(app: Flask, mails: list[tuple[str, str, str]], desk: Desk) -> None:
    """Every link in the mails is absolute on the public URL and its page opens (the desk's, for
    the director)."""
    client = app.test_client()
    for to, subject, text in mails:
        for link in URL.findall(text):
            assert link.startswith(PUBLIC + "/"), f"a relative or foreign link in '{subject}' to {to}: {link}"
            parts = urlsplit(link)
            r = client.get(parts.path, headers=desk.auth("Director") if parts.path.endswith("/desk") else {})
            assert r.status_code == 200, (subject, link, r.status_code)


def _to(mails: list[tuple[str, str, str]], who: str, subject: str) -> str:
    found = [text for to, s, text in mails if who in to and subject in s]
    assert found, f"no mail '{subject}' to {who}: {[(to, s) for to, s, _ in mails]}"
    return found[0]


@pytest.mark.slow
def test_every_change_is_told_with_absolute_links(mapp: Flask, smtp: Smtp, fake: FakeNow,  # noqa: F811
                                                  receiver: Receiver) -> None:  # noqa: F811
    desk, box = Desk(mapp), Mailbox(mapp, smtp)
    for name in ("Director", "Ann", "Bob", "Cid", "Dee", "Eve", "Sub"):
        desk.player(name)
    notifier = mapp.extensions["warlog_notifier"]
    notifier.set_prefs(desk.ids["Eve"], webhook_url=receiver.url)  # Eve: mail and a webhook
    t = desk.post(API, "Director", {
        "name": "Mail Open", "game": "assault-on-belgium",
        "format": {"kind": "swiss", "rounds": 2, "auto_pair": True, "withdrawal": "forfeit"},
        "time_control": {"days": 1, "hours": 12, "remind_hours": 12, "policy": "notify_director"}}, status=201)
    tid = t["id"]
    assert t["format"]["auto_pair"] is True
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        desk.post(f"{API}/{tid}/register", name)
    mails = box.new()
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        assert "Mail Open" in _to(mails, name.lower(), "Mail Open: you are registered")
    _links_open(mapp, mails, desk)

    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    mails = box.new()
    games = [g for g in doc["games"] if g["round"] == 1]
    bye = doc["rounds_list"][0]["byes"][0]
    assert "you have a bye" in _to(mails, desk.name(bye).lower(), "Mail Open: a bye in round 1")
    for g in games:
        for s in g["seats"].values():
            text = _to(mails, desk.name(s["player_id"]).lower(), "Mail Open: round 1")
            assert f"{PUBLIC}/games/{g['game_id']}" in text
        mover = desk.name(g["to_move"][0]).lower()
        turn = _to(mails, mover, "Your turn")
        assert "due by 2026-03-03T00:00:00" in turn, turn  # the first "your turn" mail has the 36-hour deadline
    _links_open(mapp, mails, desk)

    # a 36-hour move is reminded 12 hours before its deadline
    fake.advance(hours=24, minutes=1)
    assert mapp.extensions["warlog_clock"].sweep()["reminded"] == 2
    mails = box.new()
    assert len([m for m in mails if m[1].startswith("Mail Open: Deadline soon")]) == 2  # the event named
    _links_open(mapp, mails, desk)

    g0, g1 = games
    ann_like = g0["to_move"][0]
    desk.post(f"{API}/{tid}/games/{g0['game_id']}/extend", "Director",
              {"player_id": ann_like, "hours": 36, "reason": "travelling"})
    mails = box.new()
    for s in g0["seats"].values():
        text = _to(mails, desk.name(s["player_id"]).lower(), f"Mail Open: deadline extended (Assault on Belgium — May 1940) [{g0['game_id']}]")
        assert "by 1 day(s) and 12 hour(s), now due 2026-03-04T12:00:00" in text, text
    _links_open(mapp, mails, desk)

    desk.post(f"{API}/{tid}/announcements", "Director", {"text": "Round 2 starts on Monday."}, status=201)
    mails = box.new()
    assert len([m for m in mails if "Mail Open: an announcement" in m[1]]) == 5
    assert "Round 2 starts on Monday." in _to(mails, "ann", "an announcement")
    _links_open(mapp, mails, desk)
    page = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Round 2 starts on Monday." in page
    hooks = [r["json"] for r in receiver.requests]
    assert hooks and all(h["link"].startswith(PUBLIC + "/") for h in hooks if h["link"]), hooks
    said = next(h for h in hooks if h["subject"] == "Mail Open: an announcement")
    assert said["tournament_id"] == tid and said["link"].startswith(f"{PUBLIC}/tournaments/{tid}#event-")
    # a tournament game's own notices ("your turn") carry the tournament: muting it mutes them
    turns = [d for pid in desk.ids.values() for d in notifier.deliveries(pid) if d.kind == "your_turn"]
    assert turns and all(d.tournament_id == tid for d in turns)

    # a lost invitation: a new seat link signs the player in; a second one revokes the first
    holder = next(iter(g1["seats"].values()))["player_id"]
    first = desk.post(f"{API}/{tid}/invitations", "Director",
                      {"game_id": g1["game_id"], "player_id": holder, "reason": "lost the mail"}, status=201)["link"]
    mails = box.new()
    assert first in _to(mails, desk.name(holder).lower(), f"a new link to your seat (Assault on Belgium — May 1940) "
                                                          f"[{g1['game_id']}]")
    _links_open(mapp, mails, desk)
    browser = mapp.test_client()
    path = urlsplit(first).path
    assert browser.get(path).status_code == 200
    from tests.pages.conftest import post_form

    r = post_form(browser, path, {}, csrf_from=path)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{g1['game_id']}")
    second = desk.post(f"{API}/{tid}/invitations", "Director",
                       {"game_id": g1["game_id"], "player_id": holder, "reason": "lost it again"}, status=201)["link"]
    box.new()
    assert mapp.test_client().get(path).status_code == 404  # the old link is revoked
    assert mapp.test_client().get(urlsplit(second).path).status_code == 200
    import warlog.tournaments.service as service

    life, service.SEAT_LINK_LIFE = service.SEAT_LINK_LIFE, service.SEAT_LINK_LIFE * 0
    try:  # a seat link is good for SEAT_LINK_LIFE after its issue
        assert mapp.test_client().get(urlsplit(second).path).status_code == 404
    finally:
        service.SEAT_LINK_LIFE = life

    # a substitute takes an abandoned seat
    sub = desk.ids["Sub"]
    desk.post(f"{API}/{tid}/replacements", "Director", {"game_id": g1["game_id"], "player_id": holder,
                                                         "substitute": sub, "reason": "no move for weeks"})
    mails = box.new()
    assert "You also take their place" in _to(mails, "sub@", "you take a seat")
    assert "you are withdrawn" in _to(mails, desk.name(holder).lower(), "given to a substitute")
    _links_open(mapp, mails, desk)
    assert mapp.test_client().get(urlsplit(second).path).status_code == 404  # the seat changed hands
    assert mapp.extensions["warlog_players"].owner(g1["game_id"], next(
        r for r, s in g1["seats"].items() if s["player_id"] == holder)) == sub
    doc = desk.get(f"{API}/{tid}")
    assert any(c["type"] == "seat_replaced" and "token_sha256" not in c for c in doc["seat_changes"])

    # re-pairing: the bye player takes a seat of game 0 (its game is cancelled, a new one made)
    leave = next(iter(g0["seats"].values()))["player_id"]
    seats = {role: (bye if s["player_id"] == leave else s["player_id"]) for role, s in g0["seats"].items()}
    g1_seats = {role: s["player_id"] for role, s in desk.get(f"{API}/{tid}")["games"][1]["seats"].items()}
    desk.post(f"{API}/{tid}/rounds/1/repair", "Director", {
        "pairings": [{"seats": seats}, {"seats": g1_seats}], "byes": [leave], "reason": "a pairing error"})
    mails = box.new()
    assert "re-paired (a pairing error)" in _to(mails, desk.name(bye).lower(), "Mail Open: round 1 re-paired")
    assert "you have a bye" in _to(mails, desk.name(leave).lower(), "a bye in round 1")
    _links_open(mapp, mails, desk)

    # a withdrawal: the running game is forfeited (the event's policy) and the opponent told
    doc = desk.get(f"{API}/{tid}")
    new_game = next(g for g in doc["games"] if g["round"] == 1 and g["result"] is None
                    and bye in [s["player_id"] for s in g["seats"].values()])
    quitter = bye
    other = next(s["player_id"] for s in new_game["seats"].values() if s["player_id"] != quitter)
    desk.post(f"{API}/{tid}/withdraw", "Director", {"player_id": quitter, "reason": "moved abroad"})
    desk.drain()
    mails = box.new()
    assert "moved abroad" in _to(mails, desk.name(quitter).lower(), "Mail Open: you are withdrawn")
    assert "forfeited to you" in _to(mails, desk.name(other).lower(), "your opponent withdrew")
    _links_open(mapp, mails, desk)

    # the last game of round 1 adjudicated: the director is told the round is complete, round 2 is paired
    last = next(g for g in desk.get(f"{API}/{tid}")["games"] if g["round"] == 1 and g["result"] is None
                and g["game_id"] != new_game["game_id"])
    winner = next(iter(last["seats"].values()))["player_id"]
    desk.post(f"{API}/{tid}/games/{last['game_id']}/adjudicate", "Director",
              {"decision": "win", "winner": winner, "reason": "agreed"}, status=202)
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    assert doc["round"] == 2, "the next round is paired automatically"
    mails = box.new()
    assert "Round 2 was paired automatically" in _to(mails, "director", "Mail Open: round 1 is complete")
    assert any("Mail Open: round 2" in s for _to_, s, _t in mails)
    _links_open(mapp, mails, desk)

    ended = [d for pid in desk.ids.values() for d in notifier.deliveries(pid) if d.kind == "game_ended"]
    assert ended and all(d.tournament_id == tid for d in ended)

    bundle = desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Director")).get_data()
    report = verify_bundle(bundle.splitlines(keepends=True))  # raises if anything does not verify
    assert report.results == 2  # round 1: the forfeit by withdrawal and the adjudication


def test_hours_and_a_reminder_for_every_deadline_that_allows_one() -> None:
    """A one-day move with the default 24-hour reminder is reminded 12 hours before (before, it
    was never reminded: 24 hours before a one-day deadline is its start)."""
    from datetime import timedelta

    assert TimeControl(days=1).remind_before(TimeControl(days=1).move_time) == timedelta(hours=12)
    assert TimeControl(days=0, hours=36, remind_hours=12).move_time == timedelta(hours=36)
    assert TimeControl(days=3).remind_before(timedelta(days=3)) == timedelta(hours=24)
    assert TimeControl(days=1, remind_hours=0).remind_before(timedelta(days=1)) is None
    assert "hours" not in TimeControl(days=2).to_json()  # recorded as before hours existed
    assert TimeControl.from_json({"days": 0, "hours": 36}).to_json()["hours"] == 36
