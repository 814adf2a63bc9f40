"""UP FRONT's card table (warlog/render/up_front/board.py) on a Japanese page: every text it draws
or says on a hover (a group's label and title, a card's random number, the hands, the crews of
rules version 4's vehicles and guns, the standing answers) reads in Japanese, for each seat's view
along seeded random games of the scenarios that bring each nation, the partisans and the
vehicles. A line is read as tests/i18n/test_facts_in_japanese.py reads a fact: the only words in
Latin letters it may keep are the rules' abbreviations, designations and the game's own names."""

from __future__ import annotations

import html
import random
from collections.abc import Iterator

import pytest
from flask import Flask

from rules import get_game
from tests.i18n.test_facts_in_japanese import ENDING, app, english_left, own_words  # noqa: F401  (app)
from tests.support.fuzzing import random_play, seeded_dice
from warlog.catalogs import _SVG_TEXT
from warlog.i18n import tr
from warlog.render import Scene
from warlog.render.up_front.board import board_svg

# A: Americans and Germans; H, T, U: vehicles and guns; I: the partisans; N: the Japanese.
SCENARIOS = ["A", "H", "I", "N", "T", "U"]
SEEDS, STEPS, EVERY = 2, 300, 5


def table_texts(scenario: str, seed: int) -> Iterator[str]:
    """Every text of the card table as each seat sees it, every EVERY steps of one seeded game."""
    g = get_game("up-front")
    rng, dice = random.Random(seed), seeded_dice(seed)

    def going_on(_s: object, legal: list[dict[str, object]]) -> dict[str, object]:  # an ending move only when alone
        return rng.choice([a for a in legal if a.get("type") not in ENDING] or legal)

    for step, (s, _seat, _legal) in enumerate(random_play(g, g.setup(scenario, {}, dice), dice, STEPS, going_on)):
        if step % EVERY == 0:
            for seat in g.roles(scenario):
                for m in _SVG_TEXT.finditer(board_svg(Scene(state=g.view(s, seat)))):
                    yield html.unescape(m.group(3)).strip()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_card_table_reads_in_japanese(app: Flask, scenario: str) -> None:  # noqa: F811
    names = own_words(get_game("up-front"))
    left: dict[str, str] = {}
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        for seed in range(SEEDS):
            for text in table_texts(scenario, seed):
                ja = tr(text)
                if english_left(ja, names):
                    left.setdefault(text, ja)
    assert not left, "\n".join(f"{k}\n    → {v}" for k, v in list(left.items())[:25])


def test_the_standing_answers_are_listed_in_the_words_of_their_buttons(app: Flask) -> None:  # noqa: F811
    """CORE 11: a seat's own answer in its words, the other seat's as a face-down marker (from rules
    version 3: its window and conditions, never its answer)."""
    g = get_game("up-front")
    s = g.setup("A", {}, seeded_dice(1))
    s["standing"] = {"americans": {"terrain": {"answer": "accept", "when": []}},
                     "germans": {"concealment": {"answer": "conceal", "when": [["men", "<=", 2]]}}}
    svg = board_svg(Scene(state=g.view(s, "americans")))
    texts = [html.unescape(m.group(3)).strip() for m in _SVG_TEXT.finditer(svg)]
    assert "Americans: Standing answer when terrain is discarded onto a moving group: always accept" in texts
    marker = "Germans: a face-down standing answer when a group of mine is fired at if the group has at most 2 men"
    assert marker in texts and not any("Concealment" in t for t in texts if t.startswith("Germans:"))
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        assert tr(marker) == "ドイツ軍:伏せた常備回答(自分のグループが射撃されたとき、グループが 2 人以下 なら)"
