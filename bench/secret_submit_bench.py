"""What a submission costs in a game that keeps secrets (hidden information adds a look at the game's
seed periods before each append). Prints p50/p95 of `submit_move` and of judging it, over a Vietnam
Battles Snoopy's Nose game's VC secret set-up repeated by voiding and replaying, on SQLite.

    python bench/secret_submit_bench.py [--moves 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ledger.factory import open_store  # noqa: E402
from warlog.games.service import Warlog  # noqa: E402
from warlog.judging.resolver import Resolver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/bench.sqlite3")
        resolver = Resolver(store)
        svc = Warlog(store, enqueue=lambda gid: None)
        created = svc.create_game("vietnam-battles", "snoopys_nose", {})
        gid, seats = created["id"], created["seats"]
        for token in seats.values():
            svc.join(gid, token)
        submit, judge = [], []
        director = created["director_token"]
        while len(submit) < args.moves:
            info = svc.info(gid)
            if info["active_seats"] != ["vc"]:  # set-up done: void it all and set up again
                first = next(e.seq for e in store.iter_events(gid) if e.type == "resolved" and e.seat is None
                             and e.payload.get("seat") == "vc")
                svc.submit_ruling(gid, director, {"kind": "void", "target": first, "reason": "bench"})
                resolver.run(gid)
                continue
            listing = svc.actions(gid, svc.viewer(gid, seats["vc"]))
            acts = listing["actions"]
            action = acts[len(acts) // 2] if {a["type"] for a in acts} & {"at", "camp"} else acts[0]
            t0 = time.perf_counter()
            svc.submit_move(gid, seats["vc"], action, listing["expected_seq"], f"k{len(submit)}")
            t1 = time.perf_counter()
            resolver.run(gid)
            t2 = time.perf_counter()
            submit.append((t1 - t0) * 1000)
            judge.append((t2 - t1) * 1000)
        last = svc.info(gid)["seq"]
        store.close()

    def pct(xs: list[float], q: int) -> float:
        return statistics.quantiles(xs, n=100)[q - 1]

    print(f"{len(submit)} VC set-up moves, the game growing to {last + 1} events (SQLite)")
    print(f"submit_move: p50 {pct(submit, 50):.2f} ms, p95 {pct(submit, 95):.2f} ms")
    print(f"judge (worker): p50 {pct(judge, 50):.2f} ms, p95 {pct(judge, 95):.2f} ms")


if __name__ == "__main__":
    main()
