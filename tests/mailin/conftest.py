"""Play by mail for real: an SMTP catcher (aiosmtpd) for what Warlog sends, the `warlog mail-in`
listener as its own process for what players send, and players who read the mails they get and
reply to them over SMTP."""

from __future__ import annotations

import os
import re
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Player as Driver
from tests.notify.conftest import Smtp, free_port, smtp, subject_of  # noqa: F401  (the catcher fixture)
from tests.players.conftest import close_app, make_app, settle

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = "warlog.test"
ADDRESS = f"play@{DOMAIN}"
CODE_LINE = re.compile(r"^\s+(A\d+)\s{2,}(.+)$", re.MULTILINE)


@pytest.fixture
def log_key(tmp_path: Path) -> str:
    """The server's signing key file (WARLOG_LOG_KEY), which reply tokens are signed with."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    path = tmp_path / "log-key.pem"
    path.write_bytes(Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return str(path)


def mail_config(db_url: str, smtp_url: str, log_key: str, **extra: str) -> dict[str, str]:
    return {"WARLOG_DB": db_url, "WARLOG_SMTP_URL": smtp_url, "WARLOG_MAIL_IN_ADDRESS": ADDRESS,
            "WARLOG_PUBLIC_URL": "https://warlog.example", "WARLOG_LOG_KEY": log_key, **extra}


@pytest.fixture
def mail_app(db_url: str, smtp: Smtp, log_key: str) -> Iterator[Flask]:  # noqa: F811
    """The web app: it creates the games and sends the first turn mails."""
    app = make_app(db_url, **mail_config(db_url, smtp.url, log_key), WARLOG_PERIODIC=False)
    yield app
    close_app(app)


class MailIn:
    """`warlog mail-in` in its own process (judging the moves it takes: no Redis)."""

    def __init__(self, env: dict[str, str], tmp: Path, *args: str) -> None:
        self.port = free_port()
        self.log = tmp / f"mail-in-{self.port}.log"
        self.env, self.args = env, args
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> MailIn:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from warlog.cli import main; main()", "mail-in", "--port", str(self.port),
             *self.args], cwd=ROOT, stdout=out, stderr=out,
            env={**os.environ, "PYTHONPATH": str(ROOT), "WARLOG_GAME_MODULES": "tests.support.dice_duel_plugin",
                 **self.env})
        deadline = time.monotonic() + 60  # its start (imports, the ledger's upgrade) on a loaded machine
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"warlog mail-in exited: {self.log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"warlog mail-in did not listen: {self.log.read_text()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)

    def send(self, msg: EmailMessage, envelope_from: str | None = None) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(msg, from_addr=envelope_from)


@pytest.fixture
def mail_in(db_url: str, smtp: Smtp, log_key: str, tmp_path: Path) -> Iterator[MailIn]:  # noqa: F811
    m = MailIn(mail_config(db_url, smtp.url, log_key), tmp_path).start()
    yield m
    m.stop()


def text_of(msg: Message) -> str:
    """The plain-text part of a mail Warlog sent."""
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no text/plain part")


STANDING_HEAD = "Standing answers you may set now"


def codes_of(msg: Message) -> dict[str, str]:
    """The codes of the mail's legal actions (not of the standing answers listed after them)."""
    return {code: words.strip() for code, words in CODE_LINE.findall(text_of(msg).split(STANDING_HEAD)[0])}


def standing_codes_of(msg: Message) -> dict[str, str]:
    """The codes of the standing answers the seat may set now, as the mail lists them."""
    parts = text_of(msg).split(STANDING_HEAD)
    return {code: " ".join(words.split()) for code, words in CODE_LINE.findall(parts[1])} if len(parts) > 1 else {}


def reply(to_mail: Message, sender: str, text: str, **headers: str) -> EmailMessage:
    """A plain-text reply as a mail client writes it: the text, then the original quoted."""
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, str(to_mail["Reply-To"])
    msg["Subject"] = "Re: " + subject_of(to_mail)  # decoded, as a client shows it, and written anew
    msg["In-Reply-To"] = str(to_mail["Message-ID"])
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    quoted = "\n".join("> " + line for line in text_of(to_mail).splitlines())
    msg.set_content(f"{text}\n\nOn Sat, 28 Nov 2026, Warlog wrote:\n{quoted}\n")
    return msg


class Table:
    """The players of one game: each reads the mails sent to their address and replies."""

    def __init__(self, app: Flask, smtp: Smtp, mail_in: MailIn, game: str, scenario: str,  # noqa: F811
                 options: dict[str, Any] | None = None,
                 before_join: Callable[[dict[str, str]], None] | None = None) -> None:
        self.app, self.smtp, self.mail_in = app, smtp, mail_in
        client = app.test_client()
        r = client.post("/api/v1/games", json={"game": game, "scenario": scenario, "options": options or {}})
        assert r.status_code == 201, r.get_json()
        self.game = Driver(client, app, r.get_json())
        players = app.extensions["warlog_players"]
        self.address: dict[str, str] = {}
        for seat in sorted(self.game.created["seats"]):
            p = players.register(seat.title(), f"{seat}@example.org")
            players.claim_seat(self.game.id, seat, p.id)
            self.address[seat] = p.email
        self.seen = 0
        self.replied: set[str] = set()
        if before_join is not None:
            before_join({seat: players.by_email(a).id for seat, a in self.address.items()})
        self.game.join_all()
        if "warlog_notify_pool" in app.extensions:  # the embedded app sends its first turn mail itself
            settle(app)

    def seat_of(self, address: str) -> str:
        return next(s for s, a in self.address.items() if a == address)

    def next_turn(self, timeout: float = 30.0) -> Message | None:
        """The next mail that asks a seat to move (has a reply address not yet used); None once
        the game has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in self.smtp.messages:
                if msg["Reply-To"] and str(msg["Reply-To"]) not in self.replied:
                    return msg
            if self.game.info()["status"] == "ended":
                return None
            time.sleep(0.05)
        raise AssertionError("no turn mail came: " + "\n".join(str(m["Subject"]) for m in self.smtp.messages[-5:]))

    def play(self, choose: Callable[[str, Message, dict[str, str]], str], limit: int = 500) -> int:
        """Reply to every turn mail with `choose(seat, mail, codes)` until the game ends; the
        number of replies."""
        replies = 0
        while (msg := self.next_turn()) is not None:
            seat = self.seat_of(str(msg["To"]))
            codes = codes_of(msg)
            assert codes, text_of(msg)
            answers = len(self.answers())
            self.replied.add(str(msg["Reply-To"]))
            self.mail_in.send(reply(msg, self.address[seat], choose(seat, msg, codes)))
            self.wait_answers(answers + 1)
            replies += 1
            assert replies <= limit, "the game did not end"
        return replies

    def answers(self) -> list[Message]:
        """The answers to replies (played or not), in any language: RFC 3834's auto-replied mark."""
        return [m for m in self.smtp.messages if m["Auto-Submitted"] == "auto-replied"]

    def wait_answers(self, count: int, timeout: float = 60.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while len(found := self.answers()) < count:
            assert time.monotonic() < deadline, f"no answer mail: {self.mail_in.log.read_text()[-3000:]}"
            time.sleep(0.02)
        return found

    def answers_to(self, seat: str) -> list[Message]:
        return [m for m in self.smtp.messages if m["To"] == self.address[seat]]
