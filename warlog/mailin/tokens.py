"""Reply addresses: `<local>+<token>@<domain>`, one per seat and per mail.

A token is 32 lower-case base32 characters: a random 80-bit `nonce` (the `mail_tokens` row that
says which game, seat, owner and event it was written for) and an 80-bit HMAC-SHA256 over the
nonce and that row, so an address nobody was given is refused without a look-up and a row cannot
be pointed at another seat or event. The HMAC key is derived from the server's existing signing
key (the transparency log's Ed25519 key, WARLOG_LOG_KEY, or the embedded default's key file
beside the SQLite ledger): no second secret to keep. Lower-case base32 survives mail servers
that fold the case of a local part.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

NONCE_BYTES = MAC_BYTES = 10
TOKEN = re.compile(r"^[a-z2-7]{32}$")
_INFO = b"warlog mail-in reply tokens v1"


def _b32(raw: bytes) -> str:
    return base64.b32encode(raw).decode("ascii").lower().rstrip("=")


def derive_key(conf: Mapping[str, Any]) -> bytes:
    """The HMAC key of reply tokens, from the server's signing key (made if the embedded
    default may make it). ConfigError when there is none."""
    from warlog.config import ConfigError
    from warlog.trust.signing_key import LogError, key_path, load_key

    path, create = key_path(conf)
    if path is None:
        raise ConfigError("play by mail (WARLOG_MAIL_IN_ADDRESS) signs its reply addresses with the server's key: "
                          "set WARLOG_LOG_KEY to its PEM file (make one with `warlog log key PATH`)")
    try:
        key = load_key(path, create)
    except FileExistsError:  # another process made it a moment ago
        key = load_key(path, False)
    except LogError as err:
        raise ConfigError(err.message) from None
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return hmac.new(raw, _INFO, hashlib.sha256).digest()


class Signer:
    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, nonce: str, game_id: str, seat: str, at_seq: int, player_id: str) -> str:
        msg = "\x1f".join((nonce, game_id, seat, str(at_seq), player_id)).encode("utf-8")
        return _b32(hmac.new(self.key, msg, hashlib.sha256).digest()[:MAC_BYTES])

    def token(self, nonce: str, game_id: str, seat: str, at_seq: int, player_id: str) -> str:
        """The token of an existing row."""
        return nonce + self._mac(nonce, game_id, seat, at_seq, player_id)

    def new(self, game_id: str, seat: str, at_seq: int, player_id: str) -> tuple[str, str]:
        """(nonce, token) for a new reply address."""
        nonce = _b32(secrets.token_bytes(NONCE_BYTES))
        return nonce, nonce + self._mac(nonce, game_id, seat, at_seq, player_id)

    def check(self, token: str, game_id: str, seat: str, at_seq: int, player_id: str) -> bool:
        """Whether `token`'s signature is right for its row."""
        return hmac.compare_digest(token[16:], self._mac(token[:16], game_id, seat, at_seq, player_id))


def split_address(address: str, local: str) -> str | None:
    """The token of `<local>+<token>@…` (case folded), or None for any other address."""
    user = address.strip().strip("<>").rpartition("@")[0].lower()
    prefix = local.lower() + "+"
    if not user.startswith(prefix):
        return None
    token = user[len(prefix):]
    return token if TOKEN.match(token) else None
