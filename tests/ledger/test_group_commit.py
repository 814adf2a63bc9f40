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
    assert db.log.count("ROLLBACK TO one_append") == 1


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
