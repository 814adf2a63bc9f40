"""Pages are small on a phone's connection: the server answers compressed (gzip or brotli, as
the browser's Accept-Encoding asks), and the static files carry a version in their URL and are
kept a year (a new version is a new URL); an unversioned or outdated URL is asked again each
time (its ETag answers 304 when unchanged)."""

from __future__ import annotations

import gzip
import re
import urllib.request
from typing import Any

import brotli
import pytest


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def _game_page(base: str) -> str:
    """A play page with its map (the largest page a player opens)."""
    status, _, body = _get(base + "/")
    assert status == 200
    req = urllib.request.Request(base + "/api/v1/games", method="POST", data=b'{"game": "vietnam-battles", '
                                 b'"scenario": "boys67"}', headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        gid = re.search(rb'"id":\s*"([0-9a-f]+)"', r.read())
    assert gid
    return f"{base}/games/{gid.group(1).decode()}"


@pytest.mark.browser
def test_pages_are_served_compressed_with_gzip_and_brotli(live_server: Any) -> None:
    base, _ = live_server
    url = _game_page(base)
    _, plain_headers, plain = _get(url)
    assert "Content-Encoding" not in plain_headers  # a client that asks for nothing gets plain bytes
    status, headers, body = _get(url, **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    assert gzip.decompress(body) == plain
    assert len(body) * 4 < len(plain), (len(body), len(plain))
    status, headers, body = _get(url, **{"Accept-Encoding": "gzip, deflate, br"})
    assert headers["Content-Encoding"] == "br" and brotli.decompress(body) == plain
    status, headers, body = _get(base + "/api/v1/openapi.json", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"


@pytest.mark.browser
def test_static_files_are_versioned_kept_a_year_and_compressed(live_server: Any) -> None:
    base, _ = live_server
    _, _, page = _get(base + "/")
    refs = re.findall(rb'(?:href|src)="(/static/[^"]+)"', page)
    assert {r.split(b"?")[0] for r in refs} >= {b"/static/warlog.css", b"/static/warlog.js"}
    for ref in refs:
        assert re.search(rb"\?v=[0-9a-f]{12}$", ref), ref
        status, headers, body = _get(base + ref.decode(), **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert "max-age=31536000" in headers["Cache-Control"] and "immutable" in headers["Cache-Control"]
        if len(body) >= 500:  # below that, compression is not worth its header (the favicon)
            assert headers.get("Content-Encoding") == "gzip", ref
        status, _, _ = _get(base + ref.decode(), **{"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
        assert status == 304
    status, headers, _ = _get(base + "/static/warlog.js?v=000000000000")
    assert status == 200 and "max-age=31536000" not in headers.get("Cache-Control", "")
    status, headers, _ = _get(base + "/static/warlog.js")
    assert status == 200 and "no-cache" in headers.get("Cache-Control", "")
