"""CPU-time verify rate of the Vietnam Battles golden ledgers (time.process_time: less sensitive
to other processes' load than wall time). Not a test; prints figures.

    python bench/vb_verify_cpu.py [--rounds 3] [--profile] [--archive DIR]

Each ledger is verified both ways in the same run, rounds interleaved: in place (the default:
a resolved move re-run on the rules' own state) and copying (`verify_events(in_place=False)`,
a copy of the folded state per move, as before), beside the parse-and-hash floor of the same
bytes (parse each line, chain its SHA-256). `--archive DIR`: also every file of a generated
archive (bench/bench_rules.py --archive DIR), one process, summed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ledger.export import parse_export_hashed  # noqa: E402
from warlog.trust.verify import verify_bytes, verify_events  # noqa: E402

LEDGERS = ("vietnam-battles--snoopys_nose--v1.jsonl", "vietnam-battles--iron_triangle--v1.jsonl")


def floor_cpu(data: bytes) -> float:
    """CPU seconds to parse every line and chain its SHA-256 (what any verifier must do)."""
    t = time.process_time()
    chain = b""
    for line in data.splitlines():
        if line.strip():
            json.loads(line)
            chain = hashlib.sha256(chain + line).digest()
    return time.process_time() - t


def verify_cpu(data: bytes, in_place: bool) -> tuple[float, int]:
    """CPU seconds of `warlog verify`'s work on one export (parsing included), and its events."""
    t = time.process_time()
    events, hashes = parse_export_hashed(io.BytesIO(data))
    verify_events(events, hashes=hashes, in_place=in_place)
    return time.process_time() - t, len(events)


def compare(label: str, blobs: list[bytes], rounds: int) -> None:
    """Best of `rounds` (interleaved) for each way, summed over `blobs`."""
    best: dict[str, float] = {}
    events = 0
    for _ in range(rounds):
        totals = {"in place": 0.0, "copying": 0.0, "floor": 0.0}
        events = 0
        for data in blobs:
            cpu, n = verify_cpu(data, True)
            totals["in place"] += cpu
            events += n
            totals["copying"] += verify_cpu(data, False)[0]
            totals["floor"] += floor_cpu(data)
        best = {k: min(v, best.get(k, v)) for k, v in totals.items()}
    rate = {k: events / v for k, v in best.items()}
    print(f"  {label:<48} {events:>7,} events  in place {rate['in place']:8,.0f}/s CPU  "
          f"copying {rate['copying']:8,.0f}/s  ({rate['in place'] / rate['copying']:.2f}x)  "
          f"floor {rate['floor']:8,.0f}/s  in place / floor {rate['in place'] / rate['floor']:.2f}x  "
          f"(best of {rounds}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile", action="store_true", help="also print a cProfile (top 15 by internal time)")
    p.add_argument("--archive", type=Path, default=None, help="also every *.jsonl file in this directory")
    a = p.parse_args()
    for name in LEDGERS:
        data = (ROOT / "tests" / "golden" / name).read_bytes()
        verify_bytes(data)  # warm: the game's data loaded once
        compare(name, [data], a.rounds)
        if a.profile:
            import cProfile
            import pstats
            prof = cProfile.Profile()
            prof.runcall(verify_bytes, data)
            pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    if a.archive is not None:
        blobs = [f.read_bytes() for f in sorted(a.archive.glob("*.jsonl"))]
        for data in blobs:
            verify_bytes(data)  # warm every game's data
        compare(f"archive {a.archive.name} ({len(blobs)} files)", blobs, a.rounds)


if __name__ == "__main__":
    main()
