"""The EventStore contract, run against every backend (see conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ledger.canonical import GENESIS_HASH
from ledger.events import ChainError, NewEvent, check_chain
from ledger.export import export_lines, parse_export, summary_from_events
from ledger.factory import open_store
from ledger.store import Conflict, DuplicateKey, GameExists, LockTimeout, SummaryUpdate

REPO = Path(__file__).resolve().parents[2]


def sub(seat: str = "red", **payload: object) -> NewEvent:
    return NewEvent("submitted", seat, dict(payload))


def resolved(submission_seq: int) -> NewEvent:
    return NewEvent("resolved", None, {"submission_seq": submission_seq, "facts": ["ok"]})


def race(n: int, action) -> list[object]:
    """Run action(i) in n threads released together; each result or exception, by index."""
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = action(i)
        except Exception as exc:  # noqa: BLE001 - the caller inspects it
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


# -- appending and reading -------------------------------------------------------------------

def test_append_read_round_trip(store, make_game):
    written = make_game(store, "g1", NewEvent("seat_joined", "red", {"entropy": "ab"}))
    written += store.append("g1", 1, [sub(move="A1-B2", n=3, nested={"z": [1, None, True], "é": "ü\u2028"})])
    written += store.append("g1", 2, [resolved(2), NewEvent("game_ended", None, {"winner": "red"})])
    assert store.read("g1") == written
    assert list(store.iter_events("g1", batch=2)) == written
    assert list(store.iter_events("g1", after=1, batch=1)) == written[2:]
    assert store.read("g1", after=0, upto=2) == written[1:3]
    assert store.read("g1", upto=0) == written[:1]
    assert store.last_seq("g1") == 4
    assert store.read("nope") == [] and store.last_seq("nope") == -1 and store.summary("nope") is None


def test_seqs_gapless_and_hash_chain(store, make_game):
    make_game(store, "g1")
    for i in range(5):
        store.append("g1", store.last_seq("g1"), [sub(i=i), resolved(store.last_seq("g1") + 1)])
    events = store.read("g1")
    assert [e.seq for e in events] == list(range(11))
    assert check_chain(events) == 11
    assert events[0].prev_hash == GENESIS_HASH
    for before, after in zip(events, events[1:]):
        assert after.prev_hash == before.hash
    assert all(e.hash == e.computed_hash() for e in events)


def test_conflict_on_stale_expected_seq(store, make_game):
    make_game(store, "g1")
    store.append("g1", 0, [sub()])
    with pytest.raises(Conflict) as info:
        store.append("g1", 0, [sub()])
    assert (info.value.game_id, info.value.expected_seq, info.value.current_seq) == ("g1", 0, 1)
    with pytest.raises(Conflict):
        make_game(store, "g1")  # expected -1, but the game exists
    with pytest.raises(Conflict) as info:
        store.append("fresh", 3, [sub()])
    assert info.value.current_seq == -1
    assert store.last_seq("g1") == 1 and store.last_seq("fresh") == -1


def test_bad_batches_are_refused(store, make_game):
    with pytest.raises(ValueError, match="game_info"):
        store.append("g1", -1, [NewEvent("game_created", None, {})])
    make_game(store, "g1")
    with pytest.raises(ValueError):
        store.append("g1", 0, [])
    with pytest.raises(ValueError, match="submitted"):
        store.append("g1", 0, [resolved(0)], idempotency_key="k")
    with pytest.raises(ValueError, match="submission_seq"):
        store.append("g1", 0, [NewEvent("rejected", None, {"reasons": []})])
    with pytest.raises(ValueError, match="status"):
        store.append("g1", 0, [sub()], summary=SummaryUpdate(status="paused"))
    assert store.last_seq("g1") == 0


def test_racing_appends_one_wins(backend, make_game):
    stores = [backend.store() for _ in range(6)]
    results = race(6, lambda i: make_game(stores[i], "g1"))
    assert sum(isinstance(r, list) for r in results) == 1
    assert all(isinstance(r, (list, Conflict)) for r in results), results
    for round_ in range(5):
        expected = stores[0].last_seq("g1")
        results = race(6, lambda i: stores[i].append("g1", expected, [sub(f"s{i}", round=round_)]))
        winners = [r for r in results if isinstance(r, list)]
        assert len(winners) == 1, results
        assert all(isinstance(r, Conflict) and r.current_seq == expected + 1 for r in results if r not in winners)
    events = stores[0].read("g1")
    assert [e.seq for e in events] == list(range(6)) and check_chain(events) == 6
    assert stores[0].summary("g1").last_seq == 5


def test_racing_retries_of_one_submission(backend, make_game):
    stores = [backend.store() for _ in range(5)]
    make_game(stores[0], "g1")
    results = race(5, lambda i: stores[i].append("g1", 0, [sub(move="x")], idempotency_key="once"))
    winners = [r for r in results if isinstance(r, list)]
    assert len(winners) == 1
    assert all(isinstance(r, DuplicateKey) and r.seq == 1 for r in results if r not in winners), results
    assert stores[0].last_seq("g1") == 1


def test_idempotency_key(store, make_game):
    make_game(store, "g1")
    first = store.append("g1", 0, [sub(move="x"), NewEvent("seat_joined", "blue", {})], idempotency_key="k1")
    assert store.idempotent_seq("g1", "k1", "red") == 1
    for expected in (2, 0):  # a retry gets DuplicateKey, whether its expected seq is current or stale
        with pytest.raises(DuplicateKey) as info:
            store.append("g1", expected, [sub(move="x")], idempotency_key="k1")
        assert (info.value.game_id, info.value.key, info.value.seq) == ("g1", "k1", first[0].seq)
    assert store.last_seq("g1") == 2
    assert store.idempotent_seq("g1", "other", "red") is None
    make_game(store, "g2")
    assert store.append("g2", 0, [sub()], idempotency_key="k1")[0].seq == 1  # keys are per game


def test_hidden_information_idempotency_keys_are_per_seat(store, make_game):
    """An opponent who sends a key first takes nothing from the other seat: keys are unique per
    (game, seat, key), and the key binds to the batch's submission even after a fresh seed."""
    make_game(store, "g1")
    blue = store.append("g1", 0, [sub("blue", move="x")], idempotency_key="turn-1")
    red = store.append("g1", 1, [NewEvent("seed_committed", None, {"commitment": "c" * 64, "period": 1}),
                                 sub("red", move="y")], idempotency_key="turn-1", secret=b"fresh")
    assert (blue[0].seq, red[1].seq) == (1, 3)
    assert store.idempotent_seq("g1", "turn-1", "blue") == 1 and store.idempotent_seq("g1", "turn-1", "red") == 3
    with pytest.raises(DuplicateKey) as info:
        store.append("g1", 3, [sub("red", move="y")], idempotency_key="turn-1")
    assert info.value.seq == 3 and store.last_seq("g1") == 3


