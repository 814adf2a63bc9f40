"""Every recorded game verifies forever, under every later build.

tests/golden/ holds a finished game of every game and scenario at every rules version that has
recorded games, played through the real service (tools/make_golden.py). Each must verify with
this build: chain, seed, every die re-derived, every judgement and state hash reproduced by the
rules version it was played under. A change that breaks one is a new rules version (the old one
kept runnable, rules.register(current, *earlier)), never an edit of a golden ledger.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rules import all_games, get_game, versions
from warlog.trust.verify import VerifyFailure, verify_bytes

HERE = Path(__file__).resolve().parent
GOLDEN = sorted(HERE.glob("*.jsonl"))
MANIFEST = HERE / "SHA256SUMS"


def _parts(path: Path) -> tuple[str, str, str]:
    game, scenario, version = path.name.removesuffix(".jsonl").split("--")
    return game, scenario, version.removeprefix("v")


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_ledger_verifies(path: Path) -> None:
    game, scenario, version = _parts(path)
    report = verify_bytes(path.read_bytes())  # raises VerifyFailure naming the first bad event
    assert (report.game, report.rules_version) == (game, version)
    assert report.ended and report.seed_revealed and not report.sandbox
    assert report.judgements > 0 and report.dice_derived > 0


def test_every_game_scenario_and_kept_version_has_a_golden_ledger() -> None:
    have = {_parts(p) for p in GOLDEN}
    for g in all_games():
        if not type(g).__module__.startswith("rules."):  # the test suite's own toy games (dice duel, ...)
            continue
        for scenario in g.scenarios():
            assert (g.name, scenario, g.version) in have, f"no golden ledger for {g.name}/{scenario} v{g.version}: " \
                "run tools/make_golden.py"
    for game, _, version in have:  # and every golden's version is still runnable
        assert version in versions(game), (game, version)
        assert get_game(game, version).version == version


def test_golden_ledgers_are_never_rewritten() -> None:
    """SHA256SUMS lists each golden ledger's hash; a golden is only ever added, never changed."""
    listed = dict(line.split()[::-1] for line in MANIFEST.read_text(encoding="utf-8").splitlines() if line.strip())
    assert sorted(listed) == [p.name for p in GOLDEN]
    for p in GOLDEN:
        assert hashlib.sha256(p.read_bytes()).hexdigest() == listed[p.name], f"{p.name} was changed"


def test_an_unknown_rules_version_is_refused_by_name() -> None:
    with pytest.raises(KeyError, match="rules version '0' is not in this build"):
        get_game("green-beret-vietnam", "0")
    bad = next(p for p in GOLDEN if p.name.startswith("assault-on-belgium")).read_bytes()
    bad = bad.replace(b'"rules_version":"1"', b'"rules_version":"9"', 1)
    with pytest.raises(VerifyFailure, match="event 0: hash does not match"):  # a version cannot be swapped
        verify_bytes(bad)
