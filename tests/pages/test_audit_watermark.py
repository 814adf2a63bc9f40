"""The audit page checks only the events its last check did not reach (a verified
watermark: the chain prefix is append-only), and still names an altered event after it, or an
altered watermark event itself."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ledger.events import Event
from ledger.export import parse_export
from warlog.trust import audit

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "up-front--P--v1.jsonl"


def _events() -> list[Event]:
    with GOLDEN.open("rb") as fh:
        return parse_export(fh)


def _altered(ev: Event) -> Event:
    return dataclasses.replace(ev, payload={**ev.payload, "altered": True})  # the stored hash kept


def test_a_second_look_hashes_only_the_new_events(monkeypatch: Any) -> None:
    evs = _events()
    key = "test-ledger game-a"
    assert audit.build(evs[:100], lambda e: "", watermark=key).chain_ok
    calls: list[int] = []
    real = Event.computed_hash

    def counting(self: Event) -> str:
        calls.append(self.seq)
        return real(self)

    monkeypatch.setattr(Event, "computed_hash", counting)
    assert audit.build(evs[:150], lambda e: "", watermark=key).chain_ok
    assert calls == list(range(99, 150))  # the watermark event, then the 50 new ones


def test_an_altered_event_after_the_watermark_is_named() -> None:
    evs = _events()
    key = "test-ledger game-b"
    assert audit.build(evs[:100], lambda e: "", watermark=key).chain_ok
    evs[120] = _altered(evs[120])
    report = audit.build(evs[:150], lambda e: "", watermark=key)
    assert not report.chain_ok and "120" in str(report.chain_error)


def test_an_altered_watermark_event_sends_the_check_back_to_the_start() -> None:
    evs = _events()
    key = "test-ledger game-c"
    assert audit.build(evs[:100], lambda e: "", watermark=key).chain_ok
    evs[99] = _altered(evs[99])
    report = audit.build(evs[:150], lambda e: "", watermark=key)
    assert not report.chain_ok and "99" in str(report.chain_error)
