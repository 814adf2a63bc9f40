"""The suite passes on a clone with nothing beside it: the guard in tests/conftest.py
refuses any read of the `shared` directory beside the repository, where our own checkouts keep the
rulebooks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import BESIDE, REPO, _no_reading_beside_the_repository


def test_reading_beside_the_repository_is_refused() -> None:
    """The audit hook refuses an open of anything beside the repository (it is called here with
    the event Python would raise, so nothing outside the repository is touched)."""
    target = os.path.join(BESIDE, "any-file.txt")
    with pytest.raises(PermissionError, match="outside the repository"):
        _no_reading_beside_the_repository("open", (target, "r", 0))
    _no_reading_beside_the_repository("open", (os.path.join(REPO, "README.md"), "r", 0))  # inside: fine


def test_the_rulebook_excerpts_are_in_the_repository() -> None:
    fixtures = Path(REPO) / "tests" / "fixtures" / "rulebooks"
    names = sorted(p.name for p in fixtures.iterdir())
    assert names == ["assault-on-belgium.tables.md", "up-front-mountains.seed-excerpt.txt",
                     "vietnam-battles.digest-excerpt.md", "vietnam-battles.seed-excerpt.txt"]
    for p in fixtures.iterdir():
        assert "Quoted verbatim from the rulebook" in p.read_text(encoding="utf-8").splitlines()[0]