def test_hidden_information_a_fresh_seed_is_kept_with_its_commitment(store, make_game):
    """ledger.dice step 7: each seed period's seed, keyed by the seq of its `seed_committed`."""
    make_game(store, "g1", secret=b"first")
    store.append("g1", 0, [NewEvent("seed_revealed", None, {"seed": "00"}),
                           NewEvent("seed_committed", None, {"commitment": "c" * 64, "period": 1})], secret=b"second")
    assert store.seeds("g1") == [(0, b"first"), (2, b"second")] and store.secret("g1") == b"first"
    with pytest.raises(ValueError):  # a later secret belongs to exactly one commitment
        store.append("g1", 2, [sub()], secret=b"third")
    assert store.seeds("g1") == [(0, b"first"), (2, b"second")] and store.last_seq("g1") == 2
    assert store.seeds("nope") == []


def test_database_refuses_changes_to_events(backend, store, make_game):
    events = make_game(store, "g1", sub())
    for statement in ("UPDATE events SET type = 'rejected' WHERE seq = 1",
                      "UPDATE events SET payload = '{}'",
                      "DELETE FROM events WHERE seq = 1",
                      "DELETE FROM events"):
        with pytest.raises(Exception, match="append-only"):
            backend.raw(store, statement)
    if backend.name == "postgres":
        # events is partitioned by the game's month (migration 6): the parent's row trigger is
        # cloned onto each partition, and each partition has its own TRUNCATE trigger
        for statement in ("TRUNCATE events CASCADE", "TRUNCATE events, idempotency",
                          "INSERT INTO events SELECT * FROM events ON CONFLICT (game_id, seq, period) "
                          "DO UPDATE SET type = 'x'",
                          "UPDATE events_default SET type = 'x'", "DELETE FROM events_default",
                          "TRUNCATE events_default CASCADE"):
            with pytest.raises(Exception, match="append-only"):
                backend.raw(store, statement)
    else:
        with pytest.raises(Exception, match="append-only"):
            backend.raw(store, "INSERT OR REPLACE INTO events SELECT * FROM events WHERE seq = 1")
        with pytest.raises(Exception, match="append-only"):
            backend.raw(store, "REPLACE INTO events SELECT * FROM events")
    assert store.read("g1") == events
    backend.raw(store, "DELETE FROM snapshots")  # other tables are ordinary


