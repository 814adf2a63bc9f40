"""The pages' rough edges a new user hit at 1400×1000, each checked in a real
browser and saved as a screenshot in test-artifacts/: boards open on the action, a move
shows in place (no reload), the replay's controls stay in sight and its change is in view,
one event row per move, the games' own seat names and scenario titles, the map's top band
whole, a favicon, the audit page's install line."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import updated

VIEW = {"width": 1400, "height": 1000}
IN_BOARD = """sel => {
  const b = document.querySelector('#board').getBoundingClientRect();
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.width > 0 && r.left >= b.left - 1 && r.right <= b.right + 1
      && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
}"""
ACROSS_BOARD = """sel => {
  const b = document.querySelector('#board').getBoundingClientRect();
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.width > 0 && r.left >= b.left - 1 && r.right <= b.right + 1;
}"""
IN_VIEWPORT = """sel => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def _page(browser: Any, errors: list[str]) -> Any:
    page = browser.new_context(viewport=VIEW).new_page()
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.set_default_timeout(20_000)
    return page


def _api(base: str, path: str, token: str | None = None, body: Any = None) -> Any:
    req = urllib.request.Request(base + "/api/v1" + path, method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _move(base: str, gid: str, token: str, action: dict[str, Any]) -> int:
    """Play `action` through the API and wait for its judgement."""
    expected = _api(base, f"/games/{gid}/actions", token)["expected_seq"]
    seq = _api(base, f"/games/{gid}/moves", token, {"action": action, "expected_seq": expected,
                                                     "idempotency_key": f"k{expected}"})["seq"]
    for _ in range(200):
        m = _api(base, f"/games/{gid}/moves/{seq}", token)
        if m["status"] != "pending":
            assert m["status"] == "resolved", m
            return seq
        import time

        time.sleep(0.05)
    raise AssertionError(f"move {seq} was never judged")


def _new_game(app: Any, game: str, scenario: str) -> tuple[str, dict[str, str]]:
    created = app.extensions["warlog"].create_game(game, scenario, {})
    return created["id"], created["seats"]


@pytest.mark.browser
def test_assault_on_belgium_opens_on_the_action_and_a_move_shows_in_place(browser: Any, live_server: Any,
                                                                        artifacts: Path) -> None:
    base, app = live_server
    errors: list[str] = []
    gid, seats = _new_game(app, "assault-on-belgium", "may-1940")
    ger, bel = _page(browser, errors), _page(browser, errors)
    bel.goto(f"{base}/games/{gid}/seat/{seats['belgium']}")
    ger.goto(f"{base}/games/{gid}/seat/{seats['germany']}")
    for seat in ("belgium", "germany"):
        _move(base, gid, seats[seat], {"type": "standard_setup"})
        _move(base, gid, seats[seat], {"type": "done_setup"})
    _move(base, gid, seats["germany"], {"type": "select", "unit": "de-pz-3"})

    # the map opens on the selected unit (it used to open on the west coast)
    ger.goto(f"{base}/games/{gid}")
    assert ger.evaluate(IN_BOARD, '#board .counter.selected[data-unit="de-pz-3"]')
    assert ger.title().startswith("Assault on Belgium — May 1940")
    assert ger.inner_text(".seat-card .seat") == "Germany"
    ger.screenshot(path=str(artifacts / "edges-aob-opens-on-the-action.png"))

    # a move clicked on the map is shown in place: the page is not reloaded
    ger.evaluate("() => { window.stayedHere = true; }")
    ger.locator('#board .terrain [data-hex="1706"]').click(force=True)
    expect(ger.locator("#confirm")).to_contain_text("1706")
    with updated(ger):
        ger.click("#confirm-go")
    assert ger.evaluate("() => window.stayedHere === true")
    assert "1706" in ger.inner_text("#result")
    assert ger.get_attribute('#board .counter[data-unit="de-pz-3"]', "data-hex") == "1706"
    assert ger.evaluate(IN_BOARD, '#board .counter[data-unit="de-pz-3"]')
    assert "last=" in ger.url
    ger.screenshot(path=str(artifacts / "edges-aob-move-in-place.png"))

    # Belgium's page follows in place too, and says whom it waits for by name
    bel.goto(f"{base}/games/{gid}")
    assert bel.inner_text("h2.prompt") == "Waiting for Germany"
    bel.evaluate("() => { window.stayedHere = true; }")
    _move(base, gid, seats["germany"], {"type": "move", "hex": "1606"})
    bel.wait_for_function("() => document.querySelector('#board .counter[data-unit=\"de-pz-3\"]')"
                          ".dataset.hex === '1606'", timeout=10_000)
    assert bel.evaluate("() => window.stayedHere === true")
    assert bel.evaluate(IN_BOARD, '#board .counter[data-unit="de-pz-3"]')  # Belgium's map is on Germany's move
    bel.screenshot(path=str(artifacts / "edges-aob-other-seat.png"))

    # the replay: the controls stay in sight (no scrolling on load or on the arrow keys), the
    # moved unit's path is in the board's view, one row per move
    spectator = _page(browser, errors)
    events = _api(base, f"/games/{gid}/events")["events"]
    step = max(e["seq"] for e in events if e["type"] == "resolved")
    spectator.goto(f"{base}/games/{gid}/replay/{step}")
    assert spectator.evaluate("() => window.scrollY") == 0
    assert spectator.evaluate(IN_VIEWPORT, "#slider")
    assert spectator.evaluate(IN_BOARD, ".hl-path")
    assert spectator.locator("#events li.ev-submitted").count() == 0  # every move judged: one row each
    assert spectator.locator("#events li.current").count() == 1
    stepno = spectator.locator("#stepno")
    for key in ("ArrowLeft", "ArrowLeft", "ArrowRight", "Home", "End", "ArrowLeft"):
        before = stepno.inner_text()
        spectator.keyboard.press(key)
        expect(stepno).not_to_have_text(before)
        assert spectator.evaluate("() => window.scrollY") == 0, key
        assert spectator.evaluate(IN_VIEWPORT, "#slider"), key
    spectator.goto(f"{base}/games/{gid}/replay/{step}")
    spectator.screenshot(path=str(artifacts / "edges-replay-controls-and-change-in-view.png"))

    # the favicon, the downloads
    icon = spectator.get_attribute("link[rel=icon]", "href")
    with urllib.request.urlopen(base + icon) as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("image/svg+xml")
    with urllib.request.urlopen(base + "/favicon.ico") as r:
        assert r.status == 200
    assert spectator.locator("#download-replay").count() == 1 and spectator.locator("#png-link").count() == 1

    # the audit page says exactly how to install the checker; dice are counted in English
    spectator.goto(f"{base}/games/{gid}/audit")
    install = spectator.inner_text("#install-cmd")
    assert install.startswith("pip install /")  # a path (or git+ address), never the PyPI name alone
    assert "pip install warlog from this repository" not in spectator.inner_text("main")
    assert " dice recorded" in spectator.inner_text("#dice-check")
    spectator.screenshot(path=str(artifacts / "edges-audit-install.png"), full_page=True)
    assert not errors, errors


@pytest.mark.browser
def test_vietnam_battles_names_its_seats_and_scenario_and_shows_its_whole_top_band(browser: Any,
                                                                                 live_server: Any,
                                                                                 artifacts: Path) -> None:
    base, app = live_server
    errors: list[str] = []
    gid, seats = _new_game(app, "vietnam-battles", "boys67")
    vc, us = _page(browser, errors), _page(browser, errors)
    vc.goto(f"{base}/games/{gid}/seat/{seats['vc']}")
    us.goto(f"{base}/games/{gid}/seat/{seats['us']}")
    title = us.title()
    assert "The Boys of '67" in title and "Iron Triangle" not in title and "Snoopy" not in title
    assert us.inner_text(".seat-card .seat") == "US"
    assert us.evaluate(ACROSS_BOARD, "svg.hexmap .status")  # the turn and support fire lines: nothing cut off
    assert us.evaluate(ACROSS_BOARD, "svg.hexmap .status-fire")
    assert us.evaluate(IN_BOARD, "#board .counter.target")  # the units the US may move are in view
    us.screenshot(path=str(artifacts / "edges-vb-us.png"))  # opened on the US units
    us.evaluate("() => { document.querySelector('#board').scrollTop = 0; }")
    us.screenshot(path=str(artifacts / "edges-vb-top-band.png"))  # scrolled up: the band, whole
    vc.goto(f"{base}/games/{gid}")
    assert vc.inner_text("h2.prompt") == "Waiting for US"
    assert "VC" in vc.inner_text(".seat-card") and "Vc" not in vc.inner_text("main")
    vc.screenshot(path=str(artifacts / "edges-vb-vc-waits.png"))
    assert not errors, errors


@pytest.mark.browser
def test_green_beret_shows_its_whole_top_band(browser: Any, live_server: Any, artifacts: Path) -> None:
    base, app = live_server
    errors: list[str] = []
    gid, seats = _new_game(app, "green-beret-vietnam", "campaign")
    page = _page(browser, errors)
    page.goto(f"{base}/games/{gid}/seat/{seats['player']}")
    lost = page.locator("svg.hexmap text", has_text="Teams lost")
    assert lost.count() == 1
    box = page.locator("#board").bounding_box()
    t = lost.bounding_box()
    assert box and t and t["x"] + t["width"] <= box["x"] + box["width"], (t, box)
    page.screenshot(path=str(artifacts / "edges-gbv-band.png"))
    assert not errors, errors
