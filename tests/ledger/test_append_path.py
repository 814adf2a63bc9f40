"""The fast append path: PostgreSQL chains and folds in one statement (ledger_append,
migration 8), SQLite in one transaction of few statements. These check that the hashes, the
`games` row and the lost-row repair come out exactly as the Python definitions say."""

from __future__ import annotations

import random

import psycopg
import pytest

from ledger import projection
from ledger.canonical import GENESIS_HASH, canonical_bytes
from ledger.events import NewEvent, body_parts, check_chain, event_body, seal, seal_encoded
from ledger.store import Conflict, DuplicateKey, SummaryUpdate

ODD = {"text": 'quote " backslash \\ nul \x00 tab \t é 漢字 🎲 \u2028', "n": -12, "deep": [{"b": None, "a": True}]}


@pytest.mark.parametrize("seat", [None, "red", "séat \"x\"", "tab\tnul\x00 🎲"])
def test_body_parts_rebuild_the_canonical_body(seat):
    new = NewEvent("submitted", seat, ODD)
    head, payload, tail = body_parts("gämé \"1\"", 17, new, "2026-11-24T14:00:00.000001Z")
    prev = "ab" * 32
    body = event_body("gämé \"1\"", 17, "submitted", seat, ODD, "2026-11-24T14:00:00.000001Z", prev)
    assert (head + payload + ',"prev_hash":"' + prev + tail).encode("utf-8") == canonical_bytes(body)


def test_odd_text_is_chained_by_the_database_as_python_chains_it(store, make_game):
    gid = "gäme \"q\" 漢"
    make_game(store, gid, NewEvent("seat_joined", "séat \\ 🎲", ODD))
    appended = store.append(gid, 1, [NewEvent("submitted", "séat \\ 🎲", ODD), NewEvent("submitted", None, {})])
    events = store.read(gid)
    assert check_chain(events) == 4 and events[2:] == appended and events[0].prev_hash == GENESIS_HASH


def test_a_lost_games_row_is_rebuilt_by_the_next_append(backend, store, make_game):
    make_game(store, "g1", NewEvent("game_started", None, {}), NewEvent("submitted", "red", {}))
    backend.raw(store, "DELETE FROM games WHERE game_id = 'g1'")
    store.append("g1", 2, [NewEvent("resolved", None, {"submission_seq": 2})], summary=SummaryUpdate(active_seats=["b"]))
    s = store.summary("g1")
    assert (s.status, s.last_seq, s.last_submitted_seq, s.last_handled_seq, s.active_seats, s.game) == \
        ("active", 3, 2, 2, ["b"], "ardennes")
    with pytest.raises(Conflict) as stale:
        store.append("g1", 2, [NewEvent("submitted", "red", {})])
    assert stale.value.current_seq == 3


def test_the_games_row_is_what_projection_fold_gives(store, make_game):
    """Random batches and updates: the row the database folds (SQL on both backends) equals
    `projection.fold` over the events appended and the updates given."""
    rng = random.Random(13)
    make_game(store, "g1")
    want = store.summary("g1")
    last, submissions = 0, []
    for _ in range(40):
        batch: list[NewEvent] = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(["submitted", "submitted", "judged", "game_started", "game_ended", "seat_joined"])
            if kind == "judged" and submissions:
                batch.append(NewEvent(rng.choice(["resolved", "rejected"]), None,
                                      {"submission_seq": rng.choice(submissions)}))
            elif kind in ("game_started", "game_ended", "seat_joined"):
                batch.append(NewEvent(kind, None, {}))
            else:
                batch.append(NewEvent("submitted", "red", {}))
                submissions.append(last + 1 + len(batch) - 1)
        update = rng.choice([None, SummaryUpdate(active_seats=rng.sample(["a", "b", "c"], rng.randint(0, 3))),
                             SummaryUpdate(status=rng.choice(["waiting", "active", "ended"]))])
        appended = store.append("g1", last, batch, summary=update)
        last += len(batch)
        want = projection.fold(want, appended, update)
        got = store.summary("g1")
        assert (got.status, got.active_seats, got.last_seq, got.last_submitted_seq, got.last_handled_seq) == \
            (want.status, want.active_seats, want.last_seq, want.last_submitted_seq, want.last_handled_seq)


def test_batch_marks_fold_as_fold_does():
    """The marks a database folds with give what `projection.fold` gives, for every batch of
    status-changing events from every status."""
    kinds = ["game_started", "game_ended", "submitted", "seat_joined"]
    for status in projection.STATUSES:
        base = projection.new_summary("g", ("x", "s", False), "t")
        base = projection.fold(base, [], SummaryUpdate(status=status))
        for a in kinds:
            for b in kinds:
                batch = [NewEvent(a, "r", {}), NewEvent(b, "r", {})]
                marks = projection.batch_marks(batch, 5)
                sealed = [seal("g", 5 + i, ev, "t", "p") for i, ev in enumerate(batch)]
                want = projection.fold(base, sealed)
                got = ("ended" if marks.ended else "active" if marks.started and status == "waiting" else status)
                assert (got, marks.last_seq, max(base.last_submitted_seq, marks.submitted)) == \
                    (want.status, want.last_seq, want.last_submitted_seq)


def test_postgres_appends_in_one_statement(backend, store, make_game, monkeypatch):
    """One statement per append on PostgreSQL, so one round trip; its answers to a
    stale seq and a used key are the ones the contract names."""
    if backend.name != "postgres":
        pytest.skip("SQLite has no round trips")
    make_game(store, "g1")
    calls: list[str] = []
    real = psycopg.Cursor.execute

    def counted(self, query, params=None, **kw):  # type: ignore[no-untyped-def]
        calls.append(str(query))
        return real(self, query, params, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    monkeypatch.setattr(psycopg.Cursor, "executemany", lambda *a, **k: calls.append("executemany"))
    for seq in range(10):
        store.append("g1", seq, [NewEvent("submitted", "red", {"n": seq})], idempotency_key=f"k{seq}")
    assert len(calls) == 10 and all("ledger_append" in c for c in calls)
    with pytest.raises(DuplicateKey) as dup:
        store.append("g1", 10, [NewEvent("submitted", "red", {})], idempotency_key="k3")
    with pytest.raises(Conflict) as stale:
        store.append("g1", 5, [NewEvent("submitted", "red", {})])
    assert dup.value.seq == 4 and stale.value.current_seq == 10
    monkeypatch.undo()
    assert check_chain(store.read("g1")) == 11


@pytest.mark.parametrize("seat", [None, "red", "séat \\ \"x\" 🎲"])
def test_seal_encoded_is_seal_with_the_payload_text(seat):
    new = NewEvent("resolved", seat, {**ODD, "submission_seq": 3})
    ev, text = seal_encoded("g \"1\" é", 4, new, "2026-11-24T14:00:00.000001Z", "cd" * 32)
    assert ev == seal("g \"1\" é", 4, new, "2026-11-24T14:00:00.000001Z", "cd" * 32)
    assert text == canonical_bytes(new.payload).decode("utf-8") and ev.computed_hash() == ev.hash
