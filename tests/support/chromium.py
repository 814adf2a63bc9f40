"""The session's Chromium, driven by Playwright: Debian's /usr/bin/chromium (Playwright cannot
download its own browser here; scripts/test installs Debian's `chromium` when it is missing).
Without it the browser tests FAIL, never skip.

tests/conftest.py registers `browser` for the whole suite, so that every directory's browser
tests share one Playwright: a second `sync_playwright()` started in the same session (a fixture
of the same name imported into another directory) fails with "Sync API inside the asyncio loop".
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("WARLOG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is required at {CHROMIUM} for the browser tests (scripts/test installs Debian's "
                    "'chromium' package); it is missing", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the 'playwright' package is required (pip install -e '.[test]')", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


