"""CHANGELOG.md keeps the Keep a Changelog shape, and its newest release is the version the
package declares (pyproject.toml), which `warlog --version` and `GET /healthz` report."""

from __future__ import annotations

import re
import tomllib
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$")


def headings() -> list[str]:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("## ")]


def releases() -> list[tuple[str, date]]:
    found = []
    for line in headings():
        m = RELEASE.match(line)
        if m:
            found.append((m.group(1), date.fromisoformat(m.group(2))))
    return found


def test_unreleased_comes_first_and_every_other_heading_is_a_dated_release() -> None:
    hs = headings()
    assert hs[0] == "## [Unreleased]"
    assert all(RELEASE.match(h) for h in hs[1:]), [h for h in hs[1:] if not RELEASE.match(h)]


def test_the_newest_release_is_the_packages_version() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert releases(), "CHANGELOG.md names no release"
    assert releases()[0][0] == declared, (
        f"pyproject.toml declares {declared}: add its '## [{declared}] - YYYY-MM-DD' section to CHANGELOG.md")


def test_releases_are_newest_first() -> None:
    dates = [d for _, d in releases()]
    versions = [tuple(int(n) for n in v.split(".")) for v, _ in releases()]
    assert dates == sorted(dates, reverse=True) and versions == sorted(versions, reverse=True)
