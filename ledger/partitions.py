"""A creation period's partitions on PostgreSQL (migration 6): making them ahead, detaching a
period into a schema of its own that the operator can dump and drop, attaching it again.

Detaching moves no row and changes none: `ALTER TABLE events DETACH PARTITION events_2026_01`
makes the partition a table of its own, which is then moved to the schema
`<ledger schema>_archive_2026_01` and given the append-only triggers itself (a detached table
loses the ones cloned from the parent). The period's snapshots (a cache) and idempotency keys
(housekeeping of games that have ended) are detached and dropped: no trigger guards them, and
no row of `events` is touched. Attaching does the reverse and makes empty snapshot and
idempotency partitions again. The owner role runs both (`warlog archive detach/attach`);
ledger.archive checks the period can go before anything is detached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from psycopg import sql

from ledger.postgres import PostgresStore, _first
from ledger.store import LedgerError

PERIOD = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
AHEAD = 3  # months of partitions `warlog db upgrade` / `warlog db partitions` make beyond this one


class PeriodError(LedgerError, ValueError):
    """A period that cannot be detached or attached (the message says why)."""


def check_period(period: str) -> str:
    if not PERIOD.match(period):
        raise PeriodError(f"a period is a month like 2026-01, not {period!r}")
    return period


def bounds(period: str) -> tuple[str, str]:
    """[first day, first day of the next month) as the ISO dates `created_at` compares with."""
    year, month = (int(x) for x in check_period(period).split("-"))
    nxt = (year + 1, 1) if month == 12 else (year, month + 1)
    return f"{year:04d}-{month:02d}-01", f"{nxt[0]:04d}-{nxt[1]:02d}-01"


def months(first: str, count: int) -> list[str]:
    year, month = (int(x) for x in check_period(first).split("-"))
    out = []
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def suffix(period: str) -> str:
    return check_period(period).replace("-", "_")


def archive_schema(store: PostgresStore, period: str) -> str:
    return f"{store.schema}_archive_{suffix(period)}"


def add_periods(store: PostgresStore, periods: list[str]) -> list[str]:
    """Make the partitions of each period that has none (owner role); returns those made."""
    made = []
    with store._conn() as conn, conn.transaction():
        for p in periods:
            if _first(conn.execute("SELECT ledger_add_period(%s)", (check_period(p),)).fetchone()):
                made.append(p)
    return made


def add_ahead(store: PostgresStore, ahead: int = AHEAD, now: datetime | None = None) -> list[str]:
    this = (now or datetime.now(UTC)).strftime("%Y-%m")
    return add_periods(store, months(this, ahead + 1))


def attached(store: PostgresStore) -> list[str]:
    """The periods whose events partition is attached, oldest first."""
    with store._conn() as conn:
        rows = conn.execute("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                            "WHERE i.inhparent = 'events'::regclass AND c.relname <> 'events_default'").fetchall()
    return sorted(r[0][len("events_"):].replace("_", "-") for r in rows)


@dataclass(frozen=True)
class Head:
    events: int
    head: str  # the hash of the last event


def heads(store: PostgresStore, period: str, *, table: str | None = None) -> dict[str, Head]:
    """Every stream of an attached period (or of the detached table `table`): its event count and head."""
    name = sql.SQL(table) if table else sql.Identifier(f"events_{suffix(period)}")
    query = sql.SQL("SELECT game_id, count(*), (array_agg(hash ORDER BY seq DESC))[1] FROM {} "
                    "GROUP BY game_id").format(name)
    with store._conn() as conn:
        return {r[0]: Head(int(r[1]), r[2]) for r in conn.execute(query).fetchall()}


def _triggers(schema: str, table: str) -> list[sql.Composed]:
    fn = sql.Identifier(schema, "events_append_only")
    target = sql.Identifier(table)
    return [sql.SQL("CREATE TRIGGER archived_no_update_delete BEFORE UPDATE OR DELETE ON {} "
                    "FOR EACH ROW EXECUTE FUNCTION {}()").format(target, fn),
            sql.SQL("CREATE TRIGGER archived_no_truncate BEFORE TRUNCATE ON {} "
                    "FOR EACH STATEMENT EXECUTE FUNCTION {}()").format(target, fn)]


def detach(store: PostgresStore, period: str) -> str:
    """Detach a period (ledger.archive.check_detachable first): its events partition goes to
    the schema `archive_schema(period)`, its snapshots and idempotency partitions are
    dropped. One transaction; returns the archive schema's name."""
    part = f"events_{suffix(period)}"
    target = archive_schema(store, period)
    with store._conn() as conn, conn.transaction():
        if period not in attached(store):
            raise PeriodError(f"period {period} has no attached partition")
        if conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (target,)).fetchone():
            raise PeriodError(f"schema {target} already exists (an earlier detach of {period}?)")
        for t in ("idempotency", "snapshots"):
            conn.execute(sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(
                sql.Identifier(t), sql.Identifier(f"{t}_{suffix(period)}")))
            conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(f"{t}_{suffix(period)}")))
        conn.execute(sql.SQL("ALTER TABLE events DETACH PARTITION {}").format(sql.Identifier(part)))
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(target)))
        conn.execute(sql.SQL("ALTER TABLE {} SET SCHEMA {}").format(sql.Identifier(part), sql.Identifier(target)))
        conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(target)))
        conn.execute(sql.SQL("DROP TRIGGER IF EXISTS events_no_truncate ON {}").format(sql.Identifier(part)))
        for statement in _triggers(store.schema, part):
            conn.execute(statement)
    return target


def attach(store: PostgresStore, period: str) -> None:
    """Attach a detached period again (its archive schema present, e.g. restored from a dump):
    the table rejoins `events` (PostgreSQL checks every row lies in the period) and the
    parent's triggers are cloned onto it; the archive schema is dropped once empty."""
    part = f"events_{suffix(period)}"
    source = archive_schema(store, period)
    with store._conn() as conn, conn.transaction():
        if period in attached(store):
            raise PeriodError(f"period {period} is attached already")
        found = conn.execute("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                             "WHERE n.nspname = %s AND c.relname = %s", (source, part)).fetchone()
        if not found:
            raise PeriodError(f"no table {source}.{part}: restore the period's dump first, "
                              f"or import its bundle (warlog archive import)")
        qualified = sql.Identifier(source, part)
        for trigger in ("archived_no_update_delete", "archived_no_truncate"):
            conn.execute(sql.SQL("DROP TRIGGER IF EXISTS {} ON {}").format(sql.Identifier(trigger), qualified))
        conn.execute(sql.SQL("ALTER TABLE {} SET SCHEMA {}").format(qualified, sql.Identifier(store.schema)))
        conn.execute(sql.SQL("ALTER TABLE events ATTACH PARTITION {} FOR VALUES IN ({})").format(
            sql.Identifier(part), sql.Literal(period)))
        conn.execute(sql.SQL("CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON {} "
                             "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()").format(sql.Identifier(part)))
        for t in ("snapshots", "idempotency"):
            conn.execute(sql.SQL("CREATE TABLE {} PARTITION OF {} FOR VALUES IN ({})").format(
                sql.Identifier(f"{t}_{suffix(period)}"), sql.Identifier(t), sql.Literal(period)))
        conn.execute(sql.SQL("DROP SCHEMA {}").format(sql.Identifier(source)))  # RESTRICT: only if empty
