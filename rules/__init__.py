"""Game rules: pure code and data. A registry finds each game by its stable name."""

from __future__ import annotations

import threading

from rules.core.game import Game

_REGISTRY: dict[str, Game] = {}
_LOADED = False
_LOADING = threading.RLock()  # two threads asking at once must both see the loaded registry


def register(game: Game) -> Game:
    if game.name in _REGISTRY:
        raise ValueError(f"game {game.name!r} is registered twice")
    _REGISTRY[game.name] = game
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
        import rules.vietnam_battles  # noqa: F401

        _LOADED = True


def get_game(name: str) -> Game:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def all_games() -> list[Game]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
