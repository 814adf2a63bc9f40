"""A game of Assault on Belgium played to its end with the keyboard alone: no click, no tap.
The skip link reaches the actions in two Tabs; after each move the focus stays on the actions
(never back to the top of the page); the German move is planned on the map with the arrow
keys and Enter; the move that ends a phase while units could still act asks first, and Enter
confirms it. Both seats play in their own browser; the test picks moves as the page offers
them (the first action, or "Continue the battle"), like the clicking test beside it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import updated

VIEW = {"width": 1400, "height": 1000}


def _api(base: str, path: str, data: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + "/api/v1" + path, method="POST" if data is not None else "GET",
                                 data=json.dumps(data).encode() if data is not None else None,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _page(browser: Any, errors: list[str]) -> Any:
    page = browser.new_context(viewport=VIEW).new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return page


def _focused(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => { const a = document.activeElement;
      return {hex: a && a.dataset ? a.dataset.hex || null : null, text: a ? (a.textContent || '').trim() : '',
              unit: a && a.dataset && a.closest && a.closest('#board') ? a.dataset.unit || null : null,
              inActions: !!(a && a.closest && a.closest('#act-form, #confirm')), tag: a ? a.tagName : null,
              confirm: a && a.dataset ? a.dataset.confirm || null : null}; }""")


def _tab_until(page: Any, wanted: Any, shift: bool = False, most: int = 60) -> int:
    """Press Tab (or Shift+Tab) until the focused element is `wanted`; the number of presses."""
    for n in range(1, most + 1):
        page.keyboard.press("Shift+Tab" if shift else "Tab")
        if wanted(_focused(page)):
            return n
    raise AssertionError(f"never reached by Tab: last focus {_focused(page)}")


def _centre(page: Any, hex_: str) -> list[float]:
    return page.evaluate("""h => { const b = document.querySelector('#board .terrain [data-hex="' + h + '"]').getBBox();
                                   return [b.x + b.width / 2, b.y + b.height / 2]; }""", hex_)


def _arrow_to(page: Any, hex_: str) -> None:
    """Go across the map to `hex_` with the arrow keys, one hex a press (the way a player does:
    the key that points most nearly at it)."""
    goal = _centre(page, hex_)
    for _ in range(60):
        now = _focused(page)["hex"]
        assert now, "the focus left the map"
        if now == hex_:
            return
        here = _centre(page, now)
        dx, dy = goal[0] - here[0], goal[1] - here[1]
        page.keyboard.press(("ArrowRight" if dx > 0 else "ArrowLeft") if abs(dx) >= abs(dy)
                            else ("ArrowDown" if dy > 0 else "ArrowUp"))
    raise AssertionError(f"the arrow keys never reached {hex_}")


def _enter_move(page: Any) -> None:
    """Enter on the focused action; a move the page asks about first is confirmed with Enter."""
    f = _focused(page)
    assert f["inActions"], f"the focus is not on the actions: {f}"
    with updated(page):
        page.keyboard.press("Enter")
        if f["confirm"]:
            page.wait_for_selector("#confirm-go")
            assert _focused(page)["text"] == "Confirm", "the confirmation does not hold the focus"
            page.keyboard.press("Enter")


def _fresh(page: Any, base: str, gid: str) -> None:
    for _ in range(3):
        seq = _api(base, f"/games/{gid}")["seq"]
        try:
            page.wait_for_selector(f'body[data-seq="{seq}"]', timeout=6_000)
            return
        except PlaywrightError:
            page.goto(f"{base}/games/{gid}")
    raise AssertionError("the page never showed the latest event")


def _on_actions(page: Any) -> None:
    """The focus is on the actions: kept there after a move, or reached by the skip link on a page
    just opened (two Tabs and an Enter)."""
    if _focused(page)["inActions"]:
        return
    page.keyboard.press("Tab")
    assert _focused(page)["text"] == "Skip to the actions"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert _focused(page)["inActions"], _focused(page)


def _choose(page: Any, text: str) -> None:
    """Tab through the actions to the one whose text starts with `text`."""
    _on_actions(page)
    if not _focused(page)["text"].startswith(text):
        _tab_until(page, lambda f: f["text"].startswith(text))


