"""A reply is stored before the listener answers 250: killed between the two steps, the next
`warlog mail-in` plays it (once); a mail server's resend of the same message is not taken twice;
the listener also speaks LMTP."""

from __future__ import annotations

import signal
import smtplib
import socket
import time
from pathlib import Path

import pytest
from flask import Flask

from tests.mailin.conftest import MailIn, Table, mail_config, reply, text_of
from tests.notify.conftest import Smtp
from warlog.mailin.listener import FAULT_HOLD_ENV
from warlog.mailin.processor import FAULT_EXIT_ENV


@pytest.mark.slow
def test_a_reply_taken_before_a_crash_is_played_once_by_the_next_listener(mail_app: Flask, smtp: Smtp,
                                                                          db_url: str, log_key: str,
                                                                          tmp_path: Path) -> None:
    env = mail_config(db_url, smtp.url, log_key)
    held = MailIn({**env, FAULT_HOLD_ENV: "600"}, tmp_path).start()
    table = Table(mail_app, smtp, held, "dice-duel", "long")
    turn = table.next_turn()
    assert turn is not None
    msg = reply(turn, "north@example.org", "A2")
    held.send(msg)  # answered 250: stored, not yet processed
    mail = mail_app.extensions["warlog_services"].mail.mail
    [stored] = mail.recent()
    assert stored.status == "received" and stored.verdict is None
    assert held.proc is not None
    held.proc.send_signal(signal.SIGKILL)
    held.proc.wait(timeout=30)
    seq = table.game.info()["seq"]
    again = MailIn(env, tmp_path).start()
    try:
        table.mail_in = again
        answer = table.wait_answers(1)[-1]
        assert str(answer["Subject"]).startswith("Played:"), text_of(answer)
        assert table.game.info()["seq"] == seq + 2  # the bank, submitted and judged once
        again.send(msg)  # the mail server did not see the 250 and sends the very same message again
        time.sleep(1.0)
        assert len(mail.recent()) == 1 and len(table.answers()) == 1
        assert table.game.info()["seq"] == seq + 2
    finally:
        again.stop()


@pytest.mark.slow
def test_the_listener_speaks_lmtp(mail_app: Flask, smtp: Smtp, db_url: str, log_key: str, tmp_path: Path) -> None:
    lmtp = MailIn(mail_config(db_url, smtp.url, log_key), tmp_path, "--lmtp").start()
    try:
        table = Table(mail_app, smtp, lmtp, "dice-duel", "long")
        turn = table.next_turn()
        assert turn is not None
        with smtplib.LMTP("127.0.0.1", lmtp.port, timeout=30) as client:
            refused = client.send_message(reply(turn, "north@example.org", "A2"))
        assert refused == {}
        assert str(table.wait_answers(1)[-1]["Subject"]).startswith("Played:")
        with smtplib.LMTP("127.0.0.1", lmtp.port, timeout=30) as client:
            try:
                client.sendmail("north@example.org", ["postmaster@warlog.test"], b"Subject: hi\r\n\r\nhello\r\n")
                raise AssertionError("an address that is not a reply address was taken")
            except smtplib.SMTPRecipientsRefused as err:
                assert err.recipients["postmaster@warlog.test"][0] == 550
    finally:
        lmtp.stop()


@pytest.mark.slow
def test_a_listener_killed_between_a_move_and_its_note_answers_what_was_played(mail_app: Flask, smtp: Smtp,
                                                                               db_url: str, log_key: str,
                                                                               tmp_path: Path) -> None:
    """Resumed, the mail finds its own submission by its idempotency key: it is neither submitted
    again nor reported as not played because the turn has passed since."""
    env = mail_config(db_url, smtp.url, log_key)
    dying = MailIn({**env, FAULT_EXIT_ENV: "1"}, tmp_path).start()
    table = Table(mail_app, smtp, dying, "dice-duel", "long")
    turn = table.next_turn()
    assert turn is not None
    seq = table.game.info()["seq"]
    dying.send(reply(turn, "north@example.org", "A2"))  # bank: submitted, then the process exits
    assert dying.proc is not None and dying.proc.wait(timeout=30) == 70
    again = MailIn(env, tmp_path).start()
    try:
        table.mail_in = again
        answer = table.wait_answers(1)[-1]
        said = text_of(answer)
        assert str(answer["Subject"]).startswith("Played:") and "A2 (type=bank): played" in said, said
        events = table.game.client.get(f"/api/v1/games/{table.game.id}/events?after={seq}").get_json()["events"]
        assert [e["type"] for e in events][:2] == ["submitted", "resolved"]
        assert sum(1 for e in events if e["type"] == "submitted") == 1
    finally:
        again.stop()


@pytest.mark.slow
def test_lmtp_answers_data_once_per_recipient(mail_app: Flask, smtp: Smtp, db_url: str, log_key: str,
                                              tmp_path: Path) -> None:
    """RFC 2033: after DATA, one reply per accepted recipient (a Postfix lmtp client delivers
    several recipients in one transaction and waits for each reply)."""
    lmtp = MailIn(mail_config(db_url, smtp.url, log_key), tmp_path, "--lmtp").start()
    try:
        table = Table(mail_app, smtp, lmtp, "dice-duel", "long")
        turn = table.next_turn()
        assert turn is not None
        other = "play+" + "a" * 32 + "@warlog.test"  # well formed, never given: taken, then refused
        with socket.create_connection(("127.0.0.1", lmtp.port), timeout=30) as conn:
            f = conn.makefile("rwb")

            def say(line: bytes) -> None:
                f.write(line + b"\r\n")
                f.flush()

            def answer() -> bytes:
                lines = [f.readline()]
                while lines[-1][3:4] == b"-":
                    lines.append(f.readline())
                return lines[-1]

            answer()  # the greeting
            for line in (b"LHLO client.test", b"MAIL FROM:<north@example.org>",
                         b"RCPT TO:<" + str(turn["Reply-To"]).encode() + b">", b"RCPT TO:<" + other.encode() + b">"):
                say(line)
                assert answer().startswith(b"250"), line
            say(b"DATA")
            assert answer().startswith(b"354")
            body = reply(turn, "north@example.org", "A2").as_bytes().replace(b"\n", b"\r\n").replace(b"\r\r", b"\r")
            f.write(body + b"\r\n.\r\n")
            f.flush()
            assert answer().startswith(b"250") and answer().startswith(b"250")  # one per recipient
            say(b"QUIT")
        # each recipient's mail judged and answered: the reply played, the other address refused
        subjects = sorted(str(m["Subject"]) for m in table.wait_answers(2))
        assert subjects[0].startswith("Played:") and subjects[1] == "Your mail to Warlog was not read", subjects
    finally:
        lmtp.stop()
