"""In a real browser: The Boys of '67 (Vietnam Battles) played on its map by clicking: move a
unit by clicking its counter, then a hex; end the phase; declare an attack by clicking the
attacker, then the VC counter. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import new_game_page, press_action, updated

VIEW = {"width": 1600, "height": 1200}


def _confirm(page: Any) -> None:
    with updated(page):
        page.click("#confirm-go")


@pytest.mark.browser
def test_boys_of_67_is_played_by_clicking_on_its_map(browser: Any, live_server: Any, artifacts: Path) -> None:
    page, errors = new_game_page(browser, live_server[0], "vietnam-battles/boys67", VIEW)
    us, vc = (page.locator(f'input[data-invite="{s}"]').input_value() for s in ("us", "vc"))
    page.goto(vc)  # both seats taken: the game starts
    page.goto(us)
    assert page.locator('svg.hexmap[data-game="vietnam-battles"] .terrain .hex').count() == 24 * 34 + 50

    # a move: click 4/47 B and choose to move it (not lift it by slick or tango); then the hex it enters
    page.locator('.units .counter.target[data-unit="us-4-47-b"]').click(force=True)
    assert "helicopter-lift 4/47 B 3-4-5" in page.inner_text("#confirm")
    with updated(page):
        page.locator("#confirm button", has_text="move 4/47 B 3-4-5").click()
    assert "selected" in page.get_attribute('.units .counter[data-unit="us-4-47-b"]', "class")
    page.locator('.terrain [data-hex="0716"]').click(force=True)
    assert "Enter 0716" in page.inner_text("#confirm")
    _confirm(page)
    assert page.get_attribute('.units .counter[data-unit="us-4-47-b"]', "data-hex") == "0716"
    press_action(page, 'button[value=\'{"type": "end_phase"}\']')  # other units could still move: confirmed

    # an attack: click the attacker, then the VC unit it attacks
    page.locator('.units .counter[data-unit="us-4-47-c"]').click(force=True)
    assert page.locator("#plan-layer polygon").count() == 1
    page.locator('.units .counter[data-unit="vc-514-1"]').click(force=True)
    assert "attacks" in page.inner_text("#confirm")
    _confirm(page)
    assert page.locator(".battle").count() == 1 and "support fire step 1" in page.text_content("svg.hexmap .status")
    page.screenshot(path=str(artifacts / "vb-boys67-game.png"))
    assert not errors, errors