def test_open_store_by_url_finds_the_same_database(store, make_game):
    events = make_game(store, "g1")
    other = open_store(store.url)
    try:
        assert type(other) is type(store) and other.read("g1") == events
    finally:
        other.close()


def test_store_usable_after_fork(store, make_game):
    make_game(store, "g1")  # the parent's connections are open now
    pid = os.fork()
    if pid == 0:  # the child: append through the inherited store object, then vanish
        code = 1
        try:
            store.append("g1", 0, [sub("child")])
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    store.append("g1", 1, [sub("parent")])  # the parent's connections still work
    assert [e.seat for e in store.read("g1")] == [None, "child", "parent"]


# -- the games projection -----------------------------------------------------------------

def test_games_projection(store, make_game):
    created = make_game(store, "g1", NewEvent("seat_joined", "red", {}), secret=b"\x00seed\xff")
    s = store.summary("g1")
    assert (s.game, s.scenario, s.status, s.last_seq, s.sandbox) == ("ardennes", "s1", "waiting", 1, False)
    assert s.created_at == created[0].recorded_at
    assert (s.last_submitted_seq, s.last_handled_seq, s.pending, s.active_seats) == (-1, -1, False, [])
    assert store.secret("g1") == b"\x00seed\xff" and store.secret("nope") is None

    store.append("g1", 1, [NewEvent("game_started", None, {"state_hash": "h"})],
                 summary=SummaryUpdate(active_seats=["red", "blue"]))
    s = store.summary("g1")
    assert (s.status, s.active_seats, s.last_seq) == ("active", ["red", "blue"], 2)

    store.append("g1", 2, [sub("red")])
    store.append("g1", 3, [sub("blue")])
    s = store.summary("g1")
    assert (s.last_submitted_seq, s.last_handled_seq, s.pending) == (4, -1, True)
    assert store.pending_games() == ["g1"]
    store.append("g1", 4, [resolved(3)])
    assert store.summary("g1").last_handled_seq == 3 and store.pending_games() == ["g1"]
    store.append("g1", 5, [NewEvent("rejected", None, {"submission_seq": 4, "reasons": ["no"]})],
                 summary=SummaryUpdate(active_seats=["blue"]))
    s = store.summary("g1")
    assert (s.last_handled_seq, s.pending, s.active_seats, s.status) == (4, False, ["blue"], "active")
    assert store.pending_games() == []

    store.append("g1", 6, [NewEvent("game_ended", None, {"winner": "blue"})], summary=SummaryUpdate(active_seats=[]))
    s = store.summary("g1")
    assert (s.status, s.last_seq, s.active_seats) == ("ended", 7, [])
    store.append("g1", 7, [NewEvent("seed_revealed", None, {"seed": "00"})], summary=SummaryUpdate(status="ended"))
    assert store.summary("g1").status == "ended"


