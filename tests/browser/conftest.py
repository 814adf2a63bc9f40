"""A live Warlog server in a thread and Debian's Chromium driven by Playwright.

Playwright cannot download its own browser here: it drives /usr/bin/chromium (scripts/test
installs Debian's `chromium` when it is missing). Without it these tests FAIL, never skip.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# The session's Chromium (`browser`) is tests/support/chromium.py's, registered by tests/conftest.py
# for every directory: one Playwright a session (a second sync_playwright() in one session fails).


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/warlog.sqlite3"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    app.extensions["warlog"].store.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def new_game_page(browser: Any, base: str, game: str, view: dict[str, int] | None = None) -> tuple[Any, list[str]]:
    """A fresh page on the lobby that has just created `game` ("game/scenario"), and the list the
    page's script errors collect into."""
    errors: list[str] = []
    page = browser.new_context(viewport=view or {"width": 1600, "height": 1200}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    page.goto(base + "/")
    page.select_option("#game-choice", game)
    page.click("text=Create the game")
    return page, errors


@contextmanager
def updated(page: Any) -> Iterator[None]:
    """Wait, after the block, until the play page has put a fresh board and panel in place (a
    move made on the page updates it where it stands: no navigation, no reload)."""
    before = page.evaluate("document.body.dataset.updates || '0'")
    yield
    page.wait_for_function("b => (document.body.dataset.updates || '0') !== b", arg=before)


def press_action(page: Any, locator: str, tap: bool = False) -> None:
    """Click (or tap) a button that submits a move and wait for its result. A move the page asks
    about first (its button's data-confirm: it ends the game, or a phase while units could still
    act) is confirmed in the page's own box, as a player does."""
    button = page.locator(locator).first
    # Asked before the press: a move that needs no confirming may update the page, and take the
    # button away, before a question asked after the press is answered.
    asks_first = button.get_attribute("data-confirm")
    with updated(page):
        button.tap() if tap else button.click()
        if asks_first:
            page.wait_for_selector("#confirm-go")
            page.locator("#confirm-go").tap() if tap else page.click("#confirm-go")
