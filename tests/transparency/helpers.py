"""Shared by the transparency-log tests: an app on a given ledger URL, a second empty ledger."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from flask import Flask
from psycopg import sql

from ledger.factory import open_store
from tests.conftest import PG_URL, pg_schema_url


def key_file(path: Path) -> Path:
    path.write_bytes(Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return path


@contextmanager
def app_on(db: str, **config: Any) -> Iterator[Flask]:
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": db, "WARLOG_SWEEP_INTERVAL": 3600.0,
                      "WARLOG_PERIODIC": False, **config})
    try:
        yield app
    finally:
        stop = app.extensions.get("warlog_sweeper_stop")
        if stop is not None:
            stop.set()
        app.extensions["warlog"].store.close()


@contextmanager
def empty_ledger_like(db: str, tmp_path: Path) -> Iterator[str]:
    """A second, empty ledger on the same backend as `db` (upgraded to the latest schema)."""
    if db.startswith("sqlite"):
        url = f"sqlite:///{tmp_path}/restored-{uuid.uuid4().hex[:6]}.sqlite3"
        open_store(url, upgrade=True).close()
        yield url
        return
    schema = f"warlog_test_{uuid.uuid4().hex}"
    url = pg_schema_url(schema)
    open_store(url, upgrade=True).close()
    try:
        yield url
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
