"""Group commit (ledger.groupcommit): appends made at once by one process's threads share one
transaction and one commit, and one writer's failure undoes only its own statements."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator

import pytest

from ledger.events import NewEvent, check_chain
from ledger.groupcommit import GroupCommit
from ledger.sqlite import SqliteStore
from ledger.store import Conflict


class Recorded:
    """A file database whose connections log every statement run through `execute`."""

    def __init__(self, path: str) -> None:
        self.path, self.log = path, []
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
            conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")

    @contextlib.contextmanager
    def connection(self) -> Iterator[Recorded]:
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            yield self
        finally:
            self.conn.close()

    def execute(self, text: str, args: tuple = ()) -> sqlite3.Cursor:
        self.log.append(text)
        return self.conn.execute(text, args)

    @property
    def total_changes(self) -> int:
        return self.conn.total_changes

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction


def wait_until(test, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_writers_queued_behind_a_commit_share_the_next_one(tmp_path):
    db = Recorded(str(tmp_path / "g.db"))
    group = GroupCommit(db.connection)
    gate = threading.Event()
    results: dict[str, object] = {}

    def insert(k: int, wait: bool = False):
        def work(conn):
            if wait:
                gate.wait(10)
            conn.execute("INSERT INTO t VALUES (?)", (k,))
            return k
        return work

    def writer(name: str, k: int, wait: bool = False) -> None:
        try:
            results[name] = group.run(insert(k, wait))
        except Exception as exc:  # noqa: BLE001 - inspected below
            results[name] = exc

    leader = threading.Thread(target=writer, args=("a", 1, True))
    leader.start()
    wait_until(lambda: group._leading)
    followers = [threading.Thread(target=writer, args=a) for a in (("b", 2), ("dup", 1), ("c", 3))]
    for t in followers:
        t.start()
    wait_until(lambda: len(group._queue) == 3)
    gate.set()
    for t in [leader, *followers]:
        t.join(10)
    dup = results.pop("dup")
    assert results == {"a": 1, "b": 2, "c": 3}
    assert isinstance(dup, sqlite3.IntegrityError)  # its own statements undone, nobody else's
    with contextlib.closing(sqlite3.connect(db.path)) as conn:
        assert [r[0] for r in conn.execute("SELECT k FROM t ORDER BY k")] == [1, 2, 3]
    assert db.log.count("COMMIT") == 2  # the leader's own, then one for the three queued behind it
    assert "SAVEPOINT one_append" not in db.log  # SQLite undid the refused INSERT by itself


def run_batch(group: GroupCommit, works: list) -> list[object]:
    """Run `works` as one batch (queued behind a leader held at a gate): each one's result or error."""
    gate, results = threading.Event(), [None] * len(works)

    def writer(i: int, work) -> None:
        try:
            results[i] = group.run(work)
        except Exception as exc:  # noqa: BLE001 - inspected by the caller
            results[i] = exc

    leader = threading.Thread(target=writer, args=(0, lambda conn: gate.wait(10) and "leader"))
    leader.start()
    wait_until(lambda: group._leading)
    threads = [threading.Thread(target=writer, args=(i, w)) for i, w in enumerate(works) if i]
    for t in threads:
        t.start()
    wait_until(lambda: len(group._queue) == len(works) - 1)
    gate.set()
    for t in [leader, *threads]:
        t.join(10)
    return results[1:]


def test_a_work_failing_after_its_writes_is_undone_alone_by_a_rerun_in_savepoints(tmp_path):
    db = Recorded(str(tmp_path / "g.db"))
    group = GroupCommit(db.connection)
    runs: list[int] = []

    def insert(k: int, fail: bool = False):
        def work(conn):
            runs.append(k)
            conn.execute("INSERT INTO t VALUES (?)", (k,))
            if fail:
                raise RuntimeError("refused after writing")
            return k
        return work

    results = run_batch(group, [None, insert(1), insert(2, fail=True), insert(3)])
    assert results[:1] == [1] and isinstance(results[1], RuntimeError) and results[2] == 3
    with contextlib.closing(sqlite3.connect(db.path)) as conn:
        assert [r[0] for r in conn.execute("SELECT k FROM t ORDER BY k")] == [1, 3]
    assert db.log.count("ROLLBACK TO one_append") == 1 and db.log.count("SAVEPOINT one_append") == 3
    assert runs == [1, 2, 1, 2, 3]  # stopped at the dirty failure, then every work again in a savepoint


def test_a_work_failing_before_any_write_needs_no_savepoint(tmp_path):
    db = Recorded(str(tmp_path / "g.db"))
    group = GroupCommit(db.connection)

    def stale(conn):
        conn.execute("SELECT count(*) FROM t").fetchone()
        raise LookupError("a conflict found by the read")

    results = run_batch(group, [None, lambda c: c.execute("INSERT INTO t VALUES (1)") and 1, stale,
                                lambda c: c.execute("INSERT INTO t VALUES (2)") and 2])
    assert results[0] == 1 and isinstance(results[1], LookupError) and results[2] == 2
    with contextlib.closing(sqlite3.connect(db.path)) as conn:
        assert [r[0] for r in conn.execute("SELECT k FROM t ORDER BY k")] == [1, 2]
    assert "SAVEPOINT one_append" not in db.log and db.log.count("COMMIT") == 2


def test_a_lone_failure_rolls_its_transaction_back(tmp_path):
    db = Recorded(str(tmp_path / "g.db"))
    group = GroupCommit(db.connection)
    assert group.run(lambda conn: conn.execute("INSERT INTO t VALUES (1)") and 1) == 1
    with pytest.raises(sqlite3.IntegrityError):
        group.run(lambda conn: conn.execute("INSERT INTO t VALUES (1)"))
    assert db.log[-1] == "ROLLBACK" and group.run(lambda conn: 7) == 7


def test_eight_threads_appending_at_once_keep_every_chain(tmp_path):
    store = SqliteStore(str(tmp_path / "l.db"))
    store.create_schema()
    games = [f"g{i}" for i in range(8)]
    for g in games:
        store.append(g, -1, [NewEvent("game_created", None, {"game": "x", "scenario": "s"})],
                     game_info=("x", "s", False))
    conflicts: list[int] = []

    def play(g: str) -> None:
        for seq in range(25):
            store.append(g, seq, [NewEvent("submitted", "red", {"n": seq})], idempotency_key=f"{g}-{seq}")
            with pytest.raises(Conflict) as stale:  # a stale writer in the same groups as the others
                store.append(g, seq, [NewEvent("submitted", "red", {})])
            conflicts.append(stale.value.current_seq)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(conflicts) == 200
    for g in games:
        assert check_chain(store.read(g)) == 26 and store.summary(g).last_submitted_seq == 25
        assert store.idempotent_seq(g, f"{g}-7", "red") == 8
    store.close()
