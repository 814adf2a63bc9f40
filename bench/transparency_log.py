"""How long the transparency log's answers take at N leaves. Prints figures; asserts nothing.

Two parts:
- in memory (ledger.transparency): the root, one inclusion proof and one consistency proof
  rebuilt from all N leaf hashes, as the /api/v1/log endpoints did before the subtrees were stored;
- on a ledger (ledger.logtree, migration 7): a log of N entries with its stored subtree hashes
  (SQLite in a temporary file by default, or --db postgresql://… on an empty schema), and the
  head, an inclusion proof, 50 of them at once (one game's entries), a consistency proof as the
  endpoints now compute them — with how many stored nodes each read — beside the rebuild from
  the N stored entries (read, hashed, root) that they replace.

    python bench/transparency_log.py [N ...]            (default 100000 1000000)
    python bench/transparency_log.py --db postgresql://postgres@127.0.0.1:5432/test?options=-csearch_path%3Dbench 100000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from ledger import checkpoint, logstore, logtree  # noqa: E402
from ledger import transparency as t  # noqa: E402
from ledger.factory import open_store  # noqa: E402

BATCH = 20_000


def ms(seconds: float) -> str:
    return f"{1000 * seconds:8.2f} ms"


def in_memory(n: int) -> None:
    leaves = [t.leaf_hash(t.entry_bytes(t.entry("head", f"g{i}", i, "0" * 64))) for i in range(n)]
    t0 = time.perf_counter()
    r = t.root(leaves)
    t1 = time.perf_counter()
    path = t.inclusion_path(n // 3, leaves)
    t2 = time.perf_counter()
    t.verify_inclusion(leaves[n // 3], n // 3, n, path, r)
    t3 = time.perf_counter()
    proof = t.consistency_proof(n // 2, leaves)
    t4 = time.perf_counter()
    print(f"{n:>9} leaves, rebuilt in memory: root {ms(t1 - t0)}, inclusion proof {ms(t2 - t1)} "
          f"(verify {ms(t3 - t2).strip()}, {len(path)} hashes), consistency proof {ms(t4 - t3)} ({len(proof)} hashes)")


def on_ledger(n: int, url: str) -> None:
    store = open_store(url, upgrade=True)
    s = store  # a SqlEventStore
    insert = s._sql("INSERT INTO transparency_log (idx, kind, game_id, seq, hash, logged_at) "  # type: ignore[attr-defined]
                    "VALUES (?, ?, ?, ?, ?, ?)")
    t0 = time.perf_counter()
    for lo in range(0, n, BATCH):
        docs = [t.entry("head", f"g{i % 5000}", i, f"{i:064x}") for i in range(lo, min(n, lo + BATCH))]
        with s._write() as conn:  # type: ignore[attr-defined]
            conn.cursor().executemany(insert, [(lo + j, d["kind"], d["game_id"], d["seq"], d["hash"], "2026-01-01")
                                               for j, d in enumerate(docs)])
            logtree.extend(s, conn, lo, logstore.leaf_hashes(docs))  # as sync does, batch by batch
    built = time.perf_counter() - t0
    m, first, game = n // 3, n // 2, "g1234"
    with logstore.tree(store) as tree:
        assert tree is not None and tree.size == n
        t1 = time.perf_counter()
        r = tree.root()
        t2 = time.perf_counter()
        path = tree.inclusion_paths([m])[0]
        t3 = time.perf_counter()
        mine = tree.game_entries(game, n)[:50]
        paths = tree.inclusion_paths([i for i, _ in mine])
        t4 = time.perf_counter()
        proof = tree.consistency_proof(first)
        t5 = time.perf_counter()
        first_root = tree.root(first)
    t.verify_consistency(first, n, first_root, r, proof)
    t.verify_inclusion(t.leaf_hash(t.entry_bytes(t.entry("head", f"g{m % 5000}", m, f"{m:064x}"))), m, n, path, r)
    nodes_head = len(logtree.nodes_of([(0, n)]))
    nodes_path = len(logtree.nodes_of(logtree.inclusion_ranges(m, n)))
    nodes_50 = len(logtree.nodes_of(r_ for i, _ in mine for r_ in logtree.inclusion_ranges(i, n)))
    nodes_cons = len(logtree.nodes_of(logtree.consistency_ranges(first, n)))
    t6 = time.perf_counter()
    rebuilt = t.root(logstore.leaf_hashes(logstore.entries(store)))
    t7 = time.perf_counter()
    page = logstore.entries_range(store, first, first + 999)  # one GET /api/v1/log/entries answer
    stamped = logstore.reached_at(store, first)  # a head's time: when its size was reached
    t8 = time.perf_counter()
    key = Ed25519PrivateKey.generate()
    note = checkpoint.sign(key, "bench.example/log", n, r)
    checkpoint.verify(note, t.public_key_hex(key))
    t9 = time.perf_counter()
    assert len(page) == min(1000, n - first) and stamped
    assert rebuilt == r and len(paths) == len(mine)
    print(f"{n:>9} leaves on {url.split(':')[0]}: log + subtrees written in {built:.1f} s; "
          f"head {ms(t2 - t1)} ({nodes_head} nodes read), inclusion proof {ms(t3 - t2)} ({nodes_path} nodes), "
          f"{len(mine)} of one game's proofs {ms(t4 - t3)} ({nodes_50} nodes), consistency proof {ms(t5 - t4)} "
          f"({nodes_cons} nodes); the rebuild from all {n} entries it replaces: {ms(t7 - t6)}; "
          f"1,000 entries and a head's time {ms(t8 - t7)}; a checkpoint signed and checked {ms(t9 - t8)}")
    store.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[100_000, 1_000_000])
    ap.add_argument("--db", default=None, help="an empty ledger to fill (default: a temporary SQLite file)")
    args = ap.parse_args(argv)
    for n in args.sizes:
        in_memory(n)
    for n in args.sizes:
        if args.db:
            on_ledger(n, args.db)
            break  # one size per given database (it is filled)
        with tempfile.TemporaryDirectory() as tmp:
            on_ledger(n, f"sqlite:///{tmp}/log.sqlite3")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
