"""`warlog verify`: passes an honest export, names the first event of a tampered one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.canonical import canonical_bytes
from tests.conftest import Player
from warlog.cli import main
from warlog.trust.verify import VerifyFailure, verify_bytes


def finished_export(new_game: Any) -> bytes:
    p: Player = new_game()
    while p.info()["status"] != "ended":
        seat = p.info()["active_seats"][0]
        pot = p.client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"]
        p.play(seat, {"type": "bank"} if pot >= 5 else {"type": "roll"})
    return p.client.get(f"/api/v1/games/{p.id}/export").get_data()


@pytest.fixture
def export(new_game: Any) -> bytes:
    return finished_export(new_game)


def test_honest_export_verifies_with_every_die_re_derived(export: bytes) -> None:
    report = verify_bytes(export)
    assert report.seed_revealed and report.dice_derived > 0 and report.judgements > 0
    assert "fair" in report.summary()


def test_cli_verify_exit_codes(export: bytes, tmp_path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(export)
    ok = CliRunner().invoke(main, ["verify", str(good)])
    assert ok.exit_code == 0 and ok.output.startswith("OK ")
    lines = export.splitlines(keepends=True)
    ev = json.loads(lines[5])
    ev["recorded_at"] = "2000-01-01T00:00:00.000000Z"
    lines[5] = canonical_bytes(ev) + b"\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    fail = CliRunner().invoke(main, ["verify", str(bad)])
    assert fail.exit_code == 1 and "event 5" in fail.output


def test_a_forged_die_is_caught_even_with_a_resealed_chain(export: bytes) -> None:
    """Rewrite a die and re-seal every hash after it: the chain is valid, the dice are not."""
    from ledger.events import Event, NewEvent, seal

    events = [Event.from_json(json.loads(line)) for line in export.splitlines()]
    i = next(i for i, e in enumerate(events) if e.type == "resolved" and e.payload["dice"])
    payload = json.loads(json.dumps(events[i].payload))
    payload["dice"][0]["value"] = 1 if payload["dice"][0]["value"] != 1 else 2
    out = events[:i]
    for e in [events[i].__class__(**{**events[i].__dict__, "payload": payload})] + events[i + 1:]:
        prev = out[-1].hash
        out.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, prev))
    data = b"".join(canonical_bytes(e.to_json()) + b"\n" for e in out)
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(data)
    assert err.value.seq == events[i].seq


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_changed_byte_fails(export: bytes, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(export) - 1), label="position")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != export[pos]), label="byte")
    tampered = export[:pos] + bytes([new]) + export[pos + 1:]
    with pytest.raises(VerifyFailure):
        verify_bytes(tampered)
