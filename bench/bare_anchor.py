"""The fair anchor of the end-to-end figure: what a user would write by hand instead of Warlog.

A bare Flask + PostgreSQL + RQ app speaking just enough of Warlog's API for bench/bench_e2e.py's
player to play it the same way (create, join, GET the game, GET its actions, POST a move, wait
on `/games/<id>/live?last=N&wait=1`): one INSERT and one enqueue per move, a worker job that marks
the move judged (one UPDATE) and wakes the waiting client through Redis. No rules, no hash chain,
no seat checks, no idempotency: the floor a Flask design pays for the same four requests.

    gunicorn -k gthread 'bare_anchor:create_app()'   # env BARE_PG, BARE_REDIS (run from bench/)
    python bench/bare_anchor.py worker               # an RQ worker of its queue (env as above)

SQL statements per move: GET the game 1, GET its actions 1, POST 1 (the INSERT), GET live 1 (the
judged check), the worker's job 1. Its POST also takes Warlog's `?wait=S&listing=true` (docs/api.md,
"The next listing"): it waits for the job's wake-up, then answers the judgement and the listing (one
SELECT), 2 statements a move for a client that needs no GET between its moves. Its actions are the
same for every seat and it checks no turn, so its listing always has them: its client never makes
the GET of the actions that Warlog's makes when the turn passes to another seat.
"""

from __future__ import annotations

import os
import sys
import uuid
from typing import Any

QUEUE = "bare-anchor"
ACTIONS = [{"kind": "pass"}, {"kind": "move", "to": 1}, {"kind": "move", "to": 2}]
SCHEMA = """
CREATE TABLE IF NOT EXISTS bare_games (id text PRIMARY KEY, game text NOT NULL);
CREATE TABLE IF NOT EXISTS bare_moves (game text NOT NULL, seq integer NOT NULL, action jsonb NOT NULL,
    judged boolean NOT NULL DEFAULT false, PRIMARY KEY (game, seq));
"""


def _pool() -> Any:
    from psycopg_pool import ConnectionPool

    return ConnectionPool(os.environ["BARE_PG"], min_size=1, max_size=32, kwargs={"autocommit": True}, open=True)


def _wake_key(game: str, seq: int) -> str:
    return f"bare-anchor:judged:{game}:{seq}"


def create_schema(pg_url: str) -> None:
    """The anchor's two tables, in the first schema of the URL's search_path (made if missing)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(pg_url, autocommit=True) as conn:
        schema = conn.execute("SHOW search_path").fetchone()[0].split(",")[0].strip().strip('"')  # type: ignore[index]
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute(SCHEMA)


def judge(game: str, seq: int) -> None:
    """The RQ job: the move judged (one UPDATE) and its waiting client woken."""
    import redis

    global _WORKER_POOL
    if _WORKER_POOL is None:
        _WORKER_POOL = _pool()
    with _WORKER_POOL.connection() as conn:
        conn.execute("UPDATE bare_moves SET judged = true WHERE game = %s AND seq = %s", (game, seq))
    r = redis.Redis.from_url(os.environ["BARE_REDIS"])
    with r.pipeline(transaction=False) as p:
        p.rpush(_wake_key(game, seq), 1)
        p.expire(_wake_key(game, seq), 60)
        p.execute()


_WORKER_POOL: Any = None


def create_app() -> Any:
    import redis
    from flask import Flask, jsonify, request
    from psycopg.types.json import Jsonb
    from rq import Queue
    from rq.serializers import JSONSerializer

    app = Flask("bare_anchor")
    pool = _pool()
    r = redis.Redis.from_url(os.environ["BARE_REDIS"])
    queue = Queue(QUEUE, connection=r, serializer=JSONSerializer)

    @app.get("/healthz")
    def healthz() -> Any:
        return "ok"

    @app.post("/api/v1/games")
    def create() -> Any:
        gid = uuid.uuid4().hex
        with pool.connection() as conn:
            conn.execute("INSERT INTO bare_games (id, game) VALUES (%s, %s)", (gid, request.get_json()["game"]))
        return jsonify({"id": gid, "seats": {"a": uuid.uuid4().hex, "b": uuid.uuid4().hex}}), 201

    @app.post("/api/v1/games/<gid>/join")
    def join(gid: str) -> Any:
        return jsonify({"joined": True})

    def head(gid: str) -> tuple[int, int]:
        with pool.connection() as conn:
            row = conn.execute("SELECT coalesce(max(seq), 0), count(*) FILTER (WHERE NOT judged) FROM bare_moves "
                               "WHERE game = %s", (gid,)).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    @app.get("/api/v1/games/<gid>")
    def info(gid: str) -> Any:
        seq, pending = head(gid)
        return jsonify({"id": gid, "status": "active", "pending": pending, "seq": seq,
                        "active_seats": ["a" if seq % 2 == 0 else "b"]})

    @app.get("/api/v1/games/<gid>/actions")
    def actions(gid: str) -> Any:
        seq, _pending = head(gid)
        return jsonify({"actions": ACTIONS, "expected_seq": seq})

    @app.post("/api/v1/games/<gid>/moves")
    def move(gid: str) -> Any:
        body = request.get_json()
        seq = int(body["expected_seq"]) + 1
        import psycopg

        try:
            with pool.connection() as conn:
                conn.execute("INSERT INTO bare_moves (game, seq, action) VALUES (%s, %s, %s)",
                             (gid, seq, Jsonb(body["action"])))
        except psycopg.errors.UniqueViolation:
            return jsonify({"error": "stale expected_seq"}), 409
        queue.enqueue_call("bare_anchor.judge", args=(gid, seq), result_ttl=0)
        out: dict[str, Any] = {"seq": seq, "status": "pending", "duplicate": False}
        wait, listing = float(request.args.get("wait", 0)), request.args.get("listing") in ("1", "true")
        if wait or listing:
            # under the Redis client's own socket timeout (5 s by default), as the long-poll's
            judged = bool(wait) and r.blpop([_wake_key(gid, seq)], timeout=min(wait, 4)) is not None
            out["judgement"] = {"seq": seq, "status": "resolved" if judged else "pending"}
        if listing:
            last, pending = head(gid)
            out["listing"] = {"actions": ACTIONS, "expected_seq": last, "status": "active", "pending": bool(pending),
                              "active_seats": ["a" if last % 2 == 0 else "b"]}
        return jsonify(out), 202

    @app.get("/games/<gid>/live")
    def live(gid: str) -> Any:
        seq = int(request.args["last"])
        with pool.connection() as conn:
            row = conn.execute("SELECT judged FROM bare_moves WHERE game = %s AND seq = %s", (gid, seq)).fetchone()
        if row is not None and row[0]:
            return jsonify({"status": "judged"})
        # under the Redis client's own socket timeout (5 s by default): the client asks again
        if request.args.get("wait") and r.blpop([_wake_key(gid, seq)], timeout=4):
            return jsonify({"status": "judged"})
        return jsonify({"status": "pending"})

    return app


def work() -> None:
    """An RQ worker of the anchor's queue (SimpleWorker: the job runs in this process, no fork per
    job, as `warlog worker` runs its jobs)."""
    import redis
    from rq import Queue, SimpleWorker
    from rq.serializers import JSONSerializer

    r = redis.Redis.from_url(os.environ["BARE_REDIS"])
    SimpleWorker([Queue(QUEUE, connection=r, serializer=JSONSerializer)], connection=r,
                 serializer=JSONSerializer).work(logging_level="WARNING")


if __name__ == "__main__":
    if sys.argv[1:] == ["worker"]:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        work()
    else:
        sys.exit(__doc__)
