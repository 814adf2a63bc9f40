"""Messages between the seats of a game, and to its director, private to their recipients.

Committed, not published: a message's text and a random salt are kept in the `game_messages`
table; the game's ledger records only that it was sent — `message_sent` with the sender's seat,
the recipients (`to`: seats, or "director") and `digest` = SHA-256 of the canonical JSON of
{"message": id, "salt": salt, "text": text}. The salt makes the digest useless for guessing a
short text (as a blind does for a secret move, docs/ledger.md), so the public ledger and its
export say who wrote to whom and when, and nothing of what; whoever is shown a message can check
it against the ledger (`digest_of`).

Who reads a message: its sender and its recipients; the director when it was addressed to them,
when a recipient reported it (`message_reported`), or, every message of the game, once a dispute
is raised in the game (the director rules on the record). Nobody else — not spectators, not the
players of another game, not a player after the fact.

Plain text only (control characters but line breaks and tabs removed; every page escapes it),
at most TEXT_MAX characters, at most PER_HOUR messages per seat and game in any hour. A seat may
mute a game's messages: none is mailed to it, and the board folds them away.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ledger.canonical import canonical_bytes, sha256_hex
from ledger.events import DIRECTOR, MESSAGE_REPORTED, MESSAGE_SENT, NewEvent
from warlog.catalogs import Words, words
from warlog.games.service import Forbidden, NotFound, ServiceError, Unprocessable
from warlog.ops.sqldb import Ddl, SqlDb, iso, sortable_id

TEXT_MAX = 1000
REASON_MAX = 500
PER_HOUR = 12

_TABLES = """
CREATE TABLE IF NOT EXISTS game_messages (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seq INTEGER,
    sender TEXT NOT NULL,
    recipients TEXT NOT NULL,
    text TEXT NOT NULL,
    salt TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    reported_at TEXT,
    reported_by TEXT,
    report_reason TEXT
);
CREATE INDEX IF NOT EXISTS game_messages_game ON game_messages (game_id, sent_at);
CREATE TABLE IF NOT EXISTS game_message_mutes (
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    muted_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""
DDL = Ddl("messages", sqlite=_TABLES, postgresql=_TABLES)
_COLUMNS = "id, game_id, seq, sender, recipients, text, salt, sent_at, reported_at, reported_by, report_reason"


class TooMany(ServiceError):
    """More messages than the hour allows (HTTP 429)."""

    status = 429


@dataclass(frozen=True)
class Message:
    id: str
    game_id: str
    seq: int | None
    sender: str
    to: tuple[str, ...]
    text: str
    salt: str
    sent_at: str
    reported_at: str | None = None
    reported_by: str | None = None
    report_reason: str | None = None

    @classmethod
    def of_row(cls, row: tuple[Any, ...]) -> Message:
        r = list(row)
        r[4] = tuple(json.loads(r[4]))
        return cls(*r)

    @property
    def digest(self) -> str:
        return digest_of(self.id, self.salt, self.text)

    def to_json(self, reader: str) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "seq": self.seq, "from": self.sender, "to": list(self.to), "text": self.text,
               "sent_at": self.sent_at, "salt": self.salt, "digest": self.digest}
        if self.reported_at is not None and reader in (DIRECTOR, self.reported_by):
            doc["reported"] = {"by": self.reported_by, "at": self.reported_at, "reason": self.report_reason}
        return doc


def digest_of(message_id: str, salt: str, text: str) -> str:
    """What a `message_sent` event commits to."""
    return sha256_hex(canonical_bytes({"message": message_id, "salt": salt, "text": text}))


def plain(text: Any, limit: int, what: str) -> str:
    """The text as a message keeps it: a string, control characters (but line breaks and tabs)
    removed, stripped, 1 to `limit` characters; Unprocessable (422) otherwise."""
    if not isinstance(text, str):
        raise Unprocessable(f"{what} is text", fields={"text": ["a string"]})
    kept = "".join(c for c in text.replace("\r\n", "\n") if c in "\n\t" or unicodedata.category(c)[0] != "C").strip()
    if not kept:
        raise Unprocessable(f"{what} is empty", fields={"text": [f"1 to {limit} characters"]})
    if len(kept) > limit:
        raise Unprocessable(f"{what} is {len(kept)} characters; at most {limit}",
                            fields={"text": [f"1 to {limit} characters"]})
    return kept


