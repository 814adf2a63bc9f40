"""Random legal play for Green Beret: Vietnam (STYLE: Rally the Troops' fuzzer).

Each game starts from set-up and picks random legal actions, mildly biased so that games look
like play (buy what the mission needs, walk toward it, stop there, keep going for a while), with
dice from a seeded deterministic die function, until the game ends.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from rules.green_beret_vietnam.game import GreenBeretVietnam
from rules.green_beret_vietnam.schema import ACTIONS as TYPES
from tests.support.fuzzing import assert_seat_cannot_act, assert_unlisted_refused, seeded_dice
from validators.actions import validate_action

MAX_ACTIONS = 6000


@dataclass
class Stats:
    games: int = 0
    actions: int = 0
    turns: int = 0
    results: dict[str, int] = field(default_factory=dict)
    accomplished: int = 0
    abandoned: int = 0
    teams_lost: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    facts: dict[str, int] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)


def _needs(g: GreenBeretVietnam, s: dict[str, Any]) -> set[str]:
    m = s["mission"]
    if m is None:
        return set()
    return {k for grp in g.world.missions[m["id"]].requires for k in grp}


def weight(g: GreenBeretVietnam, s: dict[str, Any], a: dict[str, Any], n: int, careful: bool = False,
           patience: int = 25) -> float:
    """How likely the fuzzer is to pick `a`. A careful player moves quietly (one hex a move),
    leaves the leaders at home and evades whenever it is heard (12.2, 12.3)."""
    w = g.world
    t = a["type"]
    m = s["mission"]
    if careful:
        if t == "evade":
            return 20.0
        if t == "stay":
            return 0.05
        if t == "join" and w.counters[a["counter"]].cls == "leader":
            return 0.01
        if t == "end_move" and s["moving"]["steps"] >= 1:
            return 30.0
        if t == "step" and s["moving"]["steps"] >= 1:
            return 0.3
    if t == "end_game":
        return 0.001 if s["turn"] < patience else (0.3 if s["turn"] < 2 * patience else 50.0)
    if t == "abandon":
        have = {w.counters[c].kind for c, x in s["gb"].items() if x["status"] == "map"}
        for grp in w.missions[m["id"]].requires:
            if not any(k in have for k in grp) and min(w.counters[f"{k}-1"].cost for k in grp) > s["pp"]:
                return 50.0  # 4.0 designer's note: a required item cannot be paid for
        return 0.004 if s["turn"] < 80 else 5.0
    if t in ("place_camp", "relocate_to"):
        return 1.0
    if t == "buy_camp":
        return 0.02
    if t == "relocate":
        return 0.3
    if t == "buy":
        kind = a["kind"]
        if kind in _needs(g, s):
            have = {w.counters[c].kind for c, x in s["gb"].items() if x["status"] == "map"}
            return 60.0 if kind not in have else 0.5
        return 0.4 if s["pp"] > 40 else 0.05
    if t == "done":
        return 3.0
    if t == "begin_move":
        return 8.0 if w.counters[a["counter"]].cls == "team" else 0.5
    if t == "join":
        c = w.counters[a["counter"]]
        if c.kind in _needs(g, s):
            return 300.0
        if c.cls == "leader":
            return 2.0
        return 3.0 if c.plus else 1.0
    if t == "step":
        mv = s["moving"]
        tms = [c for c in mv["members"] if w.counters[c].cls == "team"]
        camps = [x["hex"] for x in s["camps"].values() if x["status"] == "map"]
        if tms and camps and any(s["gb"][c]["detected"] for c in tms) and s["enemies"]:
            here = min(w.distance(mv["hex"], c) for c in camps)
            there = min(w.distance(a["hex"], c) for c in camps)
            return 40.0 if there < here else 1.0  # run for the sanctuary (12.10)
        if m is not None and tms:
            here, there = w.distance(mv["hex"], m["hex"]), w.distance(a["hex"], m["hex"])
            return 40.0 if there < here else 1.0
        return 2.0
    if t == "end_move":
        mv = s["moving"]
        if m is not None and mv["hex"] == m["hex"]:
            return 500.0
        return 2.0
    if t == "drop":
        return 0.3
    if t in ("end_movement", "end_combat"):
        return 1.0
    if t == "attack":
        return 2.0
    if t == "jettison":
        return 0.1
    if t == "continue":
        return 10.0
    if t == "evade":
        return 0.3
    if t == "stay":
        return 1.0
    return 1.0


def probe(g: GreenBeretVietnam, s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
          seed: int) -> None:
    """Listed actions apply; mutated unlisted actions are refused with IllegalAction."""
    for a in rng.sample(legal, min(25, len(legal))):
        g.apply(s, "player", a, seeded_dice(seed))
    hexes = sorted(g.world.hexes)
    ids = sorted(g.world.counters) + sorted(g.world.enemies)
    for a in rng.sample(legal, min(4, len(legal))):
        variants = [{**a, "type": rng.choice(sorted(TYPES))}]
        for key in ("hex",):
            if key in a:
                variants.append({**a, key: rng.choice(hexes)})
        for key in ("counter", "item", "enemy", "team", "leader"):
            if key in a:
                variants.append({**a, key: rng.choice(ids)})
        assert_unlisted_refused(g, s, "player", variants, legal, seed)
    assert_seat_cannot_act(g, s, "enemy", legal[0], seed)


def choose(g: GreenBeretVietnam, s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
           n: int, careful: bool = False, patience: int = 25) -> dict[str, Any]:
    return rng.choices(legal, [weight(g, s, x, n, careful, patience) for x in legal])[0]


def play_one(g: GreenBeretVietnam, seed: int, stats: Stats, options: dict[str, Any] | None = None,
             check_every: int = 1, probe_every: int = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play one game; returns the final state and the actions played (to replay through the service)."""
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s = g.setup("campaign", options or {}, dice)
    n = 0
    played: list[dict[str, Any]] = []
    validated: set[str] = set()
    while g.outcome(s) is None:
        seats = g.active_seats(s)
        assert seats == ["player"], f"seed {seed}: active seats {seats} in {s['phase']}"
        legal = g.legal_actions(s, "player")
        assert legal, f"seed {seed}: dead end in {s['phase']} decision={s['decision']}"
        if s["decision"] is not None:
            stats.decisions[s["decision"]["kind"]] = stats.decisions.get(s["decision"]["kind"], 0) + 1
        for a in legal if n % check_every == 0 else legal[:3]:
            key = json.dumps(a, sort_keys=True)
            if key not in validated:
                validate_action(g.name, a)
                validated.add(key)
        if probe_every and n % probe_every == 0:
            probe(g, s, legal, rng, seed)
        a = choose(g, s, legal, rng, n, careful=seed % 2 == 1)
        before = canonical_bytes(s) if n % check_every == 0 else None
        out = g.apply(s, "player", a, dice)
        if before is not None:
            assert canonical_bytes(s) == before, "apply changed its input state"
            canonical_bytes(out.state)  # plain JSON, no floats
            g.check_state(out.state)
            for f in out.facts:
                canonical_bytes(f.to_json())
        for f in out.facts:
            stats.facts[f.kind] = stats.facts.get(f.kind, 0) + 1
        stats.kinds[a["type"]] = stats.kinds.get(a["type"], 0) + 1
        played.append(a)
        s = out.state
        n += 1
        assert n <= MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions (turn {s['turn']})"
    o = g.outcome(s)
    assert o is not None and g.active_seats(s) == [] and g.legal_actions(s, "player") == []
    g.check_state(s)
    stats.games += 1
    stats.actions += n
    stats.turns += s["turn"]
    key = "Defeat" if s["result"]["defeat"] else s["result"]["level"]
    stats.results[key] = stats.results.get(key, 0) + 1
    stats.accomplished += len(s["tally"]["accomplished"])
    stats.abandoned += len(s["tally"]["abandoned"])
    stats.teams_lost += len(s["tally"]["teams_lost"])
    return s, played
