"""Every prompt and every die's purpose of the five games reads in Japanese on a Japanese page,
those built with a unit's id too ("US: us7, lam selected — …", "LnL 3.0 rally of us7"): each game
is played by seeded random legal play, the prompt of every position and the purpose of every die
rolled are put in words as the pages put them (`text_words`) and translated (`tr`), and none may
stay English; the games' own names (units, counters, places: kept as the rulebooks print them)
aside."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from rules import get_game
from rules.core.dice import RecordingDice
from tests.i18n.test_facts_in_japanese import ENDING, GAMES, app, english_left, own_words  # noqa: F401  (app)
from tests.support.fuzzing import seeded_dice
from warlog.i18n import tr
from warlog.render.words import text_words

SEEDS, STEPS = 3, 300

def prompts(game: str, scenario: str, options: dict[str, Any], seed: int,
            dice: RecordingDice | None = None) -> Iterator[str]:
    """Each position's prompt to its seat to act, as the play page shows it in English (the
    game's dice are `dice`, which records each roll's purpose)."""
    g = get_game(game)
    rng, dice = random.Random(seed), dice or seeded_dice(seed)
    s = g.setup(scenario, options, dice)
    for _ in range(STEPS):
        seats = g.active_seats(s)
        if g.outcome(s) is not None or not seats:
            return
        yield text_words(g, g.prompt(s, seats[0]))
        legal = g.legal_actions(s, seats[0])
        if not legal:
            return
        going_on = [a for a in legal if a.get("type") not in ENDING] or legal
        s = g.apply(s, seats[0], rng.choice(going_on), dice).state

@pytest.mark.parametrize(("game", "scenario", "options"), GAMES)
def test_every_prompt_reads_in_japanese(app: Flask, game: str, scenario: str,  # noqa: F811
                                        options: dict[str, Any]) -> None:
    names = own_words(get_game(game))
    left: dict[str, str] = {}
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        for seed in range(SEEDS):
            for line in prompts(game, scenario, options, seed):
                ja = tr(line)
                if ja == line or english_left(ja, names):
                    left.setdefault(line, ja)
    assert not left, "\n".join(f"{k}\n    → {v}" for k, v in list(left.items())[:25])

@pytest.mark.parametrize(("game", "scenario", "options"), GAMES)
def test_every_dice_purpose_reads_in_japanese(app: Flask, game: str, scenario: str,  # noqa: F811
                                              options: dict[str, Any]) -> None:
    g = get_game(game)
    names = own_words(g)
    left: dict[str, str] = {}
    rolled = 0
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        for seed in range(SEEDS):
            dice = seeded_dice(seed)
            for _ in prompts(game, scenario, options, seed, dice):
                pass
            rolled += len(dice.rolls)
            for roll in dice.rolls:
                line = text_words(g, roll.purpose)
                ja = tr(line)
                if ja == line or english_left(ja, names):
                    left.setdefault(f"{roll.purpose} → {line}", ja)
    assert rolled or game == "assault-on-belgium"  # its long set-up: a random game may not reach a battle
    assert not left, "\n".join(f"{k}\n    → {v}" for k, v in list(left.items())[:25])

def test_a_lock_n_load_prompt_with_unit_ids_reads_in_japanese_seat_first(app: Flask) -> None:  # noqa: F811
    """The prompts built with a unit's id: the ids in words (`text_words`), then in Japanese, the
    seat leading the line as in English (not "1C7 の 米軍:…")."""
    g = get_game("lock-n-load")
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        moving = tr(text_words(g, "US: us4 in 1C7 — step into the next hex or stop"))
        selected = tr(text_words(g, "US: us4 selected — fire, move, lay smoke, add units or clear"))
    assert moving.startswith("米軍:1C7 の ") and "us4" not in moving and "4th" not in moving, moving
    assert selected.startswith("米軍:") and "を選択中" in selected and "us4" not in selected, selected


def test_a_refusal_names_the_unit_its_action_sent_by_id(app: Flask) -> None:  # noqa: F811
    """Assault on Belgium's refusal quoting back the id its action sent (AoB 7.1: "'de-ftr-1' is
    not a Belgian aircraft") names that unit, in English and in Japanese; an id that is no unit
    stays quoted as it was sent."""
    g = get_game("assault-on-belgium")
    english = text_words(g, "'de-ftr-1' is not a Belgian aircraft")
    assert english == "JG 27 (Bf 109E) is not a Belgian aircraft", english
    assert text_words(g, "there is no unit 'xx-nope'") == "there is no unit 'xx-nope'"
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        ja = tr(english)
    assert "de-ftr-1" not in ja and "JG 27" in ja and "ベルギー軍" in ja and not english_left(ja, own_words(g)), ja
