"""The short schemathesis run (bench/schemathesis_run.py is the long one): the published OpenAPI
document against a live server on a fresh PostgreSQL schema (whose text refuses NUL, unlike
SQLite), every check (`--checks all`: status codes, content types, answer schemas, valid requests
accepted, invalid ones refused, OPTIONS' Allow, missing credentials, ...), every phase including
the stateful one that follows the document's links, as three roles: anonymous, a seated player
(seat token) and the game's director. No failure is allowed. A few examples per operation keep
each role's run short; tests/support/schemathesis.toml says what the fuzzer is told and why."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import PG_URL
from tests.support.fuzz_server import FuzzServer, fuzz_server, run_schemathesis

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("WARLOG_FUZZ_EXAMPLES", "5"))


@pytest.fixture(scope="module")
def server() -> Iterator[FuzzServer]:
    logging.disable(logging.INFO)  # the live server's access log, a line a request
    try:
        with fuzz_server(PG_URL) as live:
            yield live
    finally:
        logging.disable(logging.NOTSET)


@pytest.mark.parametrize("role", ["anonymous", "seat", "director"])
def test_every_check_passes_as(role: str, server: FuzzServer, tmp_path: Path) -> None:
    report = run_schemathesis(server, role, EXAMPLES, tmp_path / "report.json", timeout=600)
    output = report.pop("_stdout")
    assert report.get("complete") and report["operations"]["tested"] == report["operations"]["total"], output[-3000:]
    assert report["test_cases"]["generated"] > 500, output[-3000:]
    failures = [f"{f['code']} {f['title']} x{f['count']}: {', '.join(f['operations'])}" for f in report["failures"]]
    assert not failures, "\n".join(failures) + "\n" + output[-6000:]
    assert not report["errors"], output[-3000:]
