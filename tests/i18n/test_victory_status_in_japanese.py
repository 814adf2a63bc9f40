"""A game's own victory status (the desk's adjudication queue shows it: `victory_status`'s
summary and each side's standing) reads in Japanese on a Japanese page, in every position a
seeded random game passes through; the games' own names (places, units) may stay as printed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from rules import get_game
from tests.i18n.test_facts_in_japanese import ENDING, app, english_left, own_words  # noqa: F401  (the app fixture)
from tests.support.fuzzing import seeded_dice
from warlog.i18n import tr

GAMES = [("assault-on-belgium", "may-1940", {}), ("green-beret-vietnam", "campaign", {}),
         ("vietnam-battles", "boys67", {}), ("vietnam-battles", "snoopys_nose", {}),
         ("vietnam-battles", "iron_triangle", {})]
SEEDS, STEPS = 3, 400


def statements(game: str, scenario: str, options: dict[str, Any], seed: int) -> Iterator[str]:
    """Every victory statement (summary, a side's standing) of one seeded random game, its end's too."""
    g = get_game(game)
    rng, dice = random.Random(seed), seeded_dice(seed)
    s = g.setup(scenario, options, dice)
    for _ in range(STEPS):
        status = g.victory_status(s)
        if status:
            yield str(status["summary"])
            yield from (str(v) for v in status.get("sides", {}).values())
        seats = g.active_seats(s)
        if g.outcome(s) is not None or not seats:
            return
        legal = g.legal_actions(s, seats[0])
        if not legal:
            return
        going_on = [a for a in legal if a.get("type") not in ENDING] or legal
        s = g.apply(s, seats[0], rng.choice(going_on), dice).state


@pytest.mark.parametrize(("game", "scenario", "options"), GAMES)
def test_a_games_victory_status_reads_in_japanese(app: Flask, game: str, scenario: str,  # noqa: F811
                                                 options: dict[str, Any]) -> None:
    names = own_words(get_game(game))
    left: dict[str, str] = {}
    seen = 0
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        for seed in range(SEEDS):
            for line in statements(game, scenario, options, seed):
                seen += 1
                ja = tr(line)
                if ja == line or english_left(ja, names):
                    left.setdefault(line, ja)
    assert seen
    assert not left, "\n".join(f"{k}\n    → {v}" for k, v in list(left.items())[:25])


# Assault on Belgium's statements when Germany holds one objective or both (AoB 3), which a random
# game seldom reaches: as `victory_status` words them
AOB_HELD = ["Germany holds Brussels; still needs Antwerp", "holds Brussels; needs Antwerp",
            "wins unless Germany holds both objectives at the end (still holds Antwerp)",
            "Germany holds Brussels and Antwerp; would win if it ends now", "holds Brussels, Antwerp",
            "wins unless Germany holds both objectives at the end"]


def test_assault_on_belgiums_held_objectives_read_in_japanese(app: Flask) -> None:  # noqa: F811
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        said = {line: tr(line) for line in AOB_HELD}
    assert said["Germany holds Brussels; still needs Antwerp"] == "ドイツ軍がブリュッセルを確保:あとアントワープが必要"
    assert said["holds Brussels, Antwerp"] == "ブリュッセル、アントワープを確保"
    assert not [line for line, ja in said.items() if ja == line or english_left(ja, set())], said
