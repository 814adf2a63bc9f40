"""Refused submissions are rate-limited per seat, with flask-limiter's storage and strategy.

A seat whose moves the web process refuses (409: not its turn or a stale seq; 422: malformed)
may be refused WARLOG_REFUSED_LIMIT times (default 30 per minute); after that it gets 429 with
Retry-After until the window moves on. Accepted moves never count, and cost nothing: the count
is looked at before a move only for a seat this process has refused within the window (a
`RefusedMoves.suspects` entry), and added to only when a move is refused; a seat over the limit
that no process here has refused yet gets its 429 at its next refusal. The counts live in memory
in the embedded default and in Redis (WARLOG_REDIS) in a real deployment, so every web process
shares them. While Redis is down each process counts in memory until it is back.

Every route that mails or creates (sign-in links, registration, new games, forks and sandboxes,
tournaments, disputes) is limited per client address as one group, WARLOG_CLIENT_LIMIT (default
"20 per minute; 200 per hour"; `off` turns it off; Flask's TESTING apps have none unless it is
set). Behind a reverse proxy set WARLOG_PROXIES so the client's address is the real one.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from flask_limiter import Limiter
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

log = logging.getLogger("warlog.web.limits")

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


REFUSED_MESSAGE = "too many refused moves from this seat; wait before trying again"
SUSPECTS_KEPT = 10_000  # seats remembered as refused before the expired ones are dropped


def parse_limit(text: str) -> RateLimitItem:
    """A limit as flask-limiter writes it ("30 per minute", "5/second"); a bare number is that
    many per minute. ConfigError for anything else (at start, not at the first refused move)."""
    text = text.strip()
    try:
        return parse(f"{text} per minute" if text.isdigit() else text)
    except ValueError:
        from warlog.config import ConfigError

        raise ConfigError(f"WARLOG_REFUSED_LIMIT must be like '30 per minute' (or a number: per minute), "
                          f"not {text!r}") from None


class RefusedMoves:
    """The per-seat limit on refused moves (see the module): counts in the limiter's storage
    (Redis in a deployment), a look before a move only for a seat refused here lately."""

    def __init__(self, limiter: Limiter, limit: str) -> None:
        self.limiter = limiter
        self.item: RateLimitItem = parse_limit(limit)
        self.memory = MovingWindowRateLimiter(MemoryStorage())  # while the shared storage is down
        self.suspects: dict[str, float] = {}  # seat key -> until when (monotonic) its count is looked at
        self._lock = threading.Lock()
        self._down = False

    def _call(self, method: str, key: str) -> Any:
        try:
            found = getattr(self.limiter.limiter, method)(self.item, "warlog", key)
        except Exception as err:  # the shared storage (Redis) is down: count here meanwhile
            if not self._down:
                log.warning("refused-move limits counted in this process while the storage is down: %s", err)
            self._down = True
            return getattr(self.memory, method)(self.item, "warlog", key)
        self._down = False
        return found

    def _suspect(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self.suspects) >= SUSPECTS_KEPT:
                self.suspects = {k: until for k, until in self.suspects.items() if until > now}
            self.suspects[key] = now + self.item.get_expiry()

    def _too_many(self, key: str) -> Response:
        reset = self._call("get_window_stats", key).reset_time
        message = REFUSED_MESSAGE
        from warlog.web.pageutil import error_page, finish, wants_json

        if request.path.startswith("/api/") or wants_json():
            resp = jsonify({"error": message})
        else:
            resp = finish(Response(*error_page(429, "Too many requests", message)))
        resp.status_code = 429
        resp.headers["Retry-After"] = str(max(1, math.ceil(reset - time.time())))
        return resp

    def wrap(self, view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            key = seat_key()
            if self.suspects.get(key, 0.0) > time.monotonic() and not self._call("test", key):
                return self._too_many(key)
            try:
                resp = current_app.make_response(view(*args, **kwargs))
            except Exception as err:  # a refusal is raised (ServiceError): answered by its handler here
                resp = current_app.make_response(current_app.handle_user_exception(err))
            if resp.status_code in REFUSED:
                self._suspect(key)
                if not self._call("hit", key):
                    return self._too_many(key)
            return resp

        return limited


def install(app: Flask) -> Limiter:
    redis_url = app.config.get("WARLOG_REDIS")
    # While Redis is down the limiter counts in memory (one warning line, not a traceback per move).
    limiter = Limiter(seat_key, app=app, storage_uri=str(redis_url) if redis_url else "memory://",
                      headers_enabled=True, swallow_errors=True, strategy="moving-window", key_prefix="warlog",
                      in_memory_fallback_enabled=bool(redis_url))
    refused = RefusedMoves(limiter, str(app.config.get("WARLOG_REFUSED_LIMIT") or DEFAULT_LIMIT))
    for endpoint in LIMITED_ENDPOINTS:
        app.view_functions[endpoint] = refused.wrap(app.view_functions[endpoint])
    app.extensions["warlog_refused_moves"] = refused
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
    _drop_idle_hook(app, limiter)
    return limiter


def _drop_idle_hook(app: Flask, limiter: Limiter) -> None:
    """Flask-Limiter's before_request hook checks application-wide, default and blueprint limits
    on every request; Warlog sets none (its limits are the per-client group's decorators, which
    check their own routes, and RefusedMoves), so the hook only cost every request its look-ups:
    it is taken out while no such limit is configured (its after_request headers stay)."""
    manager = limiter.limit_manager
    if manager.application_limits or manager.default_limits or manager._blueprint_limits or limiter._meta_limits:
        return
    hooks = app.before_request_funcs.get(None, [])
    app.before_request_funcs[None] = [f for f in hooks if f != limiter._check_request_limit]


def _too_many(err: TooManyRequests) -> Any:
    """429 outside the API blueprint (players, tournaments, pages): JSON or a page, not Flask's HTML."""
    from warlog.web.boundary import too_large

    return too_large(err)
