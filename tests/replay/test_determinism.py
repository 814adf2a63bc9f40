"""Determinism and replay (DESIGN invariants): random legal play through the service, then the
ledger re-folds and re-runs to the same state hashes; snapshots change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.canonical import state_hash
from ledger.export import export_lines
from ledger.factory import open_store
from warlog.games.history import StoreHistory
from warlog.games.service import Warlog
from warlog.judging.queue import InlineQueue
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines


def play_random(svc: Warlog, queue: InlineQueue, game: str, scenario: str, choices: list[int],
                max_moves: int = 60) -> str:
    """Play legal actions picked by `choices` (indices into each listing, wrapped), so that the
    draw does not depend on the dice of the game."""
    created = svc.create_game(game, scenario, {})
    gid = created["id"]
    for seat, token in created["seats"].items():
        svc.join(gid, token, f"{seat}-entropy")
    for turn in range(max_moves):
        info = svc.info(gid)
        if info["status"] != "active":
            break
        seat = info["active_seats"][0]
        viewer = svc.viewer(gid, created["seats"][seat])
        listing = svc.actions(gid, viewer)
        assert listing["actions"], "no dead ends: an active seat always has a legal action"
        action = listing["actions"][choices[turn % len(choices)] % len(listing["actions"])]
        svc.submit_move(gid, created["seats"][seat], action, listing["expected_seq"], f"k{info['seq']}")
        queue.drain()
    return gid


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60))
@pytest.mark.slow
def test_random_play_replays_to_the_same_hashes(tmp_path_factory: Any, choices: list[int]) -> None:
    db = f"sqlite:///{tmp_path_factory.mktemp('det')}/w.sqlite3"
    store = open_store(db)
    queue = InlineQueue(store)
    svc = Warlog(store, queue.enqueue)
    gid = play_random(svc, queue, "dice-duel", "short", choices)
    report = verify_lines(list(export_lines(store, gid)))
    assert report.judgements >= 1
    # state at every step: with snapshots == without == recorded hash
    with_snaps, without = StoreHistory(store, gid), StoreHistory(store, gid, snapshots=False)
    for ev in store.read(gid):
        if ev.type in ("game_started", "resolved"):
            assert state_hash(with_snaps.state_at(ev.seq)) == ev.payload["state_hash"]
            assert with_snaps.state_at(ev.seq) == without.state_at(ev.seq)
    store.close()


def test_snapshots_are_a_cache(db_url: str) -> None:
    """Deleting every snapshot changes no state (both backends)."""
    store = open_store(db_url)
    queue = InlineQueue(store)
    svc = Warlog(store, queue.enqueue)
    created = svc.create_game("dice-duel", "long", {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    resolver = Resolver(store, snapshot_every=5)
    for i in range(40):
        info = svc.info(gid)
        if info["status"] != "active":
            break
        token = created["seats"][info["active_seats"][0]]
        svc.submit_move(gid, token, {"type": "roll" if i % 3 else "bank"}, info["seq"], f"k{i}")
        resolver.run(gid)
    queue.drain()
    last = store.last_seq(gid)
    before = [StoreHistory(store, gid).state_at(s) for s in range(last + 1)]
    assert store.delete_snapshots(gid) > 0
    after = [StoreHistory(store, gid).state_at(s) for s in range(last + 1)]
    assert before == after
    store.close()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=400))
@pytest.mark.slow
def test_random_assault_on_belgium_replays_to_the_same_hashes(tmp_path_factory: Any, choices: list[int]) -> None:
    """Random legal play of the real game, then `verify` re-runs every judgement and re-derives
    every die, and the fold reproduces every recorded state hash."""
    db = f"sqlite:///{tmp_path_factory.mktemp('aob')}/w.sqlite3"
    store = open_store(db)
    queue = InlineQueue(store)
    svc = Warlog(store, queue.enqueue)
    gid = play_random(svc, queue, "assault-on-belgium", "may-1940", choices, max_moves=400)
    report = verify_lines(list(export_lines(store, gid)))
    assert report.judgements >= 1
    plain = StoreHistory(store, gid, snapshots=False)
    for ev in store.read(gid):
        if ev.type in ("game_started", "resolved"):
            assert state_hash(plain.state_at(ev.seq)) == ev.payload["state_hash"]
    queue.pool.shutdown()
    store.close()


def test_snapshot_every_k_events_even_when_the_seat_does_not_change(tmp_path: Any) -> None:
    """Belgium placing and picking up units in its set-up keeps the same active seat: the
    resolver must still leave a snapshot at least every K events (DESIGN: state at any step is cheap)."""
    store = open_store(f"sqlite:///{tmp_path}/w.sqlite3")
    svc = Warlog(store, lambda gid: None)
    created = svc.create_game("assault-on-belgium", None, {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    resolver = Resolver(store, snapshot_every=10)
    token = created["seats"]["belgium"]
    viewer = svc.viewer(gid, token)
    for i in range(40):
        listing = svc.actions(gid, viewer)
        action = next(a for a in listing["actions"] if a["type"] in ("select", "place"))
        svc.submit_move(gid, token, action, listing["expected_seq"], f"k{i}")
        resolver.run(gid)
    last = store.last_seq(gid)
    for at in range(20, last + 1):
        snap = store.latest_snapshot(gid, at)
        assert snap is not None and at - snap[0] <= 11, (at, snap and snap[0])
    store.close()
