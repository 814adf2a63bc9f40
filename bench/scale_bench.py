"""Many games on PostgreSQL: listing, lobby, sweep, queue, memory, disk. Prints
figures; not a test, nothing asserts.

    python bench/scale_bench.py                     # 100,000 games (a few minutes)
    python bench/scale_bench.py --games 1000000     # the issue's million (≈ 20 min, ≈ 2 GB)
    python bench/scale_bench.py --games 20000 --touch 5000 --repeat 50   # quick

A fresh schema in WARLOG_TEST_PG_URL's database (dropped afterwards unless --keep) is upgraded
like a deployment, then filled: `--played` real Assault on Belgium games played through the
service (join, set-up moves judged by the resolver: events, snapshots, idempotency rows), and
synthetic games up to `--games`: a `games` row and a `game_created` event each (the payload of
a real one), created one minute apart, 80% ended, 15% active, 5% waiting, over three game
names. Then it prints:

* list p50/p95 (ms, store.list_games through the pool, so psycopg's prepared generic plans are
  measured too) for each filter, on the first page and at a cursor half-way down that filter;
* the API list and the lobby page p50/p95 (Flask test client, first page and deep), with the
  garbage collector's pauses during each, and what one full collection of the process costs;
* sweep time with 0 and with `--pending` pending games, the RQ queue length after three
  sweeps, and a sweep into RQ when every job is queued already, in one batch (as the sweepers
  do) and a game at a time (as before) (Redis WARLOG_TEST_REDIS_URL; only this bench's queue
  and keys are removed after);
* a web process's RSS before and after touching `--touch` games (GET info of each);
* one synthetic month detached and attached again (ledger.partitions): time, size, chain heads;
* bytes per game on disk (every table and index of the schema / games).

Events, snapshots and idempotency rows are partitioned by month (migration 6): the synthetic
games' months get their partitions before the fill.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger import paging  # noqa: E402
from ledger.factory import open_store  # noqa: E402
from ledger.partitions import add_ahead, add_periods, attach, attached, months  # noqa: E402
from ledger.postgres import PostgresStore  # noqa: E402

PG_URL = os.environ.get("WARLOG_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("WARLOG_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
FILTERS: list[tuple[str | None, str | None]] = [
    (None, None), (None, "waiting"), (None, "active"), (None, "ended"), (None, "open"),
    ("green-beret-vietnam", None), ("vietnam-battles", "waiting"), ("assault-on-belgium", "open"),
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return pct(out, 0.5), pct(out, 0.95)


class GcPauses:
    """The garbage collector's pauses while timing (a p95 far above the p50 can be a
    generation-2 collection): a gc callback notes each collection's generation and length."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._start = 0.0

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append((info["generation"], (time.perf_counter() - self._start) * 1000))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._note)

    def __str__(self) -> str:
        old = [ms for g, ms in self.pauses if g == 2]
        return (f"gc: {len(self.pauses)} collections, longest {max((ms for _, ms in self.pauses), default=0):.1f} ms; "
                f"generation 2: {len(old)}" + (f" (longest {max(old):.1f} ms)" if old else ""))


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def play_real_games(svc: Any, queue: Any, n: int) -> str:
    """n Assault on Belgium games: both seats join, each does its standard set-up; returns one id."""
    gid = ""
    for i in range(n):
        created = svc.create_game("assault-on-belgium", "may-1940", {})
        gid, seats = created["id"], created["seats"]
        for seat in ("belgium", "germany"):
            svc.join(gid, seats[seat], f"{seat}-{i}")
        for seat in ("belgium", "germany"):
            for action in ({"type": "standard_setup"}, {"type": "done_setup"}):
                seq = svc.info(gid)["seq"]
                svc.submit_move(gid, seats[seat], action, seq, uuid.uuid4().hex)
                queue.drain()
    return gid


def fill_synthetic(conn: psycopg.Connection, n: int, template_id: str) -> None:
    """Games rows and game_created events for games s0000001.. created a minute apart."""
    conn.execute(f"""
        INSERT INTO games (game_id, game, scenario, status, created_at, last_seq, active_seats)
        SELECT 's' || lpad(i::text, 8, '0'),
               (ARRAY['assault-on-belgium', 'green-beret-vietnam', 'vietnam-battles'])[1 + i % 3], 'x',
               CASE WHEN i % 20 = 0 THEN 'waiting' WHEN i % 20 < 4 THEN 'active' ELSE 'ended' END,
               to_char(timestamp '2020-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
               0, '[]'
        FROM generate_series(1, {int(n)}) AS i""")
    conn.execute("""
        INSERT INTO events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash, period)
        SELECT g.game_id, 0, 'game_created', NULL, t.payload, g.created_at, t.prev_hash, t.hash, left(g.created_at, 7)
        FROM games g, (SELECT payload, prev_hash, hash FROM events WHERE game_id = %s AND seq = 0) t
        WHERE g.game_id LIKE 's%%'""", (template_id,))


