"""Every transparency-log test pins log keys in its own file, never in the user's config dir."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_pin_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARLOG_PIN_FILE", str(tmp_path / "pinned-log-keys.json"))
