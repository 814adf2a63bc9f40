"""In Chromium: a page on another port of the same host (same-site, so the SameSite=Lax session
cookie goes along) auto-submits a form at the JSON API to register the signed-in player in a
tournament. The API refuses it (403) and nothing is registered; registering from the
tournament's own page still works."""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.players.conftest import settle

LINK = re.compile(r"https?://[^/\s]+(/signin/[A-Za-z0-9_\-]+)")


@pytest.fixture
def attacker() -> Iterator[tuple[str, list[str]]]:
    """Another origin on 127.0.0.1 serving one page: a form that posts itself to `pages[0]`."""
    pages: list[str] = [""]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = (f'<html><body><form id="f" method="post" action="{pages[0]}" '
                    'enctype="application/x-www-form-urlencoded"><input name="x" value="1"></form>'
                    "<script>document.getElementById('f').submit()</script></body></html>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", pages
    server.shutdown()
    server.server_close()


def _entrants(app: Flask, tid: str) -> int:
    return int(app.test_client().get(f"/api/v1/tournaments/{tid}").get_json()["entrants"])


def test_another_sites_form_cannot_act_on_the_session_cookie(browser: Any, live_server: tuple[str, Flask],
                                                             attacker: tuple[str, list[str]]) -> None:
    base, app = live_server
    store = app.extensions["warlog_players"]
    director = store.register("Dee", "dee@example.org")
    r = app.test_client().post("/api/v1/tournaments", headers={"Authorization": f"Bearer {store.issue_token(director.id)}"},
                               json={"name": "Cup", "game": "dice-duel", "format": {"kind": "swiss", "rounds": 1}})
    tid = r.get_json()["id"]
    page = browser.new_context().new_page()
    page.set_default_timeout(20_000)
    page.goto(base + "/signin")  # sign in as a browser does: ask, read the mail (the outbox), open, press
    page.fill("input[name=email]", "ann@example.org")
    page.fill("input[name=display_name]", "Ann")
    page.click("text=Send me a sign-in link")
    settle(app)
    [mail] = app.extensions["warlog_notifier"].outbox(to="ann@example.org")
    match = LINK.search(mail["body"])
    assert match
    page.goto(base + match.group(1))
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/me$"))
    evil, target = attacker
    target[0] = f"{base}/api/v1/tournaments/{tid}/register"
    with page.expect_response(target[0]) as answer:
        page.goto(evil)
    assert answer.value.status == 403
    assert "does not come from a Warlog page" in answer.value.text()
    assert _entrants(app, tid) == 0
    page.goto(f"{base}/tournaments/{tid}")
    page.click("text=Register")
    page.wait_for_load_state()
    assert _entrants(app, tid) == 1