Append = Callable[[str, NewEvent], int]
Tell = Callable[[list[dict[str, Any]]], Any]


class MessageBook:
    """The messages of every game, on the players' database; events through `append`."""

    def __init__(self, db: SqlDb, append: Append, now: Callable[[], datetime], *, roles: Callable[[str], list[str]],
                 owners: Callable[[str], dict[str, str]], notify: Tell | None = None,
                 base_url: Callable[[], str] = lambda: "",
                 titled: Callable[[str], Words] = lambda game_id: words("game %(id)s", id=game_id),
                 named: Callable[[str], Words] = lambda game_id: words("game %(id)s", id=game_id)) -> None:
        self.db, self.append, self.now = db, append, now
        self.roles, self.owners, self.notify, self.base_url = roles, owners, notify, base_url
        self.titled = titled  # a game by its titles, for a mail's subject (warlog.notify.naming)
        self.named = named  # by its titles and its id, for a mail's text

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    # -- sending ----------------------------------------------------------------------------------
    def send(self, game_id: str, seat: str, to: Any, text: Any, directors: list[str] | None = None) -> Message:
        """Seat `seat` writes `text` to `to` ("opponents": every other seat; or a list of seats
        and/or "director"). `directors`: the player ids to mail a message to the director."""
        roles = self.roles(game_id)
        if seat not in roles:
            raise Forbidden("only a seat of the game sends its messages")
        recipients = self._recipients(roles, seat, to)
        body = plain(text, TEXT_MAX, "a message")
        now = self.now()
        sent = self.db.one("SELECT COUNT(*) FROM game_messages WHERE game_id = ? AND sender = ? AND sent_at > ?",
                           (game_id, seat, iso(now - timedelta(hours=1))))
        if sent is not None and int(sent[0]) >= PER_HOUR:
            raise TooMany(f"at most {PER_HOUR} messages an hour from one seat of a game; wait a while")
        msg = Message(sortable_id("m"), game_id, None, seat, recipients, body, secrets.token_hex(16), iso(now))
        self.db.execute(f"INSERT INTO game_messages ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)",
                        (msg.id, game_id, None, seat, json.dumps(list(recipients)), body, msg.salt, msg.sent_at))
        seq = self.append(game_id, NewEvent(MESSAGE_SENT, seat, {"message": msg.id, "to": list(recipients),
                                                                 "digest": msg.digest}))
        self.db.execute("UPDATE game_messages SET seq = ? WHERE id = ?", (seq, msg.id))
        msg = Message(**{**msg.__dict__, "seq": seq})
        self._tell(msg, directors or [])
        return msg

    @staticmethod
    def _recipients(roles: list[str], seat: str, to: Any) -> tuple[str, ...]:
        if to in (None, "opponents"):
            out = [r for r in roles if r != seat]
        elif to == DIRECTOR:
            out = [DIRECTOR]
        elif isinstance(to, list) and to and all(isinstance(r, str) for r in to):
            out = list(dict.fromkeys(to))
        else:
            raise Unprocessable("'to' is \"opponents\", \"director\" or a list of seats",
                                fields={"to": ["opponents, director, or a list of seats"]})
        wrong = [r for r in out if r == seat or r not in (*roles, DIRECTOR)]
        if wrong or not out:
            raise Unprocessable(f"a message goes to the other seats ({', '.join(r for r in roles if r != seat)}) or "
                                f"the director; not to {', '.join(wrong) or 'nobody'}", fields={"to": ["other seats"]})
        return tuple(out)

    def _tell(self, msg: Message, directors: list[str]) -> None:
        if self.notify is None:
            return
        owners = self.owners(msg.game_id)
        muted = self.muted_seats(msg.game_id)
        link = f"{self.base_url()}/games/{msg.game_id}#messages"
        players = [owners[r] for r in msg.to if r in owners and r not in muted]
        if DIRECTOR in msg.to:
            players += directors
        text = (words("%(sender)s wrote to you in the %(game)s (plain text, as written):", sender=msg.sender,
                      game=self.named(msg.game_id)) + f"\n\n{msg.text}\n\n"
                + words("Answer or report it beside the board: %(link)s", link=link) + "\n"
                + words("(Mute this game's messages there to stop these mails.)"))
        self.notify([{"player_id": p, "kind": "message",
                      "subject": words("A message from %(sender)s in %(game)s", sender=msg.sender,
                                       game=self.titled(msg.game_id)) + f" [{msg.game_id}]",
                      "text": text, "game_id": msg.game_id, "tournament_id": None, "link": link}
                     for p in dict.fromkeys(players)])

    # -- reading ----------------------------------------------------------------------------------
    def all(self, game_id: str) -> list[Message]:
        return [Message.of_row(r) for r in self.db.rows(
            f"SELECT {_COLUMNS} FROM game_messages WHERE game_id = ? AND seq IS NOT NULL ORDER BY seq", (game_id,))]

    def readable(self, game_id: str, reader: str, disputed: bool = False) -> list[Message]:
        """The messages `reader` (a seat, or "director") may read, oldest first."""
        out = []
        for m in self.all(game_id):
            if reader == DIRECTOR:
                if disputed or DIRECTOR in m.to or m.reported_at is not None:
                    out.append(m)
            elif reader == m.sender or reader in m.to:
                out.append(m)
        return out

    def get(self, game_id: str, message_id: str) -> Message:
        row = self.db.one(f"SELECT {_COLUMNS} FROM game_messages WHERE id = ? AND game_id = ?", (message_id, game_id))
        if row is None:
            raise NotFound(f"game {game_id} has no message {message_id}")
        return Message.of_row(row)

    # -- reporting and muting ---------------------------------------------------------------------
    def report(self, game_id: str, seat: str, message_id: str, reason: Any, directors: list[str] | None = None) -> Message:
        """A recipient reports a message to the director (`message_reported`): the director may read
        it from then on, and is mailed it with the reason."""
        msg = self.get(game_id, message_id)
        if seat not in msg.to:
            raise NotFound(f"game {game_id} has no message {message_id} to {seat}")  # another's: as if absent
        why = plain(reason, REASON_MAX, "the reason") if reason not in (None, "") else "(no reason given)"
        if msg.reported_at is None:
            now = iso(self.now())
            if self.db.execute("UPDATE game_messages SET reported_at = ?, reported_by = ?, report_reason = ? "
                               "WHERE id = ? AND reported_at IS NULL", (now, seat, why, msg.id)) == 1:
                self.append(game_id, NewEvent(MESSAGE_REPORTED, seat, {"message": msg.id}))
                if self.notify is not None and directors:
                    link = f"{self.base_url()}/games/{game_id}#messages"
                    self.notify([{"player_id": p, "kind": "message",
                                  "subject": words("A message reported in %(game)s", game=self.titled(game_id))
                                  + f" [{game_id}]",
                                  "text": words("%(seat)s reports this message from %(sender)s in the %(game)s:",
                                                seat=seat, sender=msg.sender, game=self.named(game_id))
                                  + f"\n\n{msg.text}\n\n" + words("Their reason: %(why)s", why=why) + f"\n\n{link}",
                                  "game_id": game_id, "tournament_id": None, "link": link} for p in directors])
        return self.get(game_id, message_id)

    def muted_seats(self, game_id: str) -> set[str]:
        return {r[0] for r in self.db.rows("SELECT seat FROM game_message_mutes WHERE game_id = ?", (game_id,))}

    def mute(self, game_id: str, seat: str, muted: bool) -> bool:
        if seat not in self.roles(game_id):
            raise Forbidden("only a seat of the game mutes its messages")
        self.db.execute("DELETE FROM game_message_mutes WHERE game_id = ? AND seat = ?", (game_id, seat))
        if muted:
            self.db.execute("INSERT INTO game_message_mutes (game_id, seat, muted_at) VALUES (?, ?, ?)",
                            (game_id, seat, iso(self.now())))
        return muted