def archive_period(conn: psycopg.Connection, store: PostgresStore, period: str) -> None:
    """Detach and attach one synthetic month (ledger.partitions, the SQL that `warlog archive
    detach/attach` run once a period's games have ended and its bundle is checked: the
    synthetic games neither all end nor verify, so those checks are not timed here)."""
    from ledger.partitions import detach, heads

    t = time.perf_counter()
    before = heads(store, period)
    t_heads = time.perf_counter() - t
    t = time.perf_counter()
    schema = detach(store, period)
    t_detach = time.perf_counter() - t
    size = conn.execute("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
                        "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'", (schema,)).fetchone()[0]
    gone = sum(1 for gid in list(before)[:100] if store.read(gid) == [])
    t = time.perf_counter()
    attach(store, period)
    t_attach = time.perf_counter() - t
    after = heads(store, period)
    print(f"\narchive {period}: {len(before):,} games, {sum(h.events for h in before.values()):,} events; "
          f"chain heads read in {t_heads * 1000:.0f} ms; detach {t_detach * 1000:.0f} ms "
          f"(schema {schema}, {int(size or 0) / 2**20:.1f} MiB; {gone}/100 sampled games unreadable while detached); "
          f"attach {t_attach * 1000:.0f} ms; every chain head identical after: {after == before}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--played", type=int, default=None, help="real played games (default games/500, ≤ 1000)")
    ap.add_argument("--pending", type=int, default=2000)
    ap.add_argument("--touch", type=int, default=None, help="games a web process touches (default min(games, 20000))")
    ap.add_argument("--repeat", type=int, default=200, help="timed calls per figure")
    ap.add_argument("--keep", action="store_true", help="keep the schema (its name is printed)")
    args = ap.parse_args(argv)
    played = args.played if args.played is not None else max(5, min(1000, args.games // 500))
    touch = args.touch if args.touch is not None else min(args.games, 20_000)
    schema = f"warlog_bench_{uuid.uuid4().hex[:10]}"
    url = PostgresStore(PG_URL, schema=schema).url
    os.environ.setdefault("WARLOG_ALLOW_SUPERUSER", "1")  # the bench's own scratch schema
    print(f"scale bench: {args.games:,} games ({played} played) in schema {schema}")
    open_store(url, upgrade=True).close()
    try:
        run(url, schema, args, played, touch)
    finally:
        if not args.keep:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    return 0


def run(url: str, schema: str, args: argparse.Namespace, played: int, touch: int) -> None:
    from warlog.app import create_app

    t0 = time.perf_counter()
    app = create_app({"TESTING": True, "WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0})
    svc, queue, store = app.extensions["warlog"], app.extensions["warlog_queue"], app.extensions["warlog"].store
    add_ahead(store)  # this month's partitions, for the played games
    template = play_real_games(svc, queue, played)
    t1 = time.perf_counter()
    synthetic = max(0, args.games - played)
    periods = months("2020-01", synthetic // (60 * 24 * 28) + 2)  # one game a minute from 2020-01-01
    add_periods(store, periods)
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        fill_synthetic(conn, max(0, args.games - played), template)
        conn.execute("VACUUM ANALYZE")
        t2 = time.perf_counter()
        print(f"fill: {played} played games in {t1 - t0:.1f} s, {args.games - played:,} synthetic in {t2 - t1:.1f} s; "
              f"{len(attached(store))} monthly partitions")

        print(f"\nlist (ms, {args.repeat} calls each)        first page p50 / p95    at depth p50 / p95   (depth)"
              "    last page p50 / p95")
        for game, status in FILTERS:
            where = " AND ".join(filter(None, [f"game = '{game}'" if game else None,
                                               "status <> 'ended'" if status == "open" else
                                               (f"status = '{status}'" if status else None)]))
            total = conn.execute(f"SELECT count(*) FROM games {'WHERE ' + where if where else ''}").fetchone()[0]
            depth = total // 2
            row = conn.execute(f"SELECT created_at, game_id FROM games {'WHERE ' + where if where else ''} "
                               f"ORDER BY created_at DESC, game_id DESC OFFSET {depth} LIMIT 1").fetchone()
            last = conn.execute(f"SELECT created_at, game_id FROM games {'WHERE ' + where if where else ''} "
                                f"ORDER BY created_at, game_id OFFSET {paging.DEFAULT_LIMIT} LIMIT 1").fetchone()
            first = timed(lambda: store.list_games(game=game, status=status, limit=paging.DEFAULT_LIMIT + 1),
                          args.repeat)
            end = timed(lambda: store.list_games(game=game, status=status, limit=paging.DEFAULT_LIMIT + 1,
                                                 before=(last[0], last[1])), args.repeat) if last else (0.0, 0.0)
            deep = timed(lambda: store.list_games(game=game, status=status, limit=paging.DEFAULT_LIMIT + 1,
                                                  before=(row[0], row[1])), args.repeat) if row else (0.0, 0.0)
            label = f"game={game or '*'} status={status or '*'}"
            print(f"  {label:<44} {first[0]:6.2f} / {first[1]:6.2f}      {deep[0]:6.2f} / {deep[1]:6.2f}   "
                  f"({depth:,})   {end[0]:6.2f} / {end[1]:6.2f}")

        client = app.test_client()
        mid = conn.execute("SELECT created_at, game_id FROM games ORDER BY created_at DESC, game_id DESC "
                           f"OFFSET {args.games // 2} LIMIT 1").fetchone()
        cursor = paging.encode(paging.Position(mid[0], mid[1]))
        n = max(20, args.repeat // 4)
        for label, path in (("API /api/v1/games", "/api/v1/games"),
                            ("API /api/v1/games?status=waiting", "/api/v1/games?status=waiting"),
                            ("API /api/v1/games deep", f"/api/v1/games?cursor={cursor}"),
                            ("lobby /", "/"), ("lobby / deep", f"/?status=all&cursor={cursor}")):
            with GcPauses() as pauses:
                p50, p95 = timed(lambda: client.get(path), n)
            print(f"  {label:<44} {p50:6.2f} / {p95:6.2f}  (ms, {n} requests; {pauses})")

        t = time.perf_counter()
        gc.collect()
        print(f"  (a full gc collection in this process, {len(gc.get_objects()):,} objects: "
              f"{(time.perf_counter() - t) * 1000:.0f} ms)")

        from warlog.judging.queue import RQQueue, sweep

        p50, p95 = timed(lambda: sweep(store, lambda g: None), args.repeat)
        print(f"\nsweep with 0 pending: p50 {p50:.2f} ms, p95 {p95:.2f} ms")
        conn.execute(f"""INSERT INTO events (game_id, seq, type, seat, payload, recorded_at, prev_hash, hash, period)
                         SELECT game_id, 1, 'submitted', 'x', '{{}}', created_at, 'p', 'h', left(created_at, 7)
                         FROM games
                         WHERE game_id LIKE 's%' AND status = 'active' ORDER BY game_id LIMIT {args.pending}""")
        pending = len(store.pending_games())
        p50, p95 = timed(lambda: sweep(store, lambda g: None), args.repeat)
        print(f"sweep with {pending:,} pending: p50 {p50:.2f} ms, p95 {p95:.2f} ms")
        rq = RQQueue(REDIS_URL)
        rq.queue.empty()
        lengths, took = [], []
        for _ in range(3):  # as the sweepers do: one batch (warlog.judging.onejob.claim_many)
            t = time.perf_counter()
            sweep(store, rq.enqueue, rq.enqueue_many)
            took.append((time.perf_counter() - t) * 1000)
            lengths.append(rq.queue.count)
        print(f"RQ queue length after each of three sweeps: {', '.join(map(str, lengths))} ({pending:,} pending games); "
              f"each sweep into RQ took {', '.join(f'{ms:.1f}' for ms in took)} ms")
        batch = timed(lambda: sweep(store, rq.enqueue, rq.enqueue_many), 20)
        single = timed(lambda: sweep(store, rq.enqueue), 3)
        print(f"sweep into RQ with every job queued already: one batch p50 {batch[0]:.1f} ms, p95 {batch[1]:.1f} ms "
              f"(20 sweeps); a game at a time p50 {single[0]:.0f} ms (3 sweeps; the sweep before the batch)")
        rq.queue.empty()
        from warlog.judging import onejob

        for game_id in store.pending_games():
            onejob.release(rq.redis, game_id)

        ids = [r[0] for r in conn.execute(f"SELECT game_id FROM games ORDER BY game_id LIMIT {touch}")]
        before = rss_mib()
        half = len(ids) // 2
        for gid in ids[:half]:
            svc.info(gid)
        middle = rss_mib()
        for gid in ids[half:]:
            svc.info(gid)
        after = rss_mib()
        print(f"\nweb process RSS: {before:.0f} MiB before, {middle:.0f} MiB after {half:,} games, "
              f"{after:.0f} MiB after {len(ids):,} (cached creation records: {len(svc._created):,})")

        middle = datetime(2020, 1, 1) + timedelta(minutes=max(1, synthetic // 2))
        archive_period(conn, store, middle.strftime("%Y-%m"))

        size = conn.execute("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                            "JOIN pg_namespace n ON n.oid = c.relnamespace "
                            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') AND NOT c.relispartition",
                            (schema,)).fetchone()[0]
        tables = conn.execute("SELECT c.relname, CASE WHEN c.relkind = 'p' THEN (SELECT sum(pg_total_relation_size("
                              "i.inhrelid)) FROM pg_inherits i WHERE i.inhparent = c.oid) "
                              "ELSE pg_total_relation_size(c.oid) END FROM pg_class c "
                              "JOIN pg_namespace n ON n.oid = c.relnamespace "
                              "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') AND NOT c.relispartition "
                              "ORDER BY 2 DESC NULLS LAST", (schema,)).fetchall()
        size = sum(int(b or 0) for _, b in tables)
        print(f"disk: {size / args.games:,.0f} bytes per game ({size / 2**20:,.0f} MiB in all: "
              + ", ".join(f"{name} {int(b or 0) / 2**20:,.1f}" for name, b in tables) + " MiB)")
    app.extensions["warlog_sweeper_stop"].set()
    store.close()


if __name__ == "__main__":
    sys.exit(main())
