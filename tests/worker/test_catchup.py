"""A worker back from an outage judges the backlog itself (warlog.judging.catchup), found by
bench/netsoak.py: after a partition healed, the backlog waited for the RQ loop's restart and went
one game per job, the last game judged 5-12 s after the heal. The catch-up judges every pending
game at once, several at a time, and never judges a submission twice (two workers catching up
on the same games at once); it is asked for as soon as the ledger's host answers again."""

from __future__ import annotations

import threading
import time
from typing import Any

from ledger.events import REJECTED, RESOLVED, SUBMITTED
from ledger.factory import open_store
from tests.worker.test_drainer import _started_games as _games
from tests.worker.test_drainer import _submit
from warlog.games.service import Warlog
from warlog.judging.catchup import CatchUp, judge_backlog, watch_heals
from warlog.judging.resolver import Resolver


def _wait(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_backlog_is_judged_at_once_several_games_at_a_time(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        svc = Warlog(store, lambda gid: None)  # nothing queued: moves recorded during an outage
        resolver = Resolver(store)
        games = _games(svc, 4)
        ids = [gid for gid, _ in games]
        for gid, seats in games:
            resolver.run(gid)  # the set-up moves, if any
            _submit(svc, gid, seats)
        assert set(ids) <= set(store.pending_games())
        together = threading.Barrier(2, timeout=10)  # passes only if two games are judged at the same time
        met: list[str] = []

        def judge(gid: str, wait: float) -> int:
            if len(met) < 2:
                met.append(gid)
                together.wait()
            return resolver.run(gid, lock_timeout=wait)

        published: list[str] = []
        judged = judge_backlog(store.pending_games, judge, published.append, threads=4)
        assert judged >= 4 and not set(ids) & set(store.pending_games())
        assert set(ids) <= set(published)
    finally:
        store.close()


def test_two_workers_catching_up_at_once_judge_each_submission_once(pg_url: str) -> None:
    """The per-game lock keeps the two catch-ups off each other's games (UF/DESIGN: one judgement
    per submission)."""
    stores = [open_store(pg_url), open_store(pg_url)]
    try:
        svc = Warlog(stores[0], lambda gid: None)
        games = _games(svc, 6)
        ids = [gid for gid, _ in games]
        first = Resolver(stores[0])
        for gid, seats in games:
            first.run(gid)
            _submit(svc, gid, seats)  # judged: a history before the outage
            first.run(gid)
            _submit(svc, gid, seats)  # the backlog
        resolvers = [Resolver(st) for st in stores]
        runs = [threading.Thread(target=judge_backlog, args=(st.pending_games,
                                                             lambda gid, wait, r=r: r.run(gid, lock_timeout=wait),
                                                             lambda gid: None))
                for st, r in zip(stores, resolvers)]
        for t in runs:
            t.start()
        for t in runs:
            t.join(60)
        for gid in ids:
            events = stores[0].read(gid)
            submitted = [ev.seq for ev in events if ev.type == SUBMITTED]
            judged = [ev.payload["submission_seq"] for ev in events if ev.type in (RESOLVED, REJECTED)]
            assert sorted(judged) == sorted(submitted), gid
    finally:
        for st in stores:
            st.close()


def test_a_game_another_worker_is_judging_is_passed_over_until_the_others_are_judged(pg_url: str) -> None:
    """Found by bench/netsoak.py: two workers catching up on one pending set (or their drainers'
    last looks) went through it in the same order, the second waiting on the first one's lock
    game after game, then finding nothing left. A game whose lock is held is passed over at
    first, and judged after the others once its holder lets go."""
    store = open_store(pg_url)
    try:
        svc = Warlog(store, lambda gid: None)
        resolver = Resolver(store)
        games = _games(svc, 3)
        for gid, seats in games:
            resolver.run(gid)
            _submit(svc, gid, seats)
        ids = sorted(gid for gid, _ in games)
        held, release = threading.Event(), threading.Event()

        def other_worker() -> None:
            with store.game_lock(ids[0], timeout=5):
                held.set()
                release.wait(30)

        holder = threading.Thread(target=other_worker)
        holder.start()
        held.wait(5)
        published: list[str] = []
        result: list[int] = []
        catching_up = threading.Thread(target=lambda: result.append(judge_backlog(
            lambda: ids, lambda gid, wait: resolver.run(gid, lock_timeout=wait), published.append, threads=1)))
        catching_up.start()
        try:
            _wait(lambda: published == ids[1:])  # the others first, without waiting for the held one
        finally:
            release.set()
            holder.join(10)
        catching_up.join(30)
        assert published == [*ids[1:], ids[0]] and result == [3] and not set(ids) & set(store.pending_games())
    finally:
        store.close()


def test_a_catch_up_asked_for_while_one_runs_runs_once_more_after_it() -> None:
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []
    swept: list[int] = []

    def catch_up() -> int:
        runs.append(1)
        started.set()
        release.wait(10)
        return 0

    c = CatchUp(catch_up, then=lambda: swept.append(1))
    c.request("first")
    assert started.wait(10)
    c.request("during")
    c.request("during, again")
    release.set()
    _wait(lambda: len(swept) == 2)
    time.sleep(0.3)
    assert len(runs) == 2 and len(swept) == 2


def test_the_watch_asks_for_a_catch_up_when_the_ledger_answers_again_after_an_outage() -> None:
    state = {"down": False, "reachable": True}
    asked: list[int] = []
    c = CatchUp(lambda: asked.append(1) or 0)
    stop = threading.Event()
    watch_heals(c, lambda: state["down"], lambda: state["reachable"], stop)
    try:
        time.sleep(0.8)
        assert asked == [], "no outage noted: no catch-up"
        state.update(down=True, reachable=False)  # a partition: noted, the host silent
        time.sleep(0.8)
        assert asked == []
        state["reachable"] = True  # the heal
        _wait(lambda: len(asked) == 1, timeout=5)
    finally:
        stop.set()
