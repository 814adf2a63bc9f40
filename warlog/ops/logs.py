"""What the server logs, and how: JSON lines an operator can ship, a request id on each request,
and secrets masked in every line (the app's, werkzeug's request lines, gunicorn's access log).

`configure(app)` (WARLOG_LOG_FORMAT `json`, the default, `text` or `none`; WARLOG_LOG_LEVEL) puts
one handler on the `warlog` and `werkzeug` loggers, writing to standard error: under gunicorn the
app's INFO lines used to have no handler at all. Each request gets an id — the client's
`X-Request-Id` when it is a short token, else a new one — returned in `X-Request-Id`, carried by
every line logged while it runs, and one `warlog.access` line records it when it ends (method,
path, status, milliseconds, client; secrets masked).

`mask(text)` hides passwords in URLs (ledger.urls.mask_url), sign-in link secrets and seat tokens
in paths (`/signin/***`, `/seat/***`), bearer tokens, and session/seat cookies. gunicorn's own
access log goes through `GunicornLogger` (`--logger-class warlog.ops.logs.GunicornLogger`).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid
from typing import Any

from flask import Flask, Response, g, has_request_context, request

from ledger.urls import mask_url

_SECRET_PATHS = re.compile(r"(/(?:signin|seat)/)[^/?#\s\"']+")
_BEARER = re.compile(r"(\bBearer\s+)[^\s\"',;]+", re.IGNORECASE)
_COOKIES = re.compile(r"(\bwarlog_(?:player|seat_[A-Za-z0-9_-]*|csrf)=)[^;\s\"',]+")
_QUERY = re.compile(r"([?&](?:token|secret|seat_token|key)=)[^&\s\"'#]+", re.IGNORECASE)
_PLAYER_TOKEN = re.compile(r"\bwp_[A-Za-z0-9_-]{8,}")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
HANDLER_MARK = "_warlog_handler"
# What every secret's shape above (and mask_url's) needs somewhere in a text: a text without any of
# these has nothing to mask (one scan; most lines, the access log's among them, are such a text).
_MAYBE_SECRET = re.compile(r"://|password|/signin/|/seat/|bearer|warlog_|[?&](?:token|secret|seat_token|key)=|\bwp_",
                           re.IGNORECASE)


def mask(text: str) -> str:
    """`text` with every secret this server knows the shape of replaced by ***."""
    return masked(text) if _MAYBE_SECRET.search(text) else text


def masked(text: str) -> str:
    """`mask` without its first look: every secret's pattern applied in turn."""
    text = mask_url(text)
    text = _SECRET_PATHS.sub(r"\1***", text)
    text = _BEARER.sub(r"\1***", text)
    text = _COOKIES.sub(r"\1***", text)
    text = _QUERY.sub(r"\1***", text)
    return _PLAYER_TOKEN.sub("wp_***", text)


class MaskSecrets(logging.Filter):
    """Masks the formatted message (and any traceback) of every record it sees."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: leave the record as it is
            return True
        record.msg, record.args = mask(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        return True


def request_id() -> str | None:
    return g.get("request_id") if has_request_context() else None


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id, and
    `exc` for a traceback; extra fields given as `extra={"fields": {...}}` are merged in."""

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        rid = getattr(record, "request_id", None) or request_id()
        if rid:
            doc["request_id"] = rid
        doc.update(getattr(record, "fields", None) or {})
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            doc["exc"] = mask(record.exc_text)
        return json.dumps(doc, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        rid = request_id()
        return f"{line} [request {rid}]" if rid and "\n" not in line else line


def handler(fmt: str, stream: Any = None) -> logging.Handler:
    out = logging.StreamHandler(stream or sys.stderr)
    out.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    out.addFilter(MaskSecrets())
    setattr(out, HANDLER_MARK, True)
    return out


def install_handler(fmt: str, level: str | int = "INFO", stream: Any = None) -> None:
    """Our one handler on the `warlog` and `werkzeug` loggers (once per process: a second call
    replaces it), and the level. The handler masks every record; the two loggers themselves mask
    what is logged to them by name (werkzeug's request lines), whichever handler shows it."""
    for name in ("warlog", "werkzeug"):
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if getattr(h, HANDLER_MARK, False)]:
            logger.removeHandler(old)
        if not any(isinstance(f, MaskSecrets) for f in logger.filters):
            logger.addFilter(MaskSecrets())
        if fmt != "none":
            logger.addHandler(handler(fmt, stream))
        logger.setLevel(level if isinstance(level, int) else str(level).upper())


def log_format(value: Any) -> str:
    fmt = str(value or "json").lower()
    if fmt not in ("json", "text", "none"):
        from warlog.config import ConfigError

        raise ConfigError(f"WARLOG_LOG_FORMAT must be json, text or none, not {fmt!r}")
    return fmt


def configure_process() -> None:
    """A process that is not the web app (the RQ worker, `warlog live`): the same lines as the web
    app's (WARLOG_LOG_FORMAT, WARLOG_LOG_LEVEL), masked, for every logger of the process — RQ's
    too, which then adds no handler of its own."""
    fmt = log_format(os.environ.get("WARLOG_LOG_FORMAT"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, HANDLER_MARK, False)]:
        root.removeHandler(old)
    if fmt != "none":
        root.addHandler(handler(fmt))
    root.setLevel(str(os.environ.get("WARLOG_LOG_LEVEL") or "INFO").upper())


def configure(app: Flask) -> None:
    fmt = log_format(app.config.get("WARLOG_LOG_FORMAT"))
    install_handler(fmt, app.config.get("WARLOG_LOG_LEVEL") or "INFO")
    access = logging.getLogger("warlog.access")

    @app.before_request
    def _request_id() -> None:
        sent = request.headers.get("X-Request-Id", "")
        g.request_id = sent if _REQUEST_ID.match(sent) else uuid.uuid4().hex
        g.request_started = time.perf_counter()

    @app.after_request
    def _access(resp: Response) -> Response:
        rid = g.get("request_id")
        if rid:
            resp.headers["X-Request-Id"] = rid
            ms = (time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000
            req = request._get_current_object()  # type: ignore[attr-defined]  # one look-up, not one a field
            path = req.full_path if req.query_string else req.path
            access.info("%s %s %s", req.method, path, resp.status_code, extra={"fields": {
                "method": req.method, "path": mask(path), "status": resp.status_code,
                "ms": round(ms, 1), "client": req.remote_addr}})
        return resp


try:  # gunicorn's access log, masked (`--logger-class warlog.ops.logs.GunicornLogger`)
    from gunicorn.glogging import Logger as _GunicornLogger

    class GunicornLogger(_GunicornLogger):
        """gunicorn's logger with every field of an access log line masked (the request line,
        path, query, Referer, headers: sign-in secrets and seat tokens travel in paths)."""

        def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
            found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
            return {k: mask(v) if isinstance(v, str) else v for k, v in found.items()}
except ImportError:  # gunicorn is a deployment dependency
    pass
