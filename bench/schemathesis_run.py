"""The long schemathesis run: the published OpenAPI document against a live server on a fresh
PostgreSQL schema, every check (`--checks all`), every phase (examples, coverage, fuzzing and the
stateful phase that follows the document's links), as each role in turn: anonymous, a seated
player (seat token), the game's director (director token) and a signed-in player (personal API
token) who created the game. Prints each role's failures by code and the total (should be 0).

    .venv/bin/python bench/schemathesis_run.py [--examples 100] [--roles anonymous,seat,director,player]
        [--pg postgresql://…] [--seed 1]

The settings and hooks are tests/support/schemathesis.toml and schemathesis_hooks.py; the short
run is tests/api/test_schemathesis.py. Each role's JSON report and output go to --out."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from tests.support.dice_duel import install
    from tests.support.fuzz_server import fuzz_server, run_schemathesis

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="examples per operation")
    parser.add_argument("--roles", default="anonymous,seat,director,player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=tempfile.mkdtemp(prefix="schemathesis-"))
    parser.add_argument("--pg", default=os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    install()  # the toy game the live game is of (its actions are in the document's union)
    logging.disable(logging.INFO)  # the server's access log would drown the report
    out = Path(args.out)
    total = 0
    started = time.monotonic()
    with fuzz_server(args.pg) as server:
        for role in args.roles.split(","):
            t0 = time.monotonic()
            report = run_schemathesis(server, role, args.examples, out / f"{role}.json", seed=args.seed)
            (out / f"{role}.txt").write_text(report.pop("_stdout"))
            failures = report.get("failures", [])
            count = sum(f["count"] for f in failures)
            total += count
            cases = report.get("test_cases", {})
            print(f"{role}: {count} failures, {cases.get('generated', '?')} test cases, {time.monotonic() - t0:.0f} s")
            for f in failures:
                print(f"  {f['code']} {f['title']}: {f['count']} ({', '.join(f['operations'][:6])})")
            if not report.get("complete", False):
                print(f"  the run did not complete: see {out / (role + '.txt')}")
                total += 1
    print(f"schemathesis, all checks, stateful links, PostgreSQL: {total} failures in "
          f"{time.monotonic() - started:.0f} s ({args.examples} examples per operation; reports in {out})")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
