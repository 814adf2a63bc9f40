#!/usr/bin/env python3
"""Exchanges per game, without and with standing answers: what a game costs by mail.

    python bench/exchanges.py [--seeds 10] [--games assault-on-belgium,vietnam-battles] [--scenarios boys67]

An exchange is a run of one seat's consecutive decisions (a mail and its answer): the count goes up
each time the seat that must decide is not the one that decided last. Each game and scenario is
played by its scripted players, seeded, to the end, first with no standing answer (the seat is
asked at every decision), then with the players' standing answers, each given as a decision of its
own when the seat first decides (so giving them costs what it costs by mail). Prints one line per
game and scenario: the mean exchanges without, with, and the ratio with / without. A decision the
game settles by itself (a standing answer, or the only legal action, which no rule asks anyone to
choose) is no decision of a seat, so it is no exchange.

Common random numbers: both modes of a seed draw every die from one stream (not one stream per
decision), and the players choose with their own streams (UP FRONT: one for the reaction windows,
one for the rest), so that the decisions a standing answer takes over do not shift the dice and the
choices of the rest of the game: the two modes play the same game as far as their answers agree,
and the ratio measures the answers, not two unrelated games (UP FRONT's game lengths vary
fivefold from seed to seed).

The players (the same every run):
* Assault on Belgium and Vietnam Battles: the seeded weighted players of the fuzzers and the golden
  ledgers (tests/assault_on_belgium/aob_fuzz.py, tests/vietnam_battles/vb_fuzz.py); their standing
  answers: rules/assault_on_belgium/standing.py and rules/vietnam_battles/standing.py, `SCRIPTED`
  below;
* Lock 'n Load: tools/lnl_strategy.py, with and without its standing orders (VC "within2", US
  "fire", as bench/lnl_balance.py --orders) and its standing answers (rules/lock_n_load/standing.py):
  the VC passes its impulse when it has nothing to fire at, as the strategy does (its
  counter-attack in the last turns starts next to the US, where it has a target); each side ends its rally step when nothing is left to rally, treat or pick up;
* UP FRONT: bench/up_front_balance.py's sensible player; its standing answers
  (rules/up_front/standing.py), as it answers when asked: Concealment against an attack of strength
  5 or more, terrain accepted when it gives cover, the altitude card placed; and before ending each
  turn it is asked for, its conditional turns (rules/up_front/plan.py, CORE 11.2:
  `up_front_balance.plan_turn`): the next three turns it would play with the cards it keeps, each
  played if none of its groups changed in the other side's turn.
Green Beret is solitaire (one seat: one exchange per game); it is not listed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import get_game  # noqa: E402
from rules.core.dice import RecordingDice  # noqa: E402
from rules.core.game import Game  # noqa: E402

Action = dict[str, Any]
MAX_DECISIONS = 20_000
STUCK: list[str] = []  # games that reached a state where the seat to act had no action


def _standing(*pairs: tuple[str, str]) -> list[Action]:
    return [{"type": "standing", "kind": k, "answer": a, "when": []} for k, a in pairs]


# The scripted players' standing answers, per game and seat (UP FRONT's: every seat the same).
SCRIPTED: dict[str, dict[str, list[Action]]] = {
    "assault-on-belgium": {
        "belgium": _standing(("defender_unit", "strongest"), ("bomber", "support"), ("assign_hits", "weakest"),
                             ("retreat", "hit"), ("withdraw", "continue"), ("air", "stay")),
        "germany": _standing(("bomber", "support"), ("retreat", "retreat"), ("withdraw", "continue")),
    },
    "vietnam-battles": {
        side: _standing(("support", "strongest"), ("retreat", "retreat"), ("displace", "displace"), ("ambush", "push"))
        for side in ("us", "vc")
    },
    "lock-n-load": {  # with the strategy's standing orders (VC "within2", US "fire")
        "vc": [{"type": "standing", "kind": "impulse", "answer": "pass", "when": [["targets", "==", 0]]},
               {"type": "standing", "kind": "rally", "answer": "end", "when": [["rallies", "==", 0]]}],
        "us": [{"type": "standing", "kind": "rally", "answer": "end", "when": [["rallies", "==", 0]]}],
    },
    # UP FRONT: as bench/up_front_balance.py's sensible player answers when asked: Concealment against a strong
    # attack, terrain accepted when it gives cover, the altitude card placed
    "up-front": {"*": [{"type": "standing", "kind": "concealment", "answer": "conceal", "when": [["strength", ">=", 5]]},
                       {"type": "standing", "kind": "terrain", "answer": "accept", "when": [["cover", "<", 0]]},
                       {"type": "standing", "kind": "mine_altitude", "answer": "place", "when": []}]},
}


def dice(seed: int) -> RecordingDice:
    rng = random.Random(seed * 7919 + 17)
    return RecordingDice(lambda index, faces: rng.randint(1, faces))


Chooser = Callable[[Game, dict[str, Any], str, list[Action], random.Random, int, bool], Action]


def _aob(g: Game, s: dict[str, Any], seat: str, legal: list[Action], rng: random.Random, n: int, answers: bool) -> Action:
    from tests.assault_on_belgium.aob_fuzz import _weight

    plain = [a for a in legal if a["type"] != "standing"]
    return rng.choices(plain, [_weight(g, s, a, rng, n) for a in plain])[0]  # type: ignore[arg-type]


def _vb(g: Game, s: dict[str, Any], seat: str, legal: list[Action], rng: random.Random, n: int, answers: bool) -> Action:
    from tests.vietnam_battles.vb_fuzz import choose

    return choose(s, [a for a in legal if a["type"] != "standing"], rng)


def _lnl(g: Game, s: dict[str, Any], seat: str, legal: list[Action], rng: random.Random, n: int, answers: bool) -> Action:
    from tools.lnl_strategy import choose

    return choose(g, s, seat, legal, rng, answers)  # type: ignore[arg-type]


def _uf(g: Game, s: dict[str, Any], seat: str, legal: list[Action], rng: random.Random, n: int, answers: bool) -> Action:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from up_front_balance import choose, plan_turn  # bench/up_front_balance.py

    a = choose(g, s, seat, False, rng)
    if answers and a["type"] == "end_turn" and "turn" not in s.get("standing", {}).get(seat, {}):
        left = plan_turn(g, s, seat, random.Random(n * 7919 + 5))  # the planner's own stream
        if left["turns"]:
            return left  # its conditional turn, before the end of this one (CORE 11.2)
    return a



PLAYERS: dict[str, Chooser] = {"assault-on-belgium": _aob, "vietnam-battles": _vb, "lock-n-load": _lnl, "up-front": _uf}
OPTIONS: dict[str, dict[str, Any]] = {"up-front": {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}}


def answering(name: str, s: dict[str, Any]) -> bool:
    """The decision is one a standing answer may settle (UP FRONT: a reaction window is open)."""
    if name == "up-front":
        from rules.core import reactions

        return reactions.current(s) is not None
    return False


def play(name: str, scenario: str, seed: int, answers: bool) -> tuple[int, int]:
    """One game to its end: (exchanges, decisions). Common random numbers: both modes of a seed
    draw every die from one stream, and the players choose with their own streams (UP FRONT: one
    for reaction windows, one for the rest), so that the decisions a standing answer takes over
    do not shift the dice and choices of the rest of the game."""
    g = get_game(name)
    stream = random.Random(seed * 7919 + 31)
    rngs = {False: random.Random(seed), True: random.Random(seed + 1_000_003)}
    options = dict(OPTIONS.get(name, {}))
    if name == "up-front":
        from rules.up_front.prepare import terrain_types

        options["terrain_type"] = terrain_types(g.world(), scenario)[0]  # type: ignore[attr-defined]
    s = g.setup(scenario, g.resolve_options(options), dice(seed))
    todo = {seat: list(SCRIPTED.get(name, {}).get(seat, SCRIPTED.get(name, {}).get("*", [])))
            for seat in g.roles(scenario)} if answers else {}
    last, exchanges, n = None, 0, 0
    while g.outcome(s) is None:
        if n >= MAX_DECISIONS:
            raise RuntimeError(f"{name}/{scenario} seed {seed}: no end after {n} decisions")
        (seat,) = g.active_seats(s)
        legal = g.legal_actions(s, seat)
        mine = todo.get(seat, [])
        if mine and g.is_legal(s, seat, mine[0]):  # when the game takes it (UP FRONT: in the seat's turn)
            a = mine.pop(0)
        elif not any(a["type"] != "standing" for a in legal):
            STUCK.append(f"{name}/{scenario} seed {seed}{' with answers' if answers else ''}: {seat} has no action "
                         f"after {n} decisions")
            break  # a dead end of the rules (the fuzzers stop there too); said below the table
        else:
            a = PLAYERS[name](g, s, seat, legal, rngs[answering(name, s)], n, answers)
        if seat != last:
            exchanges, last = exchanges + 1, seat
        s = g.apply(s, seat, a, RecordingDice(lambda index, faces: stream.randint(1, faces))).state
        n += 1
    return exchanges, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="games per scenario and mode (seeds 1..N)")
    ap.add_argument("--games", default=",".join(PLAYERS))
    ap.add_argument("--scenarios", default="", help="only these scenarios (comma-separated)")
    args = ap.parse_args(argv)
    only = {x for x in args.scenarios.split(",") if x}
    print(f"{'game':20} {'scenario':14} {'without':>8} {'with':>8} {'ratio':>6}   ({args.seeds} seeded games each)")
    worst = 0.0
    for name in args.games.split(","):
        g = get_game(name)
        for scenario in sorted(g.scenarios()):
            if only and scenario not in only:
                continue
            t = time.perf_counter()
            without = [play(name, scenario, seed, False)[0] for seed in range(1, args.seeds + 1)]
            with_ = [play(name, scenario, seed, True)[0] for seed in range(1, args.seeds + 1)]
            a, b = sum(without) / len(without), sum(with_) / len(with_)
            worst = max(worst, b / a)
            print(f"{name:20} {scenario:14} {a:8.1f} {b:8.1f} {b / a:6.2f}   {time.perf_counter() - t:5.1f} s", flush=True)
    print(f"worst ratio {worst:.2f} (goal: at most 0.50 in every two-seat game)")
    for line in STUCK:
        print(f"stopped early: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
