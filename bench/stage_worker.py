"""`worker.py`, with each judging run timed into Redis, for bench/bench_e2e.py's stage breakdown.

Bench-only instrumentation (the worker itself records nothing): every `Resolver.run` pushes
`[game_id, entered, left, judged, pid, seconds in the on_judged hooks]` (Unix times) onto the Redis list STAGES_KEY of the URL in
WARLOG_BENCH_STAGES. One RPUSH per run, after the run: its cost is in the figure it measures.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STAGES_KEY = "warlog:bench:runs"


def instrument(redis_url: str) -> None:
    import redis

    from warlog.judging.resolver import Resolver

    conn = redis.Redis.from_url(redis_url)
    original, tell = Resolver.run, Resolver._tell
    hooks = [0.0]  # seconds in the on_judged hooks during the current run

    def timed_tell(self: Resolver, judged: Any) -> None:
        t = time.perf_counter()
        try:
            tell(self, judged)
        finally:
            hooks[0] += time.perf_counter() - t

    def run(self: Resolver, game_id: str, lock_timeout: float = 60.0) -> int:
        entered, judged, hooks[0] = time.time(), 0, 0.0
        try:
            judged = original(self, game_id, lock_timeout)
            return judged
        finally:
            conn.rpush(STAGES_KEY, json.dumps([game_id, entered, time.time(), judged, os.getpid(), hooks[0]]))

    Resolver.run = run  # type: ignore[method-assign]
    Resolver._tell = timed_tell  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> Any:
    """Run worker.py instrumented; with WARLOG_BENCH_PROFILE (a directory), under cProfile (wall
    time), its stats written there as worker-<pid>.prof when the worker ends."""
    instrument(os.environ["WARLOG_BENCH_STAGES"])
    if os.environ.get("BENCH_DRAIN_THREADS"):  # an A/B of the drainer's waiters (warlog.judging.drainer.THREADS)
        from warlog.judging import drainer

        drainer.THREADS = int(os.environ["BENCH_DRAIN_THREADS"])
    import worker

    out = os.environ.get("WARLOG_BENCH_PROFILE")
    if not out:
        return worker.main(argv)
    import cProfile

    prof = cProfile.Profile()
    try:
        return prof.runcall(worker.main, argv)
    finally:
        prof.dump_stats(f"{out}/worker-{os.getpid()}.prof")


if __name__ == "__main__":
    sys.exit(main())
