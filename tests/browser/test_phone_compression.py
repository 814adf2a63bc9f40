"""Pages are small on a phone's connection: the server answers compressed (gzip or brotli, as
the browser's Accept-Encoding asks), and the static files carry a version in their URL and are
kept a year (a new version is a new URL); an unversioned or outdated URL is asked again each
time (its ETag answers 304 when unchanged). The same through the production recipe (gunicorn
behind deploy/nginx.conf)."""

from __future__ import annotations

import gzip
import re
import urllib.request
from typing import Any

import brotli
import pytest

from tests.live.conftest import own_redis, stack  # noqa: F401  (gunicorn and nginx as deployed)
from tests.live.stack import Stack


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


@pytest.mark.browser
def test_the_production_recipe_serves_compressed_pages_through_nginx(stack: Stack) -> None:  # noqa: F811
    """gunicorn behind deploy/nginx.conf: the page arrives compressed once (the app's brotli or
    gzip passed through, or nginx's gzip), never twice, with Vary for the caches between."""
    stack.web(workers=1)
    stack.live()
    port = stack.nginx()
    base = f"http://127.0.0.1:{port}"
    gid = stack.new_game(port)["id"]
    for path in (f"/games/{gid}", "/", "/api/v1/openapi.json"):
        _, plain_headers, plain = _get(base + path)
        assert "Content-Encoding" not in plain_headers
        status, headers, body = _get(base + path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in headers["Vary"]
        unpacked = gzip.decompress(body)  # once: what is inside is the page itself (its form token aside)
        assert unpacked[:15] == plain[:15] and abs(len(unpacked) - len(plain)) < 100 and len(body) * 2 < len(plain), path
    _, _, page = _get(base + "/")
    css = re.search(rb'href="(/static/warlog\.css\?v=[0-9a-f]+)"', page)
    assert css
    status, headers, body = _get(base + css.group(1).decode(), **{"Accept-Encoding": "br, gzip"})
    assert status == 200 and headers["Content-Encoding"] == "br" and "immutable" in headers["Cache-Control"]
    assert brotli.decompress(body).startswith(b"/*")
