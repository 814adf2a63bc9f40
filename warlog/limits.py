"""Refused submissions are rate-limited per seat, with flask-limiter.

A seat whose moves the web process refuses (409: not its turn or a stale seq; 422: malformed)
may be refused WARLOG_REFUSED_LIMIT times (default 30 per minute); after that it gets 429 with
Retry-After until the window moves on. Accepted moves never count. The counts live in memory
in the embedded default and in Redis (WARLOG_REDIS) in a real deployment, so every web process
shares them. While Redis is down each process counts in memory until it is back.

Every route that mails or creates (sign-in links, registration, new games, forks and sandboxes,
tournaments, disputes) is limited per client address as one group, WARLOG_CLIENT_LIMIT (default
"20 per minute; 200 per hour"; `off` turns it off; Flask's TESTING apps have none unless it is
set). Behind a reverse proxy set WARLOG_PROXIES so the client's address is the real one.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Flask, Response, request
from flask_limiter import Limiter
from werkzeug.exceptions import TooManyRequests

DEFAULT_LIMIT = "30 per minute"
LIMITED_ENDPOINTS = ("api.submit_move", "pages.act")
REFUSED = (409, 422)
DEFAULT_CLIENT_LIMIT = "20 per minute; 200 per hour"
MAILS_OR_CREATES = (  # POST routes that send mail or create something
    "api.create_game", "api.fork_game", "pages.create", "pages.fork_setup", "pages.game_dispute",
    "players_api.api_register", "players_api.api_request_link", "players_pages.signin_post",
    "tournaments_api.api_create", "tournaments_api.api_dispute", "tournaments_pages.create_page",
    "tournaments_pages.dispute_page", "tournaments_pages.desk_sandbox")


def client_key() -> str:
    return f"client:{request.remote_addr}"


def client_limit(config: Any) -> str | None:
    """The per-client limit for routes that mail or create, or None (off)."""
    value = config.get("WARLOG_CLIENT_LIMIT")
    if value is None or value == "":
        return None if config.get("TESTING") else DEFAULT_CLIENT_LIMIT
    text = str(value).strip()
    return None if text.lower() in ("off", "0", "none", "false") else text.replace(";", ",")


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
    per_client = client_limit(app.config)
    if per_client:
        group = limiter.shared_limit(per_client, scope="mails-or-creates", key_func=client_key, methods=["POST"],
                                     error_message="too many requests that send mail or create something from "
                                                   "this address; wait before trying again")
        for endpoint in MAILS_OR_CREATES:
            if endpoint in app.view_functions:
                app.view_functions[endpoint] = group(app.view_functions[endpoint])
    app.register_error_handler(TooManyRequests, _too_many)
    app.extensions["warlog_limiter"] = limiter
    return limiter


def _too_many(err: TooManyRequests) -> Any:
    """429 outside the API blueprint (players, tournaments, pages): JSON or a page, not Flask's HTML."""
    from warlog.boundary import too_large

    return too_large(err)
