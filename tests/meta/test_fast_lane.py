"""`scripts/test --fast` (pytest -m "not slow and not browser") leaves out every test that
drives the session's Chromium, even one nobody marked `browser` (tests/conftest.py marks them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FAST = ["-m", "not slow and not browser"]
# Browser tests without the `browser` mark in their own file: the conftest hook must catch them.
UNMARKED = ["tests/browser/test_cross_site_api.py", "tests/clock/test_pause_in_browser.py"]


def collected(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 5), out.stdout + out.stderr  # 5: nothing collected
    return [line for line in out.stdout.splitlines() if "::" in line]


def test_the_fast_lane_leaves_out_unmarked_browser_tests_and_keeps_the_quick_ones() -> None:
    chosen = collected(*FAST, *UNMARKED, "tests/meta/test_fast_lane.py")
    assert not [t for t in chosen if t.split("::")[0] in UNMARKED], chosen
    assert "tests/meta/test_fast_lane.py::" + test_the_fast_lane_leaves_out_unmarked_browser_tests_and_keeps_the_quick_ones.__name__ in chosen
