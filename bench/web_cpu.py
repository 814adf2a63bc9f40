"""The web CPU a move costs, per request, timed on the request's own thread (`time.thread_time`):
the four requests of bench/bench_e2e.py's client "wait" (GET the game, GET its actions, POST the
move, the long-poll `/games/<id>/live?last=N&wait=1&panel=0` after the judgement), Warlog beside the
bare anchor (bench/bare_anchor.py), both in this process on PostgreSQL and Redis, as gunicorn runs
them (WARLOG_REDIS set; the client sends the headers bench_e2e's httpx client sends: JSON asked for,
compressed answers taken).

    .venv/bin/python bench/web_cpu.py [--moves 200] [--rounds 3] [--live-first] [--profile 'POST move']

Neither app's judging is counted: Warlog's move is handed to a drainer (a promise of one is kept in
Redis, as a worker's drainer keeps it; bench/bench_e2e.py's runs show most moves go that way) and
judged, then published as the job publishes it, on this thread between the POST and the long-poll,
outside the timing; the anchor's job runs here the same way. With `--live-first` the long-poll is
sent first and the move judged on another thread a few milliseconds later, as in bench_e2e's runs,
where the client's long-poll nearly always waits: its CPU then includes the wait's looks. Each round plays `--moves` moves on each app (Warlog first, then the anchor) and
prints the mean CPU ms of each request; the last lines are the median over the rounds and the
ratio. The test client's own work (building the WSGI environ, reading the answer) is in both apps'
figures, as gunicorn's is in both e2e figures. `--profile NAME` prints a cProfile of that request's
calls on Warlog (thread CPU time: top functions by own time, then by cumulative time).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gzip
import io
import json
import os
import pstats
import statistics
import sys
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psycopg  # noqa: E402
import redis  # noqa: E402
from bench_rules import chooser  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.factory import open_store  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("WARLOG_BENCH_CPU_REDIS_URL", "redis://127.0.0.1:6379/13")
GAME = "assault-on-belgium"
FOUR = ("GET info", "GET actions", "POST move", "GET live")
JUDGE_AFTER = 0.005  # seconds from the long-poll sent to the move judged, with --live-first
# what bench_e2e's httpx client sends: JSON asked for, and the encodings httpx takes (it compresses)
JSON = {"Accept": "application/json", "Accept-Encoding": "gzip, deflate, br", "User-Agent": "python-httpx/0.28.1"}


class Meter:
    """CPU ms of each request kind on this thread, and an optional cProfile of one kind."""

    def __init__(self, profiled: str | None = None) -> None:
        self.ms: dict[str, list[float]] = {k: [] for k in FOUR}
        self.profiled = profiled
        self.prof = cProfile.Profile(time.thread_time) if profiled else None  # CPU, not waits

    @contextlib.contextmanager
    def __call__(self, what: str) -> Iterator[None]:
        prof = self.prof if what == self.profiled else None
        if prof is not None:
            prof.enable()
        t = time.thread_time()
        try:
            yield
        finally:
            self.ms[what].append(1000 * (time.thread_time() - t))
            if prof is not None:
                prof.disable()

    def means(self) -> dict[str, float]:
        return {k: statistics.fmean(v) for k, v in self.ms.items() if v}

    def profile(self, top: int = 30) -> str:
        assert self.prof is not None
        out = io.StringIO()
        stats = pstats.Stats(self.prof, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)
        return out.getvalue().replace(str(ROOT) + "/", "")


def doc(resp: Any) -> Any:
    """An answer's JSON, decompressed as its Content-Encoding says (the client's work: not timed)."""
    data, coding = resp.get_data(), resp.headers.get("Content-Encoding")
    if coding == "br":
        import brotli

        data = brotli.decompress(data)
    elif coding == "gzip":
        data = gzip.decompress(data)
    elif coding == "deflate":
        data = zlib.decompress(data)
    return json.loads(data)


def schema_url() -> tuple[str, str]:
    name = f"warlog_bench_{uuid.uuid4().hex[:12]}"
    return name, f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{name}&application_name=warlog-bench"


def drop(name: str) -> None:
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """The app's log handler writes to standard error as it is when the app is made: /dev/null here
    (the access line is still formatted and written, as under gunicorn)."""
    saved = sys.stderr
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (kept open for the handler)
    try:
        yield
    finally:
        sys.stderr = saved


def long_poll(meter: Meter, get: Callable[[], Any], judge: Callable[[], None], live_first: bool) -> Any:
    """The long-poll, timed: after the judgement, or (`live_first`) sent first and answered when a
    thread judges the move JUDGE_AFTER seconds later, as a worker does in bench_e2e's runs."""
    if not live_first:
        judge()
        with meter("GET live"):
            return get()
    later = threading.Timer(JUDGE_AFTER, judge)
    later.start()
    try:
        with meter("GET live"):
            return get()
    finally:
        later.join()


