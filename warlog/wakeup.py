"""Waking the requests that wait for a game's judgement (issue 9 §5), in this process.

The resolver calls `judged(game_id)` right after it appends a judgement; a `/live?wait=1`
request waits on `wait()` instead of sleeping and polling, so it answers as soon as the
in-process worker (the embedded default) has judged. A judgement made in another process (an RQ
worker, another web process on the same SQLite file) is not seen here: the waiter's timeout is
then its polling interval (warlog.pages.live), so every wait stays bounded.
"""

from __future__ import annotations

import threading

_cond = threading.Condition()
_generation: dict[str, int] = {}
_MAX_GAMES = 10_000  # forgetting them all only costs one poll interval to each waiter


def generation(game_id: str) -> int:
    """How many judgements of the game this process has recorded (a counter to wait past)."""
    with _cond:
        return _generation.get(game_id, 0)


def judged(game_id: str) -> None:
    with _cond:
        if len(_generation) >= _MAX_GAMES and game_id not in _generation:
            _generation.clear()
        _generation[game_id] = _generation.get(game_id, 0) + 1
        _cond.notify_all()


def wait(game_id: str, since: int, timeout: float) -> bool:
    """Wait until the game's generation is past `since` or `timeout` seconds pass; True if it moved."""
    with _cond:
        return _cond.wait_for(lambda: _generation.get(game_id, 0) != since, max(0.0, timeout))
