"""Waking the requests that wait for a game's judgement, in this process.

The resolver calls `judged(game_id)` right after it appends a judgement; a `/live?wait=1`
request waits on `wait()` instead of sleeping and polling, so it answers as soon as the
in-process worker (the embedded default) has judged. A judgement made in another process (an RQ
worker, another web process on the same SQLite file) is not seen here: the waiter's timeout is
then its polling interval (warlog.web.pages.live), so every wait stays bounded. In a deployment the
RQ job publishes each judged game on the Redis channel `CHANNEL` (`publish`) and each web process
listens (`listen`), waking its own waiters as if its own worker had judged.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger("warlog.judging.wakeup")
CHANNEL = "warlog:judged"

_lock = threading.Lock()
_generation: dict[str, int] = {}
# game -> [its condition (on _lock), how many wait on it]: a judgement wakes only its game's waiters
# (one condition for every game woke every waiting request of the process at each judgement)
_waiting: dict[str, list[Any]] = {}
_MAX_GAMES = 10_000  # forgetting them all only costs one poll interval to each waiter
_listening = threading.Event()  # set while a listener is subscribed to CHANNEL


def listening() -> bool:
    """True while this process hears the judgements published on Redis (then waiters need not poll)."""
    return _listening.is_set()


def generation(game_id: str) -> int:
    """How many judgements of the game this process has recorded (a counter to wait past)."""
    with _lock:
        return _generation.get(game_id, 0)


def judged(game_id: str) -> None:
    with _lock:
        if len(_generation) >= _MAX_GAMES and game_id not in _generation:
            _generation.clear()
        _generation[game_id] = _generation.get(game_id, 0) + 1
        entry = _waiting.get(game_id)
        if entry is not None:
            entry[0].notify_all()


def wait(game_id: str, since: int, timeout: float) -> bool:
    """Wait until the game's generation is past `since` or `timeout` seconds pass; True if it moved."""
    with _lock:
        entry = _waiting.get(game_id)
        if entry is None:
            entry = _waiting[game_id] = [threading.Condition(_lock), 0]
        entry[1] += 1
        try:
            return entry[0].wait_for(lambda: _generation.get(game_id, 0) != since, max(0.0, timeout))
        finally:
            entry[1] -= 1
            if not entry[1]:
                del _waiting[game_id]


def publish(redis: Any, game_id: str) -> None:
    """Tell every web process that the game has a new judgement (never fails the caller)."""
    try:
        redis.publish(CHANNEL, game_id)
    except Exception as err:  # the pages poll meanwhile
        log.warning("could not publish the judgement of %s: %s", game_id, err)


def listen(redis: Any, stop: threading.Event) -> threading.Thread:
    """A daemon thread that wakes this process's waiters for each game published on CHANNEL,
    resubscribing after a Redis error (once a second) until `stop` is set."""

    def run() -> None:
        down = False  # one log line per outage
        while not stop.is_set():
            try:
                sub = redis.pubsub(ignore_subscribe_messages=True)
                sub.subscribe(CHANNEL)
                _listening.set()
                if down:
                    log.info("judgement notices from Redis resumed")
                    down = False
                try:
                    while not stop.is_set():
                        msg = sub.get_message(timeout=1.0)
                        if msg and msg.get("type") == "message":
                            data = msg["data"]
                            judged(data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data))
                finally:
                    _listening.clear()
                    sub.close()
            except Exception as err:
                if not down:
                    log.warning("judgement notices from Redis interrupted (%s); the pages poll meanwhile", err)
                    down = True
                stop.wait(1.0)

    t = threading.Thread(target=run, name="warlog-wakeup", daemon=True)
    t.start()
    return t
