"""Each bad reply is refused with an answer mail that says why and what to send instead, is
recorded with its verdict, and records nothing in the game."""

from __future__ import annotations

import time
from email.message import EmailMessage, Message
from pathlib import Path

import pytest
from flask import Flask

from tests.mailin.conftest import MailIn, Table, codes_of, mail_config, reply, text_of
from tests.notify.conftest import Smtp


def _verdicts(app: Flask) -> list[tuple[str | None, str | None]]:
    return [(m.verdict, m.from_addr) for m in app.extensions["warlog_services"].mail.mail.recent()]


def _refused(table: Table, msg: EmailMessage, verdict: str, mail_in: MailIn | None = None,
             envelope_from: str | None = None) -> Message:
    """Send `msg`; its answer mail (to the seat's owner), once the refusal is recorded."""
    before = table.game.info()["seq"]
    count = len(table.answers())
    (mail_in or table.mail_in).send(msg, envelope_from=envelope_from)
    answer = table.wait_answers(count + 1)[-1]
    assert str(answer["Subject"]).startswith("Not played"), text_of(answer)
    assert answer["To"] == "north@example.org"
    assert _verdict(table) == verdict, _verdicts(table.app)
    assert table.game.info()["seq"] == before  # nothing recorded in the game
    return answer


def _verdict(table: Table) -> str | None:
    """The newest inbound mail's verdict, once recorded (the answer may arrive a moment before)."""
    deadline = time.monotonic() + 20
    while not _verdicts(table.app) or _verdicts(table.app)[0][0] is None:
        assert time.monotonic() < deadline, _verdicts(table.app)
        time.sleep(0.05)
    return _verdicts(table.app)[0][0]


@pytest.fixture
def table(mail_app: Flask, smtp: Smtp, mail_in: MailIn) -> Table:
    return Table(mail_app, smtp, mail_in, "dice-duel", "long")


def _first(table: Table) -> Message:
    msg = table.next_turn()
    assert msg is not None and msg["To"] == "north@example.org"  # north starts (the option's default)
    return msg


@pytest.mark.slow
def test_a_reply_from_another_address_is_refused_and_the_owner_told(table: Table) -> None:
    turn = _first(table)
    answer = _refused(table, reply(turn, "mallory@example.net", "A2"), "refused:other-sender",
                      envelope_from="mallory@example.net")
    assert "mallory@example.net" in text_of(answer) and "Reply from north@example.org" in text_of(answer)


@pytest.mark.slow
def test_a_forged_sender_is_refused_by_its_envelope(table: Table) -> None:
    turn = _first(table)
    answer = _refused(table, reply(turn, "north@example.org", "A2"), "refused:forged-sender",
                      envelope_from="bounce@evil.example")
    assert "evil.example" in text_of(answer)


@pytest.mark.slow
def test_a_forged_sender_is_refused_by_the_mail_servers_dmarc_verdict(table: Table, db_url: str, smtp: Smtp,
                                                                      log_key: str, tmp_path: Path) -> None:
    turn = _first(table)
    checked = MailIn(mail_config(db_url, smtp.url, log_key), tmp_path, "--authserv-id", "mx.warlog.test").start()
    try:
        # a header the sender wrote itself, naming our server's id but placed before ours, would be
        # the same string: the operator's MTA must remove such headers (docs/mail.md); here ours says fail
        msg = reply(turn, "north@example.org", "A2",
                    Authentication_Results="mx.warlog.test; spf=pass smtp.mailfrom=example.org; dmarc=fail "
                                           "header.from=example.org")
        answer = _refused(table, msg, "refused:forged-sender", mail_in=checked, envelope_from="north@example.org")
        assert "dmarc=fail" in text_of(answer)
    finally:
        checked.stop()


@pytest.mark.slow
def test_a_replayed_token_is_refused_with_the_position_now(table: Table) -> None:
    turn = _first(table)
    table.mail_in.send(reply(turn, "north@example.org", "A2"))  # bank: played, the turn passes
    table.wait_answers(1)
    seq = table.game.info()["seq"]
    answer = _refused(table, reply(turn, "north@example.org", "A1"), "refused:replayed")
    assert "used already" in text_of(answer) and "Waiting for South" in text_of(answer)
    assert table.game.info()["seq"] == seq


@pytest.mark.slow
def test_a_reply_to_an_old_mail_is_answered_with_the_position_now_and_never_applied(table: Table) -> None:
    turn = _first(table)
    table.game.play("north", {"type": "roll"})  # north moves on the page: the mail's position is old
    table.game.wait()
    while table.game.info()["active_seats"] != ["north"]:  # a 1 passed the turn: south banks it back
        table.game.play("south", {"type": "bank"})
        table.game.wait()
    answer = _refused(table, reply(turn, "north@example.org", "A2"), "stale")
    said = text_of(answer)
    assert "moved on" in said and "Your move:" in said
    assert str(answer["Reply-To"]) != str(turn["Reply-To"]) and codes_of(answer)  # a fresh address, fresh codes
    table.replied.add(str(turn["Reply-To"]))
    # the fresh address takes the reply
    table.mail_in.send(reply(answer, "north@example.org", "A2"))
    played = table.wait_answers(2)[-1]
    assert str(played["Subject"]).startswith("Played:"), text_of(played)


