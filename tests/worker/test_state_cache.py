"""A worker keeps a hot game's latest state between jobs, keyed by the seq and chain
hash of the last event folded into it; an entry whose hash is not the ledger's is never used."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ledger.events import RESOLVED
from ledger.factory import open_store
from ledger.fold import fold
from warlog.games.history import StateCache, StoreHistory
from warlog.games.service import Warlog
from warlog.judging import jobs
from warlog.judging.resolver import Resolver


def _started(store: Any, scenario: str) -> tuple[Warlog, Resolver, dict[str, Any], str]:
    """A dice-duel game both seats have joined: the service, a resolver, the creation, its id."""
    svc, resolver = Warlog(store, lambda game_id: None), Resolver(store)
    created = svc.create_game("dice-duel", scenario, {})
    gid = created["id"]
    for token in created["seats"].values():
        svc.join(gid, token)
    return svc, resolver, created, gid


def _played(store: Any, moves: int) -> str:
    svc, resolver, created, gid = _started(store, "short")
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
    """The resolver's hot path (one read per judgement) checks the cached entry's
    chain hash too: a state cached under a hash that is not the ledger's is dropped, and the
    move is judged from the state folded from the ledger."""
    store = open_store(db_url, upgrade=True)
    try:
        svc, resolver, created, gid = _started(store, "long")

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


def _aob_moves(svc: Warlog, resolver: Resolver, gid: str, token: str, moves: int, seed: int) -> None:
    """`moves` set-up moves of Belgium's in Assault on Belgium, picked by a seeded chooser."""
    import random
    import uuid

    rng, viewer = random.Random(seed), svc.viewer(gid, token)
    for _ in range(moves):
        listing = svc.actions(gid, viewer)
        legal = [a for a in listing["actions"] if a["type"] in ("select", "place", "unplace")]
        svc.submit_move(gid, token, rng.choice(legal), listing["expected_seq"], uuid.uuid4().hex)
        assert resolver.run(gid) == 1


def test_a_ledger_changed_behind_the_resolvers_cache_is_detected(tmp_path: Any) -> None:
    """The resolver's hot state (held without copies) is keyed by the seq and the chain hash of
    the event last judged (which commits to that event's recorded state hash): a ledger whose
    history at that seq is another one (here: a database replaced by one where the game went
    another way from move 2) is read and folded, never judged from the cached state. The
    ledger the resolver wrote to then folds, hash by hash, to every recorded state."""
    import dataclasses

    from ledger.projection import summary_from_events

    first, other = open_store(f"sqlite:///{tmp_path}/a.sqlite3", upgrade=True), \
        open_store(f"sqlite:///{tmp_path}/b.sqlite3", upgrade=True)
    try:
        svc, resolver = Warlog(first, lambda game_id: None), Resolver(first)
        created = svc.create_game("assault-on-belgium", None, {})
        gid = created["id"]
        for token in created["seats"].values():
            svc.join(gid, token)
        token = created["seats"]["belgium"]
        _aob_moves(svc, resolver, gid, token, 2, seed=1)
        prefix = list(first.iter_events(gid))
        _aob_moves(svc, resolver, gid, token, 3, seed=1)
        last = first.last_seq(gid)
        cached = resolver.states.get(gid, last)
        assert cached is not None and cached[0] == last  # hot

        other.import_events(prefix, first.secret(gid),  # (an import leaves the active seats to the caller)
                            dataclasses.replace(summary_from_events(prefix), active_seats=["belgium"]))
        svc_b = Warlog(other, lambda game_id: None)
        _aob_moves(svc_b, Resolver(other), gid, token, 3, seed=99)  # the same seqs, another game
        assert other.last_seq(gid) == last
        theirs = fold(other.iter_events(gid))
        assert theirs != cached[2]

        resolver.store = other  # the ledger replaced behind the resolver's back
        _aob_moves(svc_b, resolver, gid, token, 1, seed=5)
        events = list(other.iter_events(gid))
        assert events[-1].type == RESOLVED, events[-1].payload  # judged on the ledger's state
        fold(events, check_hashes=True)  # every recorded patch and hash agrees with the ledger
        entry = resolver.states.get(gid, events[-1].seq)
        assert entry is not None and entry[:2] == (events[-1].seq, events[-1].hash)
    finally:
        first.close()
        other.close()


