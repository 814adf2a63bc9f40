"""A player chooses per game (or as a default) how to play: by mail, on the page, or both
(/me/play-by-mail)."""

from __future__ import annotations

import time
from collections.abc import Callable
from email.message import Message
from pathlib import Path

import pytest
from flask import Flask

from tests.mailin.conftest import MailIn, Table, mail_config, reply, text_of
from tests.notify.conftest import Receiver, Smtp, receiver  # noqa: F401  (the webhook receiver fixture)
from tests.players.conftest import close_app, make_app


def _bearer(app: Flask, email: str) -> dict[str, str]:
    players = app.extensions["warlog_players"]
    return {"Authorization": f"Bearer {players.issue_token(players.by_email(email).id)}"}


@pytest.mark.slow
def test_page_only_sends_the_plain_notice_and_refuses_replies_mail_only_leaves_out_the_link(
        mail_app: Flask, smtp: Smtp, mail_in: MailIn) -> None:
    table = Table(mail_app, smtp, mail_in, "dice-duel", "long")
    turn = table.next_turn()
    assert turn is not None and turn["To"] == "north@example.org"
    client = mail_app.test_client()
    north = _bearer(mail_app, "north@example.org")
    r = client.post("/me/play-by-mail", json={"mode": "page", "game_id": table.game.id}, headers=north)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.get_json()["games"] == [{"game_id": table.game.id, "seat": "north", "mode": "page"}]
    r = client.post("/me/play-by-mail", json={"mode": "mail"}, headers=_bearer(mail_app, "south@example.org"))
    assert r.get_json()["default"] == "mail"
    assert client.post("/me/play-by-mail", json={"mode": "fax"}, headers=north).status_code == 400
    assert client.post("/me/play-by-mail", json={"mode": "mail", "game_id": "nope"}, headers=north).status_code == 404
    # north plays this game on the page: a reply by mail is refused, nothing played
    seq = table.game.info()["seq"]
    table.mail_in.send(reply(turn, "north@example.org", "A2"))
    answer = table.wait_answers(1)[-1]
    assert str(answer["Subject"]).startswith("Not played") and "on its page" in text_of(answer)
    assert table.game.info()["seq"] == seq
    # north banks on the page; south (mail only by default) gets codes and no link
    table.game.play("north", {"type": "bank"})
    table.game.wait()
    south = _wait(smtp, lambda: [m for m in smtp.messages if m["To"] == "south@example.org"])[0]
    assert south["Reply-To"] and "On the page:" not in text_of(south) and "A1" in text_of(south)
    # south banks by mail; north's next "your turn" is the plain notice with its link, no reply address
    table.mail_in.send(reply(south, "south@example.org", "A2"))
    table.wait_answers(2)
    notice = _wait(smtp, lambda: [m for m in smtp.messages if m["To"] == "north@example.org"
                                  and str(m["Subject"]).startswith("Your turn")][1:])[0]
    assert notice["Reply-To"] is None and f"/games/{table.game.id}" in text_of(notice)
    page = client.get("/me/play-by-mail", headers=north)
    assert page.status_code == 200 and "refused:page-only" in page.get_data(as_text=True)


def _wait(smtp: Smtp, found: Callable[[], list[Message]], timeout: float = 20.0) -> list[Message]:
    deadline = time.monotonic() + timeout
    while not (got := found()):
        assert time.monotonic() < deadline, [m["Subject"] for m in smtp.messages]
        time.sleep(0.05)
    return got


def test_a_webhook_gets_the_turn_notice_without_the_reply_address(db_url: str, smtp: Smtp, log_key: str,
                                                                   receiver: Receiver, tmp_path: Path) -> None:
    """A webhook may post where others read it (a Discord channel): the reply address, which plays
    the seat's move, stays in the player's mailbox."""
    env = mail_config(db_url, smtp.url, log_key)
    app = make_app(db_url, **env, WARLOG_PERIODIC=False, WARLOG_WEBHOOK_ALLOW_PRIVATE="1")
    mail_in = MailIn(env, tmp_path)  # not started: no reply is sent here
    try:
        def hook(ids: dict[str, str]) -> None:
            app.extensions["warlog_notifier"].set_prefs(ids["north"], webhook_url=receiver.url)

        table = Table(app, smtp, mail_in, "dice-duel", "long", before_join=hook)
        turn = table.next_turn()
        assert turn is not None and "play+" in text_of(turn)
        deadline = time.monotonic() + 20
        while not receiver.requests:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        said = receiver.requests[0]["json"]["text"]
        assert "A1" in said and "play+" not in said and "reply address of your turn mail" in said
    finally:
        close_app(app)
