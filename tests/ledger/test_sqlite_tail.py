"""SQLite appends skip their read when the store committed the game's tail itself:
the remembered tail is checked by the INSERT, never trusted, so the chain stays whole and
gapless, a stale writer still gets Conflict and a repeated key still gets DuplicateKey."""

from __future__ import annotations

import pytest

from ledger.canonical import GENESIS_HASH
from ledger.events import NewEvent, check_chain
from ledger.sqlite import SqliteStore
from ledger.store import Conflict, DuplicateKey


def new_store(path) -> SqliteStore:
    store = SqliteStore(str(path))
    store.create_schema()
    return store


def created(store: SqliteStore, game_id: str = "g") -> str:
    store.append(game_id, -1, [NewEvent("game_created", None, {"game": "x"})], game_info=("x", "s", False))
    return game_id


def test_another_store_appending_between_makes_the_remembered_tail_stale_not_wrong(tmp_path):
    a = new_store(tmp_path / "l.db")
    b = SqliteStore(str(tmp_path / "l.db"))  # another process on the same file
    g = created(a)
    a.append(g, 0, [NewEvent("submitted", "red", {"n": 1})])
    b.append(g, 1, [NewEvent("submitted", "red", {"n": 2})])
    with pytest.raises(Conflict) as stale:
        a.append(g, 1, [NewEvent("submitted", "red", {"n": 3})])
    assert stale.value.current_seq == 2
    a.append(g, 2, [NewEvent("submitted", "red", {"n": 4}), NewEvent("submitted", "blue", {"n": 5})])
    a.append(g, 4, [NewEvent("submitted", "red", {"n": 6})])
    assert check_chain(a.read(g)) == 6 and a.summary(g).last_seq == 5
    a.close()
    b.close()


def test_a_wrong_remembered_tail_is_checked_by_the_insert_and_never_chained_to(tmp_path):
    store = new_store(tmp_path / "l.db")
    g = created(store)
    store.append(g, 0, [NewEvent("submitted", "red", {"n": 1})])
    for wrong in [(1, "f" * 64), (1, GENESIS_HASH)]:  # as if the file had been replaced under the store
        store._tails[g] = wrong
        store.append(g, store.summary(g).last_seq, [NewEvent("submitted", "red", {"n": 2})])
    store._tails[g] = (5, "f" * 64)  # a tail beyond the file's: the seq the caller gives decides
    with pytest.raises(Conflict):
        store.append(g, 5, [NewEvent("submitted", "red", {})])
    assert check_chain(store.read(g)) == 4
    store.close()


def test_a_repeated_key_on_the_remembered_tail_is_a_duplicate_and_writes_nothing(tmp_path):
    store = new_store(tmp_path / "l.db")
    g = created(store)
    first = store.append(g, 0, [NewEvent("submitted", "red", {"n": 1})], idempotency_key="k1")
    assert store._tails[g] == (1, first[-1].hash)  # the next append takes the path without the read
    with pytest.raises(DuplicateKey) as dup:
        store.append(g, 1, [NewEvent("submitted", "red", {"n": 1})], idempotency_key="k1")
    assert dup.value.seq == 1
    assert [ev.seq for ev in store.read(g)] == [0, 1] and store.summary(g).last_seq == 1
    store.append(g, 1, [NewEvent("submitted", "red", {"n": 2})], idempotency_key="k2")
    assert check_chain(store.read(g)) == 3 and store.idempotent_seq(g, "k2", "red") == 2
    store.close()
