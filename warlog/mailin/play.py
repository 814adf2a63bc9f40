"""Playing by mail: the turn mail's reply address and codes, the rich message it goes out as,
and the judgement of every reply (warlog.mailin.processor).

`MailPlay` is built beside the notifier when an inbound address is configured
(WARLOG_MAIL_IN_ADDRESS, e.g. `play@warlog.example`): a reply address is then
`play+<token>@warlog.example` (warlog.mailin.tokens).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from ledger.store import EventStore
from warlog.catalogs import stored_language
from warlog.config import ConfigError
from warlog.games.service import Warlog
from warlog.mailin import position as pos
from warlog.mailin.store import MailStore, TokenRow
from warlog.mailin.tokens import Signer
from warlog.notify.notifier import Delivery, Notifier
from warlog.notify.transports import mail_message
from warlog.ops.sqldb import SqlDb
from warlog.players.store import PlayerStore

log = logging.getLogger("warlog.mailin")
RICH_KINDS = ("your_turn", "mail_answer")


class MailPlay:
    def __init__(self, db: SqlDb, store: EventStore, players: PlayerStore, notifier: Notifier, signer: Signer,
                 address: str, base_url: Callable[[], str], *, board: bool = True,
                 service: Warlog | None = None) -> None:
        local, _, dom = address.strip().partition("@")
        if not local or not dom or "+" in local:
            raise ConfigError(f"WARLOG_MAIL_IN_ADDRESS must be like play@warlog.example, not {address!r}")
        self.local, self.domain = local, dom
        self.db, self.store, self.players, self.notifier, self.signer = db, store, players, notifier, signer
        self.mail = MailStore(db)
        self.mail.create_schema()
        self.base_url, self.board = base_url, board
        self.service = service or Warlog(store, lambda game_id: None)  # reads only, unless given the real one
        self._address = re.compile(rf"\b{re.escape(local)}\+([a-z2-7]{{32}})@{re.escape(dom)}\b", re.IGNORECASE)

    # -- reply addresses -------------------------------------------------------------------
    def reply_address(self, token: str) -> str:
        return f"{self.local}+{token}@{self.domain}"

    def link(self, game_id: str) -> str:
        return f"{self.base_url().rstrip('/')}/games/{game_id}"

    def position_body(self, game_id: str, seat: str, player_id: str, intro: list[str]) -> str:
        """A mail's text showing the seat's position now; with codes and a fresh reply address
        when the seat is to move and plays this game by mail."""
        mode = self.mail.mode(player_id, game_id)
        lang = self.language(player_id)
        p = pos.position(self.service, game_id, seat, lang)
        content = p.content()
        reply_to = None
        if p.to_move and mode != "page":
            nonce, token = self.signer.new(game_id, seat, p.at_seq, player_id)
            self.mail.add_token(nonce, game_id, seat, player_id, p.at_seq, p.codes, content)
            reply_to = self.reply_address(token)
        link = None if mode == "mail" else self.link(game_id)
        return pos.text(intro, content, p.codes if reply_to else [], reply_to, link, lang)

    def language(self, player_id: str | None) -> str | None:
        """The language a player chose (their mails are in it); None: English."""
        return stored_language(self.db, player_id) if player_id else None

    def turn_body(self, game_id: str, seat: str, player_id: str, intro: str) -> str | None:
        """TurnNotices' hook: the "your turn" mail's text for a player who plays by mail (None:
        the plain notice, for one who plays on the page)."""
        if self.mail.mode(player_id, game_id) == "page":
            return None
        return self.position_body(game_id, seat, player_id, [intro])

    # -- the message a delivery goes out as ------------------------------------------------
    def token_in(self, body: str) -> tuple[str, TokenRow] | None:
        m = self._address.search(body)
        if m is None:
            return None
        token = m.group(1).lower()
        row = self.mail.token(token[:16])
        if row is None or not self.signer.check(token, row.game_id, row.seat, row.at_seq, row.player_id):
            return None
        return token, row

    def compose(self, d: Delivery, sender: str) -> EmailMessage | None:
        """The notifier's hook: a turn mail or an answer that shows a position goes out as
        multipart/alternative (the plain text; HTML with the board as an inline PNG), with the
        reply address as Reply-To. None: an ordinary mail."""
        if d.channel != "email" or d.kind not in RICH_KINDS:
            return None
        found = self.token_in(d.body)
        if found is None:
            if d.kind != "mail_answer":
                return None
            plain = mail_message(sender, d.address, d.subject, d.body)
            plain["Auto-Submitted"] = "auto-replied"  # RFC 3834: an answer no robot should answer
            return plain
        token, row = found
        intro = d.body.split("\n\n", 1)[0].splitlines() if d.body else []
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, d.address, d.subject
        msg["Reply-To"] = self.reply_address(token)
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid(domain=self.domain)
        if d.kind == "mail_answer":
            msg["Auto-Submitted"] = "auto-replied"
        msg.set_content(d.body + (f"\n{d.link}\n" if d.link else ""))
        png = None
        if self.board:
            try:
                png = pos.board_png(self.service, row.game_id, row.seat, row.at_seq, self.language(row.player_id))
            except Exception:  # the mail goes without its picture rather than not at all
                log.exception("game %s: could not draw the board for %s", row.game_id, row.seat)
        cid = make_msgid(domain=self.domain)[1:-1] if png else None
        link = None if self.mail.mode(row.player_id, row.game_id) == "mail" else self.link(row.game_id)
        msg.add_alternative(pos.html(intro, row.content, row.codes, self.reply_address(token), link, cid,
                                     self.language(row.player_id)), subtype="html")
        if png is not None:
            html_part = msg.get_payload()[1]
            assert isinstance(html_part, EmailMessage)
            html_part.add_related(png, "image", "png", cid=f"<{cid}>", filename=f"board-{row.at_seq}.png",
                                  disposition="inline")
        return msg

    def without_reply_address(self, text: str) -> str:
        """`text` with its reply addresses hidden (a webhook may post it where others read it)."""
        return self._address.sub("(the reply address of your turn mail)", text)

    def answer(self, address: str, subject: str, body: str, game_id: str | None) -> str:
        """Record an answer mail to `address` (sent in the background like any delivery)."""
        return self.notifier.send_mail(address, subject, body, kind="mail_answer")


def rich_sender(play: MailPlay, sender: str) -> Callable[[Delivery], Any]:
    return lambda d: play.compose(d, sender)
