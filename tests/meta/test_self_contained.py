"""The suite passes on a clone with nothing beside it (issue 9 §1): the guard in tests/conftest.py
refuses any read of ../shared, where our own checkouts keep the rulebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BESIDE, REPO


def test_reading_beside_the_repository_is_refused() -> None:
    target = Path(BESIDE) / "rules" / "vietnam-battles.md"
    with pytest.raises(PermissionError, match="outside the repository"):
        target.read_text(encoding="utf-8")


def test_the_rulebook_excerpts_are_in_the_repository() -> None:
    fixtures = Path(REPO) / "tests" / "fixtures" / "rulebooks"
    names = sorted(p.name for p in fixtures.iterdir())
    assert names == ["assault-on-belgium.tables.md", "vietnam-battles.digest-excerpt.md",
                     "vietnam-battles.seed-excerpt.txt"]
    for p in fixtures.iterdir():
        assert "Quoted verbatim from shared/" in p.read_text(encoding="utf-8").splitlines()[0]
