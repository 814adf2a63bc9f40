"""Smaller and cacheable answers: pages, JSON and static files compressed (brotli or gzip, by the
browser's Accept-Encoding, with Flask-Compress), and the static files' URLs carrying a version
(a hash of the file), so that a browser keeps them for a year and asks again only when they
change (the page then names another version).

Behind nginx (deploy/nginx.conf) the answers arrive compressed already; nginx compresses only
what the app did not (it never compresses twice)."""

from __future__ import annotations

import hashlib
import os
from typing import Any

from flask import Flask, Response, request
from flask_compress import Compress

YEAR = 365 * 24 * 3600
COMPRESSED = ["text/html", "text/css", "text/plain", "application/javascript", "text/javascript",
              "application/json", "image/svg+xml", "application/problem+json"]


def install(app: Flask) -> None:
    """Compression for every answer of a compressible type (not the streamed NDJSON exports,
    which go out as they are read), and long-lived versioned static files."""
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    static = app.static_folder or ""
    known: dict[str, tuple[float, str]] = {}

    def version(filename: str) -> str | None:
        """A short hash of the static file's bytes (recomputed when the file changes)."""
        path = os.path.join(static, filename)
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            return None
        if filename not in known or known[filename][0] != mtime:
            with open(path, "rb") as f:
                known[filename] = (mtime, hashlib.sha256(f.read()).hexdigest()[:12])
        return known[filename][1]

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            v = version(str(values["filename"]))
            if v:
                values["v"] = v

    Compress(app)

    @app.after_request  # registered after Compress's: runs before it (Flask runs them in reverse)
    def static_answer(resp: Response) -> Response:
        if request.endpoint != "static" or resp.status_code != 200:
            return resp
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") and request.args.get("v") == version(str(filename)):
            resp.cache_control.public = True
            resp.cache_control.no_cache = None
            resp.cache_control.max_age = YEAR
            resp.cache_control.immutable = True
        if resp.is_streamed:  # a small file read whole, so that it is compressed whole
            resp.direct_passthrough = False
            resp.set_data(resp.get_data())
        return resp
