"""Vietnam Battles' fast paths answer as the slow ones over random play.

The occupancy index (board.occupancy, reused for the same places, with its memo of ZOC answers)
answers land_at, monitor_at and in_ezoc (VB 5.3, 6.0, 12.0) as a scan of every unit does; the
targeted movement checks (can_enter, has_entry, flow.only_end_move) answer as the full listing of
entries (VB 5.0-5.3, 19.0); the per-map tables (move costs, hexside records, prohibited places,
the positions near a unit) equal their formulas; the state copy (rules.core.plaincopy) shares nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.plaincopy import clone
from rules.vietnam_battles import board, flow, hidden, movement
from rules.vietnam_battles.data import DEFAULT_TERRAIN, hexpart
from rules.vietnam_battles.game import VietnamBattles
from tests.support.fuzzing import random_play, seeded_dice

GAME = VietnamBattles()
MOVING = {"enter": 8.0, "select": 4.0, "end_move": 0.5, "end_phase": 0.3}


def _play(scenario: str, seed: int, steps: int) -> Any:
    """Random legal play (moves favoured): yields (state, world) before every action."""
    rng, dice = random.Random(seed), seeded_dice(seed)
    s = GAME.setup(scenario, GAME.resolve_options({}), dice)
    for s, _, _ in random_play(GAME, s, dice, steps,
                               lambda s, legal: rng.choices(legal, [MOVING.get(x["type"], 1.0) for x in legal])[0]):
        yield s, GAME.w(s)


def _places(s: dict[str, Any], w: Any, rng: random.Random) -> list[str]:
    """Every place a unit is or touches, a sample of the rest of the map, and a hexside or two."""
    near: set[str] = set()
    for r in s["units"].values():
        if r["status"] == "map" and r["at"] is not None:
            near |= board.touches(w, r["at"]) | {r["at"]}
    nodes = sorted({f"{h}:{p}" for h in w.hexes for p in w.portions(h)} | set(w.hexes))
    return sorted(near) + rng.sample(nodes, 40) + sorted(w.hexsides)[:5]


def _answers(s: dict[str, Any], w: Any, h: str, ezoc: Any) -> tuple[Any, ...]:
    """land_at, monitor_at and (for a land position, not a hexside) `ezoc` for both sides."""
    zoc = () if "/" in h else (ezoc(s, w, "us", h), ezoc(s, w, "vc", h))
    return (board.land_at(s, w, h), board.monitor_at(s, w, h), *zoc)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(sorted(GAME.scenarios())))
@pytest.mark.slow
def test_occupancy_index_answers_as_a_scan_of_every_unit(seed: int, scenario: str) -> None:
    rng, states = random.Random(seed), 0
    for s, w in _play(scenario, seed, 120):
        places = _places(s, w, rng)
        want = {h: _answers(s, w, h, board._in_ezoc) for h in places}  # no scope: every unit scanned
        for copy in (s, clone(s)):  # the copy has the same places: the index built for s serves it
            with board.occupancy(copy, w):
                got = {h: _answers(copy, w, h, board.in_ezoc) for h in places}
            assert got == want, (scenario, seed, s["turn"], s["phase"])
        states += 1
    assert states > 0


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(sorted(GAME.scenarios())))
@pytest.mark.slow
def test_targeted_movement_checks_agree_with_the_listed_entries(seed: int, scenario: str) -> None:
    rng, moving = random.Random(seed), 0
    for s, w in _play(scenario, seed, 200):
        if s["moving"] is None or s["battle"] is not None or s["decision"] is not None:
            continue
        listed = movement.entries(s, w)
        assert movement.has_entry(s, w) == bool(listed)
        for to in set(listed) | set(_places(s, w, rng)) | {"9999", "", None}:
            assert movement.can_enter(s, w, to) == (to in listed), (scenario, seed, to)
        assert flow.only_end_move(s, w) == flow.only(s, w, {"type": "end_move"})
        moving += 1
    assert moving > 0


@pytest.mark.parametrize("scenario", ["boys67", "iron_triangle"])
def test_per_map_tables_equal_their_formulas(scenario: str) -> None:
    """Every neighbouring pair of the map: the memoised move cost (VB 5.2), hexside record and key,
    terrain and prohibition (VB 5.1, 19.0) and near positions (VB 15.0) equal a fresh computation."""
    w = GAME.w(scenario)
    fresh = type(w)(w.map_id, w.grid, w.hexes, w.hexsides, w.units, w.terrain, w.river_mp, regions=w.regions)
    downs = [[], sorted(k for k, v in w.hexsides.items() if v.get("bridge"))[:3]]
    for a in sorted(w.hexes)[::3]:
        nodes = [f"{a}:{p}" for p in w.portions(a)] or [a]
        for frm in nodes:
            for to in w.land_nbrs(frm):
                assert w.side(frm, to) == fresh.hexsides.get("/".join(sorted((hexpart(frm), hexpart(to)))), {})
                assert w.side_key(frm, to) == "/".join(sorted((hexpart(frm), hexpart(to))))
                for down in downs:
                    for eng in (None, w.side_key(frm, to)):
                        got = movement.base_cost({"bridges_down": down, "eng_bridge": eng}, w, frm, to)
                        assert got == movement._base_cost(fresh, frm, to, down, eng)
                t = fresh.terrain_of(to)
                assert w.terrain_info(to) == (fresh.terrain.get(t) or DEFAULT_TERRAIN.get(t) or {"mp": 1, "row": "clear"})
                assert w.prohibited(to) == (bool(w.terrain_info(to).get("prohibited"))
                                            or (":" not in to and bool(fresh.portions(hexpart(to)))))
            for monitor in (False, True):
                assert hidden.near_nodes(w, frm, monitor) == hidden._near_nodes(fresh, frm, monitor)


def test_a_scope_that_moves_a_unit_fails_loudly() -> None:
    s, w = next(_play("boys67", 1, 1))
    u = next(u for u, r in s["units"].items() if r["status"] == "map")
    with pytest.raises(RuntimeError, match="stale"), board.occupancy(s, w):
        s["units"][u]["at"] = "0101"


def _changes(s: dict[str, Any], w: Any) -> list[Any]:
    """Changes that move no unit: the moving unit's move so far, every bridge down
    (VB 18.1), an engineer bridge beside it (VB 18.3). (Its side up is in the key too, but no shipped
    counter's MA changes when it flips, VB 7.6, so no entry here could tell.)"""
    mv = s["moving"]
    u = mv["unit"]
    at = s["units"][u]["at"]
    rivers = [w.side_key(at, n) for n in w.land_nbrs(at) if w.is_river(at, n)] \
        if at is not None and not board.is_hexside(at) else []
    full = movement.mp_total(s, w, u)
    out: list[Any] = [
        lambda x: x["moving"].update(spent=0),
        lambda x: x["moving"].update(spent=full - 1),
        lambda x: x["moving"].update(been_ez=not x["moving"]["been_ez"]),
        lambda x: x["moving"].update(steps=0 if x["moving"]["steps"] else 1),
        lambda x: x.update(bridges_down=sorted(k for k, v in w.hexsides.items() if v.get("bridge"))),
    ]
    out += [lambda x, k=k: x.update(eng_bridge=k) for k in rivers]
    return out


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(sorted(GAME.scenarios())))
def test_answers_kept_with_the_index_are_keyed_by_all_else_they_read(seed: int, scenario: str) -> None:
    """board.answers keeps an entry's step (movement._stepped) with the index of the places: a state
    with the same places but another move so far or other bridges gets the answers of a fresh
    index, not the kept ones."""
    changed = 0
    for s, w in _play(scenario, seed, 150):
        mv = s["moving"]
        if mv is None or mv.get("mode") or s["battle"] is not None or s["decision"] is not None:
            continue
        for change in _changes(s, w):
            movement.entries(s, w)  # worked out, and kept with the index of these places
            s2 = clone(s)
            change(s2)
            kept = movement.entries(s2, w), movement.has_entry(s2, w)
            board._RECENT = ()  # no index kept: every answer worked out afresh
            assert kept == (movement.entries(s2, w), movement.has_entry(s2, w)), (scenario, seed)
            changed += 1
    assert changed > 0
