"""Every visible word in Japanese, on a phone: Chromium at 390×844 with touch and
`Accept-Language: ja` creates each of the five games on the lobby by a tap, each seat takes its
place by its invitation link, the first decisions are played (through the API, scripted as the
phone tests script them), and the scan reads every visible text of the play pages as each seat
and as the director (the board's SVG too: its labels, status lines, counters and card table;
the map key, the action list, the last moves, Lock 'n Load's line-of-sight report), the lobby
with each game's rule options, each game's replay and audit, and the tournaments list. A word
in Latin letters there must be one a Japanese rulebook writes as it is (see `allowed_word`):
a proper name, a designation, an abbreviation or citation of the rules. Screenshots go to
test-artifacts/phone-ja/."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.browser.conftest import ARTIFACTS
from tests.browser.japanese import VISIBLE, allowed_word, findings, names_of, words_of
from tests.browser.test_lnl_in_browser import _api as _seat_api
from tests.browser.test_phone_games import pick
from tests.browser.test_phone_pages import GAMES, phone_server  # noqa: F401  (the module's server)

pytestmark = pytest.mark.browser


def _api(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path) as r:
        return json.loads(r.read())


def phone_ja(browser: Any) -> Any:
    ctx = browser.new_context(locale="ja-JP", extra_http_headers={"Accept-Language": "ja"},
                              viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.errors = errors
    return page


def play_some(base: str, gid: str, tokens: dict[str, str], decisions: int, seed: int = 3) -> None:
    """The game's first decisions, as the phone tests choose them: aimed at units and hexes
    first, then those that close a phase (so that later phases and facts are met)."""
    rng = random.Random(seed)
    for n in range(decisions):
        for _ in range(200):
            info = _api(base, f"/api/v1/games/{gid}")
            if info["status"] == "ended" or (not info.get("pending") and info["active_seats"]):
                break
            time.sleep(0.05)
        if info["status"] == "ended":
            return
        seat = info["active_seats"][0]
        listing = _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/actions")
        if not listing["actions"]:
            continue
        acts = [{"type": a["type"], "unit": a.get("unit"), "hex": a.get("hex") or a.get("target"), "action": a}
                for a in listing["actions"]]
        action = pick(acts, n, decisions * 2 // 3, rng)["action"]
        out = _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/moves",
                        {"action": action, "expected_seq": listing["expected_seq"], "idempotency_key": f"ja{n}"})
        while _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/moves/{out['seq']}")["status"] == "pending":
            time.sleep(0.02)


@pytest.fixture(scope="module")
def pages_ja(browser: Any, phone_server: tuple[str, Flask]) -> Iterator[dict[str, Any]]:  # noqa: F811
    """The five games created on the lobby by a tap on a Japanese phone, their seats taken, their
    first decisions played; the pages to read, each with the phone that reads it."""
    base, _app = phone_server
    page = phone_ja(browser)
    urls: dict[str, str] = {"lobby": base + "/", "tournaments": base + "/tournaments"}
    for scenario in GAMES:
        page.goto(base + "/")
        page.select_option("#game-choice", scenario)
        page.locator("#create-form button[type=submit]").tap()
        page.wait_for_selector("input[data-invite]")
        links = {i.get_attribute("data-invite"): i.input_value() for i in page.locator("input[data-invite]").all()}
        tokens = {s: link.rstrip("/").split("/")[-1] for s, link in links.items()}
        gid = links["director"].split("/")[4]
        for seat, link in links.items():
            if seat != "director":
                page.goto(link)
        play_some(base, gid, tokens, decisions=12)
        name = scenario.split("/")[0]
        last = _api(base, f"/api/v1/games/{gid}")["seq"]
        urls[f"replay-{name}"] = f"{base}/games/{gid}/replay/{max(1, last - 1)}"
        urls[f"audit-{name}"] = f"{base}/games/{gid}/audit"
        for seat, link in links.items():  # each seat's view (the director's too), in one phone each
            urls[f"play-{name}-{seat}"] = link
        if name == "lock-n-load":
            urls["play-lock-n-load-los"] = f"{base}/games/{gid}?los=1B4,1G6"
    yield {"base": base, "urls": urls}
    page.context.close()


def test_every_visible_word_of_the_five_games_is_japanese_on_a_phone(browser: Any, pages_ja: dict[str, Any]) -> None:
    shots = ARTIFACTS / "phone-ja"
    shots.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    read: dict[str, list[list[str]]] = {}
    seen = 0
    for name, url in pages_ja["urls"].items():
        page = phone_ja(browser)  # a fresh phone per page: a seat link seats that phone
        page.goto(url)
        if "/seat/" in url:
            page.wait_for_url(re.compile(r"/games/[^/?]+(\?.*)?$"))
        page.wait_for_timeout(200)  # the page's script has laid the map out
        assert page.evaluate("document.documentElement.lang") == "ja", name
        texts = page.evaluate(VISIBLE)
        seen += len(texts)
        read[name] = texts
        page.screenshot(path=str(shots / f"{name}.png"))
        assert not page.errors, page.errors
        page.context.close()
    games = {scenario.split("/")[0] for scenario in GAMES}
    for name, texts in read.items():  # a page without a map (the audit) may name what the game's maps print
        game = next((g for g in games if f"-{g}" in name), None)
        known = set().union(*(names_of(t) for n, t in read.items() if game and f"-{game}" in n))
        left = sorted(set(findings(texts, known)))
        if left:
            found[name] = left
    assert seen > 2000  # the boards' texts were read
    report = "\n".join(f"{name}:\n  " + "\n  ".join(repr(t) for t in texts) for name, texts in found.items())
    assert not found, "words left in English on Japanese pages:\n" + report


@pytest.mark.parametrize(("text", "left"), [
    ("1/I/2 Aé(グロスター グラディエーター) を 0305 に配置", []),
    ("LnL 10.3, T5", []), ("第 1 / 4 ターン · 米軍 機動戦闘フェイズ", []), ("Ypres (0305) に移動", []),
    ("p = 0.429", []), ("warlog-0642179bef546a6d.jsonl を verify", ["verify"]),
    ("US 第7分隊 が M-60 を US 第7分隊 に渡す", []), ("5/Cav enters 0618 (0 MP left)", ["enters", "left"]),
    ("Assault on Belgium のオプション", []), ("UFM 4.a、5.1.b", []), ("Tran Van Lam を選択", []),
    ("The Boys of '67 (練習シナリオ、1967年5月15日)", []),
    ("Squad cards in the mountains", ["Squad", "cards", "in", "the", "mountains"]),
    ("Lock 'n Load: Forgotten Heroes Vietnam (demo)", ["demo"]), ("Mechanized Combat Phase", ["Mechanized", "Combat", "Phase"]),
])
def test_the_scan_finds_english_words_and_keeps_names(text: str, left: list[str]) -> None:
    """The scan itself: names the page's map prints ("Ypres"), designations, citations, hashes
    and the games' titles pass; English words do not."""
    assert [w for w in words_of(text) if not allowed_word(w, {"Ypres", "Cav"})] == left
