"""Liveness, readiness and worker heartbeats.

`GET /healthz` is liveness: 503 only when a restart may mend the process (`liveness`: its
in-process worker's thread died, or every request has failed with an internal error for a
while); it reads nothing, so an outage or a storage fault never restarts a healthy process.
`GET /readyz` is readiness: 200 only when
the ledger's schema is this release's, the ledger can be read and written (a write of this
host's row in `ready_probe`), no write has met a storage fault (ledger.faults: a full disk,
a read-only database, a missing schema) in the last STORAGE_QUIET seconds, Redis answers a PING
(when the deployment has a queue) and some worker has beaten recently; otherwise 503 with what
failed.

Heartbeats: each `warlog worker` writes its name into the Redis sorted set `warlog:workers`
with the Unix time as score, every HEARTBEAT_EVERY seconds, from a thread of its own (so a long
judgement does not stop it). A worker is recent when its score is under FRESH seconds old.
The embedded in-process worker beats in memory, from its sweeper.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request

from ledger.faults import storage_fault
from warlog import version
from warlog.judging.outage import LEDGER, STORAGE, is_outage, one_line

log = logging.getLogger("warlog.ops.health")
HEARTBEATS_KEY = "warlog:workers"
HEARTBEAT_EVERY = 10.0
FRESH = 60.0
FORGET_AFTER = 86400.0
STORAGE_QUIET = 30.0  # seconds after a write met a storage fault during which the process is not ready
NO_LEDGER = {"healthz", "readyz", "static", "api.openapi", "api.catalogue", None}  # endpoints that read no ledger


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
        return {"ok": False, "error": storage_fault(err) or one_line(err)}


def probe_name() -> str:
    """This host's row of `ready_probe` (one per host, so the table stays as small as the club)."""
    return f"web {socket.gethostname()}"


def ledger_check(store: Any) -> dict[str, Any]:
    """The schema is this release's, the ledger reads, and a write goes through."""
    store.list_games(limit=1)  # first: a missing schema is named as such, not as version 0
    store.check_schema()
    try:
        store.probe_write(probe_name())
    except Exception as err:
        if storage_fault(err) is not None:
            STORAGE.down(err, "writes answer 503 until it is fixed")
        raise
    quiet = time.monotonic() - STORAGE.last_met
    if STORAGE.down_now and quiet < STORAGE_QUIET:
        raise RuntimeError(f"a write met a storage fault {quiet:.0f} s ago: {STORAGE.reason}")
    STORAGE.up()
    return {"writes": True}


def check_storage_at_start(store: Any) -> None:
    """Refuse to start on a ledger that cannot be written (a read-only file or database, a
    full disk, a missing schema), saying why, instead of answering every write with an error."""
    from ledger.store import LedgerError

    try:
        store.probe_write(probe_name())
    except Exception as err:
        fault = storage_fault(err)
        if fault is None:  # e.g. an app role not yet granted `ready_probe`: /readyz will say so
            log.warning("could not check that the ledger can be written: %s", one_line(err))
            return
        raise LedgerError(f"cannot write the ledger at {store.display_url()}: {fault}. Warlog needs to write it "
                          "(for SQLite: the file and its directory writable by this process, space on its "
                          "disk); fix it and start again") from None


def readiness(app: Flask) -> dict[str, Any]:
    svc = app.extensions["warlog"]
    queue = app.extensions["warlog_queue"]
    checks: dict[str, Any] = {"database": _check(lambda: ledger_check(svc.store))}
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


FAILING_FOR = 30.0  # seconds of nothing but unexpected 500s (and at least FAILING_AFTER of them) ...
FAILING_AFTER = 20  # ... after which the process is not live: a restart may mend it


class Failing:
    """Unexpected 500s in a row, and since when (a 503 for an outage or a storage fault is not
    counted: a restart would not mend those, the operator must)."""

    def __init__(self) -> None:
        self.count, self.since = 0, 0.0
        self._lock = threading.Lock()

    def saw(self, status: int, endpoint: str | None) -> None:
        if endpoint in NO_LEDGER:
            return
        with self._lock:
            if status != 500:
                self.count = 0
            else:
                if self.count == 0:
                    self.since = time.monotonic()
                self.count += 1

    def problem(self) -> str | None:
        with self._lock:
            lasted = time.monotonic() - self.since
            if self.count >= FAILING_AFTER and lasted >= FAILING_FOR:
                return f"the last {self.count} requests, over {lasted:.0f} s, all failed with an internal error"
        return None


FAILING = Failing()


def liveness(app: Flask) -> list[str]:
    """Why this process should be restarted, if it should: the in-process worker's thread has
    died (moves would never be judged), or every request has failed with an internal error for
    FAILING_FOR seconds. Dependencies are readiness's business: an outage of the database or a
    full disk never makes a process not live."""
    problems = []
    sweeper = app.extensions.get("warlog_sweeper_stop")
    if sweeper is not None and hasattr(sweeper, "alive") and not sweeper.alive():
        problems.append("the in-process worker's sweeper thread has died")
    failing = FAILING.problem()
    if failing:
        problems.append(failing)
    return problems


def install(app: Flask) -> None:
    @app.after_request
    def _ledger_answers(resp: Response) -> Response:
        if LEDGER.down_now and resp.status_code < 500 and request.endpoint not in NO_LEDGER:
            LEDGER.up()  # a request went through: the outage the web process reported is over
        if (STORAGE.down_now and resp.status_code < 400 and request.endpoint not in NO_LEDGER
                and request.method not in ("GET", "HEAD", "OPTIONS")):
            STORAGE.up()  # a write went through: the storage fault is over
        return resp

    @app.after_request
    def _count_failures(resp: Response) -> Response:
        FAILING.saw(resp.status_code, request.endpoint)
        return resp

    @app.get("/healthz")
    def healthz() -> tuple[Response, int]:
        """Liveness: what a restart of this process would mend (see `liveness`); and which build it runs."""
        problems = liveness(current_app)
        if problems:
            return jsonify({"ok": False, "errors": problems, "version": version()}), 503
        return jsonify({"ok": True, "version": version()}), 200

    @app.get("/readyz")
    def readyz() -> tuple[Response, int]:
        """Readiness: the ledger (schema, a read, a write), Redis (with a queue) and a recent
        worker heartbeat."""
        report = readiness(current_app)
        return jsonify(report), 200 if report["ready"] else 503
