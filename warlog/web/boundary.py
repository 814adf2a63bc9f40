"""Request hygiene at the edge, before any route runs (URI and body size).

A state-changing API request that a browser's cookie authenticates (the signed-in player's
`warlog_player`, a seat's `warlog_seat_…`; no Authorization header) must come from this site:
its Origin names this host (or, without one, Sec-Fetch-Site says same-origin), or it carries the
page's anti-forgery token in X-CSRF-Token. Another site's auto-submitted form is a 403. Calls
with a bearer token (a player's, a seat's) are not affected: no other site can set that header.

A JSON body is parsed here, once, by `parse_json` (and read by routes through `json_object`):
nesting deeper than MAX_DEPTH, a lone UTF-16 surrogate (a `\\ud800` escape, which is not text
and cannot be stored) or a NUL is a 400 that says what and where, before any route runs.

PostgreSQL text cannot hold the NUL character (U+0000), and no field of this API or its
pages has a use for it: a NUL anywhere in the path, the query string, a form or a JSON body
is refused here with a 400 that names where it was, so no route ever hands one to the ledger.
"""

from __future__ import annotations

import hmac
import json
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestURITooLarge

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
# The longest request URI (path and query, as sent) taken: below gunicorn's request-line limit
# (4094 bytes with the method and protocol), so the answer is ours, a JSON 414, never the
# server's own HTML page. docs/deploy: keep gunicorn's --limit-request-line at its default or above.
MAX_URI = 4000
MAX_DEPTH = 64  # arrays and objects nested deeper than any request of this API needs
_UNSET = object()


class BadJson(ValueError):
    """A JSON text this server does not take; the message says why (for a 400)."""


def _bad_text(value: str) -> str | None:
    if NUL in value:
        return "contains the NUL character (U+0000), which no field accepts"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate (an unpaired \\ud800-\\udfff escape), which is not text"
    return None


def check_json(value: Any, where: str = "the body") -> None:
    """Raise BadJson for nesting deeper than MAX_DEPTH, a NUL or a lone surrogate (keys included);
    iterative, so no depth can exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, at, depth = stack.pop()
        if isinstance(item, str):
            bad = _bad_text(item)
            if bad:
                raise BadJson(f"{at} {bad}")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise BadJson(f"the JSON is nested more than {MAX_DEPTH} levels deep")
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for k, v in pairs:
                if isinstance(k, str):
                    bad = _bad_text(k)
                    if bad:
                        raise BadJson(f"{at}.{k.encode('utf-8', 'replace').decode()!r} (a key) {bad}")
                stack.append((v, f"{at}.{k}" if isinstance(item, dict) else f"{at}[{k}]", depth + 1))


def parse_json(text: str | bytes, where: str = "the body") -> Any:
    """The one JSON parser for what clients send (bodies and JSON form fields): json.loads, then
    `check_json`. Raises BadJson (a ValueError) saying what is wrong."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise BadJson(f"the JSON is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as err:
        raise BadJson(f"{where} is not valid JSON ({err})") from None
    check_json(value, where)
    return value


def request_json() -> Any:
    """The request's JSON body, parsed once (None without a JSON content type or body)."""
    found = g.get("warlog_json", _UNSET)
    if found is _UNSET:
        found = None
        if request.is_json and request.get_data(cache=True).strip():
            try:
                found = parse_json(request.get_data(cache=True))
            except BadJson:
                found = None
        g.warlog_json = found
    return found


def json_object(error: type[Exception]) -> dict[str, Any]:
    """The request body as a JSON object ({} when empty), for every JSON route; `error(message)`
    is raised for a body that is not one. (Deep, NUL and surrogate bodies never get here.)"""
    data = request_json()
    if data is None:
        if request.get_data(cache=True).strip():
            raise error("the request body is not valid JSON")
        data = {}
    if not isinstance(data, dict):
        raise error("the request body must be a JSON object")
    return data


def refuse_bad_json() -> Response | tuple[Any, int] | None:
    """A JSON body that `parse_json` refuses: 400 with the reason (invalid JSON is left to the
    route, which knows whether it wants a body at all)."""
    if not request.is_json or not request.get_data(cache=True).strip():
        return None
    try:
        g.warlog_json = parse_json(request.get_data(cache=True))
    except BadJson as err:
        g.warlog_json = None
        if " is not valid JSON" in str(err):
            return None
        return _refuse(str(err), None)
    return None


def find_nul() -> str | None:
    """Where the current request carries a NUL, or None."""
    found = _find_nul()
    return found[0] if found else None


