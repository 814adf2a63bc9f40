"""Game rules: pure code and data. A registry finds each game by its stable name.

Every process (the web app, the worker, `warlog verify`, the tools) loads the registry the same
way, on its first question: it imports the built-in game modules (`BUILT_IN_GAMES`), then the
modules named in the WARLOG_GAME_MODULES environment variable (comma-separated). Importing a game
module registers everything of its game: its rules (`register`), its action schemas
(`validators.actions.register_actions`, or `validators/<package>.py` generated from the game's
verb table) and, if it has one, its board renderer (`warlog.render.register_renderer`, or
`warlog/render/<package>/`). docs/adding-a-game.md is the checklist.
"""

from __future__ import annotations

import importlib
import os
import threading

from rules.core.game import Game

_REGISTRY: dict[str, Game] = {}
_EARLIER: dict[tuple[str, str], Game] = {}  # (name, version) -> an earlier rules version kept runnable
_LOADED = False
_LOADING = threading.RLock()  # two threads asking at once must both see the loaded registry

GAME_MODULES_ENV = "WARLOG_GAME_MODULES"
# The games of this build: importing each module registers its game (rules.up_front registers in
# its `register` module, so that its helpers import without the registry).
BUILT_IN_GAMES = ("rules.assault_on_belgium", "rules.green_beret_vietnam", "rules.lock_n_load",
                  "rules.up_front.register", "rules.vietnam_battles")


class GameModuleError(ValueError):
    """A module named in WARLOG_GAME_MODULES cannot be imported (said in words at start)."""


def extra_game_modules(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """The game modules WARLOG_GAME_MODULES names (comma-separated, blanks ignored)."""
    value = (os.environ if environ is None else environ).get(GAME_MODULES_ENV, "")
    return tuple(m for m in (part.strip() for part in value.split(",")) if m)


def game_modules() -> tuple[str, ...]:
    """Every module the registry imports, in order: the built-in games, then WARLOG_GAME_MODULES."""
    return BUILT_IN_GAMES + extra_game_modules()


def register(game: Game, *earlier: Game) -> Game:
    """Register a game's current rules, and the earlier rules versions that recorded games were
    played under: a game recorded under version N is judged and verified by version N forever
    (tests/golden/ holds a finished game of each)."""
    if game.name in _REGISTRY:
        raise ValueError(f"game {game.name!r} is registered twice")
    _REGISTRY[game.name] = game
    for old in earlier:
        if old.name != game.name or old.version == game.version:
            raise ValueError(f"{old.name} v{old.version} is not an earlier version of {game.name} v{game.version}")
        _EARLIER[(old.name, old.version)] = old
    return game


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    with _LOADING:
        if _LOADED:
            return
        for name in BUILT_IN_GAMES:  # each registers itself
            importlib.import_module(name)
        for name in extra_game_modules():
            try:
                importlib.import_module(name)
            except ImportError as err:
                raise GameModuleError(f"{GAME_MODULES_ENV} names the game module {name!r}, which cannot be "
                                      f"imported: {err}") from None
        _LOADED = True


def package_name(game: str) -> str:
    """A game's one spelling as a Python package, from its registry name: "up-front" -> "up_front"
    (rules/up_front, validators/up_front.py, warlog/render/up_front, tests/up_front)."""
    return game.replace("-", "_")


def companion(layer: str, game: str) -> str | None:
    """Import the module `<layer>.<package_name(game)>` if this build has one, and return its name
    (None without one). How the layers above the rules find a built-in game's action schemas
    (layer "validators") and board renderer ("warlog.render"); a game from WARLOG_GAME_MODULES
    registers its own on import instead."""
    import importlib.util

    name = f"{layer}.{package_name(game)}"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # the layer itself is not there
        return None
    if found is None:
        return None
    importlib.import_module(name)
    return name


def load_games() -> list[Game]:
    """Load the registry now (a process does at start, so that a bad WARLOG_GAME_MODULES stops it
    in words there rather than at its first game); every game, by name."""
    return all_games()


def get_game(name: str, version: str | None = None) -> Game:
    """The game's rules: the current version, or the `version` a recorded game was played under."""
    _load()
    try:
        game = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None
    if version is None or version == game.version:
        return game
    try:
        return _EARLIER[(name, version)]
    except KeyError:
        kept = sorted([game.version] + [v for (n, v) in _EARLIER if n == name])
        raise KeyError(f"{name} rules version {version!r} is not in this build (it has {', '.join(kept)})") from None


def game_of(created: dict[str, object]) -> Game:
    """The rules a game was created under, from its `game_created` payload."""
    version = created.get("rules_version")
    return get_game(str(created["game"]), str(version) if version else None)


def versions(name: str) -> list[str]:
    """Every rules version of the game this build can run, oldest first."""
    _load()
    return sorted([_REGISTRY[name].version] + [v for (n, v) in _EARLIER if n == name], key=int)


def all_games() -> list[Game]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
