"""In Japanese, in a real browser: Chromium with Accept-Language ja opens the lobby, creates a
game through the lobby's form, takes a seat by its invitation link, and reads the play page,
its replay and its audit, as a spectator and as the seat to act. No text of the interface is left in English (no visible text equals
an English message of the catalog), the words a player needs are there in Japanese, and the
pages' own CJK font is what draws them. Screenshots go to the test's temporary folder."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from warlog.catalogs import CATALOGS

pytestmark = pytest.mark.browser

# Every visible text node of the page, outside the board's SVG (drawn by each game's renderer)
# and outside <code>; the map key is read too.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, el = node.parentElement, text = node.textContent.trim();
    if (!text || !el || el.closest('#board, code, script, style, [hidden]')) continue;
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if ((!r.width && !r.height) || st.visibility === 'hidden' || st.display === 'none') continue;
    out.push(text);
  }
  return out;
}"""

FONT_LOADED = """async () => {
  await document.fonts.ready;
  return [...document.fonts].filter(f => f.family.includes('Warlog Noto Sans JP') && f.status === 'loaded').length;
}"""


def english_messages() -> set[str]:
    """The catalog's English texts that a page could show whole (no placeholder, no markup),
    less those Japanese writes the same ("1 MP", a rule section)."""
    with (CATALOGS / "ja" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        ids = {m.id for m in read_po(f) if isinstance(m.id, str) and m.id and m.string != m.id}
    return {i for i in ids if "%(" not in i and "<" not in i and re.search("[A-Za-z]{2}", i)}


def japanese_page(browser: Any) -> Any:
    ctx = browser.new_context(locale="ja-JP", extra_http_headers={"Accept-Language": "ja,en;q=0.3"},
                              viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    return page


def check_page(page: Any, name: str, shots: Path, expected: list[str]) -> list[str]:
    assert page.evaluate("document.documentElement.lang") == "ja", name
    texts = page.evaluate(VISIBLE_TEXTS)
    left_english = sorted(set(texts) & english_messages())
    assert not left_english, f"{name}: interface texts still in English: {left_english}"
    joined = "\n".join(texts)
    missing = [w for w in expected if w not in joined]
    assert not missing, f"{name}: Japanese words not found: {missing}"
    assert page.evaluate(FONT_LOADED) >= 1, f"{name}: the pages' own Japanese font was not loaded"
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    return texts


def test_lobby_game_replay_and_audit_in_japanese(browser: Any, live_server: Any, tmp_path: Path) -> None:
    base, _app = live_server
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = japanese_page(browser)
    page.goto(base + "/")
    check_page(page, "lobby", shots, ["ロビー", "新しいゲーム", "ゲームとシナリオ", "ゲームを作成", "大会", "サインイン", "日本語"])

    page.select_option("#game-choice", "assault-on-belgium/may-1940")
    page.locator("#creator-choice input[value=seat1]").check()
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_selector("input[data-invite]")
    check_page(page, "invitations", shots, ["各プレイヤーにそれぞれのリンク", "ここでこの席に着く"])
    links = {i.get_attribute("data-invite"): i.input_value() for i in page.locator("input[data-invite]").all()}
    gid = links["germany"].split("/")[4]

    page.goto(links["germany"])
    other = japanese_page(browser)
    other.goto(links["belgium"])  # both seats taken: the game starts
    for p in (page, other):
        take = p.locator("form button.primary:has-text('席に着く')")
        if take.count():
            take.click()
    with urllib.request.urlopen(f"{base}/api/v1/games/{gid}") as r:
        assert json.loads(r.read())["status"] == "active"
    page.goto(f"{base}/games/{gid}")
    page.wait_for_selector("#controls")
    check_page(page, "game", shots, ["ゲーム", "リプレイ", "監査", "最新のイベント", "あなたの陣営", "イベント #",
                                     "マップの凡例", "ドイツ軍戦車師団(攻撃-防御-移動)",
                                     "ベルギー軍の初期配置", "ベルギー軍を待っています", "ドイツ軍が席に着"])
    # the page script's own words (its map zoom, its move confirmation) come in Japanese too
    assert page.locator("button[title='マップを拡大縮小']").count() >= 1
    assert page.locator(".zoom button", has_text="全体").count() == 1 and page.locator(".zoom", has_text="マップ").count()
    assert page.evaluate("JSON.parse(document.getElementById('i18n-messages').textContent)['Confirm move']") == "移動を確定"
    other.goto(f"{base}/games/{gid}")  # the seat to act: the game's own prompt and actions in Japanese
    other.wait_for_selector("#controls")
    check_page(other, "game-to-act", shots, ["ベルギー軍の初期配置:配置するユニットを選んでください", "標準配置を使う",
                                             "ユニットを選択"])

    page.goto(f"{base}/games/{gid}/replay/1")
    check_page(page, "replay", shots, ["最初", "次", "視点", "公開", "パーマリンク", "リプレイをダウンロード"])
    page.goto(f"{base}/games/{gid}/audit")
    check_page(page, "audit", shots, ["このページでサーバーが行った検証", "シードのコミットメント", "ハッシュチェーン",
                                      "陣営ごとのダイスの公正さ"])
    assert sorted(p.name for p in shots.iterdir()) == ["audit.png", "game-to-act.png", "game.png", "invitations.png",
                                                        "lobby.png", "replay.png"]


def test_the_switch_turns_a_japanese_page_english_and_back(browser: Any, live_server: Any) -> None:
    base, _app = live_server
    page = japanese_page(browser)
    page.goto(base + "/signin")
    assert page.locator("h1").inner_text() == "Warlog にサインイン"
    page.locator(".lang-switch a[hreflang=en]").click()
    page.wait_for_url(base + "/signin")
    assert page.locator("h1").inner_text() == "Sign in to Warlog"
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator(".lang-switch a[hreflang=ja]").click()
    page.wait_for_url(base + "/signin")
    assert page.locator("h1").inner_text() == "Warlog にサインイン"


def test_a_phone_in_japanese_reads_the_lobby_and_fits_the_screen(browser: Any, live_server: Any, tmp_path: Path) -> None:
    """At 390×844 with touch, the Japanese lobby and sign-in pages fit the screen's width (the
    longer or shorter words of a translation must not widen a page) and read in Japanese."""
    base, _app = live_server
    ctx = browser.new_context(locale="ja-JP", extra_http_headers={"Accept-Language": "ja"},
                              viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    for name, path, words in [("phone-lobby", "/", ["新しいゲーム", "ゲームを作成"]),
                              ("phone-signin", "/signin", ["Warlog にサインイン", "サインインリンクを送る"])]:
        page.goto(base + path)
        check_page(page, name, tmp_path, words)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{name}: {width} px wide at 390 px"
    ctx.close()
