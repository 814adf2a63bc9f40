"""In a real browser: a small Swiss of Assault on Belgium — 4 players, 2 rounds —
played through the pages. Everyone signs in by the link mailed to a real SMTP server (aiosmtpd,
started here); the director creates the tournament with one day per move and forfeit on
timeout; the players register; the director pairs from the desk; the pairing and "your turn"
mails arrive; one player moves; one game times out (the clock moved, the sweep run) and is
forfeited by policy; the other is adjudicated from the desk; round 2 likewise; the standings
show; the exported bundle verifies. Screenshots go to test-artifacts/."""

from __future__ import annotations

import logging
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.notify.conftest import Smtp, smtp, subject_of  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import FakeNow
from warlog.tournaments.bundle import verify_bundle

LINK = re.compile(r"https?://[^/\s]+(/signin/[A-Za-z0-9_\-]+)")


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()


@pytest.fixture
def server(tmp_path: Path, smtp: Smtp, fake: FakeNow) -> Iterator[tuple[str, Flask]]:  # noqa: F811
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/warlog.sqlite3",
                      "WARLOG_SMTP_URL": smtp.url, "WARLOG_PERIODIC": False})
    app.extensions["warlog_clock"].now = fake
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    app.config["WARLOG_PUBLIC_URL"] = f"http://127.0.0.1:{srv.server_port}"
    yield f"http://127.0.0.1:{srv.server_port}", app
    srv.shutdown()
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog_notify_pool"].shutdown(wait=True)
    app.extensions["warlog"].store.close()


def _body(msg: Message) -> str:
    part = msg.get_payload(0) if msg.is_multipart() else msg
    return str(part.get_payload(decode=True).decode("utf-8"))  # type: ignore[union-attr]


def _mail(smtp: Smtp, to: str, subject: str, timeout: float = 15.0) -> Message:  # noqa: F811
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in smtp.messages:
            if to in str(m["To"]) and subject in subject_of(m):
                return m
        smtp.wait_for(len(smtp.messages) + 1, timeout=0.5)
    raise AssertionError(f"no mail '{subject}' to {to}; got {[(m['To'], m['Subject']) for m in smtp.messages]}")


def _sign_in(browser: Any, base: str, smtp: Smtp, email: str, name: str) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": 1500, "height": 1100}).new_page()
    page.set_default_timeout(20_000)
    page.goto(base + "/signin")
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", name)
    page.click("text=Send me a sign-in link")
    link = LINK.search(_body(_mail(smtp, email, "Your Warlog")))
    assert link, "no link in the sign-in mail"
    page.goto(base + link.group(1))
    page.click("#use-link")
    page.wait_for_url("**/me")
    return page


def _games(app: Flask, tid: str, number: int) -> list[Any]:
    t = app.extensions["warlog_tournaments"].get(tid)
    return t.rounds[number].pairings


def _submit(page: Any, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def _award(desk: Any, base: str, tid: str, gid: str) -> None:
    desk.goto(f"{base}/tournaments/{tid}/desk")
    row = desk.locator(f"tr:has(a:text('{gid}'))")
    row.locator("form.award select[name=verdict]").select_option(index=0)  # "<first player> wins"
    row.locator("form.award input[name=reason]").fill("the position is won")
    with desk.expect_navigation():
        row.locator("form.award button").click()
    with desk.expect_navigation():  # the confirmation page says what it does
        desk.click("button:text('Confirm')")


@pytest.mark.browser
def test_a_small_swiss_through_the_pages(browser: Any, server: Any, smtp: Smtp,  # noqa: F811
                                         fake: FakeNow, artifacts: Path) -> None:
    base, app = server
    director = _sign_in(browser, base, smtp, "td@example.org", "Director")
    director.goto(base + "/tournaments")
    director.fill("input[name=name]", "Club Swiss")
    director.select_option("select[name=game]", "assault-on-belgium:may-1940")
    director.select_option("select[name=kind]", "swiss")
    director.fill("input[name=rounds]", "2")
    director.fill("input[name=days]", "1")
    director.select_option("select[name=policy]", "forfeit")
    _submit(director, "text=Create (you direct it)")
    tid = director.url.rsplit("/", 1)[1]
    pages = {}
    for name in ("Ann", "Bob", "Cid", "Dee"):
        p = _sign_in(browser, base, smtp, f"{name.lower()}@example.org", name)
        p.goto(f"{base}/tournaments/{tid}")
        _submit(p, "button:text('Register')")
        pages[name] = p
    director.goto(f"{base}/tournaments/{tid}/desk")
    _submit(director, "button:text('Pair round 1')")
    director.screenshot(path=str(artifacts / "tournament-desk-round1.png"), full_page=True)
    for name in pages:
        _mail(smtp, f"{name.lower()}@example.org", "round 1")
    owners = app.extensions["warlog_players"]
    entrants = list(app.extensions["warlog_tournaments"].get(tid).entrants)
    names = {pid: p.display_name for pid, p in owners.many(entrants).items()}
    game_a, game_b = _games(app, tid, 1)
    # Half a day later, game B's Belgian player sets up from the game page; Germany gets "your turn".
    fake.advance(hours=12)
    belgian = pages[names[game_b.seats["belgium"]]]
    belgian.goto(f"{base}/games/{game_b.game_id}")
    for action in ("standard_setup", "done_setup"):
        _submit(belgian, f"button[name=action][value*='{action}']")
        app.extensions["warlog_queue"].drain()
        belgian.goto(f"{base}/games/{game_b.game_id}")
    german = names[game_b.seats["germany"]]
    _mail(smtp, f"{german.lower()}@example.org", "turn")
    # A day and an hour after the pairing: game A's Belgian player has not moved; game B's clock runs on.
    fake.advance(hours=13)
    app.extensions["warlog_clock"].sweep()
    app.extensions["warlog_queue"].drain()
    doc = app.extensions["warlog_tournaments"].sync(tid)
    assert doc.results[game_a.game_id].how == "forfeit"
    assert doc.results[game_a.game_id].winner == game_a.seats["germany"]
    assert game_b.game_id not in doc.results
    _award(director, base, tid, game_b.game_id)
    app.extensions["warlog_queue"].drain()
    director.goto(f"{base}/tournaments/{tid}/desk")
    _submit(director, "button:text('Pair round 2')")
    for g in _games(app, tid, 2):
        _award(director, base, tid, g.game_id)
        app.extensions["warlog_queue"].drain()
    director.goto(f"{base}/tournaments/{tid}/desk")
    _submit(director, "button:has-text('End the tournament')")
    _submit(director, "button:text('Confirm')")  # it cannot be undone: the desk asks first
    page = pages["Ann"]
    page.goto(f"{base}/tournaments/{tid}")
    assert "ended" in page.inner_text(".status")
    assert page.locator("table.standings tbody tr").count() == 4
    page.goto(f"{base}/tournaments/{tid}?round=1")
    assert "(forfeit)" in page.content() and "(adjudicated)" in page.content()
    page.screenshot(path=str(artifacts / "tournament-standings.png"), full_page=True)
    with urllib.request.urlopen(f"{base}/api/v1/tournaments/{tid}/export") as r:
        bundle = r.read()
    report = verify_bundle(bundle.splitlines(keepends=True))
    assert report.rounds == 2 and report.results == 4 and report.seed_revealed
