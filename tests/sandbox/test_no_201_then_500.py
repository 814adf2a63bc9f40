"""A property of sandboxes: a position is either refused with errors, or the engine can play from it —
never accepted and then failing (the old 201-then-500). Hypothesis damages a real position (a game's
own start, or a mid-game state of its golden ledger) at random places with random JSON values; each
damaged position either has errors, each naming a path, or answers every question the service asks."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.events import GAME_STARTED, RESOLVED
from ledger.export import parse_export
from ledger.fold import step
from rules import get_game
from rules.core.dice import RecordingDice
from warlog.rulings.sandbox import example_state, position_errors

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
JSON = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(["", "0717", "x", "combat"]),
                 st.just([]), st.just({}), st.just({"kind": "retreat"}))


def _mid_game(name: str, scenario: str, at: int) -> dict[str, Any]:
    game = get_game(name)
    with (GOLDEN / f"{name}--{scenario}--v{game.version}.jsonl").open("rb") as fh:
        events = [e for e in parse_export(fh) if e.type in (GAME_STARTED, RESOLVED)]
    state = None
    for ev in events[: at + 1]:
        state = step(state, ev)
    assert state is not None
    return state


STATES = {
    ("assault-on-belgium", "may-1940"): _mid_game("assault-on-belgium", "may-1940", 60),
    ("vietnam-battles", "boys67"): _mid_game("vietnam-battles", "boys67", 40),
    ("green-beret-vietnam", "campaign"): example_state(get_game("green-beret-vietnam"), "campaign"),
}


def _paths(v: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at] if at else []
    if isinstance(v, dict):
        for k in sorted(v):
            out += _paths(v[k], (*at, k))
    elif isinstance(v, list):
        for i, x in enumerate(v[:3]):
            out += _paths(x, (*at, i))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(STATES)), picks=st.lists(st.tuples(st.integers(0, 10**6), JSON, st.booleans()),
                                                           min_size=1, max_size=3))
@pytest.mark.slow
def test_a_damaged_position_is_refused_by_path_or_playable(key: tuple[str, str], picks: list[Any]) -> None:
    name, scenario = key
    game = get_game(name)
    state = copy.deepcopy(STATES[key])
    for n, value, delete in picks:
        paths = _paths(state)
        *parent, last = paths[n % len(paths)]
        holder = state
        for p in parent:
            holder = holder[p]
        if delete and isinstance(holder, dict):
            del holder[last]
        else:
            holder[last] = copy.deepcopy(value)  # st.just gives one object: never alias it into itself
    errors = position_errors(game, scenario, state)
    if errors:
        assert all(isinstance(e["path"], str) and e["message"] for e in errors)
        return
    for seat in (*game.roles(scenario), None):  # what /actions, /state and the pages ask
        game.view(state, seat)
        if seat is not None:
            game.prompt(state, seat)
            for action in game.legal_actions(state, seat)[:5]:
                game.apply(state, seat, action, RecordingDice(lambda i, f: 1 + i % f))
