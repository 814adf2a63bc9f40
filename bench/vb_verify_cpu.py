"""CPU-time verify rate of the Vietnam Battles golden ledgers (time.process_time: less sensitive
to other processes' load than wall time). Not a test; prints figures.

    python bench/vb_verify_cpu.py [--rounds 3] [--profile]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from warlog.trust.verify import verify_bytes  # noqa: E402

LEDGERS = ("vietnam-battles--snoopys_nose--v1.jsonl", "vietnam-battles--iron_triangle--v1.jsonl")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile", action="store_true", help="also print a cProfile (top 15 by internal time)")
    a = p.parse_args()
    for name in LEDGERS:
        data = (ROOT / "tests" / "golden" / name).read_bytes()
        times = []
        for _ in range(a.rounds):
            t = time.process_time()
            report = verify_bytes(data)
            times.append(time.process_time() - t)
        cpu = statistics.median(times)
        print(f"  {name:<48} {report.events:>6,} events  {cpu:6.2f} s CPU  {report.events / cpu:8,.0f} events/s CPU "
              f"(median of {a.rounds})", flush=True)
        if a.profile:
            import cProfile
            import pstats
            prof = cProfile.Profile()
            prof.runcall(verify_bytes, data)
            pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