def test_summary_update_overrides_status(store, make_game):
    make_game(store, "g1")
    store.append("g1", 0, [NewEvent("seat_joined", "red", {})], summary=SummaryUpdate(status="active"))
    assert store.summary("g1").status == "active"
    assert store.secret("g1") is None


def test_list_games(store, make_game):
    make_game(store, "a", sandbox=True)
    time.sleep(0.002)
    make_game(store, "b", game="kursk")
    time.sleep(0.002)
    make_game(store, "c")
    store.append("c", 0, [NewEvent("game_ended", None, {})])
    assert [g.game_id for g in store.list_games()] == ["c", "b", "a"]
    assert [g.game_id for g in store.list_games(game="ardennes")] == ["c", "a"]
    assert [g.game_id for g in store.list_games(status="waiting")] == ["b", "a"]
    assert [g.game_id for g in store.list_games(game="ardennes", status="ended")] == ["c"]
    assert [g.game_id for g in store.list_games(limit=1)] == ["c"]
    assert store.summary("a").sandbox is True
    assert store.list_games(game="none") == []


def test_the_sweeps_lists_read_together(store, make_game):
    for gid in ("a", "b"):
        make_game(store, gid)
    store.append("a", 0, [sub()])
    store.append("b", 0, [sub(), resolved(1)])
    assert store.sweep_games() == (["a"], [])


def test_a_locked_read_reads_what_the_plain_reads_do_under_the_lock(store, make_game):
    make_game(store, "g1")
    store.append("g1", 0, [sub(), resolved(1), sub()])
    with store.locked_read("g1", timeout=1, events_after=1) as first:
        assert first.summary == store.summary("g1") and first.summary.oldest_pending == 3
        assert first.events == store.read("g1", after=1) and [ev.seq for ev in first.events] == [2, 3]
    with store.locked_read("g1", timeout=1, summary=False) as first:
        assert first.summary is None and first.events is None
    with store.locked_read("nope", timeout=1, events_after=-1) as first:
        assert first.summary is None and first.events == []
    with store.game_lock("g1", timeout=1):  # released after each
        pass


def test_the_summary_and_a_range_of_events_read_together_are_what_the_plain_reads_give(store, make_game):
    """EventStore.summary_and_read (one statement on the SQL stores): the summary, and the events
    in (after, upto], none when the range is past the end, nothing for an unknown game; a game's
    events never mix with another's."""
    make_game(store, "g1")
    make_game(store, "g2")
    store.append("g1", 0, [sub(), resolved(1), sub()])
    store.append("g2", 0, [sub()])
    summary, events = store.summary_and_read("g1", 0)
    assert summary == store.summary("g1") and summary.oldest_pending == 3 and events == store.read("g1", after=0)
    assert [ev.seq for ev in store.summary_and_read("g1", 0, upto=2)[1]] == [1, 2]
    assert store.summary_and_read("g1", 3) == (store.summary("g1"), [])
    assert [ev.seq for ev in store.summary_and_read("g2", -1)[1]] == [0, 1]
    assert store.summary_and_read("nope", -1) == (None, [])


def test_the_events_of_some_types_are_what_a_filter_of_the_whole_game_gives(store, make_game):
    """EventStore.events_of_types (one statement on the SQL stores; the audit page's looks and
    umpires, a game's disputes): those types alone, in seq order, of that game alone."""
    from ledger.store import EventStore

    make_game(store, "g1")
    make_game(store, "g2")
    store.append("g1", 0, [sub(), resolved(1), sub(), resolved(3)])
    store.append("g2", 0, [sub()])
    every = list(store.iter_events("g1"))
    for types in (("resolved",), ("resolved", "submitted"), ("game_created", "resolved"), ("nothing",), ()):
        want = [ev for ev in every if ev.type in types]
        assert store.events_of_types("g1", types) == want == EventStore.events_of_types(store, "g1", types)
    assert [ev.seq for ev in store.events_of_types("g1", ("resolved",))] == [2, 4]
    assert [ev.seq for ev in store.events_of_types("g2", ("submitted", "resolved"))] == [1]
    assert store.events_of_types("nope", ("submitted",)) == []


