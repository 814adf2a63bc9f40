"""`warlog verify` on every core gives exactly the serial answer: the same report for an
honest game cut into windows, the same first bad event for a tampered one, each file named."""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.canonical import canonical_bytes
from ledger.events import Event, NewEvent, seal
from warlog.cli import main
from warlog.trust.verify import VerifyFailure, verify_bytes
from warlog.trust.verify_parallel import start_context, verify_games, verify_paths, windows

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LONG = GOLDEN / "vietnam-battles--snoopys_nose--v1.jsonl"
SHORT = GOLDEN / "assault-on-belgium--may-1940--v1.jsonl"


def forged(data: bytes, at_fraction: float) -> tuple[bytes, int]:
    """A die rewritten in the judgement nearest `at_fraction` of the way in, every hash after it
    re-sealed (the chain holds; the dice do not)."""
    events = [Event.from_json(json.loads(line)) for line in data.splitlines()]
    start = int(len(events) * at_fraction)
    i = next(i for i, e in enumerate(events) if i >= start and e.type == "resolved" and e.payload["dice"])
    payload = json.loads(json.dumps(events[i].payload))
    payload["dice"][0]["value"] = 1 if payload["dice"][0]["value"] != 1 else 2
    out = events[:i]
    for e in [dataclasses.replace(events[i], payload=payload)] + events[i + 1:]:
        out.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, out[-1].hash))
    return b"".join(canonical_bytes(e.to_json()) + b"\n" for e in out), events[i].seq


@pytest.mark.slow
def test_a_long_game_cut_into_windows_reports_exactly_what_the_serial_run_does() -> None:
    data = LONG.read_bytes()
    assert len(windows(data, 2)) >= 3  # it is really cut
    [(_, parallel)] = list(verify_paths([LONG], jobs=2))
    assert not isinstance(parallel, VerifyFailure)
    assert dataclasses.asdict(parallel) == dataclasses.asdict(verify_bytes(data))


@pytest.mark.slow
def test_a_forged_die_in_a_late_window_is_named_as_the_serial_run_names_it(tmp_path: Path) -> None:
    data, seq = forged(LONG.read_bytes(), 0.8)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(data)
    [(_, parallel)] = list(verify_paths([bad], jobs=2))
    try:
        verify_bytes(data)
    except VerifyFailure as err:
        serial = err
    assert isinstance(parallel, VerifyFailure) and parallel.seq == serial.seq == seq
    assert str(parallel) == str(serial)


def test_many_files_each_named_and_a_tampered_one_fails_the_run(tmp_path: Path) -> None:
    data, seq = forged(SHORT.read_bytes(), 0.5)
    bad = tmp_path / "tampered.jsonl"
    bad.write_bytes(data)
    r = CliRunner().invoke(main, ["verify", "-j", "2", str(SHORT), str(bad), str(GOLDEN / "up-front--P--v1.jsonl")])
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{SHORT}: OK ")
    assert lines[1].startswith(f"{bad}: FAIL event {seq}:")
    assert any(line.startswith(f"{GOLDEN / 'up-front--P--v1.jsonl'}: OK ") for line in lines)
    assert lines[-1] == "2 of 3 files verified, 1 FAILED"


def test_games_of_a_bundle_on_processes_report_as_in_series() -> None:
    games = [[Event.from_json(json.loads(line)) for line in p.read_bytes().splitlines()]
             for p in (SHORT, GOLDEN / "up-front--P--v1.jsonl")]
    games[1][3] = dataclasses.replace(games[1][3], recorded_at="2000-01-01T00:00:00.000000Z")
    first, second = list(verify_games(games, jobs=2))
    assert not isinstance(first, VerifyFailure) and first.judgements > 0
    assert isinstance(second, VerifyFailure) and second.seq == 3


@pytest.mark.slow
def test_a_process_with_other_threads_verifies_on_a_forkserver_with_the_same_answers() -> None:
    """A plain fork only from a single-threaded process (a child forked while another thread
    holds a lock would wait on it forever); beside a thread, a forkserver, and the same reports."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert start_context().get_start_method() != "fork"
        got = [r.summary() for _, r in verify_paths([SHORT, LONG], jobs=2) if not isinstance(r, VerifyFailure)]
    finally:
        stop.set()
        other.join()
    assert got == [verify_bytes(p.read_bytes()).summary() for p in (SHORT, LONG)]
    if threading.active_count() == 1:
        assert start_context().get_start_method() == "fork"
