"""How long the transparency log's tree takes (ledger.transparency): the root, one inclusion
proof and one consistency proof over N leaves, as the /api/v1/log endpoints compute them (they
rebuild from the stored entries on each request). Prints figures; asserts nothing.

    python bench/transparency_log.py [N ...]     (default 10000 100000)"""

from __future__ import annotations

import sys
import time

from ledger import transparency as t


def main(sizes: list[int]) -> None:
    for n in sizes:
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
        t.verify_consistency(n // 2, n, t.root(leaves[:n // 2]), r, proof)
        t5 = time.perf_counter()
        t.inclusion_paths(range(0, n, max(1, n // 50)), leaves)  # one game's entries, as /log/proof/<game>
        t6 = time.perf_counter()
        print(f"{n:>8} leaves: root {1000 * (t1 - t0):7.1f} ms, inclusion proof {1000 * (t2 - t1):7.1f} ms "
              f"(verify {1000 * (t3 - t2):.2f} ms, {len(path)} hashes), consistency proof {1000 * (t4 - t3):7.1f} ms "
              f"({len(proof)} hashes), 50 inclusion proofs at once {1000 * (t6 - t5):7.1f} ms")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000])
