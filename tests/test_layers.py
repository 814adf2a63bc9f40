"""The layers hold (pyproject.toml's [tool.importlinter] contracts, checked by import-linter):

- the rules import nothing of the ledger, the validators, the app or a server library, so a game
  can be read, tested and re-run by `verify` on its own;
- the ledger imports nothing of the app, the validators or the web;
- judging (warlog.judging) and verifying an export (warlog.trust.verify) need no web code, so the
  worker and `warlog verify` stay what they are when the pages change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_layer_contract_is_kept(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout, run.stdout


def test_a_broken_layer_is_caught(tmp_path: Path) -> None:
    """The check can fail: a copy of the rules package that imports the ledger breaks the first contract."""
    for package in ("ledger", "validators", "warlog"):
        (tmp_path / package).symlink_to(ROOT / package)
    copy = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", copy)
    (copy / "core" / "leak.py").write_text("from ledger.store import EventStore  # the rules must not\n")
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True))"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert run.returncode != 0
    assert "rules.core.leak -> ledger.store" in run.stdout, run.stdout
