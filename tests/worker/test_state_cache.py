"""Issue 13: a worker keeps a hot game's latest state between jobs, keyed by the seq and chain
hash of the last event folded into it; an entry whose hash is not the ledger's is never used."""

from __future__ import annotations

from typing import Any

from ledger.factory import open_store
from warlog import jobs
from warlog.history import StateCache, StoreHistory
from warlog.resolver import Resolver
from warlog.service import Warlog


def _played(store: Any, moves: int) -> str:
    svc, resolver = Warlog(store, lambda game_id: None), Resolver(store)
    created = svc.create_game("dice-duel", "short", {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    for i in range(moves):
        info = svc.info(gid)
        if info["status"] != "active":
            break
        seat = info["active_seats"][0]
        svc.submit_move(gid, created["seats"][seat], {"type": "roll"}, info["seq"], f"k-{i}")
        resolver.run(gid)
    return gid


def test_a_cached_state_is_used_only_under_its_ledgers_chain_hash(db_url: str) -> None:
    store = open_store(db_url, upgrade=True)
    try:
        gid = _played(store, 3)
        seq = store.last_seq(gid)
        true = StoreHistory(store, gid, snapshots=False).state_at(seq)
        real_hash = store.read(gid, after=seq - 1, upto=seq)[0].hash
        marker = {"not": "the state"}

        good = StateCache()
        good.put(gid, seq, real_hash, marker)
        assert StoreHistory(store, gid, snapshots=False, cache=good).state_at(seq) == marker  # used

        stale = StateCache()
        stale.put(gid, seq, "0" * 64, marker)  # another ledger's history at the same seq
        assert StoreHistory(store, gid, snapshots=False, cache=stale).state_at(seq) == true
        entry = stale.get(gid, seq)
        assert entry is not None and entry[:2] == (seq, real_hash) and entry[2] == true  # replaced, not kept

        older = StateCache()
        older.put(gid, seq - 1, "f" * 64, marker)  # stale and behind: not folded forward either
        assert StoreHistory(store, gid, snapshots=False, cache=older).state_at(seq) == true
    finally:
        store.close()


def test_the_worker_keeps_one_resolver_and_its_cache_across_jobs(tmp_path: Any, monkeypatch: Any) -> None:
    url = f"sqlite:///{tmp_path}/w.sqlite3"
    monkeypatch.setenv("WARLOG_DB", url)
    store = jobs.store_for(url)
    store.create_schema()
    first = jobs.resolver_for()
    assert jobs.resolver_for() is first
    svc = Warlog(store, lambda game_id: None)
    created = svc.create_game("dice-duel", "short", {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    for i in range(2):  # two jobs, each judging one move
        info = svc.info(gid)
        svc.submit_move(gid, created["seats"][info["active_seats"][0]], {"type": "roll"}, info["seq"], f"k-{i}")
        assert jobs.resolve_game(gid) == 1
        last = store.last_seq(gid)
        entry = first.states.get(gid, last)  # the job's resolver kept the state it judged
        assert entry is not None and entry[:2] == (last, store.read(gid, after=last - 1, upto=last)[0].hash)
        assert entry[2] == StoreHistory(store, gid, snapshots=False).state_at(last)


def test_the_resolvers_one_read_path_refuses_a_state_under_another_chain_hash(db_url: str) -> None:
    """The resolver's hot path (one read per judgement, issue 13) checks the cached entry's
    chain hash too: a state cached under a hash that is not the ledger's is dropped, and the
    move is judged from the state folded from the ledger."""
    from ledger.events import RESOLVED

    store = open_store(db_url, upgrade=True)
    try:
        svc, resolver = Warlog(store, lambda game_id: None), Resolver(store)
        created = svc.create_game("dice-duel", "long", {})
        gid = created["id"]
        for token in created["seats"].values():
            svc.join(gid, token)

        def move(key: str) -> None:
            info = svc.info(gid)
            svc.submit_move(gid, created["seats"][info["active_seats"][0]], {"type": "roll"}, info["seq"], key)
            assert resolver.run(gid) == 1

        move("k-0")  # warms the resolver: its creation record and state are cached
        seq = store.last_seq(gid)
        resolver.states.drop(gid)
        resolver.states.put(gid, seq, "0" * 64, {"not": "the state"})  # another ledger's history
        move("k-1")
        judged = store.read(gid, after=store.last_seq(gid) - 1)[-1]
        assert judged.type == RESOLVED, judged.payload  # not the rules failing on the marker
        entry = resolver.states.get(gid, judged.seq)
        assert entry is not None and entry[:2] == (judged.seq, judged.hash)
    finally:
        store.close()
