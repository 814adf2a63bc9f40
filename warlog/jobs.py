"""RQ job functions. Importable, take ids not objects, safe to run twice (STYLE: RQ).

The store is opened once per process from WARLOG_DB (keyed by pid, so a forked work horse
never shares its parent's connections).
"""

from __future__ import annotations

import os

from ledger.store import EventStore, open_store
from warlog.resolver import Resolver

DEFAULT_DB = "sqlite:///var/warlog.sqlite3"
_stores: dict[tuple[int, str], EventStore] = {}


def db_url() -> str:
    return os.environ.get("WARLOG_DB", DEFAULT_DB)


def store_for(url: str | None = None) -> EventStore:
    url = url or db_url()
    key = (os.getpid(), url)
    if key not in _stores:
        _stores[key] = open_store(url)
    return _stores[key]


def resolve_game(game_id: str) -> int:
    """Judge every pending submission of one game; returns how many were judged. The players
    owning the seats concerned are notified (warlog.notify.hooks)."""
    from warlog.notify.jobs import on_judged

    return Resolver(store_for(), on_judged=on_judged()).run(game_id)


def noop(game_id: str) -> int:
    """A job that does nothing: the benchmark's baseline for RQ's own overhead."""
    return 0
