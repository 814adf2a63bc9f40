"""Stored subtree hashes (ledger.logtree): heads, inclusion and consistency proofs read
from the complete subtrees stored as the log grows are byte-for-byte the RFC 6962 ones of
ledger.transparency, need O(log n) stored nodes, and the table is append-only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger import logstore, logtree
from ledger import transparency as t
from ledger.factory import open_store


def leaves(n: int) -> list[bytes]:
    return [t.leaf_hash(f"entry {i}".encode()) for i in range(n)]


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 300), st.lists(st.integers(1, 40), min_size=1, max_size=40), st.data())
@pytest.mark.slow
def test_proofs_from_stored_subtrees_are_the_rfc_proofs(n: int, batches: list[int], data: st.DataObject) -> None:
    hashed, known, start = leaves(n), {}, 0  # type: list[bytes], dict[logtree.Key, bytes], int
    for size in batches * (n // sum(batches) + 1):  # appended in batches, as sync does
        if start >= n:
            break
        batch = hashed[start:start + size]
        assert set(logtree.frontier(start)) <= set(known)  # an append reads only the right edge
        logtree.new_nodes(known, start, batch)
        start += len(batch)
    assert len(known) == 2 * n - bin(n).count("1")  # every complete subtree, once
    m = data.draw(st.integers(0, n - 1))
    first = data.draw(st.integers(1, n))
    assert logtree.mth(known, 0, n) == t.root(hashed)
    assert logtree.mth(known, 0, first) == t.root(hashed[:first])
    path = [logtree.mth(known, lo, hi) for lo, hi in logtree.inclusion_ranges(m, n)]
    assert path == t.inclusion_path(m, hashed)
    proof = [logtree.mth(known, lo, hi) for lo, hi in logtree.consistency_ranges(first, n)]
    assert proof == t.consistency_proof(first, hashed)
    # O(log n) stored nodes per answer: the head, one path, one consistency proof
    bound = 2 * n.bit_length()
    assert len(logtree.nodes_of([(0, n)])) <= n.bit_length()
    assert len(logtree.nodes_of(logtree.inclusion_ranges(m, n))) <= bound
    assert len(logtree.nodes_of(logtree.consistency_ranges(first, n))) <= bound


@pytest.mark.slow
def test_the_ledger_stores_the_subtrees_and_answers_from_them(db_url: str) -> None:
    """Entries logged in batches (here written straight into the log, as a log older than
    migration 7 holds them): until a sync stores their subtrees the reader says so (the API
    then rebuilds from the entries); after it, every head and proof is the RFC's."""
    store = open_store(db_url, upgrade=True)
    try:
        docs = [t.entry("created" if i % 4 == 0 else "head", f"g{i % 7}", i, f"{i:064x}") for i in range(70)]
        insert = store._sql("INSERT INTO transparency_log (idx, kind, game_id, seq, hash, logged_at) "  # type: ignore[attr-defined]
                            "VALUES (?, ?, ?, ?, ?, ?)")
        written = 0
        for batch in (1, 2, 5, 8, 13, 20, 21):
            with store._write() as conn:  # type: ignore[attr-defined]
                for i in range(written, written + batch):
                    d = docs[i]
                    conn.execute(insert, (i, d["kind"], d["game_id"], d["seq"], d["hash"], "2026-01-01T00:00:00Z"))
            with logstore.tree(store) as tree:
                assert tree is None
            assert logstore.sync(store) == 0  # no game: nothing new logged, the subtrees caught up
            written += batch
            hashed = logstore.leaf_hashes(docs[:written])
            with logstore.tree(store) as tree:
                assert tree is not None and tree.size == written
                assert tree.root() == t.root(hashed)
                assert tree.inclusion_paths(range(written)) == [t.inclusion_path(m, hashed) for m in range(written)]
                for m in range(1, written + 1):
                    assert tree.root(m) == t.root(hashed[:m])
                    assert tree.consistency_proof(m) == t.consistency_proof(m, hashed)
                assert tree.game_entries("g3", written) == [(i, docs[i]) for i in range(written) if i % 7 == 3]
        with pytest.raises(Exception, match="append-only"):
            with store._write() as conn:  # type: ignore[attr-defined]
                conn.execute("UPDATE transparency_nodes SET hash = 'x'")
        with pytest.raises(Exception, match="append-only"):
            with store._write() as conn:  # type: ignore[attr-defined]
                conn.execute("DELETE FROM transparency_nodes")
    finally:
        store.close()
