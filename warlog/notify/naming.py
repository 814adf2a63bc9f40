"""How a mail names a game: by the game's title and its scenario's ("Assault on Belgium — May 1940"),
each said in the recipient's language (the Japanese rulebooks' own titles: "Vietnam Battles — The
Boys of '67 (練習シナリオ、…)"), never by the ids. A subject that names a game ends with the game's
id in brackets ("[3f2a…]"), and every mail of a game carries it as `X-Warlog-Game`
(warlog.notify.notifier), for mail filters.
"""

from __future__ import annotations

from ledger.store import EventStore
from rules import get_game
from warlog.catalogs import Words, words
from warlog.games.replay import titles


def title_words(game: str | None, scenario: str | None) -> tuple[Words, Words]:
    """The titles of `game` and of its `scenario`, each translated when it is said."""
    try:
        heading, scenario_title = titles(get_game(game or ""), scenario)
    except KeyError:  # a game this build no longer has: its ids are all there is
        heading, scenario_title = game or "?", scenario or "?"
    return words(heading), words(scenario_title)


def titled(game: str | None, scenario: str | None) -> Words:
    """A game of `game`'s `scenario` by their titles: "Assault on Belgium — May 1940"."""
    heading, scenario_title = title_words(game, scenario)
    return words("%(game)s — %(scenario)s", game=heading, scenario=scenario_title)


def game_titled(store: EventStore, game_id: str) -> Words:
    """Game `game_id` by its titles; "game <id>" when the store does not know it."""
    summary = store.summary(game_id)
    return titled(summary.game, summary.scenario) if summary else words("game %(id)s", id=game_id)


def game_named(store: EventStore, game_id: str) -> Words:
    """Game `game_id` for a mail's text, by its titles and its id: "Assault on Belgium (May 1940)
    game 3f2a…" (after "the": "It is your turn (Germany) in the …")."""
    summary = store.summary(game_id)
    if summary is None:
        return words("game %(id)s", id=game_id)
    heading, scenario = title_words(summary.game, summary.scenario)
    return words("%(game)s (%(scenario)s) game %(id)s", game=heading, scenario=scenario, id=game_id)


def tagged(subject: Words, game_id: str) -> Words:
    """A subject with the game's id at its end, in brackets (a filter's handle)."""
    return subject + f" [{game_id}]"