def play_warlog(moves: int, meter: Meter, live_first: bool = False) -> int:
    from warlog.app import create_app
    from warlog.judging import drainer, wakeup
    from warlog.judging.resolver import Resolver

    name, url = schema_url()
    r = redis.Redis.from_url(REDIS)
    r.flushdb()
    open_store(url, upgrade=True).close()
    with quiet_stderr():
        app = create_app({"WARLOG_DB": url, "WARLOG_REDIS": REDIS, "WARLOG_ALLOW_SUPERUSER": True,
                          "WARLOG_CLIENT_LIMIT": "off"})
    store = app.extensions["warlog"].store
    resolver = Resolver(store)
    made = 0
    try:
        c = app.test_client()
        pick = chooser(7)
        while made < moves:
            created = doc(c.post("/api/v1/games", json={"game": GAME}, headers=JSON))
            gid, seats = created["id"], created["seats"]
            for token in seats.values():
                c.post(f"/api/v1/games/{gid}/join", json={}, headers={**JSON, "Authorization": f"Bearer {token}"})
            while made < moves:
                r.zadd(drainer.ALIVE, {"bench": time.time() + 3600})  # a drainer's promise: no RQ job a move
                with meter("GET info"):
                    got = c.get(f"/api/v1/games/{gid}", headers=JSON)
                info = doc(got)
                if info["status"] != "active":
                    break
                auth = {**JSON, "Authorization": f"Bearer {seats[info['active_seats'][0]]}"}
                answer = list_and_move(c, meter, gid, auth, pick)
                assert answer.status_code == 202, doc(answer)
                seq = doc(answer)["seq"]
                r.delete(drainer.WAKE)

                def judge(gid: str = gid) -> None:  # as the worker's job: judged, then published
                    resolver.run(gid)
                    wakeup.publish(r, gid)

                got = long_poll(meter, lambda: c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0", headers=JSON),
                                judge, live_first)
                assert doc(got)["status"] != "pending", doc(got)
                made += 1
        return made
    finally:
        store.close()
        app.extensions["warlog_wakeup_stop"].set()
        r.flushdb()
        drop(name)


def list_and_move(c: Any, meter: Meter, gid: str, headers: dict[str, str], pick: Any) -> Any:
    """A move's GET of the actions and its POST, each timed (the same for Warlog and the anchor):
    the POST's response."""
    with meter("GET actions"):
        got = c.get(f"/api/v1/games/{gid}/actions", headers=headers)
    listing = doc(got)
    with meter("POST move"):
        return c.post(f"/api/v1/games/{gid}/moves", headers=headers, json={
            "action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
            "idempotency_key": uuid.uuid4().hex})


def play_anchor(moves: int, meter: Meter, live_first: bool = False) -> int:
    import bare_anchor

    name, url = schema_url()
    os.environ.update({"BARE_PG": url, "BARE_REDIS": REDIS})
    bare_anchor.create_schema(url)
    app = bare_anchor.create_app()
    r = redis.Redis.from_url(REDIS)
    try:
        c = app.test_client()
        pick = chooser(7)
        created = doc(c.post("/api/v1/games", json={"game": GAME}, headers=JSON))
        gid = created["id"]
        for token in created["seats"].values():
            c.post(f"/api/v1/games/{gid}/join", json={}, headers={**JSON, "Authorization": f"Bearer {token}"})
        for _ in range(moves):
            with meter("GET info"):
                c.get(f"/api/v1/games/{gid}", headers=JSON)
            seq = doc(list_and_move(c, meter, gid, JSON, pick))["seq"]
            got = long_poll(meter, lambda: c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0", headers=JSON),
                            lambda: bare_anchor.judge(gid, seq), live_first)
            assert doc(got)["status"] == "judged", doc(got)
        return moves
    finally:
        if bare_anchor._WORKER_POOL is not None:
            bare_anchor._WORKER_POOL.close()
            bare_anchor._WORKER_POOL = None
        r.flushdb()
        drop(name)


def row(label: str, means: dict[str, float]) -> str:
    return f"  {label:<16}" + "".join(f"{means.get(k, 0.0):12.2f}" for k in FOUR) + f"{sum(means.values()):12.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=200, help="moves a round on each app")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", choices=FOUR, default=None, help="a cProfile of this request on Warlog")
    ap.add_argument("--dump", default=None, metavar="FILE", help="with --profile: its stats to FILE (pstats)")
    ap.add_argument("--live-first", action="store_true",
                    help="the long-poll sent before the judgement, which wakes it (else: sent after it)")
    args = ap.parse_args()
    print(f"web CPU ms per request (thread CPU, mean of {args.moves} moves a round); load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"  {'':<16}" + "".join(f"{k:>12}" for k in FOUR) + f"{'a move':>12}")
    warm: Callable[[int, Meter], int]
    for warm in (play_warlog, play_anchor):  # imports, first connections, the rules' caches
        warm(5, Meter())
    ours: list[dict[str, float]] = []
    bare: list[dict[str, float]] = []
    profiled = Meter(args.profile)
    for k in range(args.rounds):
        meter = profiled if args.profile and k == 0 else Meter()
        play_warlog(args.moves, meter, args.live_first)
        ours.append(meter.means())
        print(row(f"Warlog {k + 1}", ours[-1]), flush=True)
        meter = Meter()
        play_anchor(args.moves, meter, args.live_first)
        bare.append(meter.means())
        print(row(f"bare anchor {k + 1}", bare[-1]), flush=True)
    med_ours = {k: statistics.median(m[k] for m in ours) for k in FOUR}
    med_bare = {k: statistics.median(m[k] for m in bare) for k in FOUR}
    print(row("Warlog, median", med_ours))
    print(row("anchor, median", med_bare))
    print(f"  {'ratio':<16}" + "".join(f"{med_ours[k] / med_bare[k]:11.2f}x" for k in FOUR)
          + f"{sum(med_ours.values()) / sum(med_bare.values()):11.2f}x   (goal <= 1.3x)")
    if args.profile:
        print(f"\ncProfile of {args.profile} on Warlog, round 1:\n{profiled.profile()}")
        if args.dump:
            assert profiled.prof is not None
            profiled.prof.dump_stats(args.dump)


if __name__ == "__main__":
    main()