@pytest.mark.browser
def test_a_game_of_assault_on_belgium_played_with_the_keyboard_alone(browser: Any, live_server: Any,
                                                                       artifacts: Path) -> None:
    base, _ = live_server
    created = _api(base, "/games", {"game": "assault-on-belgium", "scenario": "may-1940"})
    gid = created["id"]
    links = {t["seat"]: t["url"] for t in created["seat_tokens"]}
    errors: list[str] = []
    ger, bel = _page(browser, errors), _page(browser, errors)
    ger.goto(links["germany"])
    bel.goto(links["belgium"])
    _fresh(bel, base, gid)

    # Belgium: from the top of the page, the skip link, then the first action: three keys.
    bel.keyboard.press("Tab")
    assert _focused(bel)["text"] == "Skip to the actions"
    bel.keyboard.press("Enter")
    bel.keyboard.press("Tab")
    assert _focused(bel)["inActions"]

    # Belgium places VI Corps by keys: back to the tray of counters not yet set up (one Tab stop,
    # the arrow keys along it), Enter; then on the map, the arrow keys to Brussels, Enter, Enter.
    _tab_until(bel, lambda f: f["unit"] is not None, shift=True)
    for _ in range(30):
        if _focused(bel)["unit"] == "be-inf-6":
            break
        bel.keyboard.press("ArrowRight")
    assert _focused(bel)["unit"] == "be-inf-6"
    with updated(bel):
        bel.keyboard.press("Enter")
    assert _focused(bel)["inActions"]
    _tab_until(bel, lambda f: f["hex"] is not None, shift=True)
    _arrow_to(bel, "1005")
    bel.keyboard.press("Enter")
    bel.wait_for_selector("#confirm-go")
    assert _focused(bel)["text"] == "Confirm" and "1005" in bel.inner_text("#confirm")
    with updated(bel):
        bel.keyboard.press("Enter")
    assert "VI Corps" in bel.inner_text("#result")
    for seat_page in (bel, ger):
        _fresh(seat_page, base, gid)
        _choose(seat_page, "Use the standard set-up")
        _enter_move(seat_page)
        assert _focused(seat_page)["inActions"], "after a move the focus left the actions"
        _choose(seat_page, "Finish setting up")
        _enter_move(seat_page)

    # Germany plans the 3rd Panzer's move on the map: back from the actions to the map, the
    # arrow keys to its hex, Enter, then hex by hex, and Enter where the path ends sends it.
    _fresh(ger, base, gid)
    _on_actions(ger)
    _tab_until(ger, lambda f: f["hex"] is not None, shift=True)
    start = ger.get_attribute('#board .counter[data-unit="de-pz-3"]', "data-hex")
    _arrow_to(ger, start)
    ger.keyboard.press("Enter")
    if ger.locator("#confirm button:has-text('3')").count() and not ger.locator(".plan-hex").count():
        _tab_until(ger, lambda f: "3" in f["text"] and "Panzer" in f["text"])  # a stack: which unit
        ger.keyboard.press("Enter")
    ger.wait_for_selector('.plan-hex[data-reach="1706"]')
    assert _focused(ger)["hex"] == start
    _arrow_to(ger, "1706")
    ger.keyboard.press("Enter")
    ger.wait_for_function("() => document.querySelector('#confirm .what').textContent.includes('1706')")
    _arrow_to(ger, "1606")
    ger.keyboard.press("Enter")
    ger.wait_for_function("() => document.querySelector('#confirm .what').textContent.includes('1606')")
    with updated(ger):
        ger.keyboard.press("Enter")  # where the path ends: the planned move is sent
    assert "1606" in ger.inner_text("#result") and "Battle 1" in ger.inner_text("#result")
    assert _focused(ger)["inActions"], "after the move the focus is on the actions"
    _choose(ger, "End the movement")
    assert _focused(ger)["confirm"] and "could still move" in _focused(ger)["confirm"]
    _enter_move(ger)

    # Then every decision of both seats, by keys, until the game is over.
    for _ in range(200):
        info = _api(base, f"/games/{gid}")
        if info["status"] == "ended":
            break
        page = ger if "germany" in info["active_seats"] else bel
        _fresh(page, base, gid)
        _on_actions(page)
        if page.locator("#act-form button:has-text('Continue the battle')").count():
            _choose(page, "Continue the battle")
        _enter_move(page)
    else:
        raise AssertionError("the game did not end within 200 decisions")
    for page in (ger, bel):
        _fresh(page, base, gid)
        assert "wins" in page.inner_text(".status-card")
    ger.screenshot(path=str(artifacts / "keyboard-game-over.png"), full_page=True)
    assert not errors, errors


@pytest.mark.browser
def test_a_move_waiting_for_the_umpire_is_taken_back_with_the_keyboard(browser: Any, live_server: Any) -> None:
    """While the umpire is held off (its lock held, as by a busy worker), the seat's page offers
    to take the move back, with the focus on that button; Enter takes it back, and the ledger
    records it as withdrawn: the umpire never judges it."""
    base, app = live_server
    created = _api(base, "/games", {"game": "assault-on-belgium", "scenario": "may-1940"})
    gid = created["id"]
    links = {t["seat"]: t["url"] for t in created["seat_tokens"]}
    errors: list[str] = []
    bel, ger = _page(browser, errors), _page(browser, errors)
    ger.goto(links["germany"])
    bel.goto(links["belgium"])
    _fresh(bel, base, gid)
    _choose(bel, "Use the standard set-up")
    with app.extensions["warlog"].store.game_lock(gid):
        bel.keyboard.press("Enter")
        bel.wait_for_selector("#take-back")
        assert _focused(bel)["text"] == "Take back this move"
        with updated(bel):
            bel.keyboard.press("Enter")
    assert "Taken back" in bel.inner_text("#result")
    seq = int(bel.get_attribute("body", "data-last"))
    assert _api(base, f"/games/{gid}/moves/{seq}")["status"] == "withdrawn"
    assert "Use the standard set-up" in bel.inner_text("#act-form")  # nothing happened: it is still to do
    assert not errors, errors
