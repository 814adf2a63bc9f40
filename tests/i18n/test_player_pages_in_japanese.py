"""Every page a signed-in player or a director reaches, asked for with `Accept-Language: ja`,
has no interface text left in English: the tournaments list with its whole "New tournament"
form, the lobby with its new-game form, the player's own pages (/me with its leave and quiet
days, sign-in, notification settings, play by e-mail), a player's page, the ratings, a
tournament's page, the private calendar link, and a game page with its messages. What the
page's visible texts (and the placeholders and labels a screen reader says) are checked for:
no text without a Japanese character that reads as English words. The games' own texts (a
scenario's or unit's name, `.game-text`), the board's SVG, code, and what the people typed
are left out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules import all_games
from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app, settle, sign_in
from warlog.tournaments.web import scenario_title

JA = {"Accept-Language": "ja,en;q=0.5"}
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
# two English words in a row, or one word of the interface alone ("Name", "Save", "Format")
WORDS = re.compile(r"[A-Za-z]{2,}[ ,:;'()\-—]+[A-Za-z]{2,}|^[A-Z][a-z]{2,}\.?$")
# not English interface text: names of things, standards and files a Japanese page writes as is
AS_IS = {"Warlog", "API", "CSV", "iCal", "UTC", "OpenSkill", "FIDE", "JSON", "Discord", "Webhook", "English",
         "Ann", "Bob", "TD", "Director"}
SKIP = {"script", "style", "code", "pre", "svg", "kbd", "samp"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Texts(HTMLParser):
    """The visible texts of a page and the words of its placeholders and aria-labels, outside
    script, style, code, the board's SVG, `.game-text` and `hidden` elements."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        skip = (tag in SKIP or "game-text" in (a.get("class") or "").split() or "hidden" in a
                or a.get("id") == "board" or a.get("name") == "game")
        if not (self.stack and self.stack[-1]) and not skip:
            for key in ("placeholder", "aria-label", "title"):
                if a.get(key):
                    self.texts.append(a[key] or "")
        if tag not in VOID:
            self.stack.append(skip or bool(self.stack and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]) and data.strip():
            self.texts.append(" ".join(data.split()))


def english_texts(html: str, data: tuple[str, ...] = ()) -> list[str]:
    parser = Texts()
    parser.feed(html)
    titles = {g.title for g in all_games()} | {g.name for g in all_games()} | {scenario_title(s, sid) for g in all_games() for sid, s in g.scenarios().items()}
    # the games' own options (their descriptions and choices are written in rules/)
    titles |= {o.description for g in all_games() for o in g.options().values()}
    titles |= {str(c).replace("_", " ") for g in all_games() for o in g.options().values() for c in o.choices}
    out = []
    for text in parser.texts:
        rest = text
        for known in sorted(AS_IS | titles | set(data), key=len, reverse=True):
            rest = rest.replace(known, "")
        if not JAPANESE.search(rest) and WORDS.search(rest.strip(" ·›—:()")):
            out.append(text)
    return out


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3", WARLOG_PERIODIC=False,
                   WARLOG_MAIL_IN_ADDRESS="play@warlog.example")
    yield app
    close_app(app)


def page(client: FlaskClient, path: str) -> str:
    r = client.get(path, headers=JA)
    assert r.status_code == 200, (path, r.status_code)
    html = r.get_data(as_text=True)
    assert '<html lang="ja">' in html, path
    return html


def post(client: FlaskClient, path: str, form: str, data: dict[str, str]) -> str:
    r = client.post(path, data={"csrf": csrf_of(client, form), **data}, headers={**ORIGIN, **JA})
    assert r.status_code in (200, 201, 303), (path, r.status_code, r.get_data(as_text=True)[:500])
    return r.get_data(as_text=True)


def test_the_checker_finds_english() -> None:
    assert english_texts("<p>Time control</p><label>Name <input placeholder='e.g. Winter Swiss'></label>") == [
        "Time control", "Name", "e.g. Winter Swiss"]
    assert english_texts("<p>持ち時間 UTC</p><code>warlog verify x</code><svg><text>Woods</text></svg>") == []


def test_every_page_a_player_and_a_director_reach_is_japanese(app: Flask) -> None:
    client = app.test_client()
    sign_in(app, client, "ann@example.org", "Ann")
    pages = {path: page(client, path) for path in
             ("/", "/tournaments", "/me", "/me/notifications", "/me/play-by-mail", "/ratings")}
    me = app.extensions["warlog_players"].by_email("ann@example.org")
    pages[f"/players/{me.id}"] = page(client, f"/players/{me.id}")
    assert 'name="kind"' in pages["/tournaments"] and 'name="leave"' not in pages["/me"]
    assert 'id="leave"' in pages["/me"], "the leave form is on /me"

    # a tournament Ann directs, its page and her private calendar link
    r = client.post("/tournaments", headers={**ORIGIN, **JA}, data={
        "csrf": csrf_of(client, "/tournaments"), "name": "冬のスイス", "game": "assault-on-belgium:may-1940",
        "kind": "swiss", "rounds": "2", "mode": "per_move", "days": "3", "hours": "0",
        "policy": "notify_director", "then": "notify_director"})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    tid = r.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    # the form's refusal of a field that is not a whole number, on an error page
    r = client.post("/tournaments", headers={**ORIGIN, **JA}, data={
        "csrf": csrf_of(client, "/tournaments"), "name": "x", "game": "assault-on-belgium:may-1940", "days": "x"})
    assert r.status_code == 400
    pages["refused form"] = r.get_data(as_text=True)
    assert "手番ごとの日数は整数で指定します。" in pages["refused form"]
    pages[f"/tournaments/{tid}"] = page(client, f"/tournaments/{tid}")
    pages["/tournaments with a row"] = listed = page(client, "/tournaments")
    row = re.search(r">冬のスイス</a></td><td>[^<]*</td><td>([^<]*)</td><td>([^<]*)</td>", listed)
    assert row and all(JAPANESE.search(cell) for cell in row.groups()), f"the list's format and status: {row}"
    pages["calendar link"] = post(client, f"/tournaments/{tid}/calendar-link", f"/tournaments/{tid}", {})

    # a game Ann plays, created with the lobby's form, with a message she sent
    made = post(client, "/games", "/", {"game": "assault-on-belgium/may-1940", "creator": "seat1"})
    mine = re.search(r'class="invite[^"]* mine".*?(/games/([\w-]+)/seat/[\w-]+)', made, re.S)
    assert mine, "the creator's own invitation link"
    gid = mine.group(2)
    pages["created"] = made
    client.get(mine.group(1), headers=JA)  # she takes her seat
    post(client, f"/games/{gid}/messages", f"/games/{gid}", {"to": "opponents", "text": "よろしく"})
    settle(app)
    pages[f"/games/{gid}"] = page(client, f"/games/{gid}")
    assert 'id="messages"' in pages[f"/games/{gid}"], "the messages panel is on the game page"

    signed_out = app.test_client()
    pages["/signin"] = page(signed_out, "/signin")

    left = {path: english for path, html in pages.items() if (english := english_texts(html, ("冬のスイス",)))}
    assert not left, f"interface texts still in English on Japanese pages: {left}"
