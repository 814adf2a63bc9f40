"""What one move costs the web process, counted (not timed): SQL statements and ledger reads per
request of a move's four requests (GET info, GET actions, POST the move, GET the live panel after
the judgement), on PostgreSQL, for a game of Assault on Belgium played by the bench's chooser.

    .venv/bin/python bench/move_cost.py [--moves 40]

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

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]


class Counted:
    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> None:
        COUNTING[threading.get_ident()] = self.what

    def __exit__(self, *exc: Any) -> None:
        COUNTING.pop(threading.get_ident(), None)


def run(moves: int, show: bool) -> dict[str, float]:
    from warlog.app import create_app

    schema = f"warlog_bench_{uuid.uuid4().hex[:12]}"
    url = f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{schema}"
    open_store(url, upgrade=True).close()
    os.environ["WARLOG_ALLOW_SUPERUSER"] = "1"
    app = create_app({"TESTING": True, "WARLOG_DB": url})
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
                c.get(f"/games/{gid}/live?last={seq}&wait=1")
            made += 1
        per = {what: n / made for what, n in STATEMENTS.items()}
        print(f"{made} moves of Assault on Belgium on PostgreSQL; SQL statements per request (web thread):")
        for what in ("GET info", "GET actions", "POST move", "GET live"):
            print(f"  {what:12s} {per.get(what, 0):6.2f}")
        print(f"  {'all four':12s} {sum(per.values()):6.2f}")
        if show:
            for what, texts in TEXTS.items():
                print(f"\n{what}:")
                for text, n in texts.most_common(12):
                    print(f"  {n / made:5.2f}  {text}")
        return per
    finally:
        app.extensions["warlog"].store.close()
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--show", action="store_true", help="the most frequent statements of each request")
    args = ap.parse_args()
    run(args.moves, args.show)
