"""Play by mail in Japanese: a player who chose Japanese reads every mail of a game played by mail
in Japanese — the turn mail (position, legal actions, how to reply), the answer to each reply
(what was played, with its facts and dice) and the answer to a refused reply — and plays the game
to its end with the codes, as an English player does."""

from __future__ import annotations

import json
import re
from email.message import Message
from pathlib import Path
from typing import Any

from flask import Flask

from tests.browser.japanese import allowed_word, words_of
from tests.mailin.conftest import CODE_LINE, STANDING_HEAD, Table, reply, subject_of
from tests.notify.conftest import Smtp
from warlog.catalogs import svg_texts
from warlog.render.png import board_png, font_for

ROOT = Path(__file__).resolve().parents[2]


def _names(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [n for k, v in data.items() for n in ([v] if k == "name" and isinstance(v, str) else _names(v))]
    return [n for v in data for n in _names(v)] if isinstance(data, list) else []


# The units' printed names ("StG 2 (Ju 87B)", "3. Panzer-Division"): a Japanese page keeps them
# as the counters print them (tests/browser/japanese.py), and so does a mail
UNIT_NAMES = {w for name in _names(json.loads((ROOT / "rules" / "assault_on_belgium" / "data" / "oob.json")
                                              .read_text(encoding="utf-8"))) for w in words_of(name)}

# What is no words: an address (the reply address, a player's), a link, a code ("A12")
_NOT_PROSE = re.compile(r"\S+@\S+|https?://\S+|\bA\d+\b")


def parts_of(msg: Message) -> list[str]:
    """The mail's texts as a reader sees them: the plain text and the HTML's text."""
    out = []
    for part in msg.walk():
        if part.get_content_type() in ("text/plain", "text/html"):
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            text = payload.decode(part.get_content_charset() or "utf-8")
            if part.get_content_type() == "text/html":
                text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", text, flags=re.S))
            out.append(text)
    return out


def english_in(msg: Message) -> list[str]:
    """The lines of the mail (subject included) that keep an English word."""
    lines = [subject_of(msg)] + [line for text in parts_of(msg) for line in text.splitlines()]
    return [line for line in lines
            if any(not allowed_word(w, UNIT_NAMES) for w in words_of(_NOT_PROSE.sub(" ", line)))]


def codes(msg: Message) -> dict[str, str]:
    """The codes of the mail's legal actions (not of the standing answers listed after them), in
    either language."""
    text = parts_of(msg)[0].split("今設定できる常備回答")[0].split(STANDING_HEAD)[0]
    return {code: words.strip() for code, words in CODE_LINE.findall(text)}


def last_code(seat: str, msg: Message, found: dict[str, str]) -> str:
    return max(codes(msg), key=lambda c: int(c[1:]))


def test_a_game_of_assault_on_belgium_by_mail_reads_in_japanese_to_its_end(mail_app: Flask, smtp: Smtp,
                                                                            mail_in) -> None:
    """AoB 3 (the set-ups, then Germany ends its movement and the game ends), every mail checked."""
    languages = mail_app.extensions["warlog_languages"]
    table = Table(mail_app, smtp, mail_in, "assault-on-belgium", "may-1940",
                  before_join=lambda ids: [languages.set(pid, "ja") for pid in ids.values()])
    first = table.next_turn()
    assert first is not None
    text = parts_of(first)[0]
    assert "あなたの合法な行動(コードで返信):" in text and "指すには、このメールに返信してください" in text, text
    assert subject_of(first).startswith("あなたの手番:Assault on Belgium — 1940年5月"), subject_of(first)
    assert not english_in(first), english_in(first)
    assert any(p.get_content_type() == "image/png" for p in first.walk()), "the board's picture"

    # a code the mail did not give: refused, answered in Japanese with the codes again
    seat = table.seat_of(str(first["To"]))
    before = len(table.answers())
    mail_in.send(reply(first, table.address[seat], "A999"))
    [refused] = table.wait_answers(before + 1)[before:]
    assert subject_of(refused).startswith("未実行:Assault on Belgium"), subject_of(refused)
    said = parts_of(refused)[0]
    assert "未実行:A999 はそのメールのコードではありません" in said and codes(refused) == codes(first), said
    assert not english_in(refused), english_in(refused)

    # the game played to its end by the last code of each mail, every mail read
    table.play(last_code)
    assert table.game.info()["status"] == "ended"
    played = [m for m in table.answers() if subject_of(m).startswith("実行しました:")]
    assert played and "を読みました" in parts_of(played[0])[0], parts_of(played[0])[0]
    ended = smtp.wait_until(lambda m: subject_of(m).startswith("ゲーム終了:"))
    assert ended
    left = {m["Subject"]: english_in(m) for m in smtp.messages if english_in(m)}
    assert not left, left


def test_an_english_player_beside_a_japanese_one_reads_english(mail_app: Flask, smtp: Smtp, mail_in) -> None:
    """Each player's mails are in their own language: one seat Japanese, the other English."""
    languages = mail_app.extensions["warlog_languages"]
    table = Table(mail_app, smtp, mail_in, "assault-on-belgium", "may-1940",
                  before_join=lambda ids: languages.set(ids["germany"], "ja"))
    table.play(last_code)
    for m in smtp.messages:
        japanese = m["To"] == table.address["germany"]
        assert bool(english_in(m)) != japanese or not parts_of(m), (m["To"], subject_of(m), english_in(m)[:5])


def test_a_boards_texts_are_said_in_the_readers_language() -> None:
    """The board's picture in a Japanese mail: each text the SVG draws is said as the Japanese page
    says it (the same catalog), the drawing kept; English leaves the board as it is."""
    svg = '<svg><text x="1" y="2">Not yet set up</text><title>a &amp; b</title><rect/></svg>'
    said = svg_texts("ja", svg)
    assert '<text x="1" y="2">未配置</text>' in said and "<title>a &amp; b</title><rect/>" in said, said
    assert svg_texts(None, svg) == svg_texts("en", svg) == svg


def test_a_japanese_board_is_drawn_in_a_japanese_font_or_left_in_english() -> None:
    """Cairo draws a PNG with the machine's fonts: with a Japanese one (Debian's fonts-noto-cjk)
    the board is drawn in it, else the mail's board stays English rather than empty boxes."""
    family = font_for("ja")
    if family is not None:
        assert "JP" in family.split() or "CJK" in family, family
    assert board_png('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text '
                     'font-family="DejaVu Sans" y="10">未配置</text></svg>', lang="ja").startswith(b"\x89PNG")
