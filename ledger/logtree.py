"""Stored subtree hashes of the transparency log: tree heads and proofs in O(log n)
reads, however many entries the log holds.

Every complete subtree of the RFC 6962 tree is a row of `transparency_nodes` (migration 7):
(level, idx) covers leaves [idx * 2**level, (idx + 1) * 2**level), level 0 being the leaf
hashes. A node is written once, when its last leaf is logged, in the same transaction as
that leaf's entry (ledger.logstore.sync), and never changes: the table is append-only like the
log. Appending a leaf reads only the right-edge frontier (one node per set bit of the size).

Any MTH(D[lo:hi]) that the RFC's recursion asks for splits into O(log n) such nodes (its left
parts are always aligned complete subtrees), so a head, an inclusion path or a consistency
proof is: plan the ranges (pure), read their nodes in one query, hash O(log n) times. The
planning and hashing here give byte-for-byte the proofs of ledger.transparency, which the
tests check against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ledger import transparency as t

Key = tuple[int, int]  # (level, idx)
Range = tuple[int, int]  # leaves [lo, hi)
_FETCH_CHUNK = 300
EPOCH = "1970-01-01T00:00:00.000000Z"  # the time of the empty log


# --- pure: which nodes, and the hashes from them -------------------------------------------

def _split(n: int) -> int:
    return 1 << ((n - 1).bit_length() - 1)  # the largest power of two smaller than n (n >= 2)


def _complete(lo: int, hi: int) -> Key | None:
    size = hi - lo
    if size > 0 and size & (size - 1) == 0 and lo % size == 0:
        return size.bit_length() - 1, lo // size
    return None


def nodes_of(ranges: Iterable[Range]) -> set[Key]:
    """The stored nodes from which the MTH of each range is computed."""
    out: set[Key] = set()

    def walk(lo: int, hi: int) -> None:
        key = _complete(lo, hi)
        if key is not None:
            out.add(key)
        elif hi - lo > 1:
            k = _split(hi - lo)
            walk(lo, lo + k)
            walk(lo + k, hi)

    for lo, hi in ranges:
        walk(lo, hi)
    return out


def mth(nodes: dict[Key, bytes], lo: int, hi: int) -> bytes:
    """MTH(D[lo:hi]) from stored complete subtrees (the empty tree: SHA-256 of nothing)."""
    if hi <= lo:
        return t.root([])
    key = _complete(lo, hi)
    if key is not None:
        return nodes[key]
    k = _split(hi - lo)
    return t.node_hash(mth(nodes, lo, lo + k), mth(nodes, lo + k, hi))


def inclusion_ranges(m: int, n: int) -> list[Range]:
    """The ranges whose MTHs are PATH(m, D[n]) (RFC 6962 §2.1.1), in the RFC's order."""
    if not 0 <= m < n:
        raise ValueError(f"leaf {m} is not in a tree of size {n}")
    out: list[Range] = []
    lo, hi = 0, n
    while hi - lo > 1:
        k = _split(hi - lo)
        if m < lo + k:
            out.append((lo + k, hi))
            hi = lo + k
        else:
            out.append((lo, lo + k))
            lo += k
    return out[::-1]


def consistency_ranges(m: int, n: int) -> list[Range]:
    """The ranges whose MTHs are PROOF(m, D[n]) (RFC 6962 §2.1.2), 0 < m <= n."""
    if not 0 < m <= n:
        raise ValueError(f"no consistency proof from size {m} to size {n}")

    def sub(m: int, lo: int, hi: int, whole: bool) -> list[Range]:
        if m == hi - lo:
            return [] if whole else [(lo, hi)]
        k = _split(hi - lo)
        if m <= k:
            return sub(m, lo, lo + k, whole) + [(lo + k, hi)]
        return sub(m - k, lo + k, hi, False) + [(lo, lo + k)]

    return sub(m, 0, n, True)


def frontier(n: int) -> list[Key]:
    """The complete subtrees a tree of n leaves ends with: one per set bit of n."""
    return [(level, (n >> level) - 1) for level in range(n.bit_length()) if n >> level & 1]


