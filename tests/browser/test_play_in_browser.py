"""In a real browser: create a game of Assault on Belgium, open both invitations in two
browser contexts, play it to the end by clicking, step through the replay with the keyboard
as a third (spectator) window, read the audit page. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import press_action, updated

VIEW = {"width": 1920, "height": 1400}


def _watch(page: Any, errors: list[str]) -> Any:
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.set_default_timeout(20_000)
    return page


def _act(page: Any, locator: str) -> None:
    """Click something that submits a move; wait for the page to come back with its result."""
    press_action(page, locator)


def _my_turn(page: Any) -> bool:
    return page.get_attribute("body", "data-my-turn") == "1"


def _api(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path) as r:
        return json.loads(r.read())


def _fresh(page: Any, base: str, gid: str) -> None:
    """Wait until the page shows the ledger's latest event. The page reloads itself when the
    game moves on (it polls the API), so a reload from here could race with its own."""
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


@pytest.mark.browser
def test_two_players_play_to_the_end_and_a_spectator_replays(browser: Any, live_server: Any,
                                                            artifacts: Path) -> None:
    base, app = live_server
    errors: list[str] = []
    creator = _watch(browser.new_context(viewport=VIEW).new_page(), errors)
    creator.goto(base + "/")
    creator.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    creator.select_option("#game-choice", "assault-on-belgium/may-1940")
    creator.click("text=Create the game")
    links = {s: creator.locator(f'input[data-invite="{s}"]').input_value() for s in ("germany", "belgium")}
    assert all("/seat/" in v for v in links.values())
    gid = links["germany"].split("/")[4]

    ger = _watch(browser.new_context(viewport=VIEW).new_page(), errors)
    bel = _watch(browser.new_context(viewport=VIEW).new_page(), errors)
    ger.goto(links["germany"])
    bel.goto(links["belgium"])
    assert "You play" in ger.inner_text(".seat-card") and "Germany" in ger.inner_text(".seat-card")
    for page in (ger, bel):
        assert "/seat/" not in page.url  # the token left the address bar for the cookie
    _fresh(bel, base, gid)
    assert _my_turn(bel) and not _my_turn(ger)

    # Belgium places VI Corps by clicking: its counter in the tray, then Brussels, then confirm.
    with updated(bel):
        bel.locator('#board .tray .counter[data-unit="be-inf-6"]').click()
    bel.locator('#board .terrain [data-hex="1005"]').click(force=True)
    bel.wait_for_selector("#confirm-go")
    assert "1005" in bel.inner_text("#confirm")
    with updated(bel):
        bel.click("#confirm-go")
    assert "VI Corps" in bel.inner_text("#result")
    _act(bel, "button:has-text('Use the standard set-up')")
    _act(bel, "button:has-text('Finish setting up')")

    _fresh(ger, base, gid)
    assert _my_turn(ger)
    _act(ger, "button:has-text('Use the standard set-up')")
    _act(ger, "button:has-text('Finish setting up')")

    # Germany moves the 3rd Panzer: click the counter, click the hexes of its path, confirm.
    ger.locator('#board .counter[data-unit="de-pz-3"]').click(force=True)
    ger.wait_for_selector('.plan-hex[data-reach="1706"]')
    ger.locator('#board .terrain [data-hex="1706"]').click(force=True)
    expect(ger.locator("#confirm")).to_contain_text("1706")
    ger.locator('#board .terrain [data-hex="1606"]').click(force=True)
    ger.wait_for_selector("#tank-battle")
    ger.check("#tank-battle")
    with updated(ger):
        ger.click("#confirm-go")
    result = ger.inner_text("#result")
    assert "tank battle" in result and "Battle 1" in result
    ger.screenshot(path=str(artifacts / "game-page.png"), full_page=True)
    _act(ger, "button:has-text('End the movement')")

    # Then every decision of both seats, by clicking, until the game is over.
    for _ in range(150):
        info = _api(base, f"/api/v1/games/{gid}")
        if info["status"] == "ended":
            break
        page = ger if "germany" in info["active_seats"] else bel
        _fresh(page, base, gid)
        preferred = page.locator("#act-form button:has-text('Continue the battle')")
        _act(page, "#act-form button:has-text('Continue the battle')" if preferred.count() else "#act-form button")
    else:
        raise AssertionError("the game did not end within 150 decisions")
    for page in (ger, bel):
        _fresh(page, base, gid)  # the page may be reloading itself for the last move: no racing goto
        assert "wins" in page.inner_text(".status-card")
    ger.screenshot(path=str(artifacts / "game-over.png"), full_page=True)

    # Germany shares the replay link; a spectator steps through it with the keyboard.
    ger.click("nav.tabs >> text=Replay")
    permalink = ger.input_value("#permalink")
    spectator = _watch(browser.new_context(viewport=VIEW).new_page(), errors)
    events = _api(base, f"/api/v1/games/{gid}/events")["events"]
    battle_step = next(e["seq"] for e in events if e["type"] == "resolved"
                       and any(f["kind"] == "tank_battle" for f in e["payload"]["facts"]))
    spectator.goto(permalink)
    last = int(spectator.inner_text("#stepno"))
    step = spectator.locator("#stepno")
    spectator.keyboard.press("Home")
    expect(step).to_have_text("0")
    spectator.keyboard.press("ArrowRight")
    expect(step).not_to_have_text("0")
    first_stop = int(step.inner_text())
    spectator.keyboard.press("ArrowRight")
    expect(step).not_to_have_text(str(first_stop))
    assert int(step.inner_text()) > first_stop
    spectator.keyboard.press("ArrowLeft")
    expect(step).to_have_text(str(first_stop))
    spectator.keyboard.press("End")
    expect(step).to_have_text(str(last))
    spectator.goto(permalink.rsplit("/", 1)[0] + f"/{battle_step}")
    assert spectator.locator(".hl-path").count() >= 1 and spectator.locator(".hl-hex").count() >= 1
    spectator.keyboard.press("ArrowRight")
    expect(step).not_to_have_text(str(battle_step))
    assert f"/replay/{step.inner_text()}" in spectator.url  # a permalink for every step
    spectator.keyboard.press("ArrowLeft")
    expect(step).to_have_text(str(battle_step))
    spectator.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    spectator.goto(f"{base}/games/{gid}/audit")
    assert "equals the commitment" in spectator.inner_text("#seed-check")
    assert "every hash and link" in spectator.inner_text("#chain-check")
    assert "re-derived" in spectator.inner_text("#dice-check")
    spectator.screenshot(path=str(artifacts / "audit.png"), full_page=True)
    assert not errors, errors
