"""Game rules: pure code and data. A registry finds each game by its stable name."""

from __future__ import annotations

import threading

from rules.core.game import Game

_REGISTRY: dict[str, Game] = {}
_EARLIER: dict[tuple[str, str], Game] = {}  # (name, version) -> an earlier rules version kept runnable
_LOADED = False
_LOADING = threading.RLock()  # two threads asking at once must both see the loaded registry


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
        # Import the game modules; each registers itself.
        import rules.assault_on_belgium  # noqa: F401
        import rules.green_beret_vietnam  # noqa: F401
        import rules.lock_n_load  # noqa: F401
        import rules.up_front.register  # noqa: F401
        import rules.vietnam_battles  # noqa: F401

        _LOADED = True


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
