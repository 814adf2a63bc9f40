"""Assault on Belgium played to its end on two phones (Germany at 390×844 in English, Belgium at
360×740 in Japanese, every page of Belgium's without a word left in English; touch screens) by taps only: a unit is picked by a tap, its path tapped hex by hex, the move
confirmed in the bar held at the foot of the screen (in sight without scrolling past the map);
the map pans under one finger and zooms under two, inside its frame. Screenshots go to
test-artifacts/phone/."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import press_action, updated
from tests.browser.japanese import english_left
from tests.browser.test_phone_pages import create_game, phone, shots

IN_SIGHT = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
         && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).closest(sel) !== null; }"""
WIDTH = "document.documentElement.scrollWidth"
ACT = "#act-form button[value*='\"type\": \"{}\"']"  # an action by its type, in any language


def _api(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path) as r:
        return json.loads(r.read())


def _fresh(page: Any, base: str, gid: str) -> None:
    """Wait until the page shows the ledger's latest event (it updates itself)."""
    for _ in range(3):
        seq = _api(base, f"/api/v1/games/{gid}")["seq"]
        try:
            page.wait_for_selector(f'body[data-seq="{seq}"]', timeout=6_000)
            return
        except PlaywrightError:
            try:
                page.goto(f"{base}/games/{gid}")
            except PlaywrightError:
                pass
    raise AssertionError(f"the page never showed event {seq}")


def _tap_act(page: Any, selector: str) -> None:
    """Tap a button that submits a move; wait for the page to show its result."""
    press_action(page, selector, tap=True)


def _touch(page: Any, kind: str, points: list[tuple[float, float]]) -> None:
    page.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def _board_box(page: Any) -> dict[str, float]:
    return page.evaluate("(() => { const r = document.querySelector('#board').getBoundingClientRect();"
                         " return {x: r.left, y: r.top, w: r.width, h: r.height}; })()")


