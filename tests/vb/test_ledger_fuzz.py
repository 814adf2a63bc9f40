"""Random legal play of The Boys of '67 through the real service (Warlog + SQLite ledger +
resolver), both seats: every game is played to its end from the committed seed, exported, and
the export passes `verify` (chain, seed, every die re-derived, every judgement and state hash
reproduced). VB_LEDGER_GAMES sets how many (default 6)."""

from __future__ import annotations

import os
import random
from typing import Any

from ledger.export import export_lines
from ledger.store import open_store
from rules import get_game
from rules.vietnam_battles.game import VietnamBattles
from warlog.resolver import Resolver
from warlog.service import Warlog
from warlog.verify import verify_lines

from tests.vb.vb_fuzz import choose

GAMES = int(os.environ.get("VB_LEDGER_GAMES", "6"))
MAX_MOVES = 3000


def install() -> VietnamBattles:
    g = get_game("vietnam-battles")
    assert isinstance(g, VietnamBattles)
    return g


def play_through_service(svc: Warlog, resolver: Resolver, seed: int) -> tuple[str, int]:
    g = install()
    svc.new_seed, svc.new_id = (lambda: seed.to_bytes(4, "big") * 8), (lambda: f"vb-ledger-{seed:04d}")
    created = svc.create_game(g.name, "boys67", {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, f"{seat}-{seed}")
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    rng = random.Random(seed)
    moves = 0
    while True:
        info = svc.info(gid)
        if info["status"] != "active":
            return gid, moves
        (seat,) = info["active_seats"]
        other = "vc" if seat == "us" else "us"
        assert svc.actions(gid, viewers[other])["actions"] == []  # the seat not asked has nothing to do
        listing = svc.actions(gid, viewers[seat])
        assert listing["actions"], f"seed {seed}: dead end"
        state = svc.history(gid).state_at(listing["expected_seq"])
        action = choose(state, listing["actions"], rng)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{info['seq']}")
        assert resolver.run(gid) == 1
        moves += 1
        assert moves <= MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"


def test_fuzzed_games_through_the_service_all_verify(tmp_path: Any) -> None:
    store = open_store(f"sqlite:///{tmp_path}/vb.sqlite3")
    svc = Warlog(store, lambda gid: None)
    resolver = Resolver(store)
    total = 0
    for seed in range(GAMES):
        gid, moves = play_through_service(svc, resolver, seed)
        total += moves
        report = verify_lines(list(export_lines(store, gid)))
        assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
        assert report.dice_derived > 0
    print(f"\nVB ledgers: {GAMES} games, {total} moves, every export verified")
    store.close()
