"""The server's Ed25519 signing key: it signs the transparency log's tree heads (warlog.trust.tlog)
and keys the play-by-mail reply tokens (warlog.mailin.tokens). It never enters the database: it is
a PEM file named by WARLOG_LOG_KEY. The embedded default (a SQLite ledger and no WARLOG_LOG_KEY)
makes one next to the database file on first use; any other deployment must name an existing file."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from ledger.factory import sqlite_path

_KEY_LOCK = threading.Lock()
DEFAULT_KEY_NAME = "warlog-log-key.pem"


class LogError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def key_path(conf: Mapping[str, Any]) -> tuple[Path | None, bool]:
    """The key file and whether it may be made here (only the embedded default): WARLOG_LOG_KEY
    from `conf` (the app's config) or the environment, else a file beside a SQLite ledger."""
    named = conf.get("WARLOG_LOG_KEY") or os.environ.get("WARLOG_LOG_KEY")
    if named:
        return Path(str(named)), False
    db = sqlite_path(str(conf.get("WARLOG_DB") or os.environ.get("WARLOG_DB") or ""))
    if not db or db == ":memory:":
        return None, False
    return Path(db).resolve().parent / DEFAULT_KEY_NAME, True


def load_key(path: Path, create: bool) -> Ed25519PrivateKey:
    """The key in `path`, made there first if `create` and it does not exist (mode 0600)."""
    with _KEY_LOCK:
        if not path.exists():
            if not create:
                raise LogError(503, f"the transparency log's signing key {path} (WARLOG_LOG_KEY) does not exist")
            path.parent.mkdir(parents=True, exist_ok=True)
            pem = Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
        key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise LogError(503, f"the transparency log's signing key {path} is not an Ed25519 key")
    return key
