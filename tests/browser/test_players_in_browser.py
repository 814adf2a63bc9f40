"""In a real browser, with a real SMTP server: two people take the seats of a game by their
invitation links, sign in by the link mailed to them, claim their seats on "my games", and the
second is told by mail that it is their turn after the first moves; the link in that mail opens
the game in their browser, as their seat (players and notifications)."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.notify.conftest import Smtp, smtp, subject_of  # noqa: F401  (the fixture: a real SMTP server)

VIEW = {"width": 1400, "height": 1000}
LINK = re.compile(r"(https?://\S+/signin/\S+)")


@pytest.fixture
def mail_server(tmp_path: Path, smtp: Smtp) -> Iterator[tuple[str, Flask, Smtp]]:  # noqa: F811
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/warlog.sqlite3",
                      "WARLOG_SMTP_URL": smtp.url})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["WARLOG_PUBLIC_URL"] = base
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base, app, smtp
    server.shutdown()
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


def _mail_to(smtp: Smtp, to: str, subject_start: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in reversed(smtp.messages):
            if m["To"] == to and subject_of(m).startswith(subject_start):
                return str(m.get_payload(decode=True).decode())
        time.sleep(0.1)
    raise AssertionError(f"no mail {subject_start!r} to {to}: {[(m['To'], m['Subject']) for m in smtp.messages]}")


def _sign_in_and_claim(page: Any, base: str, smtp: Smtp, email: str, name: str, gid: str) -> None:
    page.goto(base + "/signin")
    page.fill('input[name="email"]', email)
    page.fill('input[name="display_name"]', name)
    page.click("text=Send me a sign-in link")
    assert "on its way" in page.inner_text("#sent")
    link = LINK.search(_mail_to(smtp, email, "Your Warlog account"))
    assert link, "no link in the mail"
    page.goto(link.group(1))
    page.click("#use-link")
    page.wait_for_url("**/me")
    assert name in page.inner_text("main")
    page.click("text=Claim this seat")
    page.wait_for_url("**/me")
    assert gid in page.inner_text("#my-games")


@pytest.mark.browser
def test_sign_in_by_mail_claim_seats_and_get_your_turn_by_mail(browser: Any, mail_server: Any,
                                                                artifacts: Path) -> None:
    base, app, smtp = mail_server
    created = app.test_client().post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()
    gid = created["id"]
    pages = {}
    for seat, (email, name) in {"north": ("nora@example.org", "Nora"), "south": ("sam@example.org", "Sam")}.items():
        page = browser.new_context(viewport=VIEW).new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/games/{gid}/seat/{created['seats'][seat]}")  # the invitation: this browser's seat
        _sign_in_and_claim(page, base, smtp, email, name, gid)
        pages[seat] = page
    # opening an invitation joins its seat: south's started the game, and north (claimed) moves first
    body = _mail_to(smtp, "nora@example.org", "Your turn")
    assert f"{base}/games/{gid}" in body
    nora = pages["north"]
    nora.goto(base + "/me")
    assert "Your turn" in nora.inner_text("#my-games")
    nora.screenshot(path=str(artifacts / "me.png"), full_page=True)
    nora.click("#my-games >> text=Open")
    with nora.expect_navigation(url="**last=*"):
        nora.locator('button[name="action"]', has_text="Bank").first.click()
    body = _mail_to(smtp, "sam@example.org", "Your turn")
    # Sam opens the mail's link in a fresh browser where he is signed in but holds no seat cookie
    laptop = browser.new_context(viewport=VIEW).new_page()
    laptop.set_default_timeout(20_000)
    laptop.goto(base + "/signin")
    laptop.fill('input[name="email"]', "sam@example.org")
    laptop.click("text=Send me a sign-in link")
    time.sleep(0.2)
    link = LINK.search(_mail_to(smtp, "sam@example.org", "Your Warlog sign-in link"))
    assert link
    laptop.goto(link.group(1))
    laptop.click("#use-link")
    laptop.wait_for_url("**/me")
    laptop.goto(re.search(r"(https?://\S+/games/\S+)", body).group(1))
    assert laptop.get_attribute("body", "data-my-turn") == "1"