def new_nodes(known: dict[Key, bytes], start: int, leaves: Sequence[bytes]) -> list[tuple[int, int, bytes]]:
    """The nodes completed by appending `leaves` after `start` leaves; `known` holds at least
    frontier(start) and is extended in place."""
    out: list[tuple[int, int, bytes]] = []
    for i, leaf in enumerate(leaves, start):
        level, idx, h = 0, i, leaf
        known[(0, i)] = h
        out.append((0, i, h))
        while idx & 1:
            h = t.node_hash(known[(level, idx - 1)], h)
            level, idx = level + 1, idx >> 1
            known[(level, idx)] = h
            out.append((level, idx, h))
    return out


# --- the table ------------------------------------------------------------------------------

def _fetch(store: Any, conn: Any, keys: Iterable[Key]) -> dict[Key, bytes]:
    wanted = sorted(set(keys))
    found: dict[Key, bytes] = {}
    for i in range(0, len(wanted), _FETCH_CHUNK):
        chunk = wanted[i:i + _FETCH_CHUNK]
        where = " OR ".join(["(level = ? AND idx = ?)"] * len(chunk))
        args = [v for key in chunk for v in key]
        for level, idx, h in conn.execute(store._sql(f"SELECT level, idx, hash FROM transparency_nodes WHERE {where}"),
                                          args).fetchall():
            found[(int(level), int(idx))] = bytes.fromhex(h)
    missing = [k for k in wanted if k not in found]
    if missing:
        raise LookupError(f"transparency_nodes lacks {len(missing)} node(s), e.g. {missing[0]}")
    return found


def stored_size(conn: Any) -> int:
    """How many leaves have their nodes stored."""
    row = conn.execute("SELECT MAX(idx) FROM transparency_nodes WHERE level = 0").fetchone()
    return 0 if row is None or row[0] is None else int(row[0]) + 1


def extend(store: Any, conn: Any, leaves_from: int, leaves: Sequence[bytes]) -> int:
    """Store the nodes completed by `leaves` (log entries leaves_from, leaves_from + 1, …), in
    the caller's transaction; returns how many nodes were written."""
    known = _fetch(store, conn, frontier(leaves_from))
    rows = new_nodes(known, leaves_from, leaves)
    insert = store._sql("INSERT INTO transparency_nodes (level, idx, hash) VALUES (?, ?, ?)")
    for i in range(0, len(rows), 1000):
        conn.cursor().executemany(insert, [(level, idx, h.hex()) for level, idx, h in rows[i:i + 1000]])
    return len(rows)


class Tree:
    """Reads of a log of `size` leaves through its stored nodes (one query per answer)."""

    def __init__(self, store: Any, conn: Any, size: int) -> None:
        self.store, self.conn, self.size = store, conn, size

    def _hashes(self, ranges: list[Range]) -> list[bytes]:
        nodes = _fetch(self.store, self.conn, nodes_of(ranges))
        return [mth(nodes, lo, hi) for lo, hi in ranges]

    def root(self, size: int | None = None) -> bytes:
        return self._hashes([(0, self.size if size is None else size)])[0]

    def inclusion_paths(self, indices: Sequence[int], size: int | None = None) -> list[list[bytes]]:
        n = self.size if size is None else size
        plans = [inclusion_ranges(m, n) for m in indices]
        nodes = _fetch(self.store, self.conn, nodes_of(r for plan in plans for r in plan))
        return [[mth(nodes, lo, hi) for lo, hi in plan] for plan in plans]

    def game_entries(self, game_id: str, size: int) -> list[tuple[int, dict[str, Any]]]:
        """(index, entry) of a game's entries among the first `size` (the log's UNIQUE index)."""
        rows = self.conn.execute(self.store._sql("SELECT idx, kind, game_id, seq, hash FROM transparency_log "
                                                 "WHERE game_id = ? AND idx < ? ORDER BY idx"), (game_id, size))
        return [(int(i), t.entry(kind, g, int(seq), h)) for i, kind, g, seq, h in rows.fetchall()]

    def reached_at(self, size: int) -> str:
        """When the log reached `size` entries (ledger.logstore.reached_at), on this connection."""
        if size <= 0:
            return EPOCH
        row = self.conn.execute(self.store._sql("SELECT logged_at FROM transparency_log WHERE idx = ?"),
                                (size - 1,)).fetchone()
        if row is None:
            raise LookupError(f"the log holds fewer than {size} entries")
        return str(row[0])

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        return self._hashes(consistency_ranges(first, self.size if second is None else second))
