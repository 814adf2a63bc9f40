"""How many database statements (and connections) judging one move costs on PostgreSQL.

    .venv/bin/python bench/judge_statements.py [--moves 200]

Builds an Assault on Belgium game the way bench.py's "building a game" row does (list the
legal actions, submit one, run the resolver), counting psycopg's executes per phase by
wrapping `psycopg.Cursor.execute`/`executemany` and `psycopg.connect` (the game lock's own session) (psycopg has
no counter of its own). Prints statements and connections per move for each phase, and the
moves/s of the whole loop (with the counters on: a few % slower than bench.py's row).
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psycopg  # noqa: E402
from bench_rules import chooser, started_game  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.factory import open_store  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")

PHASE = ["other"]
COUNTS: collections.Counter[tuple[str, str]] = collections.Counter()
STATEMENTS: collections.Counter[tuple[str, str]] = collections.Counter()


def _install_counters() -> None:
    execute, executemany, connect = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.connect

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS[(PHASE[0], "execute")] += 1
        text = query if isinstance(query, str) else repr(query)
        STATEMENTS[(PHASE[0], " ".join(text.split())[:110])] += 1
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS[(PHASE[0], "execute")] += 1
        STATEMENTS[(PHASE[0], " ".join(str(query).split())[:110])] += 1
        return executemany(self, query, *args, **kwargs)

    def counted_connect(*args: Any, **kwargs: Any) -> Any:
        COUNTS[(PHASE[0], "connect")] += 1
        return connect(*args, **kwargs)

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]
    psycopg.connect = counted_connect  # type: ignore[assignment]  # ledger.postgres's game lock calls this


def build(store: Any, moves: int) -> tuple[int, dict[str, float]]:
    from warlog.games.service import Warlog
    from warlog.judging.queue import InlineQueue
    from warlog.judging.resolver import Resolver

    queue = InlineQueue(store)
    svc = Warlog(store, lambda gid: None)
    created = started_game(svc, "assault-on-belgium")
    gid = created["id"]
    resolver, pick = Resolver(store), chooser(7)
    token = created["seats"]["belgium"]
    viewer = svc.viewer(gid, token)
    spent: dict[str, float] = collections.defaultdict(float)
    for _ in range(moves):
        t0 = time.perf_counter()
        PHASE[0] = "actions"
        listing = svc.actions(gid, viewer)
        legal = [a for a in listing["actions"] if a["type"] in ("select", "place", "unplace")]
        t1 = time.perf_counter()
        PHASE[0] = "submit"
        svc.submit_move(gid, token, pick(legal), listing["expected_seq"], uuid.uuid4().hex)
        t2 = time.perf_counter()
        PHASE[0] = "judge"
        resolver.run(gid)
        t3 = time.perf_counter()
        PHASE[0] = "other"
        spent["actions"] += t1 - t0
        spent["submit"] += t2 - t1
        spent["judge"] += t3 - t2
    queue.pool.shutdown()
    return moves, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--top", type=int, default=12, help="the most frequent statements to list")
    args = parser.parse_args()
    _install_counters()
    schema = f"warlog_bench_judge_{uuid.uuid4().hex[:8]}"
    url = f"{PG}?options=-csearch_path%3D{schema}"
    try:
        open_store(url, upgrade=True).close()
        store = open_store(url)
        COUNTS.clear()
        STATEMENTS.clear()
        start = time.perf_counter()
        moves, spent = build(store, args.moves)
        elapsed = time.perf_counter() - start
        store.close()
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    print(f"{moves} moves built in {elapsed:.2f} s: {moves / elapsed:,.1f} moves/s (counters on)")
    for phase in ("actions", "submit", "judge"):
        print(f"  {phase:<8} {COUNTS[(phase, 'execute')] / moves:6.1f} statements/move, "
              f"{COUNTS[(phase, 'connect')] / moves:4.2f} connections/move, "
              f"{1000 * spent[phase] / moves:6.2f} ms/move")
    print(f"  total    {sum(v for (p, k), v in COUNTS.items() if k == 'execute' and p != 'other') / moves:6.1f} "
          "statements/move")
    print(f"most frequent statements (per move, top {args.top}):")
    for (phase, text), n in STATEMENTS.most_common(args.top):
        if phase != "other":
            print(f"  {n / moves:5.2f} {phase:<8} {text}")


if __name__ == "__main__":
    main()
