"""Warlog's Swiss pairing against the FIDE-endorsed Dutch engine's, on every recorded round.

    python bench/fide_dutch_check.py            # feed 2 (new tournaments), all 150 tournaments
    python bench/fide_dutch_check.py --feed 1   # how tournaments created before feed 2 are paired

Prints, by field size, the rounds re-paired identically (tables and sides), those that differ
only in sides, and the slowest round. The data: tests/fixtures/pairings/fide-dutch.json
(tools/fide_dutch_vectors.py). The suite replays the tournaments of up to 20 players.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import fide_vectors as fv  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--feed", type=int, default=2, choices=(1, 2))
    args = ap.parse_args()
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    for vector in fv.load():
        band = f"{(vector['players'] - 1) // 10 * 10 + 1:>2}-{((vector['players'] - 1) // 10 + 1) * 10:<2}"
        for number in range(2, len(vector["rounds"]) + 1):
            start = time.perf_counter()
            got = fv.paired(vector, number, feed=args.feed)
            took = time.perf_counter() - start
            want = fv.expected(vector, number)
            row = rows[band]
            row[0] += 1
            row[1] += got == want
            row[2] += got != want and sorted(map(sorted, got[0])) == sorted(map(sorted, want[0]))
            row[3] = max(row[3], took)
    print(f"feed {args.feed}: Warlog's Dutch pairing vs bbpPairings, rounds 2.. of each recorded tournament")
    print(f"{'players':>8} {'rounds':>7} {'identical':>10} {'sides only':>11} {'slowest s':>10}")
    for band in sorted(rows):
        n, same, sides, slow = rows[band]
        print(f"{band:>8} {int(n):>7} {int(same):>10} {int(sides):>11} {slow:>10.2f}")
    total = [sum(r[i] for r in rows.values()) for i in range(3)]
    print(f"{'all':>8} {int(total[0]):>7} {int(total[1]):>10} {int(total[2]):>11}")


if __name__ == "__main__":
    main()
