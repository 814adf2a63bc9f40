"""Request hygiene at the edge, before any route runs (issue 14, defect 2; URI and body size).

PostgreSQL text cannot hold the NUL character (U+0000), and no field of this API or its
pages has a use for it: a NUL anywhere in the path, the query string, a form or a JSON body
is refused here with a 400 that names where it was, so no route ever hands one to the ledger.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestURITooLarge

NUL = "\x00"
# The longest request URI (path and query, as sent) taken: below gunicorn's request-line limit
# (4094 bytes with the method and protocol), so the answer is ours, a JSON 414, never the
# server's own HTML page. docs/deploy: keep gunicorn's --limit-request-line at its default or above.
MAX_URI = 4000


def _nul_in(value: Any, where: str) -> str | None:
    """The place of the first NUL in a parsed JSON value (keys included), or None."""
    if isinstance(value, str):
        return where if NUL in value else None
    if isinstance(value, dict):
        for k, v in value.items():
            if NUL in str(k):
                return f"{where}.{k!r} (a key)"
            found = _nul_in(v, f"{where}.{k}")
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _nul_in(v, f"{where}[{i}]")
            if found:
                return found
    return None


def find_nul() -> str | None:
    """Where the current request carries a NUL, or None."""
    found = _find_nul()
    return found[0] if found else None


def _find_nul() -> tuple[str, str | None] | None:
    """(where, the field's name when it is a query or form parameter) of the first NUL."""
    if NUL in request.path:
        return "the path", None
    for name, source in (("query", request.args), ("form", request.form)):
        for key, value in source.items(multi=True):
            if NUL in key or NUL in value:
                return f"the {name} parameter {key.replace(NUL, '?')!r}", key.replace(NUL, "?")
    if request.is_json:
        where = _nul_in(request.get_json(silent=True), "the body")
        return (where, None) if where else None
    return None


def refuse_nul() -> Response | tuple[Any, int] | None:
    found = _find_nul()
    if found is None:
        return None
    where, field = found
    message = f"{where} contains the NUL character (U+0000), which no field accepts"
    if request.path.startswith("/api/"):
        body: dict[str, Any] = {"error": message}
        if field is not None:
            body["fields"] = {field: ["contains the NUL character (U+0000)"]}
        return jsonify(body), 400
    from warlog.pageutil import error_page, finish, wants_json

    if wants_json():
        return jsonify({"error": message}), 400
    return finish(Response(*error_page(400, "Bad request", message)))


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
    from warlog.pageutil import error_page, finish, wants_json

    if wants_json():
        return jsonify({"error": err.description or err.name}), err.code or 400
    return finish(Response(*error_page(err.code or 400, err.name, err.description or err.name)))


def install(app: Flask) -> None:
    app.before_request(refuse_long_uri)
    app.before_request(refuse_nul)
    app.register_error_handler(RequestURITooLarge, too_large)
    app.register_error_handler(RequestEntityTooLarge, too_large)
