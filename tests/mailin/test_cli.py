"""`warlog mail-in` says plainly what is missing, never with a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from warlog.cli import main


def test_mail_in_without_an_address_says_which_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARLOG_MAIL_IN_ADDRESS", raising=False)
    r = CliRunner().invoke(main, ["mail-in", "--db", f"sqlite:///{tmp_path}/w.sqlite3"])
    assert r.exit_code != 0 and "WARLOG_MAIL_IN_ADDRESS" in r.output and "Traceback" not in r.output


def test_mail_in_with_a_malformed_address_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["mail-in", "--db", f"sqlite:///{tmp_path}/w.sqlite3", "--address", "play"])
    assert r.exit_code != 0 and "play@warlog.example" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_play_by_mail_on_postgresql_needs_the_signing_key(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARLOG_LOG_KEY", raising=False)
    r = CliRunner().invoke(main, ["mail-in", "--db", pg_url, "--address", "play@warlog.test"])
    assert r.exit_code != 0 and "WARLOG_LOG_KEY" in r.output and "warlog log key" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