def test_a_locked_read_of_a_young_game_reads_its_first_events_and_its_seeds(store, make_game):
    """A cold judgement's read (warlog.judging.resolver): the events from the first up to a
    bound, and the seeds (period 0's secret, then each later period's), as the plain reads give them."""
    make_game(store, "g1", secret=b"first")
    store.append("g1", 0, [sub(), resolved(1), NewEvent("seed_committed", None, {"commitment": "c" * 64, "period": 1})],
                 secret=b"second")
    store.append("g1", 3, [sub()])
    with store.locked_read("g1", timeout=1, events_after=-1, events_upto=2, seeds=True) as first:
        assert first.events == store.read("g1", after=-1, upto=2) and [ev.seq for ev in first.events] == [0, 1, 2]
        assert first.seeds == store.seeds("g1") and [s for _, s in first.seeds] == [b"first", b"second"]
    with store.locked_read("g1", timeout=1, events_after=-1, events_upto=100) as first:
        assert [ev.seq for ev in first.events] == [0, 1, 2, 3, 4] and first.seeds is None
    make_game(store, "g2")
    with store.locked_read("g2", timeout=1, seeds=True) as first:
        assert first.seeds == store.seeds("g2") == []


def test_pending_games_across_games(store, make_game):
    for gid in ("a", "b", "c"):
        make_game(store, gid)
    store.append("a", 0, [sub()])
    store.append("c", 0, [sub(), resolved(1)])
    store.append("b", 0, [sub()])
    assert sorted(store.pending_games()) == ["a", "b"]


# -- snapshots ------------------------------------------------------------------------------

def test_snapshots(store, make_game):
    events = make_game(store, "g1", sub(), sub(), sub())
    make_game(store, "g2")
    assert store.latest_snapshot("g1", 3) is None
    store.save_snapshot("g1", 1, {"turn": 1, "units": [{"id": "u1", "hex": "0101"}]})
    store.save_snapshot("g1", 3, {"turn": 3})
    store.save_snapshot("g1", 3, {"turn": "overwritten?"})  # an existing snapshot is kept
    store.save_snapshot("g2", 0, {"turn": 0})
    assert store.latest_snapshot("g1", 0) is None
    assert store.latest_snapshot("g1", 1) == (1, {"turn": 1, "units": [{"id": "u1", "hex": "0101"}]})
    assert store.latest_snapshot("g1", 2)[0] == 1
    assert store.latest_snapshot("g1", 99) == (3, {"turn": 3})
    assert store.delete_snapshots("g1") == 2
    assert store.latest_snapshot("g1", 99) is None and store.latest_snapshot("g2", 0) == (0, {"turn": 0})
    assert store.delete_snapshots("g1") == 0
    store.save_snapshot("g1", 2, [1, 2])
    assert store.delete_snapshots() == 2
    assert store.read("g1") == events and store.summary("g1").last_seq == 3


# -- export and import ---------------------------------------------------------------------

def _played_game(store, make_game, game_id: str = "g1") -> list[str]:
    make_game(store, game_id, NewEvent("seat_joined", "red", {"entropy": "ab"}),
              NewEvent("seat_joined", "blue", {"entropy": "cd"}), secret=b"s3cret")
    store.append(game_id, 2, [NewEvent("game_started", None, {"state": {"units": [1, 2]}})])
    store.append(game_id, 3, [sub(move="A1\u2028B2", text="Ünïcødé \"quoted\" \\ back\nline\x00")],
                 idempotency_key="k")
    store.append(game_id, 4, [resolved(4)])
    store.append(game_id, 5, [sub("blue", n=-12345678901234567890)])
    return list(export_lines(store, game_id))


