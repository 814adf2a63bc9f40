#!/usr/bin/env python3
"""Balance and prompts of the Lock 'n Load demo scenario, both seats played by a script.

    python bench/lnl_balance.py [--games 200] [--orders] [--version 2]

Both seats play tools/lnl_strategy.py (the US advances by stacks, fires at Good Order defenders
within 2 hexes, assaults objectives with two squads or more; the VC opportunity-fires, fires from
cover, counter-attacks in the last two turns). With --orders the non-moving seat gives standing
orders (VC "within2", US "fire") instead of answering prompts. Prints win rates with a 95%
interval, actions and opportunity-fire prompts per game. Seeded: the same figures every run.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.dice import RecordingDice  # noqa: E402
from rules.lock_n_load.game import LockNLoad  # noqa: E402
from tools.lnl_strategy import choose  # noqa: E402


def play(g: LockNLoad, seed: int, orders: bool) -> tuple[str, int, int, int]:
    rng = random.Random(seed)
    drng = random.Random(seed * 7919 + 17)
    dice = RecordingDice(lambda i, f: drng.randint(1, f))
    s = g.setup("demo", {}, dice)
    n = 0
    while g.outcome(s) is None:
        (seat,) = g.active_seats(s)
        a = choose(g, s, seat, g.legal_actions(s, seat), rng, orders)
        s = g.apply(s, seat, a, dice).state
        n += 1
    o = g.outcome(s)
    assert o is not None
    return str(o.winner), n, s["stats"]["opp_fire_prompts"], s["stats"]["order_fires"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--orders", action="store_true")
    ap.add_argument("--version", default=None, help="rules version (default: the current one)")
    args = ap.parse_args()
    from typing import cast

    from rules import get_game

    g = cast(LockNLoad, get_game("lock-n-load", args.version)) if args.version else LockNLoad()
    t0 = time.perf_counter()
    wins: Counter[str] = Counter()
    acts = prompts = fires = 0
    for seed in range(args.games):
        winner, n, p, f = play(g, seed, args.orders)
        wins[winner] += 1
        acts, prompts, fires = acts + n, prompts + p, fires + f
    dt = time.perf_counter() - t0
    k = args.games
    us = wins["us"] / k
    half = 1.96 * math.sqrt(us * (1 - us) / k)
    print(f"demo 'Hamlet 1K4' rules v{g.version}, both seats scripted, {k} games"
          + (" with standing orders" if args.orders else "") + ":")
    print(f"  US wins {wins['us']} ({100 * us:.0f}% +/- {100 * half:.0f}), VC wins {wins['vc']}")
    print(f"  per game: {acts / k:.0f} actions, {prompts / k:.1f} opportunity-fire prompts, "
          f"{fires / k:.1f} fires by standing order; {dt / k:.2f} s per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
