"""The transparency log's entries in the ledger's database (table `transparency_log`,
migration 5; append-only: the app role may only read and insert).

`sync` logs what it finds in the `games` table and is idempotent: a "created" entry for each
game not yet logged (the hash of event 0), and a "head" entry for each game whose chain grew
past the last head logged for it. It runs from the sweeper, so the append path of moves is
untouched. The Merkle tree and the proofs are ledger.transparency."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ledger import logtree
from ledger import transparency as t
from ledger.events import utc_now
from ledger.sqlstore import SqlEventStore
from ledger.store import EventStore, LedgerError

ENTRY_COLUMNS = "kind, game_id, seq, hash"
_LOCK_KEY = 0x7761726C6F67  # "warlog": the PostgreSQL advisory lock serialising appends to the log

_NEW_CREATED = (
    "SELECT g.game_id, e.hash FROM games g JOIN events e ON e.game_id = g.game_id AND e.seq = 0 "
    "WHERE NOT EXISTS (SELECT 1 FROM transparency_log t WHERE t.game_id = g.game_id AND t.kind = 'created') "
    "ORDER BY g.created_at, g.game_id")
_NEW_HEADS = (
    "SELECT g.game_id, g.last_seq, e.hash FROM games g "
    "JOIN events e ON e.game_id = g.game_id AND e.seq = g.last_seq WHERE g.last_seq > 0 "
    "AND NOT EXISTS (SELECT 1 FROM transparency_log t WHERE t.game_id = g.game_id AND t.kind = 'head' "
    "AND t.seq >= g.last_seq) ORDER BY g.created_at, g.game_id")


class LogUnavailable(LedgerError):
    """This ledger backend keeps no transparency log."""


def _sql_store(store: EventStore) -> SqlEventStore:
    if not isinstance(store, SqlEventStore):
        raise LogUnavailable("the transparency log needs a SQL ledger (SQLite or PostgreSQL)")
    return store


def sync(store: EventStore) -> int:
    """Append the entries for new games and grown chains; returns how many were logged."""
    s = _sql_store(store)
    with s._write() as conn:
        if s.placeholder != "?":
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        row = conn.execute("SELECT MAX(idx) FROM transparency_log").fetchone()
        idx = 0 if row is None or row[0] is None else int(row[0]) + 1
        new: list[tuple[str, str, int, str]] = [("created", g, 0, h) for g, h in conn.execute(_NEW_CREATED).fetchall()]
        new += [("head", g, int(seq), h) for g, seq, h in conn.execute(_NEW_HEADS).fetchall()]
        now = utc_now()
        insert = s._sql("INSERT INTO transparency_log (idx, kind, game_id, seq, hash, logged_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)")
        rows = [(idx + i, kind, game_id, seq, hash_, now) for i, (kind, game_id, seq, hash_) in enumerate(new)]
        for start in range(0, len(rows), 1000):  # batched: a first sync of a large ledger is one pass
            conn.cursor().executemany(insert, rows[start:start + 1000])
        stored = logtree.stored_size(conn)  # the subtree hashes: the new leaves, and any a new
        if stored < idx + len(new):  # migration 7 found already logged (caught up once)
            docs = [t.entry(kind, g, seq, h) for kind, g, seq, h in new]
            if stored >= idx:
                docs = docs[stored - idx:]
            else:
                docs = [t.entry(kind, g, int(seq), h) for kind, g, seq, h in conn.execute(s._sql(
                    f"SELECT {ENTRY_COLUMNS} FROM transparency_log WHERE idx >= ? AND idx < ? ORDER BY idx"),
                    (stored, idx)).fetchall()] + docs
            logtree.extend(s, conn, stored, leaf_hashes(docs))
    return len(new)


def size(store: EventStore) -> int:
    """How many entries the log holds."""
    row = _sql_store(store)._rows("SELECT MAX(idx) FROM transparency_log", ())
    return 0 if not row or row[0][0] is None else int(row[0][0]) + 1


@contextlib.contextmanager
def tree(store: EventStore) -> Iterator[logtree.Tree | None]:
    """The log's tree through its stored subtree hashes (O(log n) reads a head or a proof), or
    None when they do not reach the log's size (a log older than migration 7 before its first
    sync): then the caller rebuilds from `entries`."""
    s = _sql_store(store)
    with s._conn() as conn:
        row = conn.execute("SELECT MAX(idx) FROM transparency_log").fetchone()
        n = 0 if row is None or row[0] is None else int(row[0]) + 1
        yield logtree.Tree(s, conn, n) if logtree.stored_size(conn) >= n else None


def entries(store: EventStore, size: int | None = None) -> list[dict[str, Any]]:
    """The log's entries in order (the first `size` of them if given)."""
    s = _sql_store(store)
    text = f"SELECT {ENTRY_COLUMNS} FROM transparency_log"
    args: tuple[Any, ...] = ()
    if size is not None:
        text += " WHERE idx < ?"
        args = (size,)
    rows = s._rows(text + " ORDER BY idx", args)
    return [t.entry(kind, game_id, int(seq), hash_) for kind, game_id, seq, hash_ in rows]


