"""A worker back from an outage judges the backlog itself, at once and several games at a time.

While Redis or the ledger is cut off from a worker (a network partition), moves are still
recorded and their jobs queued one per game. Left to RQ, the backlog waited for the worker's
RQ loop to start again (a registration, a subscription and a dozen round trips), then went one
game per job, each job paying RQ's own round trips before and after it: across a slow link the
last game of the backlog was judged 5-12 s after the heal (found by bench/netsoak.py). Here the
worker, as soon as it reaches Redis again, reads the ledger's pending set and judges every game
in it directly, `THREADS` games at once (a judgement mostly waits on round trips), beside the
RQ loop's restart; the jobs queued meanwhile find little or nothing left and stay only as
drainers (warlog.judging.drainer).

Nothing changes about what is judged or how: each game goes through the same resolver under
the same per-game lock (a game another worker is judging is passed over at first, then waited
for as a drainer waits, or left to the sweep), and the pending set stays the truth. A catch-up that meets the ledger
still away gives up quietly; the sweeper's own retry (SWEEP_SOON) queues the games again.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable

from ledger.store import LockTimeout
from warlog.judging import drainer
from warlog.judging.outage import LEDGER, SWEEP_SOON, is_outage

log = logging.getLogger("warlog.judging.catchup")

THREADS = drainer.LAST_LOOK_THREADS  # games judged at once by one catching-up worker
PROBE = 0.25  # seconds between two looks for the end of an outage (a TCP handshake each)
COOLDOWN = 1.0  # seconds at least between two catch-ups asked for by `watch_heals`


def judge_backlog(pending: Callable[[], list[str]], judge: Callable[[str, float], int],
                  on_judged: Callable[[str], None], threads: int = THREADS) -> int:
    """Judge every game in the pending set, `threads` at a time; returns how many submissions
    were judged. A game whose judgement meets an outage is left pending (the sweep's retry)."""
    started = time.monotonic()
    games = pending()
    LEDGER.up()  # it answered
    if not games:
        return 0
    read = time.monotonic() - started

    slowest = [0.0]

    def one(game_id: str, wait: float) -> int:
        began = time.monotonic()
        try:
            return drainer._judge_one(game_id, judge, on_judged, wait)
        except LockTimeout:
            raise  # held elsewhere: taken again after the others (drainer.judge_all)
        except Exception as err:
            if not is_outage(err):
                log.exception("catching up on game %s failed; the sweep will queue it again", game_id)
                return 0
            LEDGER.down(err, "submissions stay pending until it is back")
            SWEEP_SOON.set()
            return 0
        finally:
            slowest[0] = max(slowest[0], time.monotonic() - began)

    judged = drainer.judge_all(games, judge, on_judged, threads, each=one)  # each game's outage on its own
    log.info("caught up: %d submission(s) of %d game(s) judged in %.1f s (the pending set read in %.1f s, "
             "the slowest game %.1f s)", judged, len(games), time.monotonic() - started, read, slowest[0])
    return judged


class CatchUp:
    """Runs `catch_up` then `then` in a background thread when asked (`request`); one run at a
    time, and a request made during a run starts one more run after it (so a heal that comes
    while an earlier catch-up still runs is not missed)."""

    def __init__(self, catch_up: Callable[[], int], then: Callable[[], None] = lambda: None) -> None:
        self.catch_up, self.then = catch_up, then
        self._guard = threading.Lock()
        self._running = False
        self._again = False

    def request(self, why: str) -> None:
        with self._guard:
            if self._running:
                self._again = True
                return
            self._running = True
        threading.Thread(target=self._loop, args=(why,), name="warlog-catchup", daemon=True).start()

    def _loop(self, why: str) -> None:
        while True:
            try:
                self.catch_up()
            except Exception as err:  # the pending set unreadable: the sweep below or the sweeper retries
                if is_outage(err):
                    LEDGER.down(err, "submissions wait; sweeping again when it is back")
                    SWEEP_SOON.set()
                else:
                    log.exception("%s failed; the sweep will queue what waits", why)
            try:
                self.then()
            except Exception:
                log.exception("%s: the sweep after it failed; the periodic sweep will retry", why)
            with self._guard:
                if not self._again:
                    self._running = False
                    return
                self._again = False


def tcp_reachable(host: str | None, port: int | None, timeout: float = PROBE) -> bool:
    """Whether `host` answers a TCP handshake on `port` within `timeout` s: a cheap look for the
    end of a partition (a connection's own attempt waits its whole connect timeout when its first
    packet is dropped). True where it cannot tell (no host: a Unix socket)."""
    if not host or not port or host.startswith("/"):
        return True
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
        return True
    except OSError:
        return False


def watch_heals(catch_up: CatchUp, down: Callable[[], bool], reachable: Callable[[], bool],
                stop: threading.Event | None = None) -> threading.Thread:
    """A daemon thread that looks every PROBE s whether an outage was noted (`down()`: the ledger
    or Redis unreachable, as this process last met it) and, once it was, asks for a catch-up as
    soon as the ledger's host is `reachable()` again (then at most every COOLDOWN s while the
    outage stays noted): the worker wakes on the heal itself, wherever its RQ loop is (a job or
    RQ's teardown still timing out on a connection opened during the partition). Set `stop` to
    end it."""
    halt = stop or threading.Event()

    def loop() -> None:
        seen, last = False, 0.0
        while not halt.wait(PROBE):
            try:
                seen = seen or down()
                if seen and time.monotonic() - last >= COOLDOWN and reachable():
                    seen, last = False, time.monotonic()
                    catch_up.request("the catch-up after the outage")
            except Exception:
                log.exception("the watch for the end of an outage failed; it goes on")

    thread = threading.Thread(target=loop, name="warlog-heal-watch", daemon=True)
    thread.start()
    return thread
