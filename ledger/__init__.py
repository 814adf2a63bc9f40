"""Warlog's ledger: hash-chained, append-only per-game event streams and their stores."""

from ledger.events import ChainError, Event, NewEvent, check_chain
from ledger.factory import open_store
from ledger.store import (
    Conflict,
    DuplicateKey,
    EventStore,
    GameExists,
    GameSummary,
    LedgerError,
    LockTimeout,
    SummaryUpdate,
)

__all__ = [
    "ChainError", "Conflict", "DuplicateKey", "Event", "EventStore", "GameExists", "GameSummary",
    "LedgerError", "LockTimeout", "NewEvent", "SummaryUpdate", "check_chain", "open_store",
]
