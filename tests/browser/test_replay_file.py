"""The replay file in a real browser: opened with file:// in headless Chromium
with every network request refused, it steps through a whole game of The Boys of '67 with the
keyboard, the buttons, the slider and autoplay. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import expect

from ledger.export import export_lines
from ledger.factory import open_store
from tests.pages.share_games import vb_game
from warlog.cli import main


@pytest.mark.browser
def test_the_replay_file_steps_through_a_whole_game_offline(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/vb.sqlite3")
    gid, _, _ = vb_game(store, 3)
    export = tmp_path / f"warlog-{gid}.jsonl"
    export.write_text("".join(export_lines(store, gid)), encoding="utf-8")
    last_hash = list(store.iter_events(gid))[-1].hash
    last = store.last_seq(gid)
    store.close()
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["replay", str(export), "-o", str(out)])
    assert result.exit_code == 0, result.output

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                  else route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    url = out.as_uri()
    page.goto(url)
    step = page.locator("#stepno")
    expect(step).to_have_text("0")
    assert page.inner_text("#final-hash") == last_hash
    assert f"warlog verify warlog-{gid}.jsonl" in page.inner_text("#check")

    # step through the whole game with →: every stop draws its board and names its move
    seen = [0]
    for _ in range(last + 1):
        if int(step.inner_text()) >= last:
            break
        page.keyboard.press("ArrowRight")
        expect(step).not_to_have_text(str(seen[-1]))
        now = int(step.inner_text())
        assert now > seen[-1]
        seen.append(now)
        assert page.locator("#board svg.hexmap .terrain").count() == 1
        assert page.locator("#events li.current").count() == 1
        if len(seen) == 12:
            assert page.evaluate("window.scrollY") == 0  # the controls stay in sight
            page.screenshot(path=str(artifacts / "replay-file-step.png"))
    assert seen[-1] == last and len(seen) > 50
    assert "revealed" in page.inner_text("#now") and "Game over" in page.inner_text("#events")
    page.screenshot(path=str(artifacts / "replay-file-end.png"))

    page.keyboard.press("Home")
    expect(step).to_have_text("0")
    page.keyboard.press("End")
    expect(step).to_have_text(str(last))
    page.keyboard.press("ArrowLeft")
    expect(step).not_to_have_text(str(last))
    page.click("#first")
    expect(step).to_have_text("0")
    page.locator("#slider").fill(str(last // 2))
    expect(step).to_have_text(str(last // 2))
    page.click("#autoplay")
    expect(step).not_to_have_text(str(last // 2), timeout=5_000)
    page.keyboard.press(" ")  # pause
    page.locator("#events li.ev-resolved").nth(5).click()
    assert page.locator("#events li.current").count() == 1
    page.screenshot(path=str(artifacts / "replay-file.png"))

    assert all(u.startswith("file://") or u.startswith("data:") for u in requests), requests
    assert {u for u in requests if u.startswith("file://")} == {url}
    assert not errors, errors