def test_the_rules_never_change_the_state_they_are_given() -> None:
    """Why the resolver and `Warlog.actions` may hold a state without copies: over random play of
    every game, apply (legal moves and refused ones), legal_actions, prompt, active_seats,
    outcome and phase leave the state they were given exactly as it was."""
    import copy
    import json
    import random

    from rules import all_games
    from rules.core.game import IllegalAction
    from tests.support.fuzzing import seeded_dice

    def frozen(x: Any) -> str:
        return json.dumps(x, sort_keys=True)  # tells True from 1

    games = [g for g in all_games() if type(g).__module__.startswith("rules.")]
    steps = 0
    for g in games:
        for scenario in sorted(g.scenarios()):
            rng, dice = random.Random(scenario), seeded_dice(len(scenario))
            s = g.setup(scenario, g.resolve_options({}), dice)
            for _ in range(30):
                if g.outcome(s) is not None or not g.active_seats(s):
                    break
                before = frozen(s)
                seat = g.active_seats(s)[0]
                legal = g.legal_actions(s, seat)
                g.prompt(s, seat)
                g.phase(s)
                if not legal:
                    break
                wrong = {**copy.deepcopy(rng.choice(legal)), "type": "no-such-action"}
                try:
                    g.apply(s, seat, wrong, dice)
                except IllegalAction:
                    pass
                after = g.apply(s, seat, rng.choice(legal), dice).state
                assert frozen(s) == before, (g.name, scenario)
                assert after is not s
                steps += 1
                s = after
    assert steps > 50 * len(games)


def test_a_state_handed_out_cannot_change_the_cache(tmp_path: Any) -> None:
    """A caller's copy (the default) may be changed freely: the cache and the next reader still
    see the ledger's state; `Warlog.actions` reads the shared one and leaves it as it was."""
    store = open_store(f"sqlite:///{tmp_path}/w.sqlite3", upgrade=True)
    try:
        svc = Warlog(store, lambda game_id: None)
        created = svc.create_game("assault-on-belgium", None, {})
        gid = created["id"]
        for token in created["seats"].values():
            svc.join(gid, token)
        _aob_moves(svc, Resolver(store), gid, created["seats"]["belgium"], 2, seed=3)
        seq = store.last_seq(gid)
        true = StoreHistory(store, gid, snapshots=False).state_at(seq)
        cache = StateCache()
        history = StoreHistory(store, gid, cache=cache)
        mine = history.state_at(seq)
        mine["corrupted"] = True
        again = history.state_at(seq)
        assert again == true
        again.clear()
        assert history.state_at(seq, shared=True) == true

        svc.states.drop(gid)
        assert svc.history(gid).state_at(seq - 2, shared=True) != true  # the cache now holds an older state
        assert svc.actions(gid, svc.viewer(gid, created["seats"]["belgium"]))["actions"]  # folds it forward
        entry = svc.states.get(gid, seq, shared=True)
        assert entry is not None and entry[0] == seq and entry[2] == true
    finally:
        store.close()


def test_the_resolver_reads_the_pending_set_once_a_move_yet_judges_every_pending_one(db_url: str) -> None:
    """Statements per judged move: a run reads the summary once, with the lock
    (EventStore.locked_read: on PostgreSQL in the lock's round trip), and with it the events from
    its cached state's event on; after appending the judgement of the newest submission it does
    not read the summary again; with two submissions pending it reads the summary after judging
    the first, and judges both in one run."""
    store = open_store(db_url, upgrade=True)
    try:
        svc, resolver, created, gid = _started(store, "long")
        reads = []
        summary, locked_read, locking = store.summary, store.locked_read, []

        def counted(game_id: str) -> Any:
            if not locking:
                reads.append(game_id)
            return summary(game_id)

        @contextlib.contextmanager
        def counted_lock(game_id: str, timeout: float = 30.0, summary: bool = True,
                         events_after: int | None = None, **more: Any) -> Iterator[Any]:
            if summary:
                reads.append(game_id)
            locking.append(game_id)
            try:
                with locked_read(game_id, timeout, summary, events_after, **more) as first:
                    locking.clear()
                    yield first
            finally:
                locking.clear()

        def submit(key: str) -> None:
            info = svc.info(gid)
            token = created["seats"][info["active_seats"][0]]
            svc.submit_move(gid, token, {"type": "roll"}, info["seq"], key)

        store.summary = counted  # type: ignore[method-assign]  # a spy on the real store
        store.locked_read = counted_lock  # type: ignore[method-assign]
        submit("k-0")
        reads.clear()
        assert resolver.run(gid) == 1
        assert len(reads) == 1  # cold: read once, not again after the append

        submit("k-1")
        reads.clear()
        assert resolver.run(gid) == 1
        assert len(reads) == 1  # with the lock only
        reads.clear()
        assert resolver.run(gid) == 0 and len(reads) == 1  # nothing pending: the read with the lock

        submit("k-2")
        submit("k-3")  # before the first is judged
        reads.clear()
        assert resolver.run(gid) == 2
        assert len(reads) == 2  # with the lock, and after judging the first
        assert not summary(gid).pending
        fold(store.iter_events(gid), check_hashes=True)
    finally:
        store.close()


