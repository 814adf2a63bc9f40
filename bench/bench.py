"""Warlog benchmarks: prints figures for the machine it runs on (not a test; nothing asserts).

    python bench/bench.py            # everything (needs PostgreSQL and Redis, like the tests)
    python bench/bench.py --quick    # smaller counts
    python bench/bench.py --only e2e # one figure (appends, e2e, state, judge, rules, archive)

Figures:
1. ledger appends/s on SQLite and PostgreSQL, beside the `eventsourcing` library's aggregate
   recorder and a raw chained INSERT (the commit limit) inserting the same number of same-sized
   events on the same backend, and 8 writers on 8 games beside one (bench/bench_append.py);
2. moves resolved/s end to end (HTTP client -> Flask -> ledger -> RQ -> 2 worker processes ->
   ledger), beside a bare no-op RQ job rate through the same Redis and 2 workers, and beside the
   fair anchor played by the same client under the same gunicorn settings (bench/bare_anchor.py:
   Flask + PostgreSQL + RQ, one INSERT and one enqueue a move), with each one's web CPU per move;
3. state-at-step latency and the replay page in a 100,000-event game (built in memory and
   imported: bench/fast_game.py), the audit page on its first 10,000 events;
4. verify events/s on those 10,000 events;
5. per-game rules step time (legal actions + apply), from the golden ledgers (bench/bench_rules.py);
6. verify on a generated archive of bot games (1,000 games, or 20 with --quick).
Last, a table: every row of the performance table, the figure now, its anchor and the goal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_append  # noqa: E402
import bench_e2e  # noqa: E402
import bench_rules  # noqa: E402
import bench_why  # noqa: E402
import psycopg  # noqa: E402
from bench_append import time_appends  # noqa: E402
from bench_rules import chooser, started_game  # noqa: E402
from psycopg import sql  # noqa: E402
from web_cpu import quiet_stderr  # noqa: E402

from ledger.factory import open_store  # noqa: E402
from ledger.store import EventStore  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("WARLOG_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
GAME = "assault-on-belgium"
FIG: dict[str, float] = {}  # what the closing table prints


def say(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)


class PgSchema:
    """A throwaway PostgreSQL schema for one figure."""

    def __init__(self) -> None:
        self.name = f"warlog_bench_{uuid.uuid4().hex[:10]}"

    @property
    def url(self) -> str:
        return f"{PG}?options=-csearch_path%3D{self.name}&application_name=warlog-bench"

    def drop(self) -> None:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.name)))


def long_game(store: EventStore, events: int, judging: list[float] | None = None,
              profile: Any = None) -> str:
    """A legal game of `events` events: Belgium placing and picking up units during set-up.
    `judging`, if given, gets the seconds spent inside each `Resolver.run` (the worker's share);
    `profile`, a cProfile.Profile, is enabled inside each `Resolver.run` alone."""
    from warlog.games.service import Warlog
    from warlog.judging.queue import InlineQueue
    from warlog.judging.resolver import Resolver

    queue = InlineQueue(store)
    svc = Warlog(store, lambda gid: None)
    created = started_game(svc, GAME)
    gid = created["id"]
    resolver, pick = Resolver(store), chooser(7)
    token = created["seats"]["belgium"]
    viewer = svc.viewer(gid, token)
    while store.last_seq(gid) < events - 2:
        listing = svc.actions(gid, viewer)
        legal = [a for a in listing["actions"] if a["type"] in ("select", "place", "unplace")]
        svc.submit_move(gid, token, pick(legal), listing["expected_seq"], uuid.uuid4().hex)
        t = time.perf_counter()
        if profile is not None:
            profile.enable()
        resolver.run(gid)
        if profile is not None:
            profile.disable()
        if judging is not None:
            judging.append(time.perf_counter() - t)
    queue.pool.shutdown()
    return gid


def figure_state_and_verify(events: int, audit_events: int) -> None:
    """State at a step and the replay page at `events` events, the audit page and verify at
    `audit_events` (a prefix of the same game): built in memory by bench/fast_game.py and
    imported once into each ledger, with the snapshots the worker leaves."""
    import fast_game

    from ledger.events import RESOLVED
    from warlog.games.history import StoreHistory
    from warlog.trust.verify import verify_events

    print(f"3. state at a step in a {events:,}-event game (SQLite and PostgreSQL)")
    t0 = time.perf_counter()
    evs, secret = fast_game.build_events(events)
    say(f"building the game in memory (judging {len(evs) // 2:,} moves)", f"{time.perf_counter() - t0:.1f} s, "
        f"{len(evs):,} events")
    prefix = evs[:audit_events]
    while prefix[-1].type != RESOLVED:
        prefix.pop()
    schema = PgSchema()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for label, url in (("SQLite", f"sqlite:///{tmp}/w.sqlite3"), ("PostgreSQL", schema.url)):
                if label == "PostgreSQL":
                    open_store(url, upgrade=True).close()
                store = open_store(url)
                t0 = time.perf_counter()
                gid = fast_game.import_game(store, evs, secret)
                say(f"{label} importing it with snapshots", f"{time.perf_counter() - t0:.1f} s")
                last = store.last_seq(gid)
                steps = [last * k // 20 for k in range(1, 21)]
                for snaps in (True, False):
                    hist = StoreHistory(store, gid, snapshots=snaps)
                    times = []
                    for s in steps if snaps else steps[:3]:  # without: a fold of the whole game per step
                        t = time.perf_counter()
                        hist.state_at(s)
                        times.append((time.perf_counter() - t) * 1000)
                    times.sort()
                    if snaps:
                        FIG[f"state {label}"] = statistics.median(times)
                        if label == "PostgreSQL":
                            bench_why.capture(STATE_ROW, lambda h=hist: [h.state_at(s) for s in steps])
                    say(f"{label} state_at, {'with' if snaps else 'without'} snapshots ({len(times)} steps)",
                        f"p50 {statistics.median(times):.1f} ms, p95 {times[max(0, int(len(times) * 0.95) - 1)]:.1f} ms")
                store.close()
                replay = time_replay(url, gid, last)
                FIG[f"replay {label}"] = replay[1]
                say(f"{label} replay page, 40 steps over 0..{last:,}", f"p50 {replay[0]:.1f} ms, p95 {replay[1]:.1f} ms")
                store = open_store(url)
                agid = fast_game.import_game(store, fast_game.renamed(prefix), secret)
                store.close()
                cold, warm = time_audit(url, agid)
                FIG[f"audit {label}"] = warm
                if label == "SQLite":
                    FIG["audit"] = warm
                    bench_why.capture(AUDIT_ROW, lambda u=url, g=agid: time_audit(u, g, rounds=2))
                say(f"{label} audit page, {len(prefix):,}-event game", f"first {cold:.0f} ms, then p50 {warm:.1f} ms")
        print(f"4. verify ({len(prefix):,} events, every move re-run through the rules)")
        t = time.perf_counter()
        report = verify_events(prefix)
        FIG["verify one"] = len(prefix) / (time.perf_counter() - t)
        say("verify", f"{FIG['verify one']:,.0f} events/s  ({report.judgements} judgements)")
    finally:
        schema.drop()


@contextlib.contextmanager
def judge_phases() -> Iterator[dict[str, float]]:
    """Seconds spent, while it is open, in each phase of the resolver's judgements on PostgreSQL:
    the lock's attempt with its reads (one round trip), the rules' judgement, the ledger append
    made by the resolver (one round trip and the commit), the unlock (one round trip)."""
    from ledger import pglocks
    from ledger.postgres import PostgresStore
    from warlog.judging.resolver import Resolver

    spent = {"lock + reads": 0.0, "judgement (rules)": 0.0, "append + commit": 0.0, "unlock": 0.0}
    in_resolver = [False]
    saved = []

    def timed(owner: Any, name: str, phase: str, only_in_resolver: bool = False) -> None:
        inner = getattr(owner, name)
        saved.append((owner, name, inner))

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                if in_resolver[0] or not only_in_resolver:
                    spent[phase] += time.perf_counter() - t
        setattr(owner, name, wrapper)

    run = Resolver.run

    def resolver_run(self: Any, *args: Any, **kwargs: Any) -> Any:
        in_resolver[0] = True
        try:
            return run(self, *args, **kwargs)
        finally:
            in_resolver[0] = False
    saved.append((Resolver, "run", run))
    Resolver.run = resolver_run  # type: ignore[method-assign]
    timed(pglocks.LockSessions, "_session_with_try", "lock + reads", True)
    timed(Resolver, "_judgement", "judgement (rules)")
    timed(PostgresStore, "append", "append + commit", True)
    timed(pglocks.LockSessions, "_release", "unlock", True)
    try:
        yield spent
    finally:
        for owner, name, inner in reversed(saved):
            setattr(owner, name, inner)


def figure_judging(events: int) -> None:
    """Only the "judging moves on PostgreSQL" row: building a game of `events` events (list the
    legal actions, submit, judge each move), as figure 3 does on its 10,000-event game."""
    print(f"3b. judging moves on PostgreSQL (building a {events:,}-event game)")
    schema = PgSchema()
    try:
        open_store(schema.url, upgrade=True).close()
        store = open_store(schema.url)
        t0 = time.perf_counter()
        judging: list[float] = []
        with judge_phases() as phases:
            gid = long_game(store, events, judging)
        build = time.perf_counter() - t0
        last = store.last_seq(gid)
        store.close()
        FIG["build PostgreSQL"] = last / 2 / build
        FIG["judge PostgreSQL"] = len(judging) / sum(judging)
        say(f"PostgreSQL building the game (judging {last // 2} moves)", f"{last / build:,.0f} events/s, "
            f"{last / 2 / build:,.0f} moves/s (the full cycle: list actions, submit, judge)")
        say("  of which the worker's judging alone (inside Resolver.run)",
            f"{FIG['judge PostgreSQL']:,.0f} moves/s ({1000 * sum(judging) / len(judging):.2f} ms a move: "
            f"lock, read, judge, append, unlock)")
        inside = 1000 * sum(judging) / len(judging)
        parts = {k: 1000 * v / len(judging) for k, v in phases.items()}
        say("  where a move's judging goes, ms (wall)", ", ".join(f"{k} {v:.3f}" for k, v in parts.items())
            + f", the rest {inside - sum(parts.values()):.3f}")
    finally:
        schema.drop()
    # its anchor, in the same run: the commit limit (one chained INSERT a transaction), median of 3
    raw = []
    for _ in range(3):
        where = f"warlog_bench_{uuid.uuid4().hex[:10]}_raw"
        try:
            raw.append(bench_append.time_raw("postgres", 1000, where))
        finally:
            bench_append.drop_schemas(where)
    FIG["judge raw PostgreSQL"] = statistics.median(raw)
    say("  its anchor: raw chained INSERT, autocommit (the commit limit)",
        f"{FIG['judge raw PostgreSQL']:,.0f} inserts/s  (judging / raw "
        f"{FIG['judge PostgreSQL'] / FIG['judge raw PostgreSQL']:.2f}; goal >= 0.5)")


def time_replay(url: str, gid: str, last: int, steps: int = 40) -> tuple[float, float]:
    """The replay page (as a spectator) at `steps` steps spread over the game: (p50, p95) ms,
    after one request that warms the map caches."""
    from warlog.app import create_app

    with quiet_stderr():  # its access lines (formatted and written, as deployed) are not our output
        app = create_app({"WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0, "WARLOG_ALLOW_SUPERUSER": True})
    client = app.test_client()
    assert client.get(f"/games/{gid}/replay/{last}").status_code == 200
    times = []
    for k in range(steps):
        t = time.perf_counter()
        r = client.get(f"/games/{gid}/replay/{last * k // (steps - 1)}")
        times.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.status_code
    app.extensions["warlog"].store.close()
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]


def time_audit(url: str, gid: str, rounds: int = 7) -> tuple[float, float]:
    """The audit page (as a spectator) of game `gid`: the first request's ms (it reads and checks
    every event) and the p50 ms of the `rounds` after it (the events after the last one seen)."""
    from warlog.app import create_app

    with quiet_stderr():  # its access lines (formatted and written, as deployed) are not our output
        app = create_app({"WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0, "WARLOG_ALLOW_SUPERUSER": True})
    client = app.test_client()
    times = []
    for _ in range(rounds + 1):
        t = time.perf_counter()
        r = client.get(f"/games/{gid}/audit")
        times.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.status_code
    app.extensions["warlog"].store.close()
    return times[0], statistics.median(times[1:])


def load() -> str:
    """The machine's load average (1, 5, 15 minutes): what every timed figure here depends on."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def table() -> None:
    """The performance table: each row's figure now beside its anchor and goal (n/a: not run)."""
    def f(key: str, fmt: str = "{:,.0f}") -> str:
        return fmt.format(FIG[key]) if key in FIG else "n/a"

    def ratio(a: str, b: str) -> str:
        return f"{FIG[a] / FIG[b]:.2f}x" if a in FIG and b in FIG else "n/a"

    if FIG.get("web rss start") and FIG.get("worker rss start"):
        FIG["rss growth"] = max(FIG["web rss"] / FIG["web rss start"], FIG["worker rss"] / FIG["worker rss start"])

    rows = [
        ("verify, archive (events/s, x floor)", f"{f('verify archive')} ({ratio('verify archive', 'verify floor')})",
         f"{f('verify floor')} floor", ">= 0.4x floor"),
        (LONG_ROW, f("verify long"), "-", ">= 10,000"),
        (LONG_FLOOR_ROW, f"{f('verify long one')} ({ratio('verify long one', 'verify long floor')})",
         f"{f('verify long floor')} floor", ">= 0.3x floor"),
        (E2E_ROW, f"{f('e2e', '{:,.1f}')} ({ratio('e2e', 'anchor e2e')})", f"{f('anchor e2e', '{:,.1f}')} bare",
         ">= 1.0x bare"),
        (P95_ROW, f("p95"), "-", "<= 100"),
        (OPEN_ROW, f("open p95"), "-", "<= 100"),
        (STATEMENTS_ROW, f("statements", "{:.2f}"), f"{f('anchor statements', '{:.2f}')} bare", "<= 6"),
        (RSS_ROW, f"{f('web rss')} / {f('worker rss')} ({f('rss growth', '{:.2f}')}x)",
         f"{f('web rss start')} / {f('worker rss start')}", "<= 1.10x start"),
        (ES_ROWS[0], f"{f('append PostgreSQL')} ({ratio('append PostgreSQL', 'es PostgreSQL')})",
         f"{f('es PostgreSQL')} es", ">= 1.2x"),
        (ES_ROWS[1], f"{f('append SQLite')} ({ratio('append SQLite', 'es SQLite')})", f"{f('es SQLite')} es",
         ">= 1.2x"),
        (RAW_ROWS[0], f"{f('append PostgreSQL')} ({ratio('append PostgreSQL', 'raw PostgreSQL')})",
         f"{f('raw PostgreSQL')} raw", ">= 0.9x"),
        (RAW_ROWS[1], f"{f('append SQLite')} ({ratio('append SQLite', 'raw SQLite')})", f"{f('raw SQLite')} raw",
         ">= 0.9x"),
        # anchor: the raw chained INSERT's own 8-writer ratio in this run (what the machine allows)
        (WRITER_ROWS[0], f"{f('writers PostgreSQL')} ({ratio('writers PostgreSQL', 'append PostgreSQL')})",
         f"raw {ratio('raw writers PostgreSQL', 'raw PostgreSQL')}", ">= 3x"),
        (WRITER_ROWS[1], f"{f('writers SQLite')} ({ratio('writers SQLite', 'append SQLite')})",
         f"raw {ratio('raw writers SQLite', 'raw SQLite')}", ">= 3x"),
        (JUDGE_ROW, f"{f('judge PostgreSQL')} ({ratio('judge PostgreSQL', 'judge raw PostgreSQL')})",
         f"{f('judge raw PostgreSQL')} raw", ">= 0.5x raw"),
        (AUDIT_ROW, f("audit"), "-", "<= 50"),
        (WEB_ROW, f"{f('web ms', '{:.1f}')} ({ratio('web ms', 'anchor web ms')})", f"{f('anchor web ms', '{:.1f}')} bare",
         "<= 1.3x bare"),
        (STATE_ROW, f("state PostgreSQL", "{:.1f}"), "-", "<= 5 at 100 k"),
        (REPLAY_ROW, f("replay SQLite", "{:.1f}"), "-", "<= 30 at 100 k"),
    ]
    print(f"\nThe performance table (this run; load average now {load()})")
    print(f"  {'figure':<40} {'now':>18}  {'anchor':>18}  {'goal':>16}")
    for name, now, anchor, goal in rows:
        print(f"  {name:<40} {now:>18}  {anchor:>18}  {goal:>16}")
    misses(rows)


