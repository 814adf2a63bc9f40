"""In a real browser: the UP FRONT-structured mountain game on its card table. Both seats ready
by their buttons; the Americans then play a card by clicking it in their hand and clicking the
group it goes to; when it was a Fire card the Germans answer the Concealment window in the
Americans' turn. Each page shows its own hand only. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import new_game_page

VIEW = {"width": 1400, "height": 1100}


def _open_when_shown(page: Any, url: str, selector: str) -> None:
    """Open `url` and wait for `selector`; open it again if it does not come: the move just made
    may still wait for its judgement on a loaded machine, and the page then shows the game before it."""
    for _ in range(4):
        page.goto(url)
        try:
            page.wait_for_selector(selector, timeout=6_000)
            return
        except PlaywrightError:
            continue
    raise AssertionError(f"{url} never showed {selector}")


def _choose(page: Any) -> None:
    with page.expect_navigation(url="**last=*"):
        if page.locator("#confirm-go").count():
            page.click("#confirm-go")
        else:
            page.locator("#confirm button").first.click()


@pytest.mark.browser
def test_cards_are_played_by_clicking_on_the_card_table(browser: Any, live_server: Any, artifacts: Path) -> None:
    page, errors = new_game_page(browser, live_server[0], "up-front/A", VIEW)
    us, ge = (page.locator(f'input[data-invite="{s}"]').input_value() for s in ("americans", "germans"))
    page.goto(ge)
    page.goto(us)
    assert page.locator("svg.cardtable .terrain .hex").count() == 6
    assert page.locator("svg.cardtable .counter").count() == 6  # the Americans' hand, theirs alone
    with page.expect_navigation(url="**last=*"):
        page.click('button[value=\'{"type": "ready"}\']')
    page.goto(ge)
    assert page.locator("svg.cardtable .counter").count() == 5
    with page.expect_navigation(url="**last=*"):
        page.click('button[value=\'{"type": "ready"}\']')
    _open_when_shown(page, us, "svg.cardtable .counter.target")

    # play a card: a Fire card if the hand has one, else any card that goes onto a group
    cards = page.locator("svg.cardtable .counter.target")
    fire = [i for i in range(cards.count()) if cards.nth(i).locator("title").text_content().startswith("Fire")]
    pick = cards.nth(fire[0] if fire else 0)
    card = pick.get_attribute("data-unit")
    pick.click(force=True)
    targets = page.locator("svg.cardtable .terrain .hex.target")
    if page.locator("#plan-layer polygon").count():  # the card goes onto a group: click it
        group = page.locator('svg.cardtable .terrain [data-hex="foe:A"]' if fire else "#plan-layer polygon").first
        if fire:
            group.click(force=True)
        else:
            key = targets.first.get_attribute("data-hex") if targets.count() else None
            page.locator(f'svg.cardtable .terrain [data-hex="{key}"]').click(force=True) if key else None
    _choose(page)
    assert f'data-unit="{card}"' not in page.inner_html("svg.cardtable")  # the card left the hand
    page.screenshot(path=str(artifacts / "up-front-card-table.png"))
    if fire:
        page.goto(ge)
        assert "play Concealment or decline" in page.inner_text("body")
        with page.expect_navigation(url="**last=*"):
            page.click('button[value=\'{"type": "decline"}\']')
        assert "fire" in page.inner_text("body").lower()
    assert not errors, errors


@pytest.mark.browser
def test_an_afv_fires_its_gun_by_clicking_a_fire_card_and_the_enemy_group(browser: Any, live_server: Any,
                                                                           artifacts: Path) -> None:
    """Rules version 4's scenario U (two AFVs, UFM 7): the Americans click a Fire card, then the
    Germans' group A; the choices offered include the ordnance of their tank's group C beside its and
    the infantry's small-arms fire, and choosing it records the shot with its To Hit (VEH 3). The AFVs
    are named on the table."""
    for _attempt in range(6):  # a hand with a Fire card (about nine deals in ten have one)
        page, errors = new_game_page(browser, live_server[0], "up-front/U", VIEW)
        us, ge = (page.locator(f'input[data-invite="{s}"]').input_value() for s in ("americans", "germans"))
        page.goto(ge)
        page.goto(us)
        cards = page.locator("svg.cardtable .counter")
        fire = [i for i in range(cards.count()) if cards.nth(i).locator("title").text_content().startswith("Fire")]
        if fire:
            break
        page.context.close()
    assert fire, "no deal with a Fire card in six games"
    assert "medium tank" in page.inner_html("svg.cardtable") and "assault gun" in page.inner_html("svg.cardtable")
    with page.expect_navigation(url="**last=*"):
        page.click('button[value=\'{"type": "ready"}\']')
    page.goto(ge)
    with page.expect_navigation(url="**last=*"):
        page.click('button[value=\'{"type": "ready"}\']')
    _open_when_shown(page, us, "svg.cardtable .counter.target")
    cards = page.locator("svg.cardtable .counter.target")
    pick = next(cards.nth(i) for i in range(cards.count())
                if cards.nth(i).locator("title").text_content().startswith("Fire"))
    card = pick.get_attribute("data-unit")
    pick.click(force=True)
    page.locator('svg.cardtable .terrain [data-hex="foe:A"]').first.click(force=True)
    shot = page.locator("#confirm button", has_text="fires its ordnance at enemy group A")
    assert shot.count() == 1, page.inner_text("#confirm")  # beside the small-arms fire of groups A-C
    with page.expect_navigation(url="**last=*"):
        shot.first.click()
    assert f'data-unit="{card}"' not in page.inner_html("svg.cardtable")  # the card left the hand
    assert "To Hit" in page.inner_text("body")
    page.screenshot(path=str(artifacts / "up-front-ordnance.png"))
    assert not errors, errors
