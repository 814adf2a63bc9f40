"""Every file of the repository explains itself to a reader of a clone: no comment, docstring,
document or test points at something that reader cannot open — a numbered ticket (the word
"issue" and a number, or a test named after one), the development notes kept beside our checkouts
(the style and design notes, the rulebooks and digests in the `shared` directory next to the
repository), or a numbered wave of work. Say the rule or the behaviour instead, and cite a rule by its rulebook section ("GBV 12.8")."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

# Each pattern with what a reader would be unable to follow. Patterns and samples are built from
# pieces so that this file, scanned like any other, holds no reference itself.
FOREIGN = [
    (re.compile(r"(?<![a-z])issue[ _]?#?\d+", re.IGNORECASE), "a ticket number"),
    (re.compile(r"\b(STYLE|DESIGN)" + r"\.md\b"), "a development note kept outside the repository"),
    (re.compile(r"\.\./" + r"shared\b"), "a directory beside the repository"),
    (re.compile(r"/work/" + r"shared\b"), "a directory on our own machines"),
    (re.compile(r"(?<![\w./-])" + r"shared/(rules|seeds|geo)/"), "the rulebooks beside our checkouts"),
    (re.compile(r"\bwave " + r"\d+\b", re.IGNORECASE), "a numbered wave of work"),
]

SKIPPED_DIRS = {".git", ".venv", "node_modules", "build", "dist", "__pycache__"}


def tracked_files(root: Path) -> list[Path]:
    """The files git tracks (what a clone has); a tree without git (an unpacked sdist) is walked."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True,
                             timeout=60).stdout
        return [root / name for name in out.decode("utf-8").split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        found: list[Path] = []
        for here, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")]
            found.extend(Path(here) / f for f in files)
        return found


def foreign_references(text: str) -> list[tuple[int, str, str]]:
    """(line number, the matching text, what it points at) for every reference in text."""
    hits: list[tuple[int, str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern, what in FOREIGN:
            for m in pattern.finditer(line):
                hits.append((number, m.group(0), what))
    return hits


@pytest.mark.parametrize("sample, expected", [
    ("# the seat not asked cannot stall the other (issue " "14)", "issue " "14"),
    ('"""Issue ' '9 §3: a state schema ..."""', "Issue " "9"),
    ("def test_issue_" "15_keys_are_per_seat():", "issue_" "15"),
    ("see STYLE" ".md for the house style", "STYLE" ".md"),
    ("Digest: ../" "shared/" "rules/vietnam-battles.md", "../" "shared"),
    ("copies of /work/" "shared/" "geo/*.md", "/work/" "shared"),
    ("Quoted verbatim from shared/" "seeds/003.txt", "shared/" "seeds/"),
    ("landed in wave " "3", "wave " "3"),
])
def test_each_kind_of_reference_is_found(sample: str, expected: str) -> None:
    assert expected in [text for _, text, _ in foreign_references(sample)]


@pytest.mark.parametrize("sample", [
    "# GBV 12.8: a unit that retreats into a hex with a tripwire springs it",
    "tools/vb_render_map_preview.py: shared_edge(a, b) draws the hexside two hexes share",
    "the guard refuses a read of the `shared` directory beside the repository",
    "no issues were found in 3 runs",
])
def test_plain_text_is_not_a_reference(sample: str) -> None:
    assert foreign_references(sample) == []


def test_no_tracked_file_points_where_a_clone_cannot_follow() -> None:
    root = Path(REPO)
    files = tracked_files(root)
    assert len(files) > 100, "the repository's files were not found"
    found = []
    for path in files:
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # images and other binary files
        for number, match, what in foreign_references(text):
            found.append(f"{path.relative_to(root)}:{number}: {match!r} ({what})")
    assert not found, ("these point at something a reader of a clone cannot open; say the rule or "
                       "the behaviour itself instead:\n" + "\n".join(found))
