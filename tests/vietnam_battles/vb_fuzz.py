"""Random legal play for Vietnam Battles (the GBV fuzzer's pattern): from set-up, seeded dice,
random legal actions for whichever seat is active, until the game ends. Every step checks that
`apply` leaves its input alone, the new state is well formed, plain JSON, and that the seat not
asked cannot act."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from rules.vietnam_battles.game import VietnamBattles
from tests.support.fuzzing import assert_seat_cannot_act, assert_unlisted_refused, seeded_dice

MAX_ACTIONS = 12000
WEIGHTS = {"end_phase": 0.6, "select": 3.0, "enter": 6.0, "sail": 3.0, "end_move": 1.0, "declare": 4.0,
           "add": 2.0, "support": 1.5, "pass": 1.5, "bombard": 0.4, "hold": 1.0, "retreat": 2.0,
           "advance": 1.5, "end_advance": 1.0, "displace": 1.0, "refuse": 0.3, "lose_step": 1.0, "errant": 1.0,
           "slick": 0.5, "tango": 0.5, "land": 1.0}


@dataclass
class Stats:
    games: int = 0
    actions: int = 0
    results: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    facts: dict[str, int] = field(default_factory=dict)


def choose(s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choices(legal, [WEIGHTS.get(a["type"], 1.0) for a in legal])[0]


def probe(g: VietnamBattles, s: dict[str, Any], seat: str, legal: list[dict[str, Any]], rng: random.Random,
          seed: int) -> None:
    """Listed actions apply; a few mutated unlisted ones are refused; the other seat cannot act."""
    for a in rng.sample(legal, min(6, len(legal))):
        g.apply(s, seat, a, seeded_dice(seed))
    hexes = sorted(g.world.hexes)
    for a in rng.sample(legal, min(3, len(legal))):
        variants = []
        for key in ("hex", "unit", "defender", "marker"):
            if key in a:
                variants.append({**a, key: rng.choice(hexes + sorted(s["units"]) + ["us-1", "vc-1"])})
        assert_unlisted_refused(g, s, seat, variants, legal, seed)
    other = "vc" if seat == "us" else "us"
    assert g.legal_actions(s, other) == []
    assert_seat_cannot_act(g, s, other, legal[0], seed)


def play_one(g: VietnamBattles, seed: int, stats: Stats, probe_every: int = 0,
             validate: Any = None, scenario: str = "boys67") -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s = g.setup(scenario, {}, dice)
    g.check_state(s)
    played: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    n = 0
    while g.outcome(s) is None:
        seats = g.active_seats(s)
        assert len(seats) == 1, f"seed {seed}: active {seats}"
        seat = seats[0]
        legal = g.legal_actions(s, seat)
        assert legal, f"seed {seed}: dead end in {s['phase']} decision={s['decision']} battle={s['battle']}"
        if validate is not None:
            for a in legal:
                k = json.dumps(a, sort_keys=True)
                if k not in seen:
                    validate(a)
                    seen.add(k)
        if probe_every and n % probe_every == 0:
            probe(g, s, seat, legal, rng, seed)
        a = choose(s, legal, rng)
        before = canonical_bytes(s)
        out = g.apply(s, seat, a, dice)
        assert canonical_bytes(s) == before, "apply changed its input"
        canonical_bytes(out.state)
        g.check_state(out.state)
        for f in out.facts:
            canonical_bytes(f.to_json())
            stats.facts[f.kind] = stats.facts.get(f.kind, 0) + 1
        stats.kinds[a["type"]] = stats.kinds.get(a["type"], 0) + 1
        played.append((seat, a))
        s = out.state
        n += 1
        assert n <= MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
    o = g.outcome(s)
    assert o is not None and g.active_seats(s) == [] and g.legal_actions(s, "us") == []
    stats.games += 1
    stats.actions += n
    stats.results[o.result] = stats.results.get(o.result, 0) + 1
    return s, played
