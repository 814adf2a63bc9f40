"""Players: accounts, personal API tokens, sign-in links, browser sessions and seat ownership.

Every secret (API token, sign-in link, session cookie) is 192-bit random and stored only as
its SHA-256, so a copy of the database signs nobody in. A sign-in link works once and expires;
asking for one does the same work whether the address has an account or not (`signin_link`
always records one link; an address without an account gets a link that registers it).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from marshmallow import ValidationError
from marshmallow.validate import Email

from validators.names import NO_CONTROLS, control_character
from warlog.ops.sqldb import Clock, SqlDb, iso, sha256_hex, utc_now
from warlog.players.schema import DDL

TOKEN_PREFIX = "wp_"  # a player's API token, told apart at a glance from a game's seat token
NAME_MAX = 60
PLAYER_ID = "p[0-9a-f]{16}"  # what new_player ids look like ("p" and 8 random bytes in hex)
LINK_TTL = timedelta(hours=1)
SIGNIN_EVERY = timedelta(minutes=5)  # at most one sign-in mail per address this often
SESSION_TTL = timedelta(days=90)
_COLUMNS = "id, display_name, email"


class PlayerError(ValueError):
    """A refused player operation; `status` is the HTTP status it maps to."""

    status = 400


class InvalidPlayer(PlayerError):
    status = 422


class EmailTaken(PlayerError):
    status = 409


class LinkInvalid(PlayerError):
    """Unknown, used or expired: one message for all three, so a link's fate is not told."""

    status = 410

    def __init__(self) -> None:
        super().__init__("this sign-in link is not valid: it has been used, it has expired, or it was never "
                         "issued; ask for a new one")


class LinkThrottled(PlayerError):
    """An unused link was sent to this address within `signin_every`: none is made now, and the
    one sent stays valid (so asking again and again cannot lock the address's owner out)."""

    status = 202


class SeatTaken(PlayerError):
    status = 409


class UnknownPlayer(PlayerError):
    status = 404


@dataclass(frozen=True)
class Player:
    id: str
    display_name: str
    email: str

    def public(self) -> dict[str, Any]:
        """What anyone may see of a player: never the e-mail address."""
        return {"id": self.id, "display_name": self.display_name}


@dataclass(frozen=True)
class LinkInfo:
    """A sign-in link looked at without using it."""

    player: Player | None  # None: it registers a new account on use
    email: str
    display_name: str | None


def clean_name(name: Any) -> str:
    raw = str(name or "")
    found = control_character(raw)
    if found:
        raise InvalidPlayer(f"a display name {NO_CONTROLS} (found {found})")
    text = " ".join(raw.split())
    if not text:
        raise InvalidPlayer("a display name is needed")
    if len(text) > NAME_MAX:
        raise InvalidPlayer(f"a display name has at most {NAME_MAX} characters")
    return text


def clean_email(email: Any) -> str:
    text = str(email or "").strip()
    try:
        Email(error="not an e-mail address")(text)
    except ValidationError:
        raise InvalidPlayer(f"{text!r} is not an e-mail address") from None
    if len(text) > 254:
        raise InvalidPlayer("an e-mail address has at most 254 characters")
    return text