@pytest.mark.slow
def test_an_html_only_reply_is_refused_and_the_same_address_takes_a_plain_one(table: Table) -> None:
    turn = _first(table)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "north@example.org", str(turn["Reply-To"]), "Re: turn"
    msg.set_content("<html><body><p>A2</p></body></html>", subtype="html")
    answer = _refused(table, msg, "refused:html-only")
    assert "plain text" in text_of(answer) and codes_of(answer) == codes_of(turn)
    assert str(answer["Reply-To"]) == str(turn["Reply-To"])
    table.mail_in.send(reply(turn, "north@example.org", "A2"))
    assert str(table.wait_answers(2)[-1]["Subject"]).startswith("Played:")


@pytest.mark.slow
def test_a_huge_attachment_is_refused(table: Table) -> None:
    turn = _first(table)
    msg = reply(turn, "north@example.org", "A2")
    msg.add_attachment(b"\0" * (3 * 1024 * 1024), maintype="application", subtype="octet-stream",
                       filename="huge.bin")
    answer = _refused(table, msg, "refused:too-big")
    assert "KB" in text_of(answer)
    stored = table.app.extensions["warlog_services"].mail.mail.recent()[0]
    assert stored.size > 3 * 1024 * 1024 and stored.raw is not None and len(stored.raw) < 64 * 1024  # headers only


@pytest.mark.parametrize("text, verdict", [("Thanks, I'll think about it.", "refused:no-codes"),
                                           ("A7", "refused:unknown-codes")])
@pytest.mark.slow
def test_a_reply_without_a_code_of_its_mail_is_told_the_codes(table: Table, text: str, verdict: str) -> None:
    turn = _first(table)
    answer = _refused(table, reply(turn, "north@example.org", text), verdict)
    assert codes_of(answer) == codes_of(turn)


@pytest.mark.slow
def test_an_address_nobody_was_given_is_refused(table: Table) -> None:
    turn = _first(table)
    msg = reply(turn, "north@example.org", "A2")
    token = str(turn["Reply-To"]).split("+", 1)[1].split("@")[0]
    forged = token[:16] + ("a" if token[16] != "a" else "b") + token[17:]  # the signature altered
    msg.replace_header("To", f"play+{forged}@warlog.test")
    before = table.game.info()["seq"]
    table.mail_in.send(msg)
    assert _verdict(table) == "refused:unknown-address"
    assert table.game.info()["seq"] == before


@pytest.mark.slow
def test_refusals_answered_to_one_address_are_capped_so_nobody_floods_an_inbox(table: Table) -> None:
    from warlog.mailin.processor import MAX_REFUSALS_ANSWERED

    turn = _first(table)
    for i in range(MAX_REFUSALS_ANSWERED):
        table.mail_in.send(reply(turn, "mallory@example.net", f"A2 (try {i})"))
    table.wait_answers(MAX_REFUSALS_ANSWERED)
    table.mail_in.send(reply(turn, "mallory@example.net", "A2 (once more)"))
    deadline = time.monotonic() + 20
    while len(table.app.extensions["warlog_services"].mail.mail.recent()) <= MAX_REFUSALS_ANSWERED or \
            table.app.extensions["warlog_services"].mail.mail.recent()[0].verdict is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    last = table.app.extensions["warlog_services"].mail.mail.recent()[0]
    assert last.verdict == "refused:other-sender" and "not answered" in (last.reason or "")
    time.sleep(0.5)
    assert len(table.answers()) == MAX_REFUSALS_ANSWERED


@pytest.mark.slow
def test_an_absence_notice_is_recorded_and_never_answered(table: Table) -> None:
    turn = _first(table)
    before = table.game.info()["seq"]
    table.mail_in.send(reply(turn, "north@example.org", "I am away until Monday.", Auto_Submitted="auto-replied"))
    assert _verdict(table) == "refused:automatic"
    time.sleep(0.5)
    assert table.answers() == [] and table.game.info()["seq"] == before


@pytest.mark.slow
def test_a_bounce_domain_of_the_senders_own_domain_is_not_a_forgery(table: Table) -> None:
    turn = _first(table)
    table.mail_in.send(reply(turn, "north@example.org", "A2"), envelope_from="bounce-123@mail.example.org")
    answer = table.wait_answers(1)[-1]
    assert str(answer["Subject"]).startswith("Played:"), text_of(answer)
    assert answer["Auto-Submitted"] == "auto-replied"