def _find_nul() -> tuple[str, str | None] | None:
    """(where, the field's name when it is a query or form parameter) of the first NUL."""
    if NUL in request.path:
        return "the path", None
    sources = [("query", request.args)]
    if request.mimetype in FORM_TYPES:  # werkzeug parses a form only from these bodies: others' is empty
        sources.append(("form", request.form))
    for name, source in sources:
        for key, value in source.items(multi=True):
            if NUL in key or NUL in value:
                return f"the {name} parameter {key.replace(NUL, '?')!r}", key.replace(NUL, "?")
    return None


def refuse_nul() -> Response | tuple[Any, int] | None:
    found = _find_nul()
    if found is None:
        return None
    where, field = found
    return _refuse(f"{where} contains the NUL character (U+0000), which no field accepts", field)


def _refuse(message: str, field: str | None) -> Response | tuple[Any, int]:
    """A 400 saying `message`: JSON under /api/ (and for a client asking for JSON), else a page."""
    if request.path.startswith("/api/"):
        body: dict[str, Any] = {"error": message}
        if field is not None:
            body["fields"] = {field: [message.partition(f"{field!r} ")[2] or message]}
        return jsonify(body), 400
    from warlog.web.pageutil import error_page, finish, wants_json

    if wants_json():
        return jsonify({"error": message}), 400
    return finish(Response(*error_page(400, "Bad request", message)))


UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
CSRF_HEADER = "X-CSRF-Token"


def cookie_authenticated() -> bool:
    """No Authorization header, and a Warlog session or seat cookie that a route may act on."""
    from warlog.web.pageutil import PLAYER_COOKIE, SEAT_COOKIE

    if request.headers.get("Authorization"):
        return False
    return any(name == PLAYER_COOKIE or name.startswith(SEAT_COOKIE) for name in request.cookies)


def from_this_site() -> bool:
    """The request's Origin is this host; without an Origin, Sec-Fetch-Site says same-origin; or it
    carries the page's CSRF token (the `warlog_csrf` cookie's value) in X-CSRF-Token."""
    from warlog.web.pageutil import CSRF_COOKIE

    sent, cookie = request.headers.get(CSRF_HEADER, ""), request.cookies.get(CSRF_COOKIE, "")
    if sent and cookie and hmac.compare_digest(sent, cookie):
        return True
    origin = request.headers.get("Origin")
    if origin is not None:
        here, src = urlsplit(request.host_url), urlsplit(origin)
        return (src.scheme, src.netloc) == (here.scheme, here.netloc)
    return request.headers.get("Sec-Fetch-Site") == "same-origin"


def refuse_cross_site_api() -> Response | tuple[Any, int] | None:
    if request.method not in UNSAFE or not request.path.startswith("/api/") or not cookie_authenticated():
        return None
    if from_this_site():
        return None
    return jsonify({"error": "this request carries a signed-in browser's cookie but does not come from a Warlog "
                             "page (its Origin is foreign or missing): send it from this site with the "
                             f"{CSRF_HEADER} header, or use 'Authorization: Bearer <token>'"}), 403


def raw_uri() -> str:
    env = request.environ
    raw = env.get("RAW_URI") or env.get("REQUEST_URI")
    if raw:
        return str(raw)
    query = env.get("QUERY_STRING", "")
    return str(env.get("PATH_INFO", "")) + (f"?{query}" if query else "")


def refuse_long_uri() -> None:
    if len(raw_uri()) > MAX_URI:
        raise RequestURITooLarge(f"the request URI is {len(raw_uri())} characters long; this server takes at most "
                                 f"{MAX_URI} (send large data in a body)")


def too_large(err: HTTPException) -> Any:
    """413 and 414 anywhere: JSON under /api/ (and for a client that asks for JSON), else a page."""
    if request.path.startswith("/api/"):
        return jsonify({"error": err.description or err.name}), err.code or 400
    from warlog.web.pageutil import error_page, finish, wants_json

    if wants_json():
        return jsonify({"error": err.description or err.name}), err.code or 400
    return finish(Response(*error_page(err.code or 400, err.name, err.description or err.name)))


def install(app: Flask) -> None:
    proxies = int(app.config.get("WARLOG_PROXIES") or 0)
    if proxies > 0:  # the proxies' X-Forwarded-* name the client (limits, logs, the outbox's "local")
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    app.before_request(refuse_long_uri)
    app.before_request(refuse_cross_site_api)
    app.before_request(refuse_bad_json)
    app.before_request(refuse_nul)
    app.register_error_handler(RequestURITooLarge, too_large)
    app.register_error_handler(RequestEntityTooLarge, too_large)
