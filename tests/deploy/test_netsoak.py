"""The chaos soak across three hosts (bench/netsoak.py), its short run: web, workers and data in
three network namespaces, partitions between each pair, 1% loss, 50-200 ms added round trips and
the workers' clock 30 s ahead. Its own audit reads the ledger by plain SQL: nothing a bot was
told is recorded may be missing or differ (seat, expected seq, action), nothing may be recorded
twice or judged twice, every chain verifies. And the namespaces go away even when the soak is
stopped half way.

Needs root, `ip netns`, nft, redis-server and PostgreSQL's binaries: skipped, with the reason,
elsewhere."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.netsoak import missing_tools

ROOT = Path(__file__).resolve().parents[2]
SOAK = ROOT / "bench" / "netsoak.py"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def can_run() -> None:
    why = missing_tools()
    if why:
        pytest.skip(f"the three-host soak cannot run here: {why}")


def soak_args(*extra: str) -> list[str]:
    return [sys.executable, str(SOAK), "--quick", "--seed", "3", *extra]  # the workers' clock +30 s


@pytest.fixture(scope="module")
def quick_run(can_run: None) -> Iterator[str]:
    done = subprocess.run(soak_args(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    yield done.stdout + done.stderr


def figure(output: str, label: str) -> int:
    found = re.search(rf"{re.escape(label)} (\d+)", output)
    assert found, f"no '{label}' in the soak's output:\n{output}"
    return int(found.group(1))


def test_three_hosts_lose_nothing_duplicate_nothing_and_judge_once(quick_run: str) -> None:
    """The audit by plain SQL: every 202 is in the ledger with the seat, expected seq and action
    sent; no move twice under two seqs; nothing recorded that was not sent or was refused;
    every submission judged exactly once."""
    assert "audit (plain SQL on the ledger)" in quick_run, quick_run
    for label in ("lost", "duplicated", "seat/expected seq/action differing", "in the ledger but never sent",
                  "refused yet recorded", "unjudged", "judged twice", "never answered:", "5xx other than 503:"):
        assert figure(quick_run, label) == 0, f"{label}:\n{quick_run}"
    assert figure(quick_run, "tried") > 0 and figure(quick_run, "submissions in the ledger") > 0, quick_run
    faults = re.search(r"faults (\d+) \{([^}]*)\}", quick_run)
    assert faults and int(faults.group(1)) > 0 and "partition" in faults.group(2), quick_run


def test_three_hosts_every_chain_verifies(quick_run: str) -> None:
    found = re.search(r"chains verified (\d+)/(\d+)  failed (\d+)", quick_run)
    assert found, quick_run
    assert found.group(1) == found.group(2) and int(found.group(2)) > 0 and found.group(3) == "0", quick_run


def test_three_hosts_every_judgement_is_seen_and_the_latency_goal_is_reported(quick_run: str) -> None:
    """Every accepted move's judgement reached the soak's poller, and the soak prints its latency
    against the goal (p95 within the outage + 5 s). The goal itself is a benchmark's figure, read
    from `python bench/netsoak.py` (10 minutes; docs/benchmarks.md), not asserted here: the quick
    run's p95 is its third-worst move of about 45, and beside the rest of the suite the machine's
    load decides it."""
    assert figure(quick_run, "judgement not seen by the poller:") == 0, quick_run
    found = re.search(r"minus the outage it waited through: p95 ([+-][\d.]+) s", quick_run)
    assert found, quick_run
    assert re.search(r"netsoak: (OK|FAIL)", quick_run), quick_run


def test_three_hosts_removed_when_the_soak_is_stopped_half_way(can_run: None) -> None:
    """SIGTERM once the hosts are up: the soak ends, and neither its namespaces nor its bridge are left."""
    soak = subprocess.Popen(soak_args(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert soak.stdout is not None
        deadline = time.monotonic() + 180
        line = ""
        while time.monotonic() < deadline and "three hosts up" not in line:
            line = soak.stdout.readline()
            if not line and soak.poll() is not None:
                break
        assert "three hosts up" in line, f"the soak did not come up: {line}"
        soak.send_signal(signal.SIGTERM)
        soak.wait(timeout=120)
    finally:
        if soak.poll() is None:
            soak.kill()
            soak.wait()
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert f"warlog-{soak.pid}-" not in names, names
    bridge = subprocess.run(["ip", "link", "show", f"wlbr{soak.pid}"], capture_output=True, text=True)
    assert bridge.returncode != 0, bridge.stdout
