"""A state schema that refused a position the rules really reach would stop a judge
rebuilding it. Every state of every golden ledger (finished games of every game and scenario,
recorded under the current rules) fits its game's published schema and invariants; the states
are sampled (every 7th, and the first and last) to keep the test short."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ledger.events import GAME_STARTED, RESOLVED
from ledger.export import parse_export
from ledger.fold import step
from rules import get_game
from rules.core.stateschema import schema_errors

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _current(path: Path) -> bool:
    game, _, version = path.stem.split("--")
    return get_game(game).version == version.lstrip("v")


@pytest.mark.parametrize("path", sorted(p for p in GOLDEN.glob("*.jsonl") if _current(p)), ids=lambda p: p.stem)
def test_every_golden_state_fits_the_schema_and_the_invariants(path: Path) -> None:
    with path.open("rb") as fh:
        events = parse_export(fh)
    game = get_game(events[0].payload["game"])
    state, n = None, 0
    for ev in events:
        if ev.type not in (GAME_STARTED, RESOLVED):
            continue
        state = step(state, ev)
        n += 1
        if n % 7 == 1 or ev is events[-2]:
            assert schema_errors(game, state) == [], f"{path.stem} at event {ev.seq}"
            assert game.check_position(copy.deepcopy(state)) == [], f"{path.stem} at event {ev.seq}"
