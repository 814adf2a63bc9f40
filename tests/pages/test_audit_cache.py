"""The audit page keeps what it found between requests (warlog.trust.audit.AuditCache) and
reads only the events after the last one it saw; what it shows is what a build over every event
shows, and an altered event, a replaced ledger or a revealed seed is never hidden by the cache."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from ledger.events import SEED_REVEALED, Event
from ledger.export import parse_export
from ledger.factory import open_store
from ledger.projection import summary_from_events
from warlog.trust import audit

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "up-front--P--v1.jsonl"


def _events() -> list[Event]:
    with GOLDEN.open("rb") as fh:
        return parse_export(fh)


class Ledger:
    """The two reads the cache makes, over a list that a test may alter (a real ledger refuses
    an update: this stands for a restored or tampered copy)."""

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.reads: list[int] = []

    def read(self, game_id: str, after: int = -1, upto: int | None = None) -> list[Event]:
        self.reads.append(after)
        return [e for e in self.events if e.seq > after and (upto is None or e.seq <= upto)]

    def iter_events(self, game_id: str, after: int = -1) -> Any:
        self.reads.append(after)
        return iter(self.read(game_id, after)[:])


def _same(a: audit.Audit, b: audit.Audit) -> None:
    assert (a.chain_ok, a.chain_error, a.events, a.seed, a.seed_matches) == \
        (b.chain_ok, b.chain_error, b.events, b.seed, b.seed_matches)
    assert a.groups == b.groups and a.rulings == b.rulings and a.periods == b.periods
    assert [(label, t.counts) for label, t in a.fairness] == [(label, t.counts) for label, t in b.fairness]


def test_a_second_request_reads_only_the_new_events_and_shows_what_a_full_build_shows(tmp_path: Path) -> None:
    evs = _events()
    store = open_store(f"sqlite:///{tmp_path}/a.sqlite3")
    cut = [e for e in evs if e.seq < 300]
    store.import_events(cut, None, summary_from_events(cut))
    cache = audit.AuditCache()
    gid = evs[0].game_id
    first = cache.build(store, gid, "k", lambda e: "m", "allies", False)
    _same(first, audit.build(cut, lambda e: "m", "allies", False))
    ledger = Ledger([e for e in evs if e.seq < 400])  # the same game, 100 events on
    second = cache.build(ledger, gid, "k", lambda e: "m", "allies", False)
    assert ledger.reads == [298]  # from the last event seen, not from the start
    _same(second, audit.build(ledger.events, lambda e: "m", "allies", False))
    assert len(second.groups) > len(first.groups)
    store.close()


def test_each_view_has_its_own_entry() -> None:
    evs = [e for e in _events() if e.seq < 300]
    cache = audit.AuditCache()
    cache.build(Ledger(evs), "g", "k", lambda e: "allies' words", "allies", False)
    axis = cache.build(Ledger(evs), "g", "k", lambda e: "axis' words", "axis", False)
    assert all(g.title == "axis' words" for g in axis.groups if g.title != "the set-up")


@pytest.mark.parametrize("where", ["after the last event seen", "the last event seen"])
def test_an_altered_event_is_named_on_the_next_request(where: str) -> None:
    evs = _events()
    cache = audit.AuditCache()
    assert cache.build(Ledger(evs[:100]), "g", "k", lambda e: "").chain_ok
    n = 120 if where == "after the last event seen" else 99
    evs[n] = dataclasses.replace(evs[n], payload={**evs[n].payload, "altered": True})  # its stored hash kept
    report = cache.build(Ledger(evs[:150]), "g", "k", lambda e: "")
    assert not report.chain_ok and str(n) in str(report.chain_error)
    again = cache.build(Ledger(evs[:150]), "g", "k", lambda e: "")  # a broken chain is never kept
    assert not again.chain_ok and str(n) in str(again.chain_error)


def test_a_seed_revealed_after_the_last_request_re_derives_the_earlier_dice() -> None:
    evs = _events()
    assert any(e.type == SEED_REVEALED for e in evs)
    cache = audit.AuditCache()
    before = cache.build(Ledger(evs[:300]), "g", "k", lambda e: "")
    assert before.dice and all(d.rederived is None for d in before.dice)
    after = cache.build(Ledger(evs), "g", "k", lambda e: "")
    _same(after, audit.build(evs, lambda e: ""))
    assert [d for d in after.dice if d.seq < 300] and all(d.rederived for d in after.dice if d.seq < 300)


def test_the_report_handed_out_is_not_changed_by_a_later_request() -> None:
    evs = _events()
    cache = audit.AuditCache()
    first = cache.build(Ledger(evs[:200]), "g", "k", lambda e: "")
    groups = len(first.groups)
    cache.build(Ledger(evs[:400]), "g", "k", lambda e: "")
    assert len(first.groups) == groups
