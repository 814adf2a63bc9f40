"""`warlog verify` flags a ledger whose time runs backwards within a game's stream: a step back
within the writers' clock tolerance is noted, a larger one fails.

A writer whose clock is behind (a skewed worker) appends events that chain and hash correctly
but are stamped before the events they follow. The chain alone cannot tell; verify must, since
deadlines and the pace record are read from these times.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner

import ledger.sqlite
from ledger.canonical import canonical_bytes
from ledger.events import Event, NewEvent, seal
from tests.verify.test_verify import finished_export
from warlog.cli import main
from warlog.trust.verify import VerifyFailure, check_time_order, verify_bytes


def test_a_writer_with_a_clock_two_days_behind_fails_verify(new_game: Any, monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Any) -> None:
    p = new_game()
    seat = p.info()["active_seats"][0]
    p.play(seat, {"type": "roll"})
    first_behind = p.info()["seq"] + 1  # the first event the skewed writer appends
    behind = datetime.now(UTC) - timedelta(days=2)  # the skewed writer's clock
    monkeypatch.setattr(ledger.sqlite, "utc_now", lambda: behind.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    while p.info()["status"] != "ended":
        seat = p.info()["active_seats"][0]
        pot = p.client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"]
        p.play(seat, {"type": "bank"} if pot >= 5 else {"type": "roll"})
    export = p.client.get(f"/api/v1/games/{p.id}/export").get_data()
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(export)
    assert err.value.seq == first_behind and "runs backwards" in err.value.reason
    path = tmp_path / "skewed.jsonl"
    path.write_bytes(export)
    out = CliRunner().invoke(main, ["verify", str(path)])
    assert out.exit_code == 1 and f"event {first_behind}" in out.output and "backwards" in out.output


def test_an_honest_export_runs_forward(new_game: Any) -> None:
    export = finished_export(new_game)
    events = [Event.from_json(json.loads(line)) for line in export.splitlines()]
    check_time_order(events)
    assert verify_bytes(export).judgements > 0


def test_a_resealed_chain_with_one_time_moved_back_is_named() -> None:
    """Equal times pass (two events of one append); a second back is noted (two writers' clocks a
    little apart); more than TIME_ORDER_TOLERANCE back fails at that event."""
    def chain(times: list[str]) -> list[Event]:
        events: list[Event] = []
        for seq, at in enumerate(times):
            events.append(seal("g", seq, NewEvent("pause_asked", "a"), at, events[-1].hash if events else "0" * 64))
        return events

    same = "2026-03-02T10:00:00.000000Z"
    assert check_time_order(chain([same, same])) == []
    notes = check_time_order(chain([same, same, "2026-03-02T09:59:59.000000Z"]))
    assert len(notes) == 1 and notes[0].startswith("event 2 is recorded 1.000 s before event 1")
    events = chain([same, same, "2026-03-02T09:59:29.000000Z"])
    with pytest.raises(VerifyFailure) as err:
        check_time_order(events)
    assert err.value.seq == 2 and "31.0 s before event 1" in err.value.reason
    assert canonical_bytes(events[2].to_json())  # a well-formed event: only its time is wrong