def test_two_resolvers_taking_turns_on_one_game_judge_from_the_ledgers_state(db_url: str) -> None:
    """Two workers judging one game by turns: each finds the other's judgement after its own
    append (so its summary and state from that append are not used) and judges on the ledger's
    state; every recorded patch folds to its recorded hash."""
    store = open_store(db_url, upgrade=True)
    try:
        svc, resolvers = Warlog(store, lambda game_id: None), [Resolver(store), Resolver(store)]
        created = svc.create_game("assault-on-belgium", None, {})
        gid = created["id"]
        for token in created["seats"].values():
            svc.join(gid, token)
        token = created["seats"]["belgium"]
        for i in range(8):
            _aob_moves(svc, resolvers[i % 2 if i < 4 else (i // 2) % 2], gid, token, 1, seed=i)
        events = list(store.iter_events(gid))
        assert not store.summary(gid).pending
        assert sum(ev.type == RESOLVED for ev in events) == 8
        fold(events, check_hashes=True)
    finally:
        store.close()


def test_a_submission_that_gets_in_before_the_first_append_is_read_afresh(db_url: str) -> None:
    """The reads made with the lock serve the first round only: a submission committed between
    them and the judgement's append (a Conflict) has the resolver read the ledger again and judge
    both, not judge again from what it read with the lock (forever: the append would conflict
    each time)."""
    import threading

    from tests.worker.test_drainer import _submit

    store = open_store(db_url, upgrade=True)
    try:
        svc, resolver, created, gid = _started(store, "long")
        _submit(svc, gid, created["seats"])
        assert resolver.run(gid) == 1  # its state cached: the next run reads with the lock only
        _submit(svc, gid, created["seats"])
        judgement, raced = resolver._judgement, []

        def racing(*args: Any) -> Any:
            made = judgement(*args)
            if not raced:
                raced.append(_submit(svc, gid, created["seats"]))  # before the append: a Conflict
            return made

        resolver._judgement = racing  # type: ignore[method-assign]
        runs: list[int] = []
        run = threading.Thread(target=lambda: runs.append(resolver.run(gid)), daemon=True)
        run.start()
        run.join(20)
        assert not run.is_alive(), "the resolver judged from its first reads again and again"
        assert runs == [2] and raced and not store.summary(gid).pending
        fold(store.iter_events(gid), check_hashes=True)
    finally:
        store.close()


def test_a_cold_judgement_of_a_young_game_reads_nothing_but_what_goes_with_its_lock(db_url: str) -> None:
    """A worker's first judgement of a game (a fresh resolver: a worker just started, or one that
    never judged this game) on a game younger than YOUNG events: its events from the creation
    record on and its seeds are read with the lock (EventStore.locked_read: on PostgreSQL in the
    lock's round trip), and nothing more is read before the judgement's append. Every judgement
    so made is the one `warlog verify` makes again from the ledger (state, dice from the seed
    and the seats' entropy: ledger.dice)."""
    from warlog.judging.resolver import YOUNG
    from warlog.trust.verify import verify_events

    store = open_store(db_url, upgrade=True)
    try:
        reads: list[str] = []
        locking: list[str] = []
        locked_read = store.locked_read
        for name in ("read", "iter_events", "summary", "seeds", "secret", "latest_snapshot"):
            real = getattr(store, name)

            def spy(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
                if not locking:
                    reads.append(_name)
                return _real(*args, **kwargs)

            setattr(store, name, spy)

        @contextlib.contextmanager
        def flagged(*args: Any, **kwargs: Any) -> Iterator[Any]:
            locking.append("lock")
            try:
                with locked_read(*args, **kwargs) as first:
                    locking.clear()
                    yield first
            finally:
                locking.clear()

        store.locked_read = flagged  # type: ignore[method-assign]  # a spy on the real store
        judged = 0
        while judged < 3:  # a game of rolls may end on its second judgement: another game then
            svc, _, created, gid = _started(store, "short")
            in_game = 0
            while True:
                info = svc.info(gid)
                if info["status"] != "active":
                    break
                svc.submit_move(gid, created["seats"][info["active_seats"][0]], {"type": "roll"}, info["seq"],
                                f"k-{in_game}")
                assert info["seq"] < YOUNG
                reads.clear()
                assert Resolver(store).run(gid) == 1
                assert reads == [], f"move {in_game}: read {reads} beyond the lock's reads"
                in_game += 1
            report = verify_events(list(store.iter_events(gid)))
            assert report.ended and report.seed_revealed and report.judgements == in_game and report.dice_derived > 0
            judged += in_game
    finally:
        store.close()