def leaf_hashes(docs: list[dict[str, Any]]) -> list[bytes]:
    return [t.leaf_hash(t.entry_bytes(d)) for d in docs]


# Each game's newest logged entry (its last head, or its creation) and the event the ledger now
# holds at that seq: a game whose event is missing or hashes otherwise no longer extends what the
# log recorded of it (its events were cut short or rewritten after they were logged). An
# archived game (an ended game whose month was detached, warlog.ops.archiving: no event at all, its
# row kept) is not one: it answers 410 and its events are in the archive.
_NOT_EXTENDED = (
    "WITH last AS (SELECT game_id, MAX(seq) AS seq FROM transparency_log GROUP BY game_id) "
    "SELECT l.game_id, l.seq, t.hash, e.hash FROM last l "
    "JOIN transparency_log t ON t.game_id = l.game_id AND t.seq = l.seq "
    "LEFT JOIN events e ON e.game_id = l.game_id AND e.seq = l.seq "
    "WHERE (e.hash IS NULL OR e.hash <> t.hash) AND NOT (e.hash IS NULL "
    "AND EXISTS (SELECT 1 FROM games g WHERE g.game_id = l.game_id AND g.status = 'ended') "
    "AND NOT EXISTS (SELECT 1 FROM events e0 WHERE e0.game_id = l.game_id AND e0.seq = 0)) "
    "ORDER BY l.game_id")


def not_extended(store: EventStore) -> list[tuple[str, int, str, str | None]]:
    """(game, seq, hash the log recorded, hash the ledger holds or None) for each game whose
    chain no longer extends the last entry the log recorded of it."""
    rows = _sql_store(store)._rows(_NOT_EXTENDED, ())
    return [(str(g), int(seq), str(logged), None if found is None else str(found)) for g, seq, logged, found in rows]


def entries_range(store: EventStore, start: int, end: int) -> list[tuple[int, dict[str, Any], str]]:
    """(index, entry, logged_at) of entries start..end inclusive (RFC 6962 §4.6 get-entries)."""
    rows = _sql_store(store)._rows(f"SELECT idx, {ENTRY_COLUMNS}, logged_at FROM transparency_log "
                                   "WHERE idx >= ? AND idx <= ? ORDER BY idx", (start, end))
    return [(int(i), t.entry(kind, g, int(seq), h), str(at)) for i, kind, g, seq, h, at in rows]


EPOCH = logtree.EPOCH


def reached_at(store: EventStore, size: int) -> str:
    """When the log reached `size` entries: the time its last entry was logged (the empty log: the epoch).
    A head of that size is stamped with this time, however late it is signed."""
    if size <= 0:
        return EPOCH
    row = _sql_store(store)._rows("SELECT logged_at FROM transparency_log WHERE idx = ?", (size - 1,))
    if not row:
        raise LookupError(f"the log holds fewer than {size} entries")
    return str(row[0][0])
