"""The systemd units and the container recipe in deploy/: the units pass `systemd-analyze verify`
(with this checkout's paths), name commands this build has, and read the environment file made
from the one list of settings; the Containerfile copies what exists."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from warlog.config import ALL, env_example

REPO = Path(__file__).resolve().parents[2]
UNITS = sorted((REPO / "deploy" / "systemd").glob("*.service"))
VENV = Path(sys.executable).parent.parent


def test_the_environment_file_is_the_generated_one() -> None:
    shown = (REPO / "deploy" / "warlog.env.example").read_text(encoding="utf-8")
    assert shown == env_example(), "regenerate it: python -m warlog.config env > deploy/warlog.env.example"
    assert [f"#{s.name}=" for s in ALL] == re.findall(r"^#WARLOG_[A-Z_]+=", shown, re.M)


def test_the_units_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    names = []
    for unit in UNITS:
        text = unit.read_text(encoding="utf-8")
        text = (text.replace("/opt/warlog/.venv", str(VENV)).replace("/opt/warlog", str(REPO))
                .replace("/etc/warlog/warlog.env", str(REPO / "deploy" / "warlog.env.example"))
                .replace("User=warlog", "User=root").replace("Group=warlog", "Group=root"))
        name = unit.name.replace("@.service", "@1.service")
        (tmp_path / name).write_text(text, encoding="utf-8")
        names.append(str(tmp_path / name))
    assert len(names) == 3
    done = subprocess.run([analyze, "verify", *names], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.parametrize("command", [["worker", "--help"], ["live", "--help"]])
def test_the_units_commands_exist(command: list[str]) -> None:
    from click.testing import CliRunner

    from warlog.cli import main

    assert CliRunner().invoke(main, command).exit_code == 0


def test_the_containerfile_copies_what_exists() -> None:
    text = (REPO / "deploy" / "Containerfile").read_text(encoding="utf-8")
    for line in re.findall(r"^COPY (.+)$", text, re.M):
        for source in line.split()[:-1]:
            assert (REPO / source).exists(), source
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py"' in text
