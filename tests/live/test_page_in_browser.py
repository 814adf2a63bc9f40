"""In a real browser behind the shipped nginx config: the play page waits for its move's
judgement on its notice stream (`warlog live`), never on the web app's long-poll, and the other
seat's page is brought up to date by the same notices."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import updated
from tests.live.stack import Stack, get


def _page(browser: Any, urls: list[str], errors: list[str]) -> Any:
    page = browser.new_context().new_page()
    page.on("request", lambda r: urls.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


@pytest.mark.browser
def test_the_play_page_waits_on_its_notice_stream_not_on_a_web_thread(browser: Any, stack: Stack) -> None:
    stack.web(workers=1)
    stack.live()
    stack.worker()
    port = stack.nginx()
    base = f"http://127.0.0.1:{port}"
    game = stack.new_game(port)
    gid = game["id"]
    info = json.loads(get(port, f"/api/v1/games/{gid}")[1])
    mover_seat = info["active_seats"][0]
    other_seat = next(s for s in game["seats"] if s != mover_seat)
    urls: list[str] = []
    errors: list[str] = []
    mover, other = _page(browser, urls, errors), _page(browser, urls, errors)
    mover.goto(f"{base}/games/{gid}/seat/{game['seats'][mover_seat]}")
    other.goto(f"{base}/games/{gid}/seat/{game['seats'][other_seat]}")
    other.wait_for_function("() => document.body.dataset.seq !== undefined")
    seq_before = other.evaluate("document.body.dataset.seq")
    for page in (mover, other):  # both streams open
        page.wait_for_function("() => document.body.dataset.page === 'play'")
    for _ in range(100):
        if json.loads(get(stack.live_port, "/healthz")[1])["streams"] == 2:
            break
        mover.wait_for_timeout(100)
    assert json.loads(get(stack.live_port, "/healthz")[1])["streams"] == 2

    try:
        with updated(mover):
            mover.locator("#act-form button").first.click()
    except Exception:
        print("URLS", urls, errors, mover.inner_html("#confirm") if mover.locator("#confirm").count() else "")
        print((stack.tmp / "nginx-access.log").read_text()[-3000:])
        print((stack.tmp / "worker.log").read_text()[-3000:])
        raise
    assert mover.get_attribute("#play-root", "data-result") in ("resolved", "rejected")
    other.wait_for_function("b => document.body.dataset.seq !== b", arg=seq_before)  # told by its stream
    assert not [u for u in urls if "wait=1" in u], "a page waited on a web thread"
    assert any(u.endswith(f"/games/{gid}/events") for u in urls)
    assert not errors


@pytest.mark.browser
def test_a_page_refused_a_stream_by_the_cap_still_sees_its_judgement_without_the_long_poll(
        browser: Any, stack: Stack) -> None:  # noqa: F811
    """`--per-client 1`: the second page of this browser is told 429 (Retry-After); it waits for
    its move's judgement by asking once a second, never on a web thread."""
    stack.web(workers=1)
    stack.live("--per-client", "1")
    stack.worker()
    port = stack.nginx()
    base = f"http://127.0.0.1:{port}"
    game = stack.new_game(port)
    gid = game["id"]
    mover_seat = json.loads(get(port, f"/api/v1/games/{gid}")[1])["active_seats"][0]
    other_seat = next(s for s in game["seats"] if s != mover_seat)
    urls: list[str] = []
    errors: list[str] = []
    refused: list[int] = []
    other = _page(browser, urls, errors)
    other.goto(f"{base}/games/{gid}/seat/{game['seats'][other_seat]}")
    for _ in range(100):  # the first page holds this client's one stream
        if json.loads(get(stack.live_port, "/healthz")[1])["streams"] == 1:
            break
        other.wait_for_timeout(100)
    mover = _page(browser, urls, errors)
    mover.on("response", lambda r: refused.append(r.status) if r.url.endswith("/events") else None)
    mover.goto(f"{base}/games/{gid}/seat/{game['seats'][mover_seat]}")
    mover.wait_for_function("() => document.body.dataset.page === 'play'")
    for _ in range(100):
        if refused:
            break
        mover.wait_for_timeout(100)
    assert refused == [429]
    with updated(mover):
        mover.locator("#act-form button").first.click()
    assert mover.get_attribute("#play-root", "data-result") in ("resolved", "rejected")
    assert not [u for u in urls if "wait=1" in u], "a page waited on a web thread"
    assert not errors
