"""In a real browser, on a 390 px phone: a single-elimination event run through the pages alone to
its final. The director creates it on the create form (single elimination, a third-place game,
an entry cap), six players register on its page, the director pairs each round from the desk and
awards every game there (each award confirmed first); the tournament page draws the bracket
(SVG) with the byes of the top seeds, the winners, the third-place game, and names the champion
once the final has its result; the event is ended from the desk, and the page prints as its
pairings, standings and bracket alone. At every step the tournament
page and the desk fit the phone's width (document scrollWidth <= innerWidth). Screenshots go to
test-artifacts/knockout/."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from warlog.web.pageutil import PLAYER_COOKIE

PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "knockout"
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/warlog.sqlite3", "WARLOG_PERIODIC": False})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    app.config["WARLOG_PUBLIC_URL"] = f"http://127.0.0.1:{srv.server_port}"
    yield f"http://127.0.0.1:{srv.server_port}", app
    srv.shutdown()
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    pool = app.extensions.get("warlog_notify_pool")
    if pool is not None:
        pool.shutdown(wait=True)
    app.extensions["warlog"].store.close()


def _phone(browser: Any, base: str, app: Flask, name: str) -> Any:
    """A phone signed in as `name` (a player account with a session, as the mailed link gives)."""
    players = app.extensions["warlog_players"]
    player = players.by_email(f"{name.lower()}@example.org") or players.register(name, f"{name.lower()}@example.org")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": PLAYER_COOKIE, "value": players.new_session(player.id), "url": base}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def _submit(page: Any, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def _fits(page: Any, what: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{what} is {width[0]} px wide on a {width[1]} px phone"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _award_all(desk: Any, base: str, tid: str, app: Flask) -> int:
    """Award every game of the desk's queue to its first player, each confirmed; returns how many."""
    done = 0
    while True:
        desk.goto(f"{base}/tournaments/{tid}/desk")
        _fits(desk, "the desk")
        forms = desk.locator("form.award")
        if forms.count() == 0:
            return done
        form = forms.first
        form.locator("select[name=verdict]").select_option(index=0)
        form.locator("input[name=reason]").fill("agreed result")
        _submit(desk, "form.award >> nth=0 >> button")
        assert "Confirm" in desk.inner_text("h1")
        _fits(desk, "the confirmation page")
        _submit(desk, "button:text('Confirm')")
        app.extensions["warlog_queue"].drain()
        done += 1


@pytest.mark.browser
def test_single_elimination_to_its_final_on_a_phone(browser: Any, live: tuple[str, Flask]) -> None:
    base, app = live
    director = _phone(browser, base, app, "Director")
    director.goto(base + "/tournaments")
    _fits(director, "the tournaments page")
    director.fill("input[name=name]", "Phone Cup")
    director.select_option("select[name=game]", "assault-on-belgium:may-1940")
    director.select_option("select[name=kind]", "knockout")
    director.check("input[name=third_place]")
    director.fill("textarea[name=description]", "Six players, one cup, on a phone.")
    director.fill("input[name=max_entrants]", "6")
    _submit(director, "text=Create (you direct it)")
    tid = director.url.rsplit("/", 1)[1]
    assert "single elimination" in director.inner_text("main")
    for name in NAMES:
        p = _phone(browser, base, app, name)
        p.goto(f"{base}/tournaments/{tid}")
        _fits(p, "the tournament page")
        _submit(p, "button:text('Register')")
        assert p.locator("button:text('Withdraw')").count() == 1
        assert not p.errors
        p.context.close()

    director.goto(f"{base}/tournaments/{tid}/desk")
    _fits(director, "the desk")
    _submit(director, "button:text('Pair round 1')")
    _fits(director, "the desk with round 1's games")
    _shot(director, "desk")
    director.goto(f"{base}/tournaments/{tid}")
    assert "Director: Director" in director.inner_text("#directors")
    bracket = director.locator("svg.bracket")
    assert bracket.is_visible()
    box = bracket.bounding_box()
    assert box is not None and box["width"] > PHONE["width"], "the bracket keeps readable names and scrolls in its box"
    assert director.locator("svg.bracket g.match").count() == 4 + 2 + 1  # a bracket of eight
    assert director.locator("svg.bracket text:text('bye')").count() == 2  # seeds 1 and 2 wait
    _fits(director, "the tournament page with its bracket")
    _shot(director, "round-1")

    for number in (1, 2, 3):
        awarded = _award_all(director, base, tid, app)
        assert awarded == {1: 2, 2: 2, 3: 2}[number]  # round 3: the final and the third-place game
        if number < 3:
            _submit(director, f"button:text('Pair round {number + 1}')")
    director.goto(f"{base}/tournaments/{tid}")
    banner = director.locator("#champion")
    assert banner.is_visible() and "CHAMPION" in banner.inner_text().upper()
    champion = banner.locator("h2").inner_text().strip()
    assert champion in NAMES
    final = director.locator("svg.bracket g.match").nth(6)
    assert (final.locator("text[font-weight=bold]").text_content() or "").endswith(champion)
    assert director.locator("svg.bracket g.third-place text[font-weight=bold]").count() == 1
    _fits(director, "the tournament page with its champion")
    _shot(director, "final")

    director.goto(f"{base}/tournaments/{tid}/desk")
    _submit(director, "button:text('End the tournament')")
    _submit(director, "button:text('Confirm')")
    assert "ended" in director.inner_text("main")
    assert director.locator("#champion h2").inner_text().strip() == champion
    first = director.locator("table.standings tbody tr").first.inner_text()
    assert champion in first, "the champion heads the standings (by the stage reached)"
    _fits(director, "the ended tournament's page")
    _shot(director, "ended")
    # "Print" opens the browser's print dialog (stood in for here); printed, the page is the
    # pairings, standings and bracket alone: no bars, no forms.
    director.evaluate("window.print = () => { window.printed = true; }")
    director.click("#print")
    assert director.evaluate("window.printed === true")
    director.emulate_media(media="print")
    assert director.locator("header.topbar").is_hidden() and director.locator("main form").first.is_hidden()
    assert director.locator("table.standings").is_visible() and director.locator("svg.bracket").is_visible()
    assert director.locator("table.games").is_visible()
    director.emulate_media(media="screen")
    assert not director.errors
