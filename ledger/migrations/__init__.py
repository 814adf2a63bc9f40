"""Versioned schema migrations for both SQL backends.

A database records every migration applied to it in `schema_version` (one row per version).
`upgrade()` applies the missing ones, in order, in one transaction, and is run once per
release by the owner role (`warlog db upgrade`); the app only calls `check()` at start and
refuses to run on a schema that is behind (or ahead of) this release. The embedded SQLite
default upgrades itself on open, since it has no roles.

Migration 1 is the schema as it was before versions were recorded (every statement
`IF NOT EXISTS`), so a database made by an older release upgrades in place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ledger.store import LedgerError


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: Callable[[str], list[str]]  # the schema name (PostgreSQL; "" on SQLite) -> SQL statements


class SchemaOutOfDate(LedgerError, ValueError):
    """The database's schema is not the one this release needs (the app refuses to start)."""

    def __init__(self, where: str, found: int, needed: int) -> None:
        if found < needed:
            what = (f"the ledger schema at {where} is at version {found}; this release needs version {needed}. "
                    f"As the database owner role, run: warlog db upgrade --db <owner URL>")
        else:
            what = (f"the ledger schema at {where} is at version {found}, newer than this release "
                    f"(version {needed}): upgrade Warlog")
        super().__init__(what)
        self.found, self.needed = found, needed


VERSION_TABLE = ("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                 "applied_at TEXT NOT NULL)")


def latest(migrations: list[Migration]) -> int:
    return migrations[-1].version


def pending(migrations: list[Migration], current: int) -> list[Migration]:
    """The migrations after version `current`, in order (refuses a gap or a disorder)."""
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, not {versions}")
    return [m for m in migrations if m.version > current]


def apply(execute: Callable[[str, tuple[Any, ...]], Any], migrations: list[Migration], current: int,
          schema: str, now: str, placeholder: str = "?") -> list[int]:
    """Run each missing migration's statements and record it; the caller holds the transaction."""
    done = []
    for m in pending(migrations, current):
        for statement in m.statements(schema):
            execute(statement, ())
        execute(f"INSERT INTO schema_version (version, name, applied_at) VALUES "
                f"({placeholder}, {placeholder}, {placeholder})", (m.version, m.name, now))
        done.append(m.version)
    return done
