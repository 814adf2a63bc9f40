"""Seconds per round of Warlog's FIDE Dutch pairing at 64, 128 and 256 entrants. Prints; asserts nothing.

    python bench/dutch_speed.py              # feed 3 (bbpPairings' matching computer), every recorded round
    python bench/dutch_speed.py --networkx   # also feed 2 (networkx's matching) on the 64-player rounds

The rounds are those of the random tournaments recorded from bbpPairings
(tests/fixtures/pairings/fide-dutch-large.json), each re-paired from the rounds before it as the
tests do; the line says whether the pairing is identical to the recorded one. Wall seconds depend
on what else the machine runs; CPU seconds (this process) are what the pairing itself costs. The
goal is 2 s a round at 256 entrants.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import fide_vectors as fv  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--networkx", action="store_true", help="also time feed 2 (networkx) at 64 players")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    feeds = [(3, None)] + ([(2, 64)] if args.networkx else [])
    for feed, only in feeds:
        wall: dict[int, list[float]] = defaultdict(list)
        cpu: dict[int, list[float]] = defaultdict(list)
        same: dict[int, int] = defaultdict(int)
        for vector in fv.load(fv.LARGE):
            n = vector["players"]
            if only is not None and n != only:
                continue
            for number in range(2, len(vector["rounds"]) + 1):
                w0, c0 = time.perf_counter(), time.process_time()
                got = fv.paired(vector, number, feed=feed)
                wall[n].append(time.perf_counter() - w0)
                cpu[n].append(time.process_time() - c0)
                same[n] += got == fv.expected(vector, number)
        print(f"feed {feed} ({'networkx' if feed < 3 else 'bbpPairings matching computer'}):")
        print(f"{'players':>8} {'rounds':>7} {'identical':>10} {'wall mean':>10} {'wall max':>9} "
              f"{'cpu mean':>9} {'cpu max':>8}")
        for n in sorted(wall):
            print(f"{n:>8} {len(wall[n]):>7} {same[n]:>10} {statistics.mean(wall[n]):>10.2f} {max(wall[n]):>9.2f} "
                  f"{statistics.mean(cpu[n]):>9.2f} {max(cpu[n]):>8.2f}", flush=True)


if __name__ == "__main__":
    main()