class PlayerStore:
    """The players' tables on the ledger's database (see warlog.players.schema)."""

    def __init__(self, db: SqlDb, now: Clock = utc_now, link_ttl: timedelta = LINK_TTL,
                 session_ttl: timedelta = SESSION_TTL, signin_every: timedelta = SIGNIN_EVERY) -> None:
        self.db, self.now = db, now
        self.link_ttl, self.session_ttl, self.signin_every = link_ttl, session_ttl, signin_every

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    # -- accounts ------------------------------------------------------------------------
    def register(self, display_name: str, email: str) -> Player:
        """A new player; EmailTaken if the address has an account (callers facing the public
        must not pass that on: see `signin_link`)."""
        name, address = clean_name(display_name), clean_email(email)
        player = Player("p" + secrets.token_hex(8), name, address)
        with self.db.transaction() as tx:
            if tx.one("SELECT 1 FROM players WHERE email_key = ?", (address.lower(),)):
                raise EmailTaken("that e-mail address already has an account")
            tx.execute("INSERT INTO players (id, display_name, email, email_key, created_at) VALUES (?, ?, ?, ?, ?)",
                       (player.id, name, address, address.lower(), iso(self.now())))
        return player

    def get(self, player_id: str) -> Player | None:
        row = self.db.one(f"SELECT {_COLUMNS} FROM players WHERE id = ?", (str(player_id),))
        return Player(*row) if row else None

    def by_email(self, email: str) -> Player | None:
        row = self.db.one(f"SELECT {_COLUMNS} FROM players WHERE email_key = ?", (str(email).strip().lower(),))
        return Player(*row) if row else None

    def many(self, player_ids: list[str]) -> dict[str, Player]:
        ids, out = sorted(set(player_ids)), {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            out.update({r[0]: Player(*r) for r in self.db.rows(f"SELECT {_COLUMNS} FROM players WHERE id IN ({marks})",
                                                                chunk)})
        return out

    def rename(self, player_id: str, display_name: str) -> Player:
        name = clean_name(display_name)
        if not self.db.execute("UPDATE players SET display_name = ? WHERE id = ?", (name, player_id)):
            raise UnknownPlayer(f"no player {player_id}")
        player = self.get(player_id)
        assert player is not None
        return player

    # -- API tokens ----------------------------------------------------------------------
    def issue_token(self, player_id: str) -> str:
        """A new personal API token; the previous one stops working. Shown once, stored hashed."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        if not self.db.execute("UPDATE players SET token_sha256 = ? WHERE id = ?", (sha256_hex(token), player_id)):
            raise UnknownPlayer(f"no player {player_id}")
        return token

    def by_token(self, token: str | None) -> Player | None:
        if not token or not token.startswith(TOKEN_PREFIX):
            return None
        row = self.db.one(f"SELECT {_COLUMNS} FROM players WHERE token_sha256 = ?", (sha256_hex(token),))
        return Player(*row) if row else None

    # -- sign-in links -------------------------------------------------------------------
    def signin_link(self, email: str, display_name: str | None = None) -> tuple[str, Player | None]:
        """Record a single-use link for `email` and return its secret with the address's player
        (None: no account yet; using the link registers one, named `display_name` or as asked).
        The same work either way: one count, one lookup, one insert. LinkThrottled when a link
        for the address was made within `signin_every` and not used yet (it stays valid); once
        used, another may be asked for at once (signing in on a second device)."""
        address = clean_email(email)
        name = clean_name(display_name) if display_name is not None else None
        secret = secrets.token_urlsafe(24)
        now = self.now()
        with self.db.transaction() as tx:
            recent = tx.one("SELECT COUNT(*) FROM signin_links WHERE email_key = ? AND created_at > ? "
                            "AND used_at IS NULL",
                            (address.lower(), iso(now - self.signin_every)))
            row = tx.one(f"SELECT {_COLUMNS} FROM players WHERE email_key = ?", (address.lower(),))
            if recent is not None and recent[0] >= 1:
                raise LinkThrottled("a sign-in link was sent to this address recently")
            player = Player(*row) if row else None
            tx.execute("INSERT INTO signin_links (token_sha256, player_id, email, email_key, display_name, "
                       "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (sha256_hex(secret), player.id if player else None, address, address.lower(), name,
                        iso(now), iso(now + self.link_ttl)))
        return secret, player

    def peek_link(self, secret: str) -> LinkInfo:
        """What a link would do, without using it; LinkInvalid if it cannot be used."""
        row = self.db.one("SELECT player_id, email, display_name FROM signin_links WHERE token_sha256 = ? "
                          "AND used_at IS NULL AND expires_at > ?", (sha256_hex(secret), iso(self.now())))
        if row is None:
            raise LinkInvalid()
        player = self.get(row[0]) if row[0] else self.by_email(row[1])
        return LinkInfo(player, row[1], row[2])

    def use_link(self, secret: str, display_name: str | None = None) -> Player:
        """Use a link once: the player it signs in (registered now if the address had no account,
        named by the link or by `display_name`). LinkInvalid if used, expired or unknown."""
        now = iso(self.now())
        digest = sha256_hex(secret)
        with self.db.transaction() as tx:
            row = tx.one("SELECT player_id, email, display_name FROM signin_links WHERE token_sha256 = ? "
                         "AND used_at IS NULL AND expires_at > ?", (digest, now))
            if row is None:
                raise LinkInvalid()
            player_id, email, link_name = row
            if player_id is None:
                found = tx.one("SELECT id FROM players WHERE email_key = ?", (email.lower(),))
                if found:
                    player_id = found[0]
                else:
                    name = clean_name(link_name if link_name is not None else display_name)
                    player_id = "p" + secrets.token_hex(8)
                    tx.execute("INSERT INTO players (id, display_name, email, email_key, created_at) "
                               "VALUES (?, ?, ?, ?, ?)", (player_id, name, email, email.lower(), now))
            if tx.execute("UPDATE signin_links SET used_at = ? WHERE token_sha256 = ? AND used_at IS NULL",
                          (now, digest)) != 1:
                raise LinkInvalid()  # a concurrent use won
            found_row = tx.one(f"SELECT {_COLUMNS} FROM players WHERE id = ?", (player_id,))
        assert found_row is not None
        return Player(*found_row)

    # -- browser sessions ----------------------------------------------------------------
    def new_session(self, player_id: str) -> str:
        secret = secrets.token_urlsafe(24)
        now = self.now()
        self.db.execute("INSERT INTO player_sessions (token_sha256, player_id, created_at, expires_at) "
                        "VALUES (?, ?, ?, ?)", (sha256_hex(secret), player_id, iso(now), iso(now + self.session_ttl)))
        return secret

    def by_session(self, secret: str | None) -> Player | None:
        if not secret:
            return None
        row = self.db.one("SELECT p.id, p.display_name, p.email FROM player_sessions s JOIN players p "
                          "ON p.id = s.player_id WHERE s.token_sha256 = ? AND s.expires_at > ?",
                          (sha256_hex(secret), iso(self.now())))
        return Player(*row) if row else None

    def end_session(self, secret: str) -> None:
        self.db.execute("DELETE FROM player_sessions WHERE token_sha256 = ?", (sha256_hex(secret),))

    def purge(self, keep: timedelta = timedelta(days=7)) -> int:
        """Delete sign-in links and sessions that expired more than `keep` ago (the periodic
        sweep); the per-address throttle only looks at the last minutes, so nothing it needs goes."""
        cutoff = iso(self.now() - keep)
        with self.db.transaction() as tx:
            return (tx.execute("DELETE FROM signin_links WHERE expires_at < ?", (cutoff,))
                    + tx.execute("DELETE FROM player_sessions WHERE expires_at < ?", (cutoff,)))

    # -- seats ---------------------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: str, player_id: str) -> None:
        """Record that `player_id` owns `seat` of `game_id`. Idempotent for the same player;
        SeatTaken if another player owns it or this player holds another seat of the game.
        The caller checks the right to claim (the seat's token, or a tournament's pairing)."""
        with self.db.transaction() as tx:
            if not tx.one("SELECT 1 FROM players WHERE id = ?", (player_id,)):
                raise UnknownPlayer(f"no player {player_id}")
            owner = tx.one("SELECT player_id FROM player_seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            if owner is not None:
                if owner[0] == player_id:
                    return
                raise SeatTaken(f"seat {seat} of game {game_id} belongs to another player")
            other = tx.one("SELECT seat FROM player_seats WHERE game_id = ? AND player_id = ?", (game_id, player_id))
            if other is not None:
                raise SeatTaken(f"you already hold seat {other[0]} of game {game_id}")
            tx.execute("INSERT INTO player_seats (game_id, seat, player_id, claimed_at) VALUES (?, ?, ?, ?)",
                       (game_id, seat, player_id, iso(self.now())))

    def seats_of(self, player_id: str) -> list[tuple[str, str]]:
        """(game_id, seat) of every seat the player owns, oldest claim first."""
        return [(r[0], r[1]) for r in self.db.rows(
            "SELECT game_id, seat FROM player_seats WHERE player_id = ? ORDER BY claimed_at, game_id", (player_id,))]

    def owners(self, game_id: str) -> dict[str, str]:
        """seat -> player id, for the seats of a game that belong to players."""
        return {r[0]: r[1] for r in self.db.rows("SELECT seat, player_id FROM player_seats WHERE game_id = ?",
                                                 (game_id,))}

    def owners_of(self, seats: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """(game_id, seat) -> player id, for those of `seats` that belong to players."""
        games = sorted({g for g, _ in seats})
        if not games:
            return {}
        wanted, out = set(seats), {}
        for start in range(0, len(games), 500):
            chunk = games[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            for g, seat, player_id in self.db.rows(
                    f"SELECT game_id, seat, player_id FROM player_seats WHERE game_id IN ({marks})", chunk):
                if (g, seat) in wanted:
                    out[(g, seat)] = player_id
        return out

    def owner(self, game_id: str, seat: str) -> str | None:
        return self.owners(game_id).get(seat)

    def seat_of(self, game_id: str, player_id: str) -> str | None:
        row = self.db.one("SELECT seat FROM player_seats WHERE game_id = ? AND player_id = ?", (game_id, player_id))
        return row[0] if row else None

    def seat_for_credential(self, game_id: str, credential: str) -> str | None:
        """The seat of `game_id` owned by whoever `credential` (an API token or a session
        cookie) signs in: the service's hook to let a player act in their own seat only."""
        player = self.by_token(credential) or self.by_session(credential)
        return self.seat_of(game_id, player.id) if player else None
