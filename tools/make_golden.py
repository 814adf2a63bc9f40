#!/usr/bin/env python3
"""Record the golden ledgers: one finished game of every registered game and scenario, played
through the real service (Warlog + a SQLite ledger + the resolver) by seeded random legal play,
exported as JSON Lines to tests/golden/<game>--<scenario>--v<rules version>.jsonl.

A golden ledger is history: once committed it is never rewritten. CI verifies every one on every
commit (tests/golden/), so a rules change that would re-judge a recorded game differently fails
there — and must become a new rules version (the old one kept runnable), not an edit.

    python tools/make_golden.py                 # record the goldens missing for the current versions
    python tools/make_golden.py --list          # what exists and what is missing
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from ledger.export import export_lines  # noqa: E402
from ledger.factory import open_store  # noqa: E402
from rules import all_games  # noqa: E402
from rules.core.game import Game  # noqa: E402
from warlog.games.service import Warlog  # noqa: E402
from warlog.judging.resolver import Resolver  # noqa: E402

GOLDEN = REPO / "tests" / "golden"
MAX_MOVES = 4000
Chooser = Callable[[Game, dict[str, Any], list[dict[str, Any]], random.Random, int], dict[str, Any]]


def golden_name(game: str, scenario: str, version: str) -> str:
    return f"{game}--{scenario}--v{version}.jsonl"


def _uniform(g: Game, s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, n: int) -> dict[str, Any]:
    return rng.choice(legal)


def chooser_for(game: str) -> Chooser:
    """The random-legal players of the fuzzers, which reach an end in reasonable time."""
    if game == "green-beret-vietnam":
        from tests.green_beret_vietnam.gbv_fuzz import choose as gbv_choose
        return lambda g, s, legal, rng, n: gbv_choose(g, s, legal, rng, n, careful=True, patience=4)  # type: ignore[arg-type]
    if game == "assault-on-belgium":
        from tests.assault_on_belgium.aob_fuzz import _weight as aob_weight
        return lambda g, s, legal, rng, n: rng.choices(legal, [aob_weight(g, s, a, rng, n) for a in legal])[0]  # type: ignore[arg-type]
    if game == "vietnam-battles":
        from tests.vietnam_battles.vb_fuzz import choose as vb_choose
        return lambda g, s, legal, rng, n: vb_choose(s, legal, rng)
    if game == "lock-n-load":
        from tests.lock_n_load.lnl_fuzz import choose as lnl_choose
        return lambda g, s, legal, rng, n: lnl_choose(s, legal, rng, g)  # type: ignore[arg-type]
    return _uniform


def play(svc: Warlog, resolver: Resolver, g: Game, scenario: str, seed: int) -> str:
    """One game to its end; returns its id."""
    svc.new_seed = lambda: (seed.to_bytes(4, "big") + g.name.encode() + scenario.encode()).ljust(32, b"-")[:32]
    svc.new_id = lambda: f"golden-{g.name}-{scenario}-v{g.version}"
    fitting = getattr(g, "scenario_options", None)  # a scenario that refuses the default options (UP FRONT N)
    created = svc.create_game(g.name, scenario, fitting(scenario) if fitting else {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, f"{seat}-golden-{seed}")
    rng, choose, moves = random.Random(seed), chooser_for(g.name), 0
    while svc.info(gid)["status"] == "active":
        seat = svc.info(gid)["active_seats"][0]
        listing = svc.actions(gid, svc.viewer(gid, tokens[seat]))
        state = svc.history(gid).state_at(listing["expected_seq"])
        action = choose(g, state, listing["actions"], rng, moves)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"golden-{moves}")
        resolver.run(gid)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"{g.name}/{scenario} seed {seed}: no end after {MAX_MOVES} moves")
    return gid


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="only say what exists and what is missing")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/golden.sqlite3")
        svc, resolver = Warlog(store, lambda gid: None), Resolver(store)
        for g in all_games():
            if not type(g).__module__.startswith("rules."):  # a test suite's toy game
                continue
            for scenario in sorted(g.scenarios()):
                path = GOLDEN / golden_name(g.name, scenario, g.version)
                if path.exists() or args.list:
                    print(f"{'have' if path.exists() else 'MISSING'} {path.relative_to(REPO)}")
                    continue
                gid = play(svc, resolver, g, scenario, args.seed)
                lines = list(export_lines(store, gid))
                path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines),
                                encoding="utf-8")
                print(f"wrote {path.relative_to(REPO)}: {len(lines)} events, {path.stat().st_size:,} bytes")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
