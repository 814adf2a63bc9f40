"""Replay page latency in a 10,000-event game (prints figures; not a test, nothing asserts).

    .venv/bin/python bench/replay_bench.py                 # 10,000 events, 60 steps
    .venv/bin/python bench/replay_bench.py --events 2000   # smaller

The game is built with legal actions only (Belgium selecting, placing and picking up units
during set-up, as bench/bench.py's long_game does) in a SQLite ledger; then the replay page
`/games/{id}/replay/{step}` is requested through the Flask app for steps spread over the
whole game, as a spectator would (public view), and its p50/p95 printed. The play page and
the audit page are timed too, for scale.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ledger.factory import open_store  # noqa: E402
from warlog.app import create_app  # noqa: E402


def _long_game():  # bench/bench.py's builder, loaded by path (bench/ is not a package)
    spec = importlib.util.spec_from_file_location("warlog_bench", ROOT / "bench" / "bench.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.long_game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def timed(client, path: str, repeat: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = client.get(path)
        out.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, (path, r.status_code)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/replay.sqlite3"
        store = open_store(url)
        t = time.perf_counter()
        gid = _long_game()(store, args.events)
        last = store.last_seq(gid)
        store.close()
        print(f"built a {last + 1:,}-event game in {time.perf_counter() - t:.1f} s (SQLite, legal set-up moves)")
        app = create_app({"WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0})
        client = app.test_client()
        timed(client, f"/games/{gid}/replay/{last}")  # warm the caches (map, legend, world)
        steps = [last * k // (args.steps - 1) for k in range(args.steps)]
        replay = [ms for s in steps for ms in timed(client, f"/games/{gid}/replay/{s}")]
        size = len(client.get(f"/games/{gid}/replay/{last // 2}").data)
        play = timed(client, f"/games/{gid}", 10)
        audit = timed(client, f"/games/{gid}/audit", 3)
        print(f"replay page, {len(steps)} steps spread over 0..{last:,} (spectator view, {size / 1024:.0f} KiB):")
        print(f"  p50 {statistics.median(replay):7.1f} ms   p95 {percentile(replay, 0.95):7.1f} ms   "
              f"max {max(replay):7.1f} ms")
        print(f"play page (latest state, legal actions):  p50 {statistics.median(play):7.1f} ms")
        print(f"audit page (whole ledger: chain, dice):   p50 {statistics.median(audit):7.1f} ms")
        app.extensions["warlog"].store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
