"""How every blueprint answers a failure, written once: the API's blueprints answer JSON
(`install_api_errors`), the pages' blueprints a friendly page, or JSON to a client that asks for it
(`install_page_errors`). Whatever the blueprint:

- a refusal of the service (ServiceError, PlayerError, PageError) keeps its status and message;
- an HTTP error keeps its status, and the Allow and Retry-After headers it carries;
- the ledger or Redis being down is a 503 with Retry-After and one log line per outage
  (`unavailable`, warlog.judging.outage keeps the outage's state);
- anything else is logged with its traceback and answered 500 without one: nothing was recorded.
"""

from __future__ import annotations

from typing import Any

import redis.exceptions
from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from ledger.faults import storage_fault
from warlog.games.service import ServiceError
from warlog.i18n import N_
from warlog.judging.outage import LEDGER, STORAGE, is_outage
from warlog.players.store import PlayerError
from warlog.web.pageutil import PageError, error_page, wants_json

# A page's title for a refusal, by status (a PageError brings its own).
TITLES = {400: N_("Bad request"), 401: N_("Not signed in"), 403: N_("Not allowed"), 404: N_("Not found"),
          409: N_("Out of date"), 410: N_("Link not valid"), 422: N_("Not accepted"), 429: N_("Too many requests")}
KEPT_HEADERS = ("Allow", "Retry-After")  # a 405 says what the path takes; a 429 or 503 when to come back
NOTHING_RECORDED = "nothing was recorded by this request"


def unavailable(err: BaseException) -> tuple[object, int, dict[str, str]]:
    """The web answer while a service is down: 503, Retry-After, one log line per outage."""
    fault = storage_fault(err)
    if fault is not None:
        STORAGE.down(err, "writes answer 503 until it is fixed")
        message = f"the ledger cannot store just now: {fault.split(' (')[0]}; {NOTHING_RECORDED}; try again later"
    else:
        if isinstance(err, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)):
            what = "the queue (Redis)"
        else:
            what = "the ledger (the database)"
            LEDGER.down(err, "requests answer 503 until it is back")
        message = f"{what} is unreachable just now; {NOTHING_RECORDED}; try again shortly"
    headers = {"Retry-After": "5"}
    if request.path.startswith("/api/") or wants_json():
        return jsonify({"error": message}), 503, headers
    page, status = error_page(503, N_("Try again shortly"), message)
    return page, status, headers


def refusal(err: Exception) -> tuple[int, str, dict[str, Any]]:
    """The status, message and detail of a refusal by the service, a player rule or a page."""
    if isinstance(err, ServiceError):
        return err.status, err.message, dict(err.detail)
    if isinstance(err, PageError):
        return err.status, err.message, {}
    if isinstance(err, PlayerError):
        return err.status, str(err), {}
    raise TypeError(f"not a refusal: {type(err).__name__}")


def _kept_headers(err: HTTPException) -> dict[str, str]:
    return {k: v for k, v in err.get_headers() if k in KEPT_HEADERS}


def install_api_errors(bp: Blueprint, where: str = "the API") -> None:
    """JSON answers for every failure of an API blueprint: {"error": message, **detail}."""

    def _refused(err: Exception) -> Any:
        status, message, detail = refusal(err)
        return jsonify({"error": message, **detail}), status

    def _http(err: HTTPException) -> Any:
        return jsonify({"error": err.description or err.name}), err.code or 500, _kept_headers(err)

    def _unexpected(err: Exception) -> Any:
        if is_outage(err):
            return unavailable(err)
        current_app.logger.exception("unexpected error in %s", where)
        return jsonify({"error": f"internal error; {NOTHING_RECORDED}"}), 500

    for kind in (ServiceError, PageError, PlayerError):
        bp.register_error_handler(kind, _refused)
    bp.register_error_handler(HTTPException, _http)
    bp.register_error_handler(Exception, _unexpected)


def install_page_errors(bp: Blueprint, where: str = "a page", titles: dict[int, str] | None = None) -> None:
    """A friendly page for every failure of a pages blueprint (JSON to a client that prefers it);
    `titles` overrides the pages' titles by status (a game's 401 is "No seat")."""
    page_titles = {**TITLES, **(titles or {})}

    def _refused(err: Exception) -> Any:
        status, message, detail = refusal(err)
        if wants_json():
            return jsonify({"error": message, **detail}), status
        title = err.title if isinstance(err, PageError) else page_titles.get(status, N_("Not possible"))
        return error_page(status, title, message, **({"detail": detail} if detail else {}))

    def _http(err: HTTPException) -> Any:
        if wants_json():
            return jsonify({"error": err.description or err.name}), err.code or 500, _kept_headers(err)
        page, status = error_page(err.code or 500, err.name, err.description or err.name)
        return page, status, _kept_headers(err)

    def _unexpected(err: Exception) -> Any:
        if is_outage(err):
            return unavailable(err)
        current_app.logger.exception("unexpected error on %s", where)
        return error_page(500, N_("Something went wrong"), N_("The page could not be built. Nothing was recorded by "
                                                              "this request; try again, or tell the tournament director."))

    for kind in (ServiceError, PageError, PlayerError):
        bp.register_error_handler(kind, _refused)
    bp.register_error_handler(HTTPException, _http)
    bp.register_error_handler(Exception, _unexpected)
