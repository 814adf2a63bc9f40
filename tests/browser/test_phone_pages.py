"""A phone is a full client: every page at 360×740 and 390×844, with touch, fits the screen's
width (no horizontal scroll; only the map pans, inside its own frame), opens at its top, and its
buttons and links in the action areas are at least 24×24 px (WCAG 2.2 target size, 2.5.8).
The site is built through the phone itself: the games are created on the lobby by a tap, the
director signs in, creates a tournament, and pairs it from the desk by taps. Screenshots of
every page go to test-artifacts/phone/."""

from __future__ import annotations

import json
import logging
import re
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import ARTIFACTS

PHONES = {"360": {"width": 360, "height": 740}, "390": {"width": 390, "height": 844}}
GAMES = ("assault-on-belgium/may-1940", "vietnam-battles/boys67", "green-beret-vietnam/campaign",
         "lock-n-load/demo", "up-front/A")
LINK = re.compile(r"https?://[^/\s]+(/signin/[A-Za-z0-9_\-]+)")

# What the page measures: its width, where it opened, and every button or link of the action
# areas (the top bar, the play page's controls, the forms) smaller than 24×24 px.
MEASURE = """(view) => {
  const small = [];
  const areas = 'header.topbar a, #controls button, #controls a, #confirm button, .zoom button, form button, '
              + 'form input[type=submit], .tabs a, .stepper a, .stepper button, nav a.button, a.button';
  for (const e of document.querySelectorAll(areas)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    if (r.width < 24 || r.height < 24) small.push(e.outerHTML.slice(0, 80) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('#board')) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.right > view + 1 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > view + 1))
      wide.push(e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' ends at ' + Math.round(r.right));
  }
  const unseen = [];  // the prompt and the controls in sight as the page opens, over the page
  for (const sel of ['body[data-page=play] #controls .prompt', 'body[data-page=replay] #next',
                     'body[data-page=replay-file] #next']) {
    const e = document.querySelector(sel);
    if (!e) continue;
    const r = e.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.top < 0 || r.bottom > innerHeight || !hit || !e.contains(hit) && !hit.contains(e)) unseen.push(sel);
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth, scrollY: scrollY,
          small: small, wide: wide.slice(0, 8), unseen: unseen};
}"""


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Flask]]:
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    db = tmp_path_factory.mktemp("phone") / "warlog.sqlite3"
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{db}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["WARLOG_PUBLIC_URL"] = base
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base, app
    server.shutdown()
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog_notify_pool"].shutdown(wait=True)
    app.extensions["warlog"].store.close()


def phone(browser: Any, size: str = "390", lang: str = "en") -> Any:
    """A page in a phone's browser: its viewport, touch, the mobile viewport meta honoured; its
    language `lang` (the browser's Accept-Language; `page.lang`)."""
    ctx = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True, device_scale_factor=2,
                              **({"locale": "ja-JP", "extra_http_headers": {"Accept-Language": "ja"}}
                                 if lang == "ja" else {}))
    page = ctx.new_page()
    page.lang = lang
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.errors = errors
    return page


def goto(page: Any, url: str) -> None:
    """Open `url`, once more if the page before was navigating itself away at that moment."""
    try:
        page.goto(url)
    except PlaywrightError:
        page.goto(url)


def create_game(page: Any, base: str, game: str) -> dict[str, str]:
    """Create `game` on the lobby by taps; the invitation links by seat."""
    page.goto(base + "/")
    page.select_option("#game-choice", game)
    page.locator("text=Create the game").tap()
    page.wait_for_selector("input[data-invite]")
    return {i.get_attribute("data-invite"): i.input_value() for i in page.locator("input[data-invite]").all()}


def sign_in(page: Any, base: str, app: Flask, email: str, name: str, here: dict[str, Any] | None = None) -> None:
    """Sign in through the sign-in pages, by taps; the link is read from the embedded outbox."""
    page.goto(base + "/signin")
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", name)
    page.locator("text=Send me a sign-in link").tap()
    page.wait_for_selector("#sent")
    app.extensions["warlog_notify_pool"].submit(lambda: None).result(timeout=30)
    link = LINK.search(app.extensions["warlog_notifier"].outbox(to=email)[0]["body"])
    assert link, "no sign-in link mailed"
    page.goto(base + link.group(1))
    if here is not None:
        here["signin-link"] = measure_here(page, "signin-link")
    if page.locator("input[name=display_name]").count():
        page.fill("input[name=display_name]", name)
    page.locator("#use-link").tap()
    page.wait_for_url(re.compile(r"/me$"))


