"""Liveness, readiness and worker heartbeats (issue 14, defect 6).

`GET /healthz` is liveness: the process answers (restart it if not). `GET /readyz` is
readiness: 200 only when the ledger answers a query, Redis answers a PING (when the
deployment has a queue) and some worker has beaten recently; otherwise 503 with what failed.

Heartbeats: each `warlog worker` writes its name into the Redis sorted set `warlog:workers`
with the Unix time as score, every HEARTBEAT_EVERY seconds, from a thread of its own (so a long
judgement does not stop it). A worker is recent when its score is under FRESH seconds old.
The embedded in-process worker beats in memory, from its sweeper.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request

from warlog.outage import LEDGER, is_outage, one_line

log = logging.getLogger("warlog.health")
HEARTBEATS_KEY = "warlog:workers"
HEARTBEAT_EVERY = 10.0
FRESH = 60.0
FORGET_AFTER = 86400.0
NO_LEDGER = {"healthz", "readyz", "static", "api.openapi", "api.catalogue", None}  # endpoints that read no ledger


def version() -> str:
    """This build's version (the installed package's, from pyproject.toml)."""
    try:
        from importlib.metadata import version as installed

        return installed("warlog")
    except Exception:
        return "unknown"


def beat(redis: Any, name: str) -> None:
    now = time.time()
    with redis.pipeline() as p:
        p.zadd(HEARTBEATS_KEY, {name: now})
        p.zremrangebyscore(HEARTBEATS_KEY, 0, now - FORGET_AFTER)
        p.execute()


def start_heartbeat(redis: Any, name: str, every: float = HEARTBEAT_EVERY,
                    on_beat: Callable[[], object] | None = None) -> threading.Event:
    """Beat now and every `every` seconds until the returned event is set (calling `on_beat`
    after each beat that lands). A beat that cannot reach Redis is skipped quietly: the outage
    is reported by whoever needs Redis."""
    stop = threading.Event()

    def loop() -> None:
        while True:
            try:
                beat(redis, name)
                if on_beat is not None:
                    on_beat()
            except Exception as err:
                if not is_outage(err):
                    log.exception("heartbeat failed")
            if stop.wait(every):
                return

    threading.Thread(target=loop, name="warlog-heartbeat", daemon=True).start()
    return stop


def recent_workers(redis: Any, within: float = FRESH) -> list[str]:
    names = redis.zrangebyscore(HEARTBEATS_KEY, time.time() - within, "+inf")
    return [n.decode() if isinstance(n, bytes) else str(n) for n in names]


def _check(fn: Any) -> dict[str, Any]:
    try:
        return {"ok": True, **(fn() or {})}
    except Exception as err:
        return {"ok": False, "error": one_line(err)}


def readiness(app: Flask) -> dict[str, Any]:
    svc = app.extensions["warlog"]
    queue = app.extensions["warlog_queue"]
    checks: dict[str, Any] = {"database": _check(lambda: (svc.store.list_games(limit=1), None)[1])}
    redis = getattr(queue, "redis", None)
    if redis is not None:
        checks["redis"] = _check(lambda: (redis.ping(), None)[1])

        def workers() -> dict[str, Any]:
            names = recent_workers(redis)
            if not names:
                raise RuntimeError(f"no worker has beaten in the last {FRESH:.0f} s (is `warlog worker` running?)")
            return {"recent": names}

        checks["workers"] = _check(workers) if checks["redis"]["ok"] else {"ok": False, "error": "Redis unreachable"}
    else:
        def inline() -> dict[str, Any]:
            last = app.extensions.get("warlog_inline_beat", 0.0)
            fresh = max(FRESH, 2 * float(app.config["WARLOG_SWEEP_INTERVAL"]) + 5)
            if time.time() - last > fresh:
                raise RuntimeError(f"the in-process worker has not beaten in the last {fresh:.0f} s")
            return {"recent": ["in-process"]}

        checks["workers"] = _check(inline)
    return {"ready": all(c["ok"] for c in checks.values()), "checks": checks}


def install(app: Flask) -> None:
    @app.after_request
    def _ledger_answers(resp: Response) -> Response:
        if LEDGER.down_now and resp.status_code < 500 and request.endpoint not in NO_LEDGER:
            LEDGER.up()  # a request went through: the outage the web process reported is over
        return resp

    @app.get("/healthz")
    def healthz() -> Response:
        """Liveness: the process is up and answering; and which build it runs."""
        return jsonify({"ok": True, "version": version()})

    @app.get("/readyz")
    def readyz() -> tuple[Response, int]:
        """Readiness: the ledger, Redis (with a queue) and a recent worker heartbeat."""
        report = readiness(current_app)
        return jsonify(report), 200 if report["ready"] else 503