AUDIT_ROW = "audit page p50 (ms)"
LONG_ROW = "verify, longest Vietnam Battles game (events/s)"
LONG_FLOOR_ROW = "the same, one process (events/s, x floor)"
RSS_ROW = "web / worker RSS after the games (MB, x)"
JUDGE_ROW = "judging on PostgreSQL (moves/s, x raw)"
P95_ROW = "p95 submit -> resolved (ms)"
E2E_ROW = "moves resolved/s e2e (x bare anchor)"
OPEN_ROW = "open loop at half rate: p95 POST -> judged (ms)"
STATEMENTS_ROW = "SQL statements per move, web (POST lists)"
WEB_ROW = "web CPU ms per move (x bare anchor)"
ES_ROWS = ("PostgreSQL append vs eventsourcing", "SQLite append vs eventsourcing")
RAW_ROWS = ("PostgreSQL append vs raw chained INSERT", "SQLite append vs raw chained INSERT")
WRITER_ROWS = ("PostgreSQL 8 writers vs one (appends/s)", "SQLite 8 writers vs one (appends/s)")
STATE_ROW = "state at a step p50 (ms), PostgreSQL"
REPLAY_ROW = "replay page p95 (ms), SQLite"


def misses(rows: list[tuple[str, str, str, str]]) -> None:
    """For every row that misses its goal: the ratio, and a profile of (a share of) its work."""
    from bench_why import profile_text

    def ratio(a: str, b: str) -> float | None:
        return FIG[a] / FIG[b] if a in FIG and b in FIG else None

    def prof_verify() -> str:
        from warlog.trust.verify import verify_bytes
        path = max(bench_rules.GOLDEN.glob("vietnam-battles--*.jsonl"), key=lambda p: p.stat().st_size)
        return profile_text(lambda: verify_bytes(path.read_bytes()))

    def prof_appends(backend: str) -> Any:
        def run() -> str:
            if backend == "SQLite":
                with tempfile.TemporaryDirectory() as tmp:
                    return profile_text(lambda: time_appends(open_store(f"sqlite:///{tmp}/w.sqlite3"), 300))
            schema = PgSchema()
            try:
                store = open_store(schema.url, upgrade=True)
                text = profile_text(lambda: time_appends(store, 300))
                store.close()
                return text
            finally:
                schema.drop()
        return run

    def prof_judging() -> str:
        schema = PgSchema()
        try:
            open_store(schema.url, upgrade=True).close()
            store = open_store(schema.url)
            text = profile_text(lambda: long_game(store, 400))
            store.close()
            return text
        finally:
            schema.drop()

    def prof_resolver() -> str:
        schema = PgSchema()
        try:
            open_store(schema.url, upgrade=True).close()
            store = open_store(schema.url)
            text = bench_why.profile_of(lambda prof: long_game(store, 400, profile=prof))
            store.close()
            return text
        finally:
            schema.drop()

    def prof_web() -> str:
        import move_cost

        def listing(prof: Any) -> None:
            move_cost.PROFILE = prof  # enabled inside each request alone (not the app's creation)
            try:
                move_cost.run_listing(30, quiet=True)
            finally:
                move_cost.PROFILE = None
        return bench_why.profile_of(listing)

    e2e_what = ("in-process share only: the API's submit and the worker's judging of 200 moves on PostgreSQL "
                "(RQ, HTTP and process hops are not in a cProfile of one process)")
    spec = [  # (row name, now, goal, higher is better, what the profile shows, lazy profiler)
        (rows[0][0], ratio("verify archive", "verify floor"), 0.4, True,
         "verify_bytes of the longest golden Vietnam Battles ledger (one process)", prof_verify),
        (LONG_ROW, FIG.get("verify long"), 10_000.0, True,
         "verify_bytes of the longest golden Vietnam Battles ledger (one process)", prof_verify),
        (LONG_FLOOR_ROW, ratio("verify long one", "verify long floor"), 0.3, True,
         "verify_bytes of the longest golden Vietnam Battles ledger (one process)", prof_verify),
        (RSS_ROW, FIG.get("rss growth"), 1.10, False, "(memory: no profile)", None),
        (E2E_ROW, ratio("e2e", "anchor e2e"), 1.0, True, e2e_what, prof_judging),
        (WEB_ROW, ratio("web ms", "anchor web ms"), 1.3, False, "30 moves in-process as the client \"listing\" "
         "makes them (the POST that waits and lists, GET the actions when the turn passes)", prof_web),
        (P95_ROW, FIG.get("p95"), 100.0, False, e2e_what, prof_judging),
        (OPEN_ROW, FIG.get("open p95"), 100.0, False, e2e_what, prof_judging),
        (STATEMENTS_ROW, FIG.get("statements"), 6.0, False, "30 moves in-process as the client \"listing\" makes them", prof_web),
        (ES_ROWS[0], ratio("append PostgreSQL", "es PostgreSQL"), 1.2, True,
         "300 ledger appends on PostgreSQL", prof_appends("PostgreSQL")),
        (ES_ROWS[1], ratio("append SQLite", "es SQLite"), 1.2, True, "300 ledger appends on SQLite",
         prof_appends("SQLite")),
        (RAW_ROWS[0], ratio("append PostgreSQL", "raw PostgreSQL"), 0.9, True,
         "300 ledger appends on PostgreSQL", prof_appends("PostgreSQL")),
        (RAW_ROWS[1], ratio("append SQLite", "raw SQLite"), 0.9, True, "300 ledger appends on SQLite",
         prof_appends("SQLite")),
        (WRITER_ROWS[0], ratio("writers PostgreSQL", "append PostgreSQL"), 3.0, True,
         "300 ledger appends on PostgreSQL (one writer)", prof_appends("PostgreSQL")),
        (WRITER_ROWS[1], ratio("writers SQLite", "append SQLite"), 3.0, True,
         "300 ledger appends on SQLite (one writer)", prof_appends("SQLite")),
        (JUDGE_ROW, ratio("judge PostgreSQL", "judge raw PostgreSQL"), 0.5, True,
         "Resolver.run alone, judging the 199 moves of a 400-event game on PostgreSQL", prof_resolver),
        (AUDIT_ROW, FIG.get("audit"), 50.0, False, "two audit page requests on the 10 k-event SQLite game", None),
        (STATE_ROW, FIG.get("state PostgreSQL"), 5.0, False,
         "state_at at 20 steps of the PostgreSQL game", None),
        (REPLAY_ROW, FIG.get("replay SQLite"), 30.0, False, "the replay page on the SQLite game", None),
    ]
    bench_why.report_misses(spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (a smoke run)")
    parser.add_argument("--only", choices=["appends", "e2e", "state", "judge", "rules", "archive"], default=None)
    parser.add_argument("--archive", type=Path, default=None,
                        help="keep the generated archive in this directory and reuse it on the next run")
    parser.add_argument("--archive-games", type=int, default=None, help="games in the generated archive")
    parser.add_argument("--state-events", type=int, default=None,
                        help="events of the game the state, replay and audit figures read (100,000; 2,000 with --quick)")
    parser.add_argument("--e2e-client", choices=["listing", "wait", "poll"], default="listing",
                        help="how the e2e players wait for a judgement: the POST waits and answers the next "
                             "listing (one request a move), the play page's long-poll after GETs of the game and "
                             "its actions, or GET every 2 ms")
    parser.add_argument("--e2e-web", default="2:32", metavar="W:T|inprocess",
                        help="gunicorn's gthread workers:threads for the e2e figure (docs/deployment.md), or the "
                             "app in the bench's own process (its test client)")
    parser.add_argument("--open-loop-moves", type=int, default=None,
                        help="moves of the open-loop latency run (300; 40 with --quick)")
    parser.add_argument("--rss-games", type=int, default=None,
                        help="games played after the e2e figure for the web and worker RSS (1,000; 40 with --quick; 0: none)")
    args = parser.parse_args()
    n, games, moves, events = (300, 2, 20, 2000) if args.quick else (3000, 50, 20, 100_000)
    events = args.state_events or events
    archive_games, archive_moves = (20, 30) if args.quick else (1000, 30)
    archive_games = args.archive_games or archive_games
    print(f"Warlog benchmarks on {os.uname().nodename} ({os.cpu_count()} cores), Python {sys.version.split()[0]}; "
          f"load average {load()} at the start")
    if args.only in (None, "appends"):
        bench_append.figure_appends(n, FIG)
    if args.only in (None, "e2e"):
        bench_e2e.figure_end_to_end(PgSchema, REDIS, GAME, games, moves, FIG, args.e2e_client,
                                    None if args.e2e_web == "inprocess" else args.e2e_web,
                                    open_loop_moves=args.open_loop_moves or (40 if args.quick else 300),
                                    rss_games=args.rss_games if args.rss_games is not None else
                                    (40 if args.quick else 1000))
        import move_cost

        print("2c. SQL statements a move costs the web process (counted, not timed: bench/move_cost.py)")
        per = move_cost.run(10 if args.quick else 40, False, quiet=True)
        four = sum(per.get(w, 0.0) for w in move_cost.FOUR)
        say("Warlog: GET info + GET actions + POST + GET live", " + ".join(f"{per.get(w, 0):.2f}" for w in move_cost.FOUR)
            + f" = {four:.2f}")
        say("the bare anchor, the same four requests", f"{move_cost.run_anchor(10 if args.quick else 40):.2f}")
        # the table's row: the client the e2e figure plays with (its POST waits and lists), over
        # enough moves for the turn to pass between the seats (Assault on Belgium's setup is long)
        per = move_cost.run_listing(20 if args.quick else 150, quiet=True)
        FIG["statements"] = sum(per.get(w, 0.0) for w in move_cost.LISTING)
        FIG["anchor statements"] = move_cost.run_anchor(10 if args.quick else 40, listing=True)
        say("Warlog: POST (wait, listing) + GET actions when the turn passes",
            " + ".join(f"{per.get(w, 0):.2f}" for w in move_cost.LISTING) + f" = {FIG['statements']:.2f}")
        say("the bare anchor, its POST asked to wait and list", f"{FIG['anchor statements']:.2f}")
    if args.only in (None, "state"):
        figure_state_and_verify(events, min(events, 10_000))
    if args.only in (None, "judge"):
        figure_judging(2000 if not args.quick else 400)
    if args.only in (None, "rules"):
        bench_rules.figure_rules_steps()
        FIG["verify long"] = bench_rules.in_fresh_process("long")  # as `warlog verify` runs
        FIG["verify long one"], FIG["verify long floor"] = bench_rules.LAST_ONE, bench_rules.LAST_FLOOR
    if args.only in (None, "archive"):
        FIG["verify archive"] = bench_rules.in_fresh_process("archive", archive_games, archive_moves, args.archive)
        FIG["verify floor"] = bench_rules.LAST_FLOOR
    table()


if __name__ == "__main__":
    main()
