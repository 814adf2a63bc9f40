"""In a real browser: a game of Green Beret: Vietnam (solitaire) played on its map by clicking:
place the base camp on a highlighted hex, start moving a team by clicking its counter, step it
by clicking a hex; then the replay of that step. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import updated

VIEW = {"width": 1600, "height": 1200}


def _confirm(page: Any) -> None:
    """Confirm the action the click offered; wait for the page to come back with its result."""
    with updated(page):
        page.click("#confirm-go")


@pytest.mark.browser
def test_a_green_beret_game_is_played_by_clicking_on_its_map(browser: Any, live_server: Any,
                                                             artifacts: Path) -> None:
    base, _ = live_server
    errors: list[str] = []
    page = browser.new_context(viewport=VIEW).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    page.goto(base + "/")
    page.select_option("#game-choice", "green-beret-vietnam/campaign")
    page.click("text=Create the game")
    page.goto(page.locator('input[data-invite="player"]').input_value())
    assert page.locator('svg.hexmap[data-game="green-beret-vietnam"] .terrain .hex').count() == 26 * 36

    # the base camp: any highlighted land hex, clicked on the map
    camps = page.eval_on_selector_all(".targets .target-hex", "els => els.map(e => e.dataset.target)")
    land = [h for h in camps if "t-full_water" not in page.get_attribute(f'.terrain [data-hex="{h}"]', "class")]
    page.locator(f'.terrain [data-hex="{land[len(land) // 2]}"]').click(force=True)
    assert "Place the base camp in" in page.inner_text("#confirm")
    _confirm(page)
    assert page.locator(".camps .counter.camp").count() == 1
    while page.locator('button[value=\'{"type": "done"}\']').count():
        with updated(page):
            page.click('button[value=\'{"type": "done"}\']')

    # a team: click its counter, confirm; then a hex to step into
    team = page.locator('.units .counter.target[data-unit="a-team-1"]')
    assert team.count() == 1 and "3-4" in team.text_content()
    team.click(force=True)
    assert "Start moving A Team 1" in page.inner_text("#confirm")
    _confirm(page)
    steps = page.eval_on_selector_all(".targets .target-hex", "els => els.map(e => e.dataset.target)")
    assert steps
    page.locator(f'.terrain [data-hex="{steps[0]}"]').click(force=True)
    assert f"Move to {steps[0]}" in page.inner_text("#confirm")
    _confirm(page)
    assert page.locator(".mp-left").count() == 1
    assert page.get_attribute('.units .counter[data-unit="a-team-1"]', "data-hex") == steps[0]
    page.screenshot(path=str(artifacts / "gbv-game.png"))

    page.click("text=replay ›")
    page.wait_for_selector("#replay-root")
    assert page.locator(".hl-path").count() >= 1
    page.screenshot(path=str(artifacts / "gbv-replay.png"))
    assert not errors, errors