@pytest.mark.browser
def test_assault_on_belgium_played_to_the_end_by_taps_on_two_phones(browser: Any, live_server: Any) -> None:
    base, _ = live_server
    folder = shots()
    creator = phone(browser, "390")
    links = create_game(creator, base, "assault-on-belgium/may-1940")
    gid = links["germany"].split("/")[4]
    ger, bel = phone(browser, "390"), phone(browser, "360", "ja")  # Belgium's phone reads Japanese
    for page in (ger, bel):
        page.cdp = page.context.new_cdp_session(page)
    ger.goto(links["germany"])
    bel.goto(links["belgium"])
    _fresh(bel, base, gid)
    assert bel.evaluate("scrollY") == 0 and not bel.locator("details.legend-box[open]").count(), \
        "the page opens on the map, its key folded"
    bel.screenshot(path=str(folder / "aob-belgium-start-360.png"))

    # Belgium places VI Corps by taps: its counter in the tray, then Brussels, then confirm.
    with updated(bel):
        bel.locator('#board .tray .counter[data-unit="be-inf-6"]').tap()
    bel.locator('#board .terrain [data-hex="1005"]').tap(force=True)
    bel.wait_for_selector("#confirm-go")
    assert "1005" in bel.inner_text("#confirm")
    assert bel.evaluate(IN_SIGHT, "#confirm-go"), "the confirm button is in sight, over the page"
    with updated(bel):
        bel.locator("#confirm-go").tap()
    assert "1005" in bel.inner_text("#result")
    assert not english_left(bel), english_left(bel)
    _tap_act(bel, ACT.format("standard_setup"))
    _tap_act(bel, ACT.format("done_setup"))

    _fresh(ger, base, gid)
    _tap_act(ger, "button:has-text('Use the standard set-up')")
    _tap_act(ger, "button:has-text('Finish setting up')")

    # Two fingers zoom the map inside its frame; one finger pans it; the page stays put.
    box = _board_box(ger)
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    width0 = ger.evaluate("document.querySelector('#board svg.hexmap').getBoundingClientRect().width")
    _touch(ger, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for step in range(1, 6):
        _touch(ger, "touchMove", [(cx - 30 - 12 * step, cy), (cx + 30 + 12 * step, cy)])
    _touch(ger, "touchEnd", [])
    width1 = ger.evaluate("document.querySelector('#board svg.hexmap').getBoundingClientRect().width")
    assert width1 > width0 * 1.5, (width0, width1)
    assert ger.evaluate(WIDTH) <= 390 and ger.evaluate("visualViewport.scale") == 1
    ger.screenshot(path=str(folder / "aob-germany-pinched-390.png"))
    scroll0 = ger.evaluate("[document.querySelector('#board').scrollLeft, document.querySelector('#board').scrollTop]")
    _touch(ger, "touchStart", [(cx + 60, cy + 60)])
    for step in range(1, 8):
        _touch(ger, "touchMove", [(cx + 60 - 15 * step, cy + 60 - 15 * step)])
    _touch(ger, "touchEnd", [])
    ger.wait_for_timeout(300)
    scroll1 = ger.evaluate("[document.querySelector('#board').scrollLeft, document.querySelector('#board').scrollTop]")
    assert scroll1 != scroll0, "a finger's drag pans the map"
    settled = None
    for _ in range(20):  # the pan's fling has stopped (a tap during a fling only stops it)
        ger.wait_for_timeout(250)
        now = ger.evaluate("[document.querySelector('#board').scrollLeft, document.querySelector('#board').scrollTop]")
        if now == settled:
            break
        settled = now
    ger.locator(".zoom button:has-text('Auto')").tap()
    expect(ger.locator(".zoom .level")).to_contain_text("auto")

    # Germany moves the 3rd Panzer by taps: the counter, the hexes of its path, confirm.
    ger.locator('#board .counter[data-unit="de-pz-3"]').tap(force=True)
    ger.wait_for_selector('.plan-hex[data-reach="1706"]')
    assert "tap the hexes of its path" in ger.inner_text("#confirm")  # a phone's words
    ger.locator('#board .terrain [data-hex="1706"]').tap(force=True)
    expect(ger.locator("#confirm")).to_contain_text("1706")
    ger.locator('#board .terrain [data-hex="1606"]').tap(force=True)
    ger.wait_for_selector("#tank-battle")
    ger.screenshot(path=str(folder / "aob-germany-path-planned-390.png"))
    assert ger.evaluate(IN_SIGHT, "#confirm-go"), "Confirm move is in sight with the map, without scrolling"
    ger.locator("#tank-battle").tap()
    with updated(ger):
        ger.locator("#confirm-go").tap()
    result = ger.inner_text("#result")
    assert "tank battle" in result and "Battle 1" in result
    _tap_act(ger, "button:has-text('End the movement')")

    # Then every decision of both seats, by taps, until the game is over.
    for n in range(150):
        info = _api(base, f"/api/v1/games/{gid}")
        if info["status"] == "ended":
            break
        page = ger if "germany" in info["active_seats"] else bel
        _fresh(page, base, gid)
        if n == 3:
            page.screenshot(path=str(folder / "aob-midgame.png"))
        if page is bel:
            left = english_left(bel)
            assert not left, f"#{info['seq']}: English on Belgium's Japanese page: {left}"
        preferred = page.locator(ACT.format("continue"))
        _tap_act(page, ACT.format("continue") if preferred.count() else "#act-form button")
    else:
        raise AssertionError("the game did not end within 150 decisions")
    for page, size in ((ger, "390"), (bel, "360")):
        _fresh(page, base, gid)
        assert page.locator(".status-card .outcome").count()
        if page is bel:
            assert not english_left(bel), english_left(bel)
        assert page.evaluate(WIDTH) <= int(size)
        page.screenshot(path=str(folder / f"aob-over-{size}.png"), full_page=True)
    assert not ger.errors and not bel.errors and not creator.errors, ger.errors + bel.errors + creator.errors
