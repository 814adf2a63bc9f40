"""In Japanese, in a real browser: a director signed in with `Accept-Language: ja` opens a running
tournament's page, the director's desk, a desk confirmation page and the dispute sandbox editor
the desk opens. No interface text is left in English: no visible text equals an English message
of the catalog, and no visible text of the pages' own frame reads as an English phrase (the
games' own words — unit names, game ids, what the players and the director typed — are the
tournament's data and left out). Screenshots go to the test's temporary folder."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ledger.export import parse_export, summary_from_events
from tests.browser.test_japanese_pages import VISIBLE_TEXTS, check_page, english_messages, japanese_page
from tests.browser.test_tournament_in_browser import LINK, _body, _mail, _submit, fake, server  # noqa: F401
from tests.notify.conftest import Smtp, smtp  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import FakeNow

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "vietnam-battles--snoopys_nose--v1.jsonl"

# An English phrase: two English words in a row, one of them a word of the interface's sentences.
# (A player's name, a game id, "CSV", "iCal", "UTC" or "OpenSkill" alone is not one.)
ENGLISH = re.compile(r"\b(?:the|of|and|to|in|is|by|your|you|for|with|no|round|game|games|seat|seats|step|"
                     r"move|player|players|wins|draw|set|phase|entrants?|dispute|ruling|rulings|desk|table|"
                     r"reason|confirm|result|results|bye|standings|points|pending|none)\b[ ,:]+[A-Za-z]{2,}"
                     r"|^(?:Round|Table|Seats?|Game|Status|Result|Deadline|Points|Player|Standings|Bye|Reason|"
                     r"Disputes|Rulings|Announce|Register|Withdraw|Print|Move|Set|Path|Counter|Position|"
                     r"Confirm|Extend|None\.?)$", re.IGNORECASE)
# the tournament's data, written by its people in this test (names, reasons, the dispute's words)
DATA = ("Ann", "Bob", "Cid", "Director", "監督")


def english_phrases(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        rest = text
        for d in DATA:
            rest = rest.replace(d, "")
        if ENGLISH.search(rest.strip()):
            out.append(text)
    return out


def _api(base: str, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _sign_in_japanese(browser: Any, base: str, smtp: Smtp, email: str, name: str) -> Any:  # noqa: F811
    page = japanese_page(browser)
    page.goto(base + "/signin")
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", name)
    page.click("form button[type=submit]")
    link = LINK.search(_body(_mail(smtp, email, "")))
    assert link, "no link in the sign-in mail"
    page.goto(base + link.group(1))
    page.click("#use-link")
    page.wait_for_url("**/me")
    return page


# the pages' own texts: those of VISIBLE_TEXTS less the games' own words (a victory status, which
# each game's rules write; marked `.game-text`)
FRAME_TEXTS = VISIBLE_TEXTS.replace("'#board, code", "'#board, .game-text, code")


def check_frame(page: Any, name: str, shots: Path, expected: list[str]) -> None:
    assert FRAME_TEXTS != VISIBLE_TEXTS
    check_page(page, name, shots, expected)
    left = english_phrases(page.evaluate(FRAME_TEXTS))
    assert not left, f"{name}: the page's own texts still in English: {left}"


def test_tournament_desk_confirmation_and_sandbox_in_japanese(browser: Any, server: Any, smtp: Smtp,  # noqa: F811
                                                                fake: FakeNow, tmp_path: Path) -> None:  # noqa: F811
    base, app = server
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = _sign_in_japanese(browser, base, smtp, "td@example.org", "監督")
    players = app.extensions["warlog_players"]
    director = players.by_email("td@example.org")
    dtoken = players.issue_token(director.id)
    t = _api(base, "POST", "/api/v1/tournaments", dtoken, {
        "name": "冬のスイス", "game": "assault-on-belgium",
        "format": {"kind": "swiss", "rounds": 2}, "time_control": {"days": 3, "policy": "notify_director"}})
    tid, tokens = t["id"], {}
    for name in ("Ann", "Bob", "Cid"):
        p = players.register(name, f"{name.lower()}@example.org")
        tokens[name] = players.issue_token(p.id)
        _api(base, "POST", f"/api/v1/tournaments/{tid}/register", tokens[name])
    doc = _api(base, "POST", f"/api/v1/tournaments/{tid}/rounds", dtoken)
    app.extensions["warlog_queue"].drain()
    game = doc["games"][0]
    disputer = next(n for n in ("Ann", "Bob", "Cid") if n in {s["name"] for s in game["seats"].values()})
    _api(base, "POST", f"/api/v1/tournaments/{tid}/disputes", tokens[disputer],
         {"game_id": game["game_id"], "seq": 1, "text": "配置がおかしい"})
    _api(base, "POST", f"/api/v1/tournaments/{tid}/announcements", dtoken, {"text": "第 2 ラウンドは月曜日から"})

    # the list with its whole "New tournament" form (legends, labels, options, help, the button)
    page.goto(f"{base}/tournaments")
    check_frame(page, "tournaments", shots, ["大会", "形式", "持ち時間", "参加登録の開始", "進行中", "時間切れのとき",
                                             "作成(あなたがディレクター)"])
    page.goto(f"{base}/tournaments/{tid}")
    check_frame(page, "tournament", shots, ["冬のスイス", "スイス式", "第 1 / 2 ラウンド", "ラウンドとゲーム", "順位",
                                            "クロス表", "お知らせ", "ディレクター画面", "不戦勝(バイ):"])
    page.goto(f"{base}/tournaments/{tid}/desk")
    check_frame(page, "desk", shots, ["ディレクター画面:冬のスイス", "結果の出ていないゲーム(裁定待ち)", "延長",
                                      "このゲームについて裁定", "プレイヤーと席", "全参加者へのお知らせ",
                                      "送信に失敗した通知", "がゲーム"])
    # a confirmation page: withdrawing a player asks first, in Japanese
    form = page.locator("#withdraw-form")
    form.locator("input[name=reason]").fill("メールで辞退")
    _submit(page, "#withdraw-form button[type=submit]")
    check_frame(page, "desk-confirm", shots, ["確認:プレイヤーを棄権させる", "ディレクター画面に戻る(何も記録しません)"])

    # the dispute sandbox editor, on an ended game (anyone may fork it): one edit accepted
    with GOLDEN.open("rb") as fh:
        events = parse_export(fh)
    app.extensions["warlog"].store.import_events(events, None, summary_from_events(events))
    page = japanese_page(browser)  # a judge who holds no seat and is not signed in
    page.goto(f"{base}/games/{events[0].game_id}/fork/121")
    page.fill("#set-path", "/units/vc-263-1/reduced")
    page.fill("#set-value", "true")
    _submit(page, "#fork-set button")
    check_frame(page, "sandbox", shots, ["紛争用サンドボックス", "ステップ 121 で分岐", "局面", "フェイズ:",
                                         "適用しました:/units/vc-263-1/reduced を設定。", "マーカーを変更",
                                         "サンドボックスを作成", "指定するダイス目(順に)"])
    assert sorted(p.name for p in shots.iterdir()) == ["desk-confirm.png", "desk.png", "sandbox.png",
                                                        "tournament.png", "tournaments.png"]


def test_the_replay_files_frame_in_japanese(browser: Any, server: Any, smtp: Smtp, tmp_path: Path) -> None:  # noqa: F811
    """The downloadable replay file asked for in Japanese: its own frame (stepper, check, footer)
    reads in Japanese, and the file says it is Japanese. The events' own texts are the games'."""
    base, _app = server
    made = urllib.request.Request(f"{base}/api/v1/games", method="POST", headers={"Content-Type": "application/json"},
                                  data=json.dumps({"game": "assault-on-belgium", "scenario": "may-1940"}).encode())
    with urllib.request.urlopen(made) as r:
        gid = json.loads(r.read())["id"]
    req = urllib.request.Request(f"{base}/games/{gid}/replay.html",
                                 headers={"Accept-Language": "ja"})
    with urllib.request.urlopen(req) as r:
        html = r.read().decode()
    page = japanese_page(browser)
    page.set_content(html)
    assert page.evaluate("document.documentElement.lang") == "ja"
    frame = page.evaluate(FRAME_TEXTS.replace("'#board, ", "'#board, #events, #now, .outcome, "))
    left = sorted(set(frame) & english_messages()) + english_phrases(frame)
    assert not left, f"replay file: the frame's texts still in English: {left}"
    joined = "\n".join(frame)
    for word in ("リプレイファイル", "最初", "自動再生", "エクスポート", "連鎖はイベント", "ハッシュ連鎖台帳から Warlog が作成しました"):
        assert word in joined, (word, joined[:2000])
    page.screenshot(path=str(tmp_path / "replay-file.png"), full_page=True)
