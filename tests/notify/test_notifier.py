"""The notifier on both backends against a real SMTP server and a real HTTP receiver
(notifications by e-mail and signed webhooks, retries with backoff, failures recorded and listed,
digests, the outbox when no SMTP is configured)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator

import pytest

from ledger.factory import open_store
from tests.notify.conftest import Receiver, Smtp, free_port
from tests.players.conftest import FakeNow
from warlog.notify.notifier import Notifier
from warlog.notify.transports import DeliveryError, check_webhook_url
from warlog.ops.sqldb import SqlDb
from warlog.players.store import Player, PlayerStore


class Rig:
    """A notifier whose queue is a list the test runs (so every attempt is visible)."""

    def __init__(self, db_url: str, smtp_url: str | None, clock: FakeNow) -> None:
        self.store = open_store(db_url)
        db = SqlDb(self.store)
        self.players = PlayerStore(db, now=clock)
        self.players.create_schema()
        self.queued: list[str] = []
        self.notifier = Notifier(db, self._address, smtp_url=smtp_url, now=clock, enqueue=self.queued.append,
                                 allow_private_webhooks=True, max_attempts=3)
        self.notifier.create_schema()
        self.clock = clock

    def _address(self, player_id: str) -> str | None:
        p = self.players.get(player_id)
        return p.email if p else None

    def run_queue(self) -> list[str]:
        done = [self.notifier.deliver(d) for d in self.queued]
        self.queued.clear()
        return done

    def player(self, name: str) -> Player:
        return self.players.register(name, f"{name.lower()}@example.org")


@pytest.fixture
def clock() -> FakeNow:
    return FakeNow()


@pytest.fixture
def rig(db_url: str, smtp: Smtp, clock: FakeNow) -> Iterator[Rig]:
    r = Rig(db_url, smtp.url, clock)
    yield r
    r.store.close()


def test_your_turn_mail_reaches_the_smtp_server(rig: Rig, smtp: Smtp) -> None:
    ann = rig.player("Ann")
    ids = rig.notifier.notify(ann.id, "your_turn", "Your turn: game g1", "It is your turn (north).",
                              game_id="g1", link="http://warlog.test/games/g1")
    assert len(ids) == 1 and rig.notifier.get(ids[0]).status == "queued"
    assert smtp.messages == []  # notify() only records and enqueues
    assert rig.run_queue() == ["sent"]
    msg = smtp.wait_for(1)[0]
    assert msg["To"] == "ann@example.org" and msg["Subject"] == "Your turn: game g1"
    body = msg.get_payload(decode=True).decode()
    assert "It is your turn (north)." in body and "http://warlog.test/games/g1" in body
    assert rig.notifier.deliver(ids[0]) == "sent" and len(smtp.messages) == 1  # a job run twice sends once


def test_unknown_kind_is_refused_and_muted_kinds_are_not_sent(rig: Rig) -> None:
    ann = rig.player("Ann")
    with pytest.raises(ValueError):
        rig.notifier.notify(ann.id, "gossip", "s", "t")
    rig.notifier.set_prefs(ann.id, muted_kinds=("pairing",))
    assert rig.notifier.notify(ann.id, "pairing", "Round 2", "You play Bob") == []
    assert len(rig.notifier.notify(ann.id, "ruling", "A ruling", "…")) == 1


@pytest.mark.slow
def test_smtp_down_is_retried_with_backoff_then_failed_and_listed(db_url: str, clock: FakeNow) -> None:
    """A failed delivery is recorded with its error, retried after 1, 2 … minutes, then kept as
    failed and listed for the director (never lost silently)."""
    rig = Rig(db_url, f"smtp://127.0.0.1:{free_port()}", clock)  # nobody listens there
    try:
        ann = rig.player("Ann")
        [delivery] = rig.notifier.notify(ann.id, "pairing", "Round 1", "You play Bob", tournament_id="t1")
        assert rig.run_queue() == ["retrying"]
        d = rig.notifier.get(delivery)
        assert d.attempts == 1 and "SMTP 127.0.0.1" in (d.last_error or "")
        assert [f.id for f in rig.notifier.failed("t1")] == [delivery]
        assert rig.notifier.failed("t2") == []
        assert rig.notifier.sweep() == 0 and rig.queued == []  # not due yet
        clock.advance(minutes=1)
        assert rig.notifier.sweep() == 1 and rig.run_queue() == ["retrying"]
        clock.advance(minutes=1)
        assert rig.notifier.sweep() == 0  # the second retry waits 2 minutes
        clock.advance(minutes=1)
        assert rig.notifier.sweep() == 1 and rig.run_queue() == ["failed"]
        clock.advance(days=1)
        assert rig.notifier.sweep() == 0  # given up: no more attempts …
        [failed] = rig.notifier.failed()
        assert failed.status == "failed" and failed.attempts == 3  # … but listed
        rig.notifier.retry(delivery)  # the director's "try again"
        assert rig.queued == [delivery]
    finally:
        rig.store.close()


def test_signed_json_webhook(rig: Rig, receiver: Receiver) -> None:
    ann = rig.player("Ann")
    prefs = rig.notifier.set_prefs(ann.id, email_on=False, webhook_url=receiver.url)
    assert prefs.webhook_secret and len(prefs.webhook_secret) == 48
    [delivery] = rig.notifier.notify(ann.id, "game_ended", "Game over", "North won", game_id="g1",
                                     tournament_id="t1")
    assert rig.run_queue() == ["sent"]
    [req] = receiver.requests
    assert req["json"]["kind"] == "game_ended" and req["json"]["text"] == "North won"
    assert req["json"]["tournament_id"] == "t1" and req["json"]["id"] == delivery
    stamp = req["headers"]["X-Warlog-Timestamp"]
    expected = hmac.new(prefs.webhook_secret.encode(), stamp.encode() + b"." + req["body"], hashlib.sha256)
    assert req["headers"]["X-Warlog-Signature"] == "sha256=" + expected.hexdigest()
    # the same URL keeps its secret; a new URL gets a new one
    assert rig.notifier.set_prefs(ann.id, webhook_url=receiver.url).webhook_secret == prefs.webhook_secret
    assert rig.notifier.set_prefs(ann.id, webhook_url=receiver.url + "2").webhook_secret != prefs.webhook_secret


def test_discord_compatible_webhook_and_its_failure(rig: Rig, receiver: Receiver) -> None:
    ann = rig.player("Ann")
    rig.notifier.set_prefs(ann.id, email_on=False, webhook_url=receiver.url, webhook_format="discord")
    rig.notifier.notify(ann.id, "deadline_soon", "Deadline in 1 day", "Move by Tuesday",
                        link="http://warlog.test/games/g1")
    receiver.status[0] = 500
    assert rig.run_queue() == ["retrying"]
    [failed] = rig.notifier.failed()
    assert "HTTP 500" in (failed.last_error or "")
    receiver.status[0] = 204
    rig.clock.advance(minutes=1)
    rig.notifier.sweep()
    assert rig.run_queue() == ["sent"]
    body = receiver.requests[-1]["json"]
    assert set(body) == {"username", "content", "allowed_mentions"} and body["allowed_mentions"] == {"parse": []}
    assert body["content"] == "**Deadline in 1 day**\nMove by Tuesday\nhttp://warlog.test/games/g1"


def test_digest_sends_one_mail_a_day(rig: Rig, smtp: Smtp) -> None:
    ann = rig.player("Ann")
    rig.notifier.set_prefs(ann.id, digest=True)
    rig.notifier.notify(ann.id, "your_turn", "Your turn: g1", "north to move")
    rig.clock.advance(hours=3)
    rig.notifier.notify(ann.id, "pairing", "Round 2", "You play Bob")
    assert rig.queued == [] and rig.notifier.sweep() == 0
    rig.clock.advance(hours=21)
    assert rig.notifier.sweep() == 1 and rig.run_queue() == ["sent"]
    [msg] = smtp.wait_for(1)
    body = msg.get_payload(decode=True).decode()
    assert msg["Subject"] == "Warlog digest: 2 notification(s)"
    assert "Your turn: g1" in body and "You play Bob" in body
    assert rig.notifier.sweep() == 0  # each item goes out once


def test_without_smtp_mail_goes_to_the_outbox(db_url: str, clock: FakeNow) -> None:
    rig = Rig(db_url, None, clock)
    try:
        ann = rig.player("Ann")
        rig.notifier.notify(ann.id, "your_turn", "Your turn", "north to move", link="http://x/games/g")
        assert rig.run_queue() == ["sent"]
        [mail] = rig.notifier.outbox()
        assert mail["to"] == "ann@example.org" and mail["subject"] == "Your turn"
        assert "north to move" in mail["body"] and "http://x/games/g" in mail["body"]
    finally:
        rig.store.close()


@pytest.mark.parametrize("url", ["ftp://example.org/x", "http://127.0.0.1:9/x", "http://10.0.0.1/x",
                                 "http://169.254.169.254/latest"])
def test_webhooks_to_private_addresses_are_refused_by_default(url: str) -> None:
    with pytest.raises(DeliveryError):
        check_webhook_url(url, allow_private=False)


def test_webhook_redirect_is_a_failure(rig: Rig, receiver: Receiver) -> None:
    ann = rig.player("Ann")
    rig.notifier.set_prefs(ann.id, email_on=False, webhook_url=receiver.url)
    receiver.status[0] = 302
    rig.notifier.notify(ann.id, "ruling", "A ruling", "void")
    assert rig.run_queue() == ["retrying"]
    assert json.loads(receiver.requests[0]["body"])["kind"] == "ruling"


def test_a_player_mutes_one_tournament(rig: Rig) -> None:
    """Per player and per tournament: notices about a muted tournament are not sent; others are."""
    ann = rig.player("Ann")
    rig.notifier.set_prefs(ann.id, digest=True)
    rig.notifier.mute_tournament(ann.id, "t1")
    assert rig.notifier.prefs(ann.id).digest is True  # the rest of the preferences stay
    assert rig.notifier.notify(ann.id, "pairing", "Round 1", "…", tournament_id="t1") == []
    assert len(rig.notifier.notify(ann.id, "pairing", "Round 1", "…", tournament_id="t2")) == 1
    assert len(rig.notifier.notify(ann.id, "your_turn", "Your turn", "…")) == 1
    rig.notifier.mute_tournament(ann.id, "t1", muted=False)
    assert len(rig.notifier.notify(ann.id, "pairing", "Round 2", "…", tournament_id="t1")) == 1
    with pytest.raises(ValueError):
        rig.notifier.set_prefs(ann.id, webhook_url="javascript:alert(1)")


def test_a_sent_sign_in_mail_keeps_no_live_link(rig: Rig, smtp: Smtp) -> None:
    """Links are stored hashed: the mail that carried one does not keep it once sent."""
    delivery = rig.notifier.send_mail("ann@example.org", "Your Warlog sign-in link", "http://x/signin/SECRET123")
    assert rig.run_queue() == ["sent"]
    assert "SECRET123" in smtp.wait_for(1)[0].get_payload(decode=True).decode()
    assert "SECRET123" not in rig.notifier.get(delivery).body
    assert "SECRET123" not in str(rig.notifier.db.rows("SELECT * FROM notify_deliveries"))


def test_a_failed_sign_in_mail_is_listed_without_its_link_and_forgotten_when_it_expires(db_url: str,
                                                                                       clock: FakeNow) -> None:
    rig = Rig(db_url, f"smtp://127.0.0.1:{free_port()}", clock)
    try:
        delivery = rig.notifier.send_mail("ann@example.org", "Your Warlog sign-in link", "http://x/signin/SECRET9")
        assert rig.run_queue() == ["retrying"]
        [listed] = rig.notifier.failed()
        assert listed.id == delivery and "SECRET9" not in listed.body
        clock.advance(hours=3)
        rig.notifier.sweep()
        assert "SECRET9" not in str(rig.notifier.db.rows("SELECT * FROM notify_deliveries"))
    finally:
        rig.store.close()