@pytest.fixture(scope="module")
def site(browser: Any, phone_server: tuple[str, Flask], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The pages to check, each with the phone page (signed in, seated) that opens it."""
    base, app = phone_server
    tmp = tmp_path_factory.mktemp("phone-files")
    director = phone(browser)
    games = {g: create_game(director, base, g) for g in GAMES}
    here = {"created": measure_here(director, "created")}  # a POST's answer: measured where it stands
    sign_in(director, base, app, "dora@example.org", "Dora Director", here)
    director.goto(base + "/tournaments")
    director.fill("input[name=name]", "Phone cup")
    director.locator("form button[type=submit]").last.tap()
    director.wait_for_url(re.compile(r"/tournaments/[^/]+$"))
    tournament = director.url
    for n in range(4):
        player = phone(browser)
        sign_in(player, base, app, f"p{n}@example.org", f"Player {n}")
        player.goto(tournament)
        player.locator("button:has-text('Register')").tap()
        player.wait_for_selector("button:has-text('Withdraw')")
        player.context.close()
    director.goto(tournament + "/desk")
    director.locator("button:has-text('Pair round 1')").tap()
    director.wait_for_url(re.compile(r"/desk$"))
    aob = games["assault-on-belgium/may-1940"]
    gid = aob["germany"].split("/")[4]
    seats = phone(browser)
    for seat in ("germany", "belgium"):  # both seats taken: the game starts
        goto(seats, aob[seat])
    seats.context.close()
    with urllib.request.urlopen(f"{base}/api/v1/games/{gid}") as r:
        started = json.loads(r.read())["seq"]
    for seat_link in [aob["director"]] + [next(iter(v.values())) for k, v in games.items()
                                          if not k.startswith("assault")]:
        goto(director, seat_link)
    urls = {
        "lobby": base + "/", "tournaments": base + "/tournaments", "tournament": tournament,
        "desk": tournament + "/desk", "me": base + "/me", "notifications": base + "/me/notifications",
        "ratings": base + "/ratings", "outbox": base + "/outbox", "signin": base + "/signin",
        "replay": f"{base}/games/{gid}/replay/{started}", "audit": f"{base}/games/{gid}/audit",
        "fork": f"{base}/games/{gid}/fork/{started}",
        "not-found": f"{base}/games/0000000000000000",
        **{"play-" + g.split("/")[0]: links["director"].split("/seat/")[0] for g, links in games.items()},
    }
    director.goto(base + "/me")
    profile = director.locator("a[href*='/players/']").first
    if profile.count():
        urls["player"] = profile.get_attribute("href")
        if not urls["player"].startswith("http"):
            urls["player"] = base + urls["player"]
    replay_file = tmp / "replay.html"  # the replay to send: one file, opened from the disk
    with urllib.request.urlopen(f"{base}/games/{gid}/replay.html") as r:
        replay_file.write_bytes(r.read())
    urls["replay-file"] = replay_file.as_uri()
    director.goto(urls["fork"])
    director.locator("#fork-create-button").tap()
    director.wait_for_selector("input[data-invite]")
    here["sandbox-created"] = measure_here(director, "sandbox-created")
    sandbox = director.locator("input[data-invite]").first.input_value()
    director.goto(sandbox)
    urls["sandbox-play"] = director.url.split("?")[0]
    return {"base": base, "director": director, "urls": urls, "games": games, "here": here}


def shots() -> Path:
    folder = ARTIFACTS / "phone"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def measure_here(page: Any, name: str) -> dict[str, list[str]]:
    """The problems of the page as it stands, at each phone size."""
    return {size: _problems(page, name, size) for size in sorted(PHONES)}


def _check(page: Any, url: str, name: str, size: str) -> list[str]:
    page.set_viewport_size(PHONES[size])
    goto(page, url)
    return _problems(page, name, size)


def _problems(page: Any, name: str, size: str) -> list[str]:
    page.set_viewport_size(PHONES[size])
    page.wait_for_timeout(150)  # the page's script has laid the map out
    m = page.evaluate(MEASURE, PHONES[size]["width"])
    page.screenshot(path=str(shots() / f"{name}-{size}.png"))
    problems = []
    if m["scrollWidth"] > PHONES[size]["width"] or m["scrollWidth"] > m["innerWidth"]:
        problems.append(f"{name} at {size}: {m['scrollWidth']} px wide ({', '.join(m['wide'])})")
    if m["scrollY"]:
        problems.append(f"{name} at {size}: opened scrolled down by {m['scrollY']} px")
    if m["unseen"]:
        problems.append(f"{name} at {size}: not in sight as the page opens: {m['unseen']}")
    if m["small"]:
        problems.append(f"{name} at {size}: tap targets under 24×24: {m['small'][:5]}")
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("size", sorted(PHONES))
def test_every_page_fits_a_phone_without_sideways_scrolling(site: dict[str, Any], size: str) -> None:
    page = site["director"]
    problems: list[str] = []
    for answers in site["here"].values():
        problems += answers[size]
    for name, url in site["urls"].items():
        problems += _check(page, url, name, size)
    assert not problems, "\n".join(problems)
    assert not page.errors, page.errors
