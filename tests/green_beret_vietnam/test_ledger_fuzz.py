"""The fuzzer's player through the real service (Warlog + SQLite ledger + resolver): every game
is played to its end from the committed seed, exported, and the export passes `verify`
(chain, seed, every die re-derived, every judgement and state hash reproduced).

The service costs tens of milliseconds a move, so the default run plays a handful of games;
GBV_LEDGER_GAMES=300 plays as many as the pure-engine fuzzer (test_fuzz.py)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from ledger.export import export_lines
from ledger.factory import open_store
from rules import get_game
from rules.green_beret_vietnam.game import GreenBeretVietnam
from tests.green_beret_vietnam.gbv_fuzz import choose
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines

GAMES = int(os.environ.get("GBV_LEDGER_GAMES", "8"))
PATIENCE = int(os.environ.get("GBV_LEDGER_PATIENCE", "4"))  # turns before the player starts to think of stopping
MAX_MOVES = 2500


def install() -> GreenBeretVietnam:
    """The registered game (rules/__init__.py loads it into the catalogue)."""
    g = get_game("green-beret-vietnam")
    assert isinstance(g, GreenBeretVietnam)
    return g


def play_through_service(svc: Warlog, resolver: Resolver, seed: int, options: dict[str, Any]) -> tuple[str, int]:
    g = install()
    svc.new_seed, svc.new_id = (lambda: seed.to_bytes(4, "big") * 8), (lambda: f"gbv-ledger-{seed:04d}")
    created = svc.create_game(g.name, "campaign", options)
    gid, token = created["id"], created["seats"]["player"]
    svc.join(gid, token, f"player-{seed}")
    rng = random.Random(seed)
    moves = 0
    viewer = svc.viewer(gid, token)
    while True:
        info = svc.info(gid)
        if info["status"] != "active":
            return gid, moves
        listing = svc.actions(gid, viewer)
        assert listing["actions"], f"seed {seed}: dead end"
        state = svc.history(gid).state_at(listing["expected_seq"])
        action = choose(g, state, listing["actions"], rng, moves, careful=seed % 2 == 1, patience=PATIENCE)
        svc.submit_move(gid, token, action, listing["expected_seq"], f"k{info['seq']}")
        assert resolver.run(gid) == 1
        moves += 1
        assert moves <= MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"


@pytest.mark.slow
def test_fuzzed_games_through_the_service_all_verify(tmp_path: Any) -> None:
    store = open_store(f"sqlite:///{tmp_path}/gbv.sqlite3")
    svc = Warlog(store, lambda gid: None)
    resolver = Resolver(store)
    total = 0
    for seed in range(GAMES):
        gid, moves = play_through_service(svc, resolver, seed, {"assassination": seed % 3 == 0})
        total += moves
        events = list(export_lines(store, gid))
        report = verify_lines(events)
        assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
        assert report.dice_derived > 0
    print(f"\nGBV ledgers: {GAMES} games, {total} moves, every export verified")
    store.close()
