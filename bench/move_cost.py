"""What one move costs the web process, counted (not timed): SQL statements and ledger reads per
request of a move's four requests (GET info, GET actions, POST the move, GET the live panel after
the judgement), on PostgreSQL, for a game of Assault on Belgium played by the bench's chooser;
then the same for the client that asks the POST to wait for the judgement and answer the next
listing (`?wait=8&listing=true`, docs/api.md "The next listing"): the POST, and a GET of the
actions when the turn passes to the other seat.

    .venv/bin/python bench/move_cost.py [--moves 40] [--listing-moves 150]

and the same requests on the bare anchor (bench/bare_anchor.py) beside it.

Counts are made on the request's own thread (the in-process worker judges on another), by
wrapping psycopg's Cursor.execute/executemany, so they do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psycopg  # noqa: E402
from bench_rules import chooser  # noqa: E402
from psycopg import sql  # noqa: E402

from ledger.factory import open_store  # noqa: E402

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
COUNTING: dict[int, str] = {}  # thread id -> the request being counted
STATEMENTS: collections.Counter[str] = collections.Counter()
TEXTS: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)


def _install() -> None:
    if getattr(psycopg.Cursor.execute, "counted", False):
        return
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def note(query: Any) -> None:
        what = COUNTING.get(threading.get_ident())
        if what is not None:
            STATEMENTS[what] += 1
            text = query if isinstance(query, str) else repr(query)
            TEXTS[what][" ".join(text.split())[:100]] += 1

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        note(query)
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        note(query)
        return executemany(self, query, *args, **kwargs)

    counted_execute.counted = True  # type: ignore[attr-defined]
    counted_execute.inner = (execute, executemany)  # type: ignore[attr-defined]
    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]


def _uninstall() -> None:
    """psycopg's own execute/executemany back: the figures measured after a count are not slowed."""
    execute = psycopg.Cursor.execute
    if getattr(execute, "counted", False):
        psycopg.Cursor.execute, psycopg.Cursor.executemany = execute.inner  # type: ignore[attr-defined]


