"""Notifications: record a delivery per channel, send it in the background, retry with backoff.

`notify()` only writes rows and enqueues their ids: it never waits on a mail server or a
webhook, so nothing a player does is slowed or blocked by delivery. `deliver(id)` makes one
attempt (a job: safe to run twice, a sent delivery is left alone); a failure is recorded with
its error and retried after 1, 2, 4, 8 … minutes until `max_attempts`, then stays `failed`,
listed by `failed()` for the director. `sweep()` (periodic, in the worker) re-enqueues what is
due, so a lost job or a restart loses nothing, and sends the daily digests.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

from warlog.catalogs import Words, say, stored_language
from warlog.notify.schema import DDL
from warlog.notify.transports import (
    DeliveryError,
    SmtpConfig,
    check_webhook_url,
    header_text,
    mail_message,
    post_webhook,
    send_smtp,
    webhook_body,
)
from warlog.ops import metrics
from warlog.ops.sqldb import Clock, SqlDb, iso, sortable_id, utc_now

log = logging.getLogger("warlog.notify")

KINDS = ("your_turn", "deadline_soon", "deadline_passed", "pairing", "game_ended", "ruling", "leave", "message")
SYSTEM_KINDS = ("signin", "digest", "mail_answer")  # not subject to preferences (mail_answer: warlog.mailin)
MAX_ATTEMPTS = 6
FIRST_BACKOFF = timedelta(minutes=1)
DIGEST_EVERY = timedelta(hours=24)
STUCK_AFTER = timedelta(minutes=5)  # a `queued` row older than this had its job lost: enqueue again
LOST_AFTER = timedelta(seconds=15)  # ... or older than this, if the queue says its job is not there (`lost`)
SCRUBBED = "(a sign-in link: not kept once sent, or once it has expired)"
_COLUMNS = ("id, player_id, channel, address, kind, subject, body, game_id, tournament_id, link, status, "
            "attempts, last_error, created_at, next_attempt_at, sent_at")


_INSERT = (f"INSERT INTO notify_deliveries ({_COLUMNS}) VALUES "
           "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, NULL)")


@dataclass(frozen=True)
class Delivery:
    id: str
    player_id: str | None
    channel: str
    address: str
    kind: str
    subject: str
    body: str
    game_id: str | None
    tournament_id: str | None
    link: str | None
    status: str
    attempts: int
    last_error: str | None
    created_at: str
    next_attempt_at: str
    sent_at: str | None

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Prefs:
    email_on: bool = True
    digest: bool = False
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_format: str = "json"
    muted_kinds: tuple[str, ...] = ()
    muted_tournaments: tuple[str, ...] = ()


class Notifier:
    """`addresses(player_id) -> e-mail | None` finds a player's address (the players' store).
    `enqueue(delivery_id)` schedules `deliver` in the background (set by the app or worker)."""

    def __init__(self, db: SqlDb, addresses: Callable[[str], str | None], *, smtp_url: str | None = None,
                 mail_from: str = "Warlog <warlog@localhost>", now: Clock = utc_now,
                 enqueue: Callable[[str], None] | None = None, max_attempts: int = MAX_ATTEMPTS,
                 first_backoff: timedelta = FIRST_BACKOFF, allow_private_webhooks: bool = False,
                 many_addresses: Callable[[list[str]], dict[str, str]] | None = None) -> None:
        self.db, self.addresses, self.now = db, addresses, now
        self.many_addresses = many_addresses or (lambda ids: {i: a for i in ids if (a := addresses(i))})
        self.smtp = SmtpConfig.from_url(smtp_url) if smtp_url else None
        self.mail_from = mail_from
        self.enqueue = enqueue or (lambda delivery_id: None)
        # `lost(delivery_ids)`: those whose job is neither waiting nor running (set with an RQ
        # `enqueue`, warlog.notify.jobs); None: only STUCK_AFTER finds a lost job
        self.lost: Callable[[list[str]], list[str]] | None = None
        self.max_attempts, self.first_backoff = max_attempts, first_backoff
        self.allow_private_webhooks = allow_private_webhooks
        # a delivery's own message (a turn mail with its board and reply address: warlog.mailin), or None
        self.compose: Callable[[Delivery], EmailMessage | None] | None = None
        # a text as a webhook may carry it (a turn mail's reply address is for the player's mailbox only)
        self.private_text: Callable[[str], str] | None = None

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    # -- recording -----------------------------------------------------------------------
    def notify(self, player_id: str, kind: str, subject: Words | str, text: Words | str, *, game_id: str | None = None,
               tournament_id: str | None = None, link: str | None = None) -> list[str]:
        """Record one delivery per channel the player wants for `kind` and enqueue each; return
        their ids. A digest reader's mail waits for the digest. Never raises for delivery trouble."""
        return self.notify_many([{"player_id": player_id, "kind": kind, "subject": subject, "text": text,
                                  "game_id": game_id, "tournament_id": tournament_id, "link": link}])

    def notify_many(self, notices: list[dict[str, Any]]) -> list[str]:
        """`notify` for many notices (dicts of its arguments), recorded in one transaction."""
        rows: list[tuple[Any, ...]] = []
        now = iso(self.now())
        for n in notices:
            if n["kind"] not in KINDS:
                raise ValueError(f"unknown notification kind {n['kind']!r}; one of {', '.join(KINDS)}")
        ids = sorted({n["player_id"] for n in notices})
        all_prefs, all_addresses = self.prefs_many(ids), self.many_addresses(ids)
        languages: dict[str, str | None] = {}  # a notice's Words are said in its player's language
        for n in notices:
            if isinstance(n["subject"], Words) or isinstance(n["text"], Words):
                pid = n["player_id"]
                if pid not in languages:
                    languages[pid] = stored_language(self.db, pid)
                n = {**n, "subject": say(n["subject"], languages[pid]), "text": say(n["text"], languages[pid])}
            prefs = all_prefs.get(n["player_id"], Prefs())
            if n["kind"] in prefs.muted_kinds or (n.get("tournament_id") and n["tournament_id"] in prefs.muted_tournaments):
                continue
            address = all_addresses.get(n["player_id"])
            channels = []
            if prefs.email_on and address:
                channels.append(("email", address, "digest" if prefs.digest else "queued"))
            if prefs.webhook_url:
                channels.append(("webhook", prefs.webhook_url, "queued"))
            for channel, addr, status in channels:
                rows.append((sortable_id("d"), n["player_id"], channel, addr, n["kind"], n["subject"], n["text"],
                             n.get("game_id"), n.get("tournament_id"), n.get("link"), status, now, now))
        if rows:
            with self.db.transaction() as tx:
                tx.executemany(_INSERT, rows)
        for row in rows:
            if row[10] == "queued":
                self._enqueue(row[0])
        return [row[0] for row in rows]

    def send_mail(self, address: str, subject: str, text: str, *, kind: str = "signin") -> str:
        """A mail to a bare address (a sign-in link): recorded and sent like any delivery."""
        delivery_id = self._record(None, "email", address, kind, subject, text, None, None, None, "queued")
        self._enqueue(delivery_id)
        return delivery_id

    def _record(self, player_id: str | None, channel: str, address: str, kind: str, subject: str, body: str,
                game_id: str | None, tournament_id: str | None, link: str | None, status: str) -> str:
        delivery_id = sortable_id("d")
        now = iso(self.now())
        self.db.execute(_INSERT, (delivery_id, player_id, channel, address, kind, subject, body, game_id,
                                  tournament_id, link, status, now, now))
        return delivery_id

    def _enqueue(self, delivery_id: str) -> None:
        try:
            self.enqueue(delivery_id)
        except Exception:  # the row is there: the sweep will enqueue it again
            log.exception("could not enqueue delivery %s; the sweep will", delivery_id)

    # -- sending -------------------------------------------------------------------------
    def deliver(self, delivery_id: str) -> str:
        """One attempt at a delivery that is due; returns its status afterwards."""
        d = self.get(delivery_id)
        if d is None:
            raise KeyError(f"no delivery {delivery_id}")
        if d.status not in ("queued", "retrying"):
            return d.status  # already sent (a job run twice), failed for good, or waiting for a digest
        try:
            self._send(d)
        except DeliveryError as err:
            return self._failed_attempt(d, str(err))
        except Exception as err:  # a bug must not lose the delivery either
            log.exception("delivery %s: unexpected error", d.id)
            return self._failed_attempt(d, f"internal error: {type(err).__name__}: {err}")
        # a sign-in mail's text holds a live link: once sent it is not kept (links are stored hashed)
        self.db.execute("UPDATE notify_deliveries SET status = 'sent', attempts = attempts + 1, sent_at = ?, "
                        "last_error = NULL, body = CASE WHEN kind = 'signin' THEN ? ELSE body END "
                        "WHERE id = ? AND status IN ('queued', 'retrying')", (iso(self.now()), SCRUBBED, d.id))
        return "sent"

    def _send(self, d: Delivery) -> None:
        if d.channel == "email":
            body = d.body + (f"\n{d.link}\n" if d.link else "")
            if self.smtp is None:
                self.db.execute("INSERT INTO notify_outbox (id, delivery_id, to_addr, subject, body, created_at) "
                                "VALUES (?, ?, ?, ?, ?, ?)", (sortable_id("o"), d.id, d.address,
                                                              d.subject, body, iso(self.now())))
            else:
                msg = (self.compose(d) if self.compose else None) or mail_message(self.mail_from, d.address,
                                                                                  d.subject, body)
                for header, value in (("X-Warlog-Game", d.game_id), ("X-Warlog-Tournament", d.tournament_id)):
                    if value and header not in msg:  # a mail filter's handle (warlog.notify.naming)
                        msg[header] = header_text(value)
                send_smtp(self.smtp, msg)
        elif d.channel == "webhook":
            prefs = self.prefs(d.player_id) if d.player_id else Prefs()
            if not prefs.webhook_secret:
                raise DeliveryError("the player's webhook has no secret any more (removed?)")
            text = self.private_text(d.body) if self.private_text else d.body
            doc = {"id": d.id, "kind": d.kind, "subject": d.subject, "text": text, "link": d.link,
                   "game_id": d.game_id, "tournament_id": d.tournament_id, "player_id": d.player_id,
                   "created_at": d.created_at}
            post_webhook(d.address, prefs.webhook_secret, webhook_body(prefs.webhook_format, doc),
                         allow_private=self.allow_private_webhooks)
        else:
            raise DeliveryError(f"unknown channel {d.channel!r}")

    def _failed_attempt(self, d: Delivery, error: str) -> str:
        attempts = d.attempts + 1
        if attempts >= self.max_attempts:
            status, due = "failed", self.now()
        else:
            status, due = "retrying", self.now() + self.first_backoff * (2 ** (attempts - 1))
        self.db.execute("UPDATE notify_deliveries SET status = ?, attempts = ?, last_error = ?, next_attempt_at = ? "
                        "WHERE id = ?", (status, attempts, error[:1000], iso(due), d.id))
        where = d.address if d.channel == "email" else (urlsplit(d.address).hostname or "?")  # a hook's path may be its key
        log.warning("delivery %s (%s to %s) attempt %d failed: %s", d.id, d.channel, where, attempts, error)
        metrics.count_mail_failure(d.channel)
        return status

    def retry(self, delivery_id: str) -> None:
        """A director's 'try again' on a failed delivery: it gets a fresh set of attempts."""
        self.db.execute("UPDATE notify_deliveries SET status = 'queued', attempts = 0, next_attempt_at = ? "
                        "WHERE id = ? AND status IN ('failed', 'retrying')", (iso(self.now()), delivery_id))
        self._enqueue(delivery_id)

    # -- the periodic sweep ----------------------------------------------------------------
    def sweep(self) -> int:
        """Enqueue every retry that is due and every queued row whose job was lost; send digests.
        Returns how many deliveries were enqueued. A queued row's job counts as lost after
        STUCK_AFTER, or after LOST_AFTER when the queue can tell (`lost`) that it is not there:
        a "your turn" mail whose job went missing goes out within a sweep, not minutes later."""
        now = self.now()
        stuck_before = iso(now - STUCK_AFTER)
        rows = self.db.rows("SELECT id, status, next_attempt_at FROM notify_deliveries WHERE (status = 'retrying' AND "
                            "next_attempt_at <= ?) OR (status = 'queued' AND next_attempt_at <= ?) ORDER BY next_attempt_at",
                            (iso(now), iso(now - (LOST_AFTER if self.lost is not None else STUCK_AFTER))))
        due = [d for d, status, at in rows if status == "retrying" or at <= stuck_before]
        young = [d for d, status, at in rows if status == "queued" and at > stuck_before]
        if young and self.lost is not None:
            try:
                missing = self.lost(young)
            except Exception as err:  # the queue is unreachable: STUCK_AFTER still finds them
                log.warning("could not look for lost notification jobs: %s", err)
                missing = []
            if missing:
                log.warning("re-enqueued %d notification(s) whose job was lost: %s", len(missing), ", ".join(missing))
            due += missing
        for delivery_id in due:
            self._enqueue(delivery_id)
        self.db.execute("UPDATE notify_deliveries SET body = ? WHERE kind = 'signin' AND created_at < ? AND body <> ?",
                        (SCRUBBED, iso(now - timedelta(hours=2)), SCRUBBED))  # its link has expired anyway
        return len(due) + self.send_digests()

    def send_digests(self) -> int:
        """One mail per player whose oldest waiting digest item is a day old, with every item."""
        cutoff = iso(self.now() - DIGEST_EVERY)
        players = [r[0] for r in self.db.rows(
            "SELECT player_id FROM notify_deliveries WHERE status = 'digest' GROUP BY player_id "
            "HAVING MIN(created_at) <= ?", (cutoff,))]
        for player_id in players:
            with self.db.transaction() as tx:
                items = tx.rows(f"SELECT {_COLUMNS} FROM notify_deliveries WHERE status = 'digest' AND player_id = ? "
                                "ORDER BY created_at, id", (player_id,))
                if not items:
                    continue
                batch = [Delivery(*r) for r in items]
                text = "\n\n".join(f"* {d.created_at} — {d.subject}\n{d.body}" + (f"\n{d.link}" if d.link else "")
                                   for d in batch)
                digest_id = sortable_id("d")
                now = iso(self.now())
                tx.execute(f"INSERT INTO notify_deliveries ({_COLUMNS}) VALUES "
                           "(?, ?, 'email', ?, 'digest', ?, ?, NULL, NULL, NULL, 'queued', 0, NULL, ?, ?, NULL)",
                           (digest_id, player_id, batch[0].address, f"Warlog digest: {len(batch)} notification(s)",
                            text, now, now))
                marks = ", ".join("?" for _ in batch)
                tx.execute(f"UPDATE notify_deliveries SET status = 'digested', digest_id = ? WHERE id IN ({marks})",
                           [digest_id, *[d.id for d in batch]])
            self._enqueue(digest_id)
        return len(players)

    # -- reading -------------------------------------------------------------------------
    def get(self, delivery_id: str) -> Delivery | None:
        row = self.db.one(f"SELECT {_COLUMNS} FROM notify_deliveries WHERE id = ?", (delivery_id,))
        return Delivery(*row) if row else None

    def failed(self, tournament_id: str | None = None) -> list[Delivery]:
        """Deliveries whose last attempt failed (`retrying`: will try again; `failed`: gave up),
        of one tournament or of all; newest first."""
        rows = self.db.rows(f"SELECT {_COLUMNS} FROM notify_deliveries WHERE status IN ('failed', 'retrying') "
                            "AND (CAST(? AS TEXT) IS NULL OR tournament_id = ?) ORDER BY created_at DESC, id",
                            (tournament_id, tournament_id))
        found = [Delivery(*r) for r in rows]
        return [replace(d, body=SCRUBBED) if d.kind == "signin" else d for d in found]  # nobody reads others' links

    def deliveries(self, player_id: str | None = None, limit: int = 200) -> list[Delivery]:
        rows = self.db.rows(f"SELECT {_COLUMNS} FROM notify_deliveries WHERE (CAST(? AS TEXT) IS NULL OR "
                            "player_id = ?) ORDER BY created_at DESC, id LIMIT ?", (player_id, player_id, limit))
        return [Delivery(*r) for r in rows]

    def outbox(self, limit: int = 100, to: str | None = None) -> list[dict[str, str]]:
        """The embedded default's mail, newest first."""
        rows = self.db.rows("SELECT id, delivery_id, to_addr, subject, body, created_at FROM notify_outbox "
                            "WHERE (CAST(? AS TEXT) IS NULL OR to_addr = ?) ORDER BY created_at DESC, id DESC LIMIT ?",
                            (to, to, limit))
        return [dict(zip(("id", "delivery_id", "to", "subject", "body", "created_at"), r)) for r in rows]

    # -- preferences ---------------------------------------------------------------------
    def prefs(self, player_id: str) -> Prefs:
        return self.prefs_many([player_id]).get(player_id, Prefs())

    def prefs_many(self, player_ids: list[str]) -> dict[str, Prefs]:
        """The players' preferences that differ from the default (absent: the default)."""
        ids, out = sorted(set(player_ids)), {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            for r in self.db.rows("SELECT player_id, email_on, digest, webhook_url, webhook_secret, webhook_format, "
                                  f"muted_kinds, muted_tournaments FROM notify_prefs WHERE player_id IN ({marks})",
                                  chunk):
                out[r[0]] = Prefs(bool(r[1]), bool(r[2]), r[3], r[4], r[5], tuple(json.loads(r[6])),
                                  tuple(json.loads(r[7])))
        return out

    def set_prefs(self, player_id: str, *, email_on: bool = True, digest: bool = False,
                  webhook_url: str | None = None, webhook_format: str = "json",
                  muted_kinds: tuple[str, ...] = (), muted_tournaments: tuple[str, ...] | None = None) -> Prefs:
        """Replace a player's preferences (the muted tournaments are kept unless given). A new
        webhook URL gets a new signing secret."""
        if webhook_format not in ("json", "discord"):
            raise ValueError("the webhook format is 'json' or 'discord'")
        unknown = [k for k in muted_kinds if k not in KINDS]
        if unknown:
            raise ValueError(f"unknown notification kinds: {', '.join(unknown)}")
        old = self.prefs(player_id)
        url = (webhook_url or "").strip() or None
        if url and not url.startswith(("http://", "https://")):
            raise ValueError("a webhook URL starts with http:// or https://")
        if url and url != old.webhook_url:
            try:  # checked when saved too, not only at each delivery
                check_webhook_url(url, self.allow_private_webhooks)
            except DeliveryError as err:
                raise ValueError(str(err)) from None
        tournaments = old.muted_tournaments if muted_tournaments is None else muted_tournaments
        secret = old.webhook_secret if url and url == old.webhook_url else (secrets.token_hex(24) if url else None)
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM notify_prefs WHERE player_id = ?", (player_id,))
            tx.execute("INSERT INTO notify_prefs (player_id, email_on, digest, webhook_url, webhook_secret, "
                       "webhook_format, muted_kinds, muted_tournaments, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (player_id, int(email_on), int(digest), url, secret, webhook_format,
                        json.dumps(sorted(set(muted_kinds))), json.dumps(sorted(set(tournaments))), iso(self.now())))
        return self.prefs(player_id)

    def mute_tournament(self, player_id: str, tournament_id: str, muted: bool = True) -> Prefs:
        """A player's notifications about one tournament off (or on again); the rest unchanged."""
        old = self.prefs(player_id)
        tournaments = set(old.muted_tournaments) | {tournament_id} if muted else set(old.muted_tournaments) - {
            tournament_id}
        return self.set_prefs(player_id, email_on=old.email_on, digest=old.digest, webhook_url=old.webhook_url,
                              webhook_format=old.webhook_format, muted_kinds=old.muted_kinds,
                              muted_tournaments=tuple(tournaments))
