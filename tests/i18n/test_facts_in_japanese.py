"""Every fact, refusal and move confirmation of the five games reads in Japanese on a Japanese
page: each game is played by seeded random legal play (an action that would end the game is
picked only when nothing else is offered, so the games run long), every fact it records, every
refusal of an action offered one step earlier and every confirmation the listing asks for is
put in words (warlog.render.words) and translated (`tr`), and none may stay English. A line is
read as the browser tests read a Japanese page (tests/browser/japanese.py): the only words in
Latin letters it may keep are the rules' abbreviations and citations, designations (with a
digit, or one capital letter) and the games' own names (units, counters, cards, missions,
places: kept as the rulebooks print them)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from flask import Flask

from rules import get_game
from rules.core.game import Game, IllegalAction
from tests.browser.japanese import allowed_word, words_of
from tests.players.conftest import close_app, make_app
from tests.support.fuzzing import seeded_dice
from warlog.games.replay import english
from warlog.i18n import tr
from warlog.render.words import fact_text, text_words

GAMES = [("lock-n-load", "demo", {}), ("up-front", "A", {"terrain_type": "bare", "condition": "dry"}),
         ("up-front", "N", {}), ("up-front", "T", {}), ("up-front", "U", {}), ("up-front", "I", {}),
         ("green-beret-vietnam", "campaign", {}), ("vietnam-battles", "boys67", {}),
         ("vietnam-battles", "snoopys_nose", {}), ("vietnam-battles", "iron_triangle", {}),
         ("assault-on-belgium", "may-1940", {}),
         ("assault-on-belgium", "may-1940", {"no_entry_nl_france": True, "reaction_before_german_air": False})]
SEEDS, STEPS = 12, 400
ENDING = {"end_game", "abandon", "concede", "resign"}
KEPT = [re.compile(p) for p in (
    r"\((?:red|black) \d+\)",   # an UP FRONT card's colour and number, as printed on it
    r"'[a-z]+(?:-[a-z0-9]+)+'",  # an id the refused action itself sent, quoted back to its sender
)]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('facts')}/warlog.sqlite3", WARLOG_PERIODIC=False)
    yield app
    close_app(app)


def own_names(game: Game) -> list[str]:
    """The game's own names (a unit's, a counter's, a mission's, a place's): every `name` or
    `title` its data holds, longest first."""
    found: set[str] = set()

    def walk(x: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("name", "title") and isinstance(v, str):
                    found.add(v)
                else:
                    walk(v, depth + 1)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x:
                walk(v, depth + 1)
        elif is_dataclass(x) and not isinstance(x, type):
            for f in fields(x):
                v = getattr(x, f.name)
                if f.name in ("name", "title") and isinstance(v, str):
                    found.add(v)
                else:
                    walk(v, depth + 1)
        elif hasattr(x, "__dict__") and not isinstance(x, type) and depth < 2:
            walk(vars(x), depth + 1)

    walk(getattr(game, "world", None))
    return sorted(found, key=len, reverse=True)


def own_words(game: Game) -> set[str]:
    """The words of the game's own names, as a page's map and counters print them."""
    return {w for name in own_names(game) for w in words_of(name)}


def english_left(japanese: str, names: set[str], sent: str = "") -> list[str]:
    """The words in Latin letters a translated line still shows that a Japanese page may not
    keep (tests/browser/japanese.py `allowed_word`; NAMES: the game's own words). SENT: the type
    of the action a refusal refuses, an id it may quote back to its sender ("end_air is not
    possible now")."""
    text = japanese
    for pattern in KEPT:
        text = pattern.sub(" ", text)
    if sent:
        text = re.sub(rf"(?<![\w-]){re.escape(sent)}(?![\w-])", " ", text)
    return [w for w in words_of(text) if not allowed_word(w, names)]


def lines(game: str, scenario: str, options: dict[str, Any], seed: int) -> Iterator[tuple[str, str]]:
    """(kind, line as a page shows it in English) of one seeded random game; a refusal's kind
    names the refused action's type ("refusal of end_air"), an id its refusal may quote back."""
    g = get_game(game)
    rng, dice = random.Random(seed), seeded_dice(seed)
    s = g.setup(scenario, options, dice)
    before: list[dict[str, Any]] = []
    for _ in range(STEPS):
        seats = g.active_seats(s)
        if g.outcome(s) is not None or not seats:
            return
        legal = g.legal_actions(s, seats[0])
        if not legal:
            return
        for a in rng.sample(before, min(2, len(before))):
            if a not in legal:
                try:
                    g.apply(s, seats[0], a, seeded_dice(seed))
                except IllegalAction as e:
                    yield f"refusal of {a.get('type')}", text_words(g, e.message)
        for a in legal:
            why = g.confirm(s, seats[0], a, legal)
            if why:
                yield "confirmation", why
        going_on = [a for a in legal if a.get("type") not in ENDING] or legal
        result = g.apply(s, seats[0], rng.choice(going_on), dice)
        for f in result.facts:
            yield "fact", english(fact_text(g, f.to_json()))
        s, before = result.state, legal


def untranslated(app: Flask, game: str, scenario: str, options: dict[str, Any]) -> dict[str, str]:
    names = own_words(get_game(game))
    left: dict[str, str] = {}
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        for seed in range(SEEDS):
            for kind, line in lines(game, scenario, options, seed):
                ja = tr(line)
                sent = kind.removeprefix("refusal of ") if kind.startswith("refusal of ") else ""
                if ja == line or english_left(ja, names, sent):
                    left.setdefault(f"{kind}: {line}", ja)
    return left


@pytest.mark.parametrize(("game", "scenario", "options"), GAMES)
def test_every_fact_refusal_and_confirmation_reads_in_japanese(app: Flask, game: str, scenario: str,
                                                              options: dict[str, Any]) -> None:
    left = untranslated(app, game, scenario, options)
    assert not left, "\n".join(f"{k}\n    → {v}" for k, v in list(left.items())[:25])


def test_the_check_sees_an_english_line(app: Flask) -> None:
    """A line no message matches, and one translated only in part, are both seen; so is a
    capitalised word or an abbreviation the rulebooks do not print in Latin letters."""
    names = own_words(get_game("vietnam-battles"))
    assert "Monitor" in names
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        assert tr("The umpire frobnicates 1A1") == "The umpire frobnicates 1A1"
        partly = tr("Monitor 1-4-11 is eliminated: the umpire frobnicates it")
        assert partly != "Monitor 1-4-11 is eliminated: the umpire frobnicates it"
        assert english_left(partly, names) == ["the", "umpire", "frobnicates", "it"]
        assert english_left(tr("Monitor 1-4-11 is eliminated: errant fire"), names) == []
        assert english_left(tr("Monitor 1-4-11 is eliminated: Night Scope"), names) == ["Night", "Scope"]
        assert english_left("Monitor 1-4-11(SE、5 ヘクス)は除去:Ae", names) == ["SE"]
        assert english_left("1927:north に置く", names) == ["north"]  # a river bank's hex is said in words:
        assert tr("put it in 1927:north") == "1927(北岸) に置く"
        assert english_left("今は end_air はできません", names, "end_air") == []  # the refused action's type
        assert english_left("今は end_air はできません", names, "attack") == ["end", "air"]