class Counted:
    """Count the statements of `what` on this thread, and profile them into PROFILE when it is set."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> None:
        COUNTING[threading.get_ident()] = self.what
        if PROFILE is not None:
            PROFILE.enable()

    def __exit__(self, *exc: Any) -> None:
        if PROFILE is not None:
            PROFILE.disable()
        COUNTING.pop(threading.get_ident(), None)


PROFILE: Any = None  # a cProfile.Profile enabled inside each counted request (bench.py's profile of a miss)


FOUR = ("GET info", "GET actions", "POST move", "GET live")  # a move, as bench/bench_e2e.py's client "wait" makes it
PAGE_LIVE = "GET live with the panel"
LISTING = ("POST move, wait, listing", "GET actions, turn passed")  # a move, as its client "listing" makes it
PASSING = ("standard_setup", "done_setup")  # run_listing takes these when listed: past the setup


def run(moves: int, show: bool, quiet: bool = False) -> dict[str, float]:
    """SQL statements per request (web thread) over `moves` moves: "GET live" is the API client's
    long-poll (`panel=0`, bench/bench_e2e.py), PAGE_LIVE the play page's (board and panel)."""
    from warlog.app import create_app

    STATEMENTS.clear()
    TEXTS.clear()
    schema = f"warlog_bench_{uuid.uuid4().hex[:12]}"
    url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    open_store(url, upgrade=True).close()
    os.environ["WARLOG_ALLOW_SUPERUSER"] = "1"
    app = create_app({"TESTING": True, "WARLOG_DB": url, **({"WARLOG_LOG_FORMAT": "none"} if quiet else {})})
    try:
        c = app.test_client()
        created = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()
        gid, seats = created["id"], created["seats"]
        for seat, token in seats.items():
            c.post(f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers={"Authorization": f"Bearer {token}"})
        pick = chooser(7)
        queue = app.extensions["warlog_queue"]
        made = 0
        _install()
        while made < moves:
            with Counted("GET info"):
                info = c.get(f"/api/v1/games/{gid}").get_json()
            if info["status"] != "active":
                break
            seat = info["active_seats"][0]
            auth = {"Authorization": f"Bearer {seats[seat]}"}
            with Counted("GET actions"):
                listing = c.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
            action = pick(listing["actions"])
            with Counted("POST move"):
                r = c.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
                    "action": action, "expected_seq": listing["expected_seq"], "idempotency_key": uuid.uuid4().hex})
            seq = r.get_json()["seq"]
            queue.drain()
            c.set_cookie(f"warlog_seat_{gid}", seats[seat])
            with Counted("GET live"):
                c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0")
            with Counted(PAGE_LIVE):
                c.get(f"/games/{gid}/live?last={seq}&wait=1")
            made += 1
        per = {what: n / made for what, n in STATEMENTS.items()}
        if quiet:
            return per
        print(f"{made} moves of Assault on Belgium on PostgreSQL; SQL statements per request (web thread):")
        for what in FOUR:
            print(f"  {what:12s} {per.get(what, 0):6.2f}")
        print(f"  {'all four':12s} {sum(per.get(w, 0) for w in FOUR):6.2f}   (goal <= 6)")
        print(f"  {PAGE_LIVE:12s} {per.get(PAGE_LIVE, 0):6.2f}   (the play page's, instead of GET live)")
        if show:
            for what, texts in TEXTS.items():
                print(f"\n{what}:")
                for text, n in texts.most_common(12):
                    print(f"  {n / made:5.2f}  {text}")
        return per
    finally:
        _uninstall()
        app.extensions["warlog"].store.close()
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def run_listing(moves: int, show: bool = False, quiet: bool = False) -> dict[str, float]:
    """SQL statements per move (web thread) over `moves` moves made as bench/bench_e2e.py's client
    "listing" makes them (`play_listing`): the POST that waits and lists, and the other seat's GET
    of its actions when the turn passes (counted over every move, so its figure is per move)."""
    from bench_e2e import LISTING as ASK

    from warlog.app import create_app

    STATEMENTS.clear()
    TEXTS.clear()
    schema = f"warlog_bench_{uuid.uuid4().hex[:12]}"
    url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    open_store(url, upgrade=True).close()
    os.environ["WARLOG_ALLOW_SUPERUSER"] = "1"
    app = create_app({"TESTING": True, "WARLOG_DB": url, **({"WARLOG_LOG_FORMAT": "none"} if quiet else {})})
    try:
        c = app.test_client()
        wander = chooser(7)

        def pick(actions: list[dict[str, Any]]) -> dict[str, Any]:
            # past the setup, and the turn passes: the chooser alone keeps Belgium placing its units
            ends = [a for a in actions if a["type"] in PASSING]
            return ends[0] if ends else wander(actions)

        made = passed = games = 0
        while made < moves:  # a game the chooser ends early is followed by another
            created = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()
            gid, seats = created["id"], created["seats"]
            games += 1
            for seat, token in seats.items():
                c.post(f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers={"Authorization": f"Bearer {token}"})
            seat = c.get(f"/api/v1/games/{gid}").get_json()["active_seats"][0]
            listing = c.get(f"/api/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {seats[seat]}"}).get_json()
            _install()
            while made < moves and listing["status"] == "active":
                if not listing["actions"]:
                    seat = listing["active_seats"][0]
                    passed += 1
                    with Counted(LISTING[1]):
                        listing = c.get(f"/api/v1/games/{gid}/actions",
                                        headers={"Authorization": f"Bearer {seats[seat]}"}).get_json()
                with Counted(LISTING[0]):
                    answer = c.post(f"/api/v1/games/{gid}/moves{ASK}", headers={"Authorization": f"Bearer {seats[seat]}"},
                                    json={"action": pick(listing["actions"]), "expected_seq": listing["expected_seq"],
                                          "idempotency_key": uuid.uuid4().hex}).get_json()
                assert answer["judgement"]["status"] != "pending", answer  # the in-process worker judges within the wait
                listing = answer["listing"]
                made += 1
        per = {what: n / made for what, n in STATEMENTS.items()}
        if quiet:
            return per
        print(f"{made} moves in {games} games of Assault on Belgium, the POST asked to wait and list ({ASK}), taking "
              f"{', '.join(PASSING)} when listed; the turn passed {passed} times; SQL statements per move (web thread):")
        for what in LISTING:
            print(f"  {what:26s} {per.get(what, 0):6.2f}")
        print(f"  {'a move':26s} {sum(per.get(w, 0) for w in LISTING):6.2f}   (goal <= 6)")
        if show:
            for what, texts in TEXTS.items():
                print(f"\n{what}:")
                for text, n in texts.most_common(12):
                    print(f"  {n / made:5.2f}  {text}")
        return per
    finally:
        _uninstall()
        app.extensions["warlog"].store.close()
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def run_anchor(moves: int, listing: bool = False) -> float:
    """The same four requests of `moves` moves on the bare anchor (bench/bare_anchor.py), counted
    the same way (its worker's one UPDATE a move is not counted, as Warlog's worker is not): SQL
    statements per move. With `listing`: its POST asked to wait and list, as the client "listing"
    asks (the job run on this thread while the POST waits: its wake-up is then in Redis already)."""
    import bare_anchor
    import redis

    schema = f"warlog_bench_{uuid.uuid4().hex[:12]}"
    url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    redis_url = os.environ.get("WARLOG_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
    os.environ.update({"BARE_PG": url, "BARE_REDIS": redis_url})
    bare_anchor.create_schema(url)
    app = bare_anchor.create_app()
    _install()
    key = "bare move"
    STATEMENTS.pop(key, None)
    try:
        c = app.test_client()
        gid = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()["id"]
        pick = chooser(7)
        if listing:
            from bench_e2e import LISTING as ASK

            with Counted(key):
                answer = {"listing": c.get(f"/api/v1/games/{gid}/actions").get_json()}  # once, as the client does
            for _ in range(moves):
                seq = answer["listing"]["expected_seq"] + 1
                bare_anchor.judge(gid, seq)  # judged before its POST asks: its UPDATE finds no row, its wake-up waits
                with Counted(key):
                    answer = c.post(f"/api/v1/games/{gid}/moves{ASK}", json={
                        "action": pick(answer["listing"]["actions"]),
                        "expected_seq": answer["listing"]["expected_seq"]}).get_json()
            return STATEMENTS[key] / moves
        for _ in range(moves):
            with Counted(key):
                c.get(f"/api/v1/games/{gid}")
                listing = c.get(f"/api/v1/games/{gid}/actions").get_json()
                seq = c.post(f"/api/v1/games/{gid}/moves", json={"action": pick(listing["actions"]),
                                                                  "expected_seq": listing["expected_seq"]}).get_json()["seq"]
            bare_anchor.judge(gid, seq)
            with Counted(key):
                c.get(f"/games/{gid}/live?last={seq}&wait=1&panel=0")
        return STATEMENTS[key] / moves
    finally:
        _uninstall()
        if bare_anchor._WORKER_POOL is not None:  # the job's pool, on this schema: the next run has its own
            bare_anchor._WORKER_POOL.close()
            bare_anchor._WORKER_POOL = None
        redis.Redis.from_url(redis_url).delete(f"rq:queue:{bare_anchor.QUEUE}")
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--listing-moves", type=int, default=150,
                    help="moves of the client that asks the POST for the next listing (over several games)")
    ap.add_argument("--show", action="store_true", help="the most frequent statements of each request")
    args = ap.parse_args()
    per = run(args.moves, args.show)
    print(f"the bare anchor (bench/bare_anchor.py), the same four requests: {run_anchor(args.moves):.2f} statements a move\n")
    run_listing(args.listing_moves, args.show)
    print(f"the bare anchor, its POST asked to wait and list: {run_anchor(args.moves, listing=True):.2f} statements a move")
