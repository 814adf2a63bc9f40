"""Players, notifications and deadlines: the services the web app (warlog.extensions) and the RQ
worker build alike, with no web code.

The same objects are built in both places from the same settings (`Settings.from_env` in the
worker, the app's config in the web process):

* WARLOG_SMTP_URL — smtp://host:port (or smtps://, ?starttls=1); unset: mail goes to the outbox
  table, shown at /outbox (the embedded default);
* WARLOG_MAIL_FROM — the sender address;
* WARLOG_PUBLIC_URL — the site's address, for links in mails (set it in a deployment);
* WARLOG_WEBHOOK_ALLOW_PRIVATE — allow webhooks to loopback/private addresses (tests, a LAN);
* WARLOG_MAIL_IN_ADDRESS — play by mail (warlog.mailin): the inbound address, e.g.
  play@warlog.example; turn mails then show the position and codes, replies go to
  play+<token>@warlog.example (signed with the key of WARLOG_LOG_KEY); WARLOG_MAIL_BOARD=0 leaves
  the board's picture out.

In the embedded default (no Redis) deliveries run on their own background thread (never the
resolver's) and a periodic thread sweeps for due retries; with RQ they are `warlog.notify.jobs`
jobs and the worker sweeps (worker.py).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ledger.store import EventStore
from warlog.clock.clock import GameClock
from warlog.clock.leave import AwayBook, store_appender
from warlog.judging.outage import Outage, closed, is_outage
from warlog.notify.hooks import TurnNotices
from warlog.notify.notifier import Notifier
from warlog.ops.sqldb import SqlDb
from warlog.players.store import PlayerStore

log = logging.getLogger("warlog.services")
SWEEP_INTERVAL = 30.0
DEFAULT_URL = "http://127.0.0.1:5000"


@dataclass(frozen=True)
class Settings:
    smtp_url: str | None = None
    mail_from: str = "Warlog <warlog@localhost>"
    public_url: str | None = None
    allow_private_webhooks: bool = False
    mail_in_address: str | None = None
    mail_board: bool = True
    log_key: str | None = None  # the server's signing key (reply tokens' HMAC key is derived from it)
    db_url: str | None = None  # where the embedded default keeps that key
    signin_every: float = 5.0  # minutes (WARLOG_SIGNIN_EVERY)

    @classmethod
    def from_mapping(cls, conf: Mapping[str, Any]) -> Settings:
        def get(name: str) -> Any:
            return conf.get("WARLOG_" + name, conf.get(name))

        return cls(smtp_url=get("SMTP_URL") or None, mail_from=get("MAIL_FROM") or cls.mail_from,
                   public_url=get("PUBLIC_URL") or None,
                   allow_private_webhooks=str(get("WEBHOOK_ALLOW_PRIVATE") or "").lower() in ("1", "true", "yes"),
                   mail_in_address=get("MAIL_IN_ADDRESS") or None,
                   mail_board=str(get("MAIL_BOARD") if get("MAIL_BOARD") is not None else "1").lower()
                   not in ("0", "false", "no"),
                   log_key=get("LOG_KEY") or None, db_url=str(get("DB")) if get("DB") else None,
                   signin_every=float(get("SIGNIN_EVERY") if get("SIGNIN_EVERY") not in (None, "") else 5.0))

    @classmethod
    def from_env(cls) -> Settings:
        return cls.from_mapping(os.environ)


@dataclass
class Services:
    db: SqlDb
    players: PlayerStore
    notifier: Notifier
    clock: GameClock
    away: AwayBook
    mail: Any = None  # warlog.mailin.play.MailPlay when players may play by mail

    def on_judged(self, store: EventStore, base_url: Callable[[], str]) -> Callable[[Any], None]:
        """The resolver's hook: the clocks move first, then the players are told (with their deadline)."""
        notices = TurnNotices(store, self.players, self.notifier, base_url,
                              deadline_of=self.clock.deadline_json,
                              turn_mail=self.mail.turn_body if self.mail is not None else None)

        def run(judged: Any) -> None:
            for hook in (self.clock.on_judged, notices):
                try:
                    hook(judged)
                except Exception:
                    log.exception("game %s: %s failed after event %s", judged.game_id, hook, judged.seq)

        return run

    def periodic(self) -> list[tuple[str, Callable[[], object]]]:
        return [("notifications", self.notifier.sweep), ("deadlines", self.clock.sweep), ("leave", self.away.sweep),
                ("expired sign-ins", self.players.purge)]


def build(store: EventStore, settings: Settings, base_url: Callable[[], str] | None = None) -> Services:
    """The services on `store`'s database, their tables created if missing. `base_url()` is the
    site's address for links in mails (default: the settings' public URL)."""
    if base_url is None:
        base_url = lambda: settings.public_url or DEFAULT_URL  # noqa: E731
    db = SqlDb(store)
    players = PlayerStore(db, signin_every=timedelta(minutes=settings.signin_every))
    players.create_schema()

    def address(player_id: str) -> str | None:
        player = players.get(player_id)
        return player.email if player else None

    def addresses(player_ids: list[str]) -> dict[str, str]:
        return {pid: p.email for pid, p in players.many(player_ids).items()}

    notifier = Notifier(db, address, smtp_url=settings.smtp_url, mail_from=settings.mail_from,
                        allow_private_webhooks=settings.allow_private_webhooks, many_addresses=addresses)
    notifier.create_schema()
    clock = GameClock(db, store, owners=players.owners_of, notify=notifier.notify_many,
                      base_url=base_url)
    clock.create_schema()
    away = AwayBook(clock, players, store_appender(store), notify=notifier.notify_many, base_url=base_url)
    away.create_schema()
    away.install()  # the clocks skip leave, pauses and quiet days
    return Services(db, players, notifier, clock, away,
                    _mail_play(settings, db, store, players, notifier, base_url))


def _mail_play(settings: Settings, db: SqlDb, store: EventStore, players: PlayerStore, notifier: Notifier,
               base_url: Callable[[], str]) -> Any:
    """Play by mail (warlog.mailin), when an inbound address is configured."""
    if not settings.mail_in_address:
        return None
    from warlog.mailin.play import MailPlay, rich_sender
    from warlog.mailin.tokens import Signer, derive_key

    key = derive_key({"WARLOG_LOG_KEY": settings.log_key, "WARLOG_DB": settings.db_url})
    play = MailPlay(db, store, players, notifier, Signer(key), settings.mail_in_address, base_url,
                    board=settings.mail_board)
    notifier.compose = rich_sender(play, settings.mail_from)
    notifier.private_text = play.without_reply_address
    return play


def start_periodic(tasks: list[tuple[str, Callable[[], object]]], interval: float,
                   stop: threading.Event | None = None) -> threading.Event:
    """Run each task now and every `interval` seconds in a daemon thread until `stop` (made if
    None) is set; return it."""
    stop = stop or threading.Event()
    services_down = Outage("the ledger or Redis (periodic tasks)", log)

    def loop() -> None:
        while not stop.is_set():
            for name, task in tasks:
                try:
                    task()
                    services_down.up()
                except Exception as err:
                    if stop.is_set() or closed(err):
                        return  # shutting down (the app closed its store)
                    if is_outage(err):  # one line per outage, not a traceback per sweep
                        services_down.down(err, "notifications and deadlines wait for it")
                    else:
                        log.exception("periodic %s failed", name)
            if stop.wait(interval):
                return

    threading.Thread(target=loop, name="warlog-periodic", daemon=True).start()
    return stop
