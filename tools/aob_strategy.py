#!/usr/bin/env python3
"""Scripted players and a balance tournament for Assault on Belgium.

    python tools/aob_strategy.py --games 200            # the balance figures in the data doc
    python tools/aob_strategy.py --games 50 --no-entry-nl-france

Two competent players play through the pure rules interface (`setup`, `legal_actions`,
`apply`, `active_seats`, `outcome`; no HTTP), always choosing one of the listed legal actions:

* `CompetentGerman` reads the Belgian set-up, sets up its tanks on the German hexes nearest the
  objectives, splits them between Brussels and Antwerp by estimating each battle (a small
  Monte Carlo of the land rounds with the real tables and terrain rules), plans every tank's path
  with Dijkstra over MP (terrain, +1 river hexsides, no sea, the optional rule), avoiding Belgian
  hexes except the objective, declares the tank battles, uses infantry and motorised units
  against weak Belgian hexes within reach, sends bombers and escorts where the estimated gain is
  largest against Belgium's best interception reply, and fights, retreats and pursues sensibly.
* `CompetentBelgian` chooses its own set-up: the best defenders stacked in Brussels and Antwerp
  (the split chosen against the German's best reply), the rest as screens on the approaches;
  then reacts next to the objective battles to block the attackers' retreat hexes, intercepts
  where it hurts Germany most, fights with its best defender, gives excess hits to the weakest
  unit and never retreats where a pursuit could follow.
* `CordonBelgian` is the competent Belgian with another set-up: it spends its army on a cordon
  (a minimum vertex cut of the tank paths) around one objective. See the note printed by the
  tournament: under the engine's reading 41 a cordon can never be passed.
* `DefaultSetupBelgian` is the competent Belgian using the OOB's default set-up.
* `NaiveGerman` / `NaiveBelgian` port the HTTP test bot (tests/assault_on_belgium/api_bot.py); `RandomPlayer`
  picks uniformly among the legal actions (standard set-up).
* Ablations: `GroundedGerman` / `GroundedBelgian` never fly; `SetupOnlyBelgian` sets up like the
  competent Belgian, then plays like the naive bot.

The figures and what they mean: docs/games/assault-on-belgium-data.md, section "Balance".

Everything is deterministic given the seed: dice come from HMAC-SHA256 of the game's integer seed
and the die index; the players' own sampling uses a 64-bit LCG seeded from a hash of what they
are estimating, never the `random` module.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# The players live in tools/aob_players/ (one module per concern); these names are this script's API.
from rules.assault_on_belgium.data import load_world  # noqa: E402
from rules.assault_on_belgium.game import AssaultOnBelgium  # noqa: E402
from tools.aob_players.base import die_function, hash_dice  # noqa: E402,F401
from tools.aob_players.baselines import NaiveBelgian, NaiveGerman, RandomPlayer, SetupOnlyBelgian  # noqa: E402,F401
from tools.aob_players.belgian import (  # noqa: E402,F401
    CompetentBelgian,
    CordonBelgian,
    DefaultSetupBelgian,
    GroundedBelgian,
    GroundedGerman,
    competent_belgian_setup,
    cordon_belgian_setup,
)
from tools.aob_players.german import CompetentGerman  # noqa: E402,F401
from tools.aob_players.players import Player, estimator_for, geo_for  # noqa: E402,F401
from tools.aob_players.tournament import (  # noqa: E402,F401
    PAIRINGS,
    Record,
    Summary,
    clear_caches,
    play_game,
    run_pairing,
    tournament,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--no-entry-nl-france", action="store_true", help="the optional rule (AoB 18.1)")
    ap.add_argument("--memo-order", action="store_true", help="reaction_before_german_air = false")
    ap.add_argument("--pairing", action="append", choices=list(PAIRINGS), help="only these pairings")
    ap.add_argument("--show-setup", action="store_true", help="print the competent Belgian set-up")
    ap.add_argument("--trace", type=int, metavar="SEED", help="print one game of the first pairing, fact by fact")
    args = ap.parse_args(argv)
    options = {"no_entry_nl_france": args.no_entry_nl_france, "reaction_before_german_air": not args.memo_order}
    if args.show_setup:
        w = load_world()
        geo = geo_for(w, args.no_entry_nl_france)
        for name, fn in (("competent", competent_belgian_setup), ("cordon", cordon_belgian_setup)):
            su = fn(w, geo, estimator_for(w))
            print(name, {h: [u for u, x in su.items() if x == h] for h in sorted(set(su.values()))})
    if args.trace is not None:
        make_g, make_b = PAIRINGS[(args.pairing or list(PAIRINGS))[0]]
        rec, _ = play_game(AssaultOnBelgium(load_world()), make_g(), make_b(), args.trace, options, trace=print)
        print(rec)
        return 0
    if args.games > 0:
        t0 = time.perf_counter()
        tournament(args.games, options, args.pairing)
        print(f"total {time.perf_counter() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
