"""Refused submissions are rate-limited per seat (issue 14, defect 4), with flask-limiter.

A seat whose moves the web process refuses (409: not its turn or a stale seq; 422: malformed)
may be refused WARLOG_REFUSED_LIMIT times (default 30 per minute); after that it gets 429 with
Retry-After until the window moves on. Accepted moves never count. The counts live in memory
in the embedded default and in Redis (WARLOG_REDIS) in a real deployment, so every web process
shares them. While Redis is down each process counts in memory until it is back.
"""

from __future__ import annotations

import hashlib

from flask import Flask, Response, request
from flask_limiter import Limiter

DEFAULT_LIMIT = "30 per minute"
LIMITED_ENDPOINTS = ("api.submit_move", "pages.act")
REFUSED = (409, 422)


def seat_key() -> str:
    """The seat asking: its game and a digest of its token (API bearer or the page's cookie)."""
    game_id = (request.view_args or {}).get("game_id", "")
    header = request.headers.get("Authorization", "")
    token = header.partition(" ")[2].strip() or request.cookies.get(f"warlog_seat_{game_id}", "")
    who = hashlib.sha256(token.encode("utf-8")).hexdigest()[:24] if token else f"addr:{request.remote_addr}"
    return f"refused:{game_id}:{who}"


def _refused(resp: Response) -> bool:
    return resp.status_code in REFUSED


def install(app: Flask) -> Limiter:
    redis_url = app.config.get("WARLOG_REDIS")
    # While Redis is down the limiter counts in memory (one warning line, not a traceback per move).
    limiter = Limiter(seat_key, app=app, storage_uri=str(redis_url) if redis_url else "memory://",
                      headers_enabled=True, swallow_errors=True, strategy="moving-window", key_prefix="warlog",
                      in_memory_fallback_enabled=bool(redis_url))
    limit = str(app.config.get("WARLOG_REFUSED_LIMIT") or DEFAULT_LIMIT)
    for endpoint in LIMITED_ENDPOINTS:
        view = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(
            limit, deduct_when=_refused,
            error_message="too many refused moves from this seat; wait before trying again")(view)
    app.extensions["warlog_limiter"] = limiter
    return limiter
