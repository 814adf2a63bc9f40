"""Tournament figures (prints them; not a test, nothing asserts).

    python bench/tournament_bench.py            # 256 players, 7 rounds
    python bench/tournament_bench.py --quick    # 64 players, 3 rounds
    python bench/tournament_bench.py --dutch-256   # also time one Dutch round of 256 (minutes)
    python bench/tournament_bench.py --players 128 --rounds 5
    python bench/tournament_bench.py --page-only   # pairing figures and the page alone (a minute)

1. Pairing one Swiss round, pure: caissify-pairings' `casual` engine for the whole field, and
   its FIDE Dutch engine for 64 players (the Dutch system's maximum-weight matching over the
   whole field grows steeply with the field; `--dutch-256` times it at 256).
2. A whole tournament through the service on a SQLite ledger: register, pair every round (its
   games made and joined), adjudicate every game (an award ruling judged by the in-process
   worker), and then the public tournament page `/tournaments/{id}` and the API document,
   p50/p95 over repeated requests; the bundle's export and verification.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.tournaments.memory import Stream  # noqa: E402  (an in-memory stream, sealed as stored)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def pure_pairing(players: int, rounds: int, engine: str) -> list[float]:
    s = Stream("swiss", ["germany", "belgium"], rounds=rounds, engine=engine)
    s.register(*[f"p{i:04d}" for i in range(players)])
    times = []
    for number in range(rounds):
        t0 = time.perf_counter()
        payload = s.pair()
        times.append(time.perf_counter() - t0)
        for i, q in enumerate(payload["pairings"]):
            seats = list(q["seats"].values())
            s.result(q["game_id"], None if i % 5 == 0 else seats[(i + number) % 2])
    return times


def page_only(players: int, rounds: int, requests: int) -> dict[str, list[float]]:
    """The page's own cost: a finished Swiss stream of `players` x `rounds` written straight into
    a SQLite ledger (its games not created), then the page and the API timed."""
    from warlog.app import create_app

    s = Stream("swiss", ["germany", "belgium"], rounds=rounds, engine="casual")
    s.register(*[f"p{i:04d}" for i in range(players)])
    for number in range(rounds):
        payload = s.pair()
        for i, q in enumerate(payload["pairings"]):
            seats = list(q["seats"].values())
            s.result(q["game_id"], None if i % 5 == 0 else seats[(i + number) % 2])
    tmp = tempfile.mkdtemp(prefix="warlog-tbench-")
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp}/p.sqlite3", "WARLOG_PERIODIC": False})
    tid = "t" + "0" * 14 + "ff"
    app.extensions["warlog_tournaments"].store.append(
        tid, -1, [(e.type, e.seat, e.payload) for e in s.events],
        projection={"name": "bench", "game": "g", "kind": "swiss", "director": "pd"})
    client = app.test_client()
    out: dict[str, list[float]] = {}
    for key, path in (("page", f"/tournaments/{tid}"), ("api_round", f"/api/v1/tournaments/{tid}?round={rounds}")):
        client.get(path)
        out[key + "_first"] = [_after_event(app, client, path)]
        out[key] = []
        for _ in range(requests):
            t0 = time.perf_counter()
            assert client.get(path).status_code == 200
            out[key].append(time.perf_counter() - t0)
    return out


def _after_event(app: Any, client: Any, path: str) -> float:
    """The first request after an event moved the tournament's chain head: what is derived from
    the stream (standings, crosstable, their rendered HTML) is dropped, as a new head drops it."""
    from warlog.ops.lru import BoundedCache

    app.extensions["warlog_tournaments"]._derived = BoundedCache(256)
    t0 = time.perf_counter()
    assert client.get(path).status_code == 200
    return time.perf_counter() - t0


def whole(players: int, rounds: int, requests: int) -> dict[str, Any]:
    from warlog.app import create_app
    from warlog.tournaments.bundle import verify_bundle

    tmp = tempfile.mkdtemp(prefix="warlog-tbench-")
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp}/t.sqlite3", "WARLOG_PERIODIC": False})
    svc = app.extensions["warlog_tournaments"]
    reg = app.extensions["warlog_players"]
    director = reg.register("Director", "td@example.org")
    t = svc.create(director, "Bench Open", "assault-on-belgium", None, None,
                   {"kind": "swiss", "rounds": rounds, "engine": "casual"})
    for i in range(players):
        svc.register(t.id, reg.register(f"P{i:04d}", f"p{i}@example.org"))
    out: dict[str, Any] = {"pair_s": [], "adjudicate_s": []}
    for number in range(rounds):
        t0 = time.perf_counter()
        t = svc.pair_next_round(t.id, director)
        out["pair_s"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for i, p in enumerate(t.rounds[number + 1].pairings):
            winner = None if i % 5 == 0 else p.players()[(i + number) % 2]
            svc.adjudicate(t.id, director, p.game_id, "draw" if winner is None else "win", winner, "bench")
        app.extensions["warlog_queue"].drain()
        t = svc.sync(t.id)
        out["adjudicate_s"].append(time.perf_counter() - t0)
    t = svc.finish(t.id, director)
    client = app.test_client()
    for path, key in ((f"/tournaments/{t.id}", "page"), (f"/api/v1/tournaments/{t.id}", "api"),
                      (f"/api/v1/tournaments/{t.id}?round={rounds}", "api_round")):
        client.get(path)  # the process's first request compiles the templates
        out[key + "_first"] = _after_event(app, client, path)
        times = []
        for _ in range(requests):
            t0 = time.perf_counter()
            r = client.get(path)
            times.append(time.perf_counter() - t0)
            assert r.status_code == 200
        out[key] = times
    t0 = time.perf_counter()
    bundle = client.get(f"/api/v1/tournaments/{t.id}/export").get_data()
    out["export_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = verify_bundle(bundle.splitlines(keepends=True))
    out["verify_s"] = time.perf_counter() - t0
    out["games"] = len(report.games)
    out["bundle_mb"] = len(bundle) / 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dutch-256", action="store_true")
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--page-only", action="store_true", help="pairing and the page alone (fast)")
    ap.add_argument("--rounds", type=int, default=None)
    args = ap.parse_args()
    players, rounds = (64, 3) if args.quick else (256, 7)
    players, rounds = args.players or players, args.rounds or rounds
    casual = pure_pairing(players, rounds, "casual")
    print(f"pairing, casual engine, {players} players: per round max {max(casual) * 1000:.0f} ms, "
          f"mean {statistics.mean(casual) * 1000:.0f} ms over {rounds} rounds")
    dutch = pure_pairing(64, 3, "dutch")
    print(f"pairing, FIDE Dutch engine, 64 players: per round max {max(dutch) * 1000:.0f} ms, "
          f"mean {statistics.mean(dutch) * 1000:.0f} ms over 3 rounds")
    only = page_only(players, rounds, args.requests)
    print(f"tournament page alone ({players} players, {rounds} rounds recorded; games not created): "
          f"p50 {pct(only['page'], 0.5) * 1000:.0f} ms, p95 {pct(only['page'], 0.95) * 1000:.0f} ms; "
          f"API ?round=N p50 {pct(only['api_round'], 0.5) * 1000:.0f} ms; the page's first request after an "
          f"event {only['page_first'][0] * 1000:.0f} ms")
    if args.page_only:
        return
    if args.dutch_256:
        d256 = pure_pairing(256, 2, "dutch")
        print(f"pairing, FIDE Dutch engine, 256 players: round 2 took {d256[1]:.1f} s")
    w = whole(players, rounds, args.requests)
    print(f"whole tournament via the service ({players} players, {rounds} rounds, {w['games']} games, SQLite): "
          f"pair+make games per round max {max(w['pair_s']):.2f} s; adjudicate+judge+record per round "
          f"max {max(w['adjudicate_s']):.2f} s")
    for key, label in (("page", "tournament page /tournaments/{id} (standings, crosstable, the last round)"),
                       ("api", "GET /api/v1/tournaments/{id} (every game)"),
                       ("api_round", "GET /api/v1/tournaments/{id}?round=N")):
        print(f"{label}: p50 {pct(w[key], 0.5) * 1000:.0f} ms, p95 {pct(w[key], 0.95) * 1000:.0f} ms "
              f"({args.requests} requests; the first after an event {w[key + '_first'] * 1000:.0f} ms)")
    print(f"bundle: export {w['export_s']:.2f} s ({w['bundle_mb']:.1f} MB), verify {w['verify_s']:.2f} s "
          f"(every game re-run, pairings and standings re-derived)")


if __name__ == "__main__":
    main()
