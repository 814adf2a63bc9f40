"""Storage faults: a database that is there but cannot keep what it is given.

A full disk, a read-only file or database, and a schema that is gone (dropped, or never made)
are not bugs in the code: like an unreachable database they pass when the operator acts, and
nothing is recorded meanwhile. `storage_fault` names one in words an operator can act on, or
answers None for any other error.
"""

from __future__ import annotations

import os
import sqlite3

DISK_FULL = "the database's disk is full"
READ_ONLY = "the database is read-only"
NO_SCHEMA = "the ledger's schema is missing"
CANNOT_OPEN = "the database file cannot be opened"
IO_ERROR = "the database's disk reports an I/O error"

# SQLite's messages (sqlite3 gives no error codes before Python 3.11's sqlite_errorname).
_SQLITE = (
    ("database or disk is full", DISK_FULL),
    ("readonly database", READ_ONLY),
    ("read-only", READ_ONLY),
    ("no such table", NO_SCHEMA),
    ("unable to open database file", CANNOT_OPEN),
    ("disk i/o error", IO_ERROR),
)
# The ledger's own functions (PostgreSQL): missing with the schema.
_LEDGER_FUNCTIONS = ("ledger_append", "game_period")


def storage_fault(err: BaseException) -> str | None:
    """The storage fault `err` reports ("the database's disk is full: ..."), or None."""
    text = " ".join(str(err).split())[:200]
    if isinstance(err, sqlite3.DatabaseError) and not isinstance(err, sqlite3.IntegrityError):
        low = text.lower()
        for needle, what in _SQLITE:
            if needle in low:
                return f"{what} ({text})"
        return None
    from psycopg import errors

    if isinstance(err, errors.DiskFull):
        return f"{DISK_FULL} ({text})"
    if isinstance(err, errors.ReadOnlySqlTransaction):
        return f"{READ_ONLY} ({text})"
    if isinstance(err, errors.UndefinedTable | errors.InvalidSchemaName):
        return f"{NO_SCHEMA} ({text})"
    if isinstance(err, errors.UndefinedFunction) and any(f in text for f in _LEDGER_FUNCTIONS):
        return f"{NO_SCHEMA} ({text})"
    return None


def file_fault(path: str, fault: str) -> str:
    """A SQLite fault about `path` made precise: "cannot be opened" on a read-only file system
    or a file this process may not write is the file being read-only."""
    if not fault.startswith(CANNOT_OPEN):
        return fault
    folder = os.path.dirname(path) or "."
    try:
        read_only_fs = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return fault
    if read_only_fs:
        return f"{READ_ONLY} (its file system is mounted read-only)"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return f"{READ_ONLY} (this process may not write the file or its directory)"
    return fault
