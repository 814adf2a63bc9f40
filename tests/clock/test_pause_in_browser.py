"""In a real browser (Debian's Chromium through Playwright): the two seats of a game under a
clock ask for and agree to a pause on the game page, the clock stops, and one resumes it."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.browser.conftest import live_server  # noqa: F401  (the fixture; `browser` is the session's, tests/conftest.py)
from tests.conftest import Player as Driver
from warlog.clock import GameClock, TimeControl
from warlog.clock.stops import PAUSED
from warlog.ops.sqldb import iso


def test_two_seats_pause_and_resume_a_game_on_its_page(browser: Any, live_server: tuple[str, Flask]) -> None:  # noqa: F811
    base, app = live_server
    client = app.test_client()
    game = Driver(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
    game.join_all()
    clock: GameClock = app.extensions["warlog_clock"]
    clock.set_time_control(game.id, TimeControl(days=3, remind_hours=0))
    pages = {}
    for seat in ("north", "south"):
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/games/{game.id}/seat/{game.created['seats'][seat]}")
        pages[seat] = page
    pages["north"].click("text=Ask to pause the game")
    assert "waiting for the other seats" in pages["north"].inner_text("#pause-form")
    pages["south"].reload()
    assert "asks to pause the game" in pages["south"].inner_text("#pause-form")
    pages["south"].click("text=Agree to pause")
    assert "Paused" in pages["south"].inner_text("#pause-form")
    assert clock.deadline(game.id, "north").due_at == iso(PAUSED)  # the clock has stopped
    pages["north"].reload()
    pages["north"].click("#pause-form >> text=Resume")
    assert "Ask to pause the game" in pages["north"].inner_text("#pause-form")
    assert clock.deadline(game.id, "north").due_at != iso(PAUSED)
    for page in pages.values():
        page.context.close()