def test_export_parse_import_round_trip(backend, store, make_game):
    lines = _played_game(store, make_game)
    assert len(lines) == 7 and all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    events = parse_export(lines)
    assert events == store.read("g1") and check_chain(events) == 7
    summary = summary_from_events(events)
    original = store.summary("g1")
    assert summary == original  # the writer never set active seats in this game

    fresh = backend.fresh_store()
    fresh.import_events(events, store.secret("g1"), summary)
    assert list(export_lines(fresh, "g1")) == lines
    assert fresh.summary("g1") == original and fresh.secret("g1") == b"s3cret"
    assert fresh.pending_games() == ["g1"]
    # the imported game goes on where it left off
    fresh.append("g1", 6, [resolved(6)])
    assert check_chain(fresh.read("g1")) == 8 and fresh.pending_games() == []


def test_import_across_backends(backend, store, make_game):
    lines = _played_game(store, make_game)
    events = parse_export(ln.encode("utf-8") for ln in lines)
    other = backend.fresh_store("postgres" if backend.name == "sqlite" else "sqlite")
    other.import_events(events, None, summary_from_events(events))
    assert list(export_lines(other, "g1")) == lines and other.secret("g1") is None


def test_import_refuses_an_existing_game(backend, store, make_game):
    lines = _played_game(store, make_game)
    events = parse_export(lines)
    with pytest.raises(GameExists):
        store.import_events(events, None, summary_from_events(events))
    fresh = backend.fresh_store()
    make_game(fresh, "g1")  # a different game under the same id
    with pytest.raises(GameExists):
        fresh.import_events(events, None, summary_from_events(events))
    assert fresh.last_seq("g1") == 0


def test_import_refuses_a_broken_stream(backend, store, make_game):
    events = parse_export(_played_game(store, make_game))
    fresh = backend.fresh_store()
    with pytest.raises(ChainError):
        fresh.import_events(events[:3] + events[4:], None, summary_from_events(events))
    with pytest.raises(ValueError):
        fresh.import_events(events[:3], None, summary_from_events(events))  # summary says 7 events
    assert fresh.last_seq("g1") == -1 and fresh.list_games() == []


# -- the game lock -----------------------------------------------------------------------

def test_game_lock_excludes_a_second_holder(backend, store):
    other = backend.store()
    with store.game_lock("g1", timeout=5):
        for s in (store, other):
            started = time.monotonic()
            with pytest.raises(LockTimeout):
                with s.game_lock("g1", timeout=0.3):
                    pytest.fail("acquired a held lock")
            assert 0.25 <= time.monotonic() - started < 3
        with other.game_lock("g2", timeout=1):  # other games are free
            pass
    with other.game_lock("g1", timeout=1):
        with pytest.raises(LockTimeout):
            with store.game_lock("g1", timeout=0.1):
                pass
    with store.game_lock("g1", timeout=1):
        pass


def test_game_lock_released_on_error_and_handed_over(backend, store):
    other = backend.store()
    with pytest.raises(RuntimeError):
        with store.game_lock("g1", timeout=1):
            raise RuntimeError("worker crashed")
    order: list[str] = []
    holding = threading.Event()

    def first() -> None:
        with store.game_lock("g1", timeout=5):
            holding.set()
            time.sleep(0.3)
            order.append("first out")

    t = threading.Thread(target=first)
    t.start()
    holding.wait(5)
    with other.game_lock("g1", timeout=10):  # waits for the first holder, then gets it
        order.append("second in")
    t.join()
    assert order == ["first out", "second in"]


LOCK_PROBE = """
import sys
from ledger import open_store, LockTimeout
store = open_store(sys.argv[1])
try:
    with store.game_lock(sys.argv[2], timeout=float(sys.argv[3])):
        print("acquired")
except LockTimeout:
    print("timeout")
store.close()
"""


@pytest.mark.slow
def test_game_lock_across_processes(backend, store):
    url = store.url  # names the schema on PostgreSQL: `?options=-csearch_path%3D...`
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def probe(timeout: float) -> str:
        done = subprocess.run([sys.executable, "-c", LOCK_PROBE, url, "g1", str(timeout)],
                              capture_output=True, text=True, timeout=60, env=env, cwd=REPO)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    with store.game_lock("g1", timeout=1):
        assert probe(0.3) == "timeout"
    assert probe(5) == "acquired"
