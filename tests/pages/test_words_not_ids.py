"""Every page reads in words a player uses: a game of each of the five games is played some
moves (random legal play, a fixed seed), and the text a player reads on its pages — the play
page of each seat and of a spectator, the replay, the audit, the lobby — names no unit, card,
man or camp by its id, shows no snake_case verb, no "germans's", no "move #26"."""

from __future__ import annotations

import html
import json
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.pages.conftest import PageGame

GAMES = ["assault-on-belgium/may-1940", "lock-n-load/demo", "up-front/A", "green-beret-vietnam/campaign",
         "vietnam-battles/boys67"]

# the games' ids as the rules write them (scenario data and rules texts)
ID_PATTERNS = {
    "unit id": re.compile(r"\b(?:us|vc)\d+(?:-\d+)?\b|\b(?:us|vc)-hero\d+\b"),
    "leader id": re.compile(r"\b(?:harlan|okafor|ruiz|pike|lam|hoa)\b"),  # Lock 'n Load's (lower case)
    "support weapon id": re.compile(r"\b(?:us-m60b?|vc-rpd)\b"),
    "card id": re.compile(r"\bUF\d{3}\b"),
    "man id": re.compile(r"\b(?:US|GE|PA)\d{2}\b"),
    "seat id": re.compile(r"\b(?:americans|germans|partisans)\b"),
    "camp or counter id": re.compile(r"\b(?:camp|vc-squad|nva-\w+|vc-\w+)-\d+\b"),
    "marker id": re.compile(r"\((?:us|vc)-\d+\)"),
    "snake_case verb": re.compile(r"\b[A-Za-z]+_[a-z][a-z_]*\b"),
    "'s's": re.compile(r"\b\w+s's\b"),
    "move number": re.compile(r"\bmove #\d+"),
    "python list": re.compile(r"\['"),
    "capitalised id": re.compile(r"\b(?:Us|Vc)\b"),
}


class _Text(HTMLParser):
    """The text a player reads: text nodes and the `title`s of buttons, outside scripts, styles
    and the boards' SVG (the board's own texts are another part's)."""

    SKIP = {"script", "style", "svg", "code", "pre", "textarea"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.depth += 1
        elif self.depth == 0 and tag == "button":
            self.parts += [v or "" for k, v in attrs if k in ("title", "aria-label", "data-confirm")]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth == 0 and data.strip():
            self.parts.append(data.strip())


def read_text(page: str) -> list[str]:
    parser = _Text()
    parser.feed(page)
    return parser.parts


def ids_in(page: str) -> list[tuple[str, str]]:
    found = []
    for line in read_text(page):
        for name, pattern in ID_PATTERNS.items():
            m = pattern.search(line)
            if m is not None:
                found.append((name, line))
    return found


def alike_buttons(page: str) -> list[str]:
    """Buttons of one group that read alike (a player could not tell them apart)."""
    alike = []
    for block in re.findall(r'<div class="(?:choices|singles)">(.*?)</div>', page, re.S):
        texts = [html.unescape(re.sub(r"<[^>]+>", "", b)).strip()
                 for b in re.findall(r"<button [^>]*>.*?</button>", block, re.S)]
        alike += sorted({t for t in texts if texts.count(t) > 1})
    return alike


def _actions(page: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'<button name="action" value="([^"]+)"', page)]


def play(pg: PageGame, moves: int, rng: random.Random) -> int:
    """Random legal play: each turn a seat whose page offers actions picks one at random."""
    done = 0
    for _ in range(moves * 3):
        offered = {seat: _actions(pg.page(seat)) for seat in pg.seats}
        seat = next((s for s, acts in offered.items() if acts), None)
        if seat is None:
            break
        acts = offered[seat]
        # move on rather than end the game at once (an end of a game is still played when it is all there is)
        keep = [a for a in acts if json.loads(a).get("type") not in ("end_game", "abandon")] or acts
        pg.act(seat, rng.choice(keep))
        done += 1
        if done >= moves:
            break
    return done


@pytest.mark.parametrize("game", GAMES)
def test_pages_name_no_ids(page_game: Any, game: str) -> None:
    pg = page_game(game)
    assert play(pg, 40, random.Random(f"words {game}")) >= 10
    pages = {f"play ({seat})": pg.page(seat) for seat in pg.seats}
    pages["play (spectator)"] = pg.page("spectator")
    seat = next(iter(pg.seats))
    last = int(re.search(r'name="expected_seq" value="(\d+)"', pages[f"play ({seat})"]).group(1)) \
        if 'name="expected_seq"' in pages[f"play ({seat})"] else 1
    for step in range(max(1, last - 12), last + 1):
        pages[f"replay {step}"] = pg.page(seat, f"/replay/{step}")
    pages["audit"] = pg.page(seat, "/audit")
    lobby = pg.seats[seat].get("/")
    assert lobby.status_code == 200
    pages["lobby"] = lobby.get_data(as_text=True)
    found = {name: hits for name, page in pages.items() if (hits := ids_in(page))}
    assert not found, "\n".join(f"{name}: {hits[:6]}" for name, hits in found.items())
    alike = {name: texts for name, page in pages.items() if (texts := alike_buttons(page))}
    assert not alike, alike


def test_the_scan_finds_ids() -> None:
    """The scan itself: each pattern finds the words the pages used to show."""
    old = ("Give sw (sw us-m60b, to us7-2, unit us7)", "Select (unit lam)", "Fire 3 [UF013, black 4]", "End_turn",
           "americans ends the turn; germans's turn 2", "US: move #26", "US08 transfers", "buy a flares at camp-1",
           "commit support fire +2 (us-7)", "4/47 B 3-4-5 retreats ['0615', '0614']", "Us")
    for text in old:
        assert ids_in(f"<p>{html.escape(text)}</p>"), text
    assert not ids_in("<p>Give the M-60 of US 7th squad to US 6th squad</p><svg><text>us7</text></svg>")
    twice = '<div class="singles"><button name="action" value="1">Standing: answer play</button>' \
            '<button name="action" value="2">Standing: answer play</button></div>'
    assert alike_buttons(twice) == ["Standing: answer play"]


def test_buttons_of_a_group_never_read_alike() -> None:
    """UP FRONT's Movement card moves its group forward or sideways: the two buttons of the "Move"
    group once both read "Movement (black 4) → your group B"; each now says it all."""
    from warlog.web.pages import _group_actions

    labels = ["Move group B forward with Movement (black 4)", "Move group B sideways with Movement (black 4)"]
    actions = [{"type": "move", "short": "Movement (black 4) → your group B", "label": label} for label in labels]
    actions.append({"type": "move", "short": "Movement (red 2) → your group A", "label": "Move group A forward …"})
    groups = _group_actions(actions, {"move": "Move"})
    assert [a["short"] for a in groups[0]["actions"]] == labels + ["Movement (red 2) → your group A"]
