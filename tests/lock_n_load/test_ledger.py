"""Random legal play of the demo through the real service (Warlog + SQLite ledger + resolver),
both seats, each answering only its own prompts: every game is played to its end from the committed
seed, exported, and the export passes `verify` (chain, seed, every die re-derived, every judgement
and state hash reproduced). No seat ever reads an unactivated event paragraph. LNL_LEDGER_GAMES
sets how many (default 3)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from ledger.export import export_lines
from ledger.factory import open_store
from rules import get_game
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.lnl_fuzz import choose
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines

GAMES = int(os.environ.get("LNL_LEDGER_GAMES", "3"))
MAX_MOVES = 6000


def install() -> LockNLoad:
    g = get_game("lock-n-load")
    assert isinstance(g, LockNLoad)
    return g


def _no_leak(svc: Warlog, gid: str, viewer: Any, seen: int) -> int:
    """Standing orders are secret moves: the US seat never reads a VC action or a VC-only fact."""
    evs = svc.events(gid, seen, viewer)
    for ev in evs["events"]:
        p = ev["payload"]
        assert not (ev["type"] == "submitted" and ev["seat"] == "vc" and "action" in p)
        for f in p.get("facts", []):
            assert f.get("visible_to") in (None, ["us"]), f
            assert f["kind"] != "order" or f.get("visible_to") == ["us"], f
    return int(evs["last_seq"])


ORDERS = {"n": 0}


def play_through_service(svc: Warlog, resolver: Resolver, seed: int) -> tuple[str, int]:
    g = install()
    svc.new_seed, svc.new_id = (lambda: seed.to_bytes(4, "big") * 8), (lambda: f"lnl-demo-{seed:04d}")
    created = svc.create_game(g.name, "demo", {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, f"{seat}-{seed}")
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    secrets = [e["paragraph"] for e in g.world.scenarios["demo"]["event_markers"]]
    rng = random.Random(seed)
    moves = 0
    seen = 0
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
        if moves % 25 == 0:
            seen = _no_leak(svc, gid, viewers["us"], seen)
            view = json.dumps(svc.state(gid, None, viewers[other])["state"], ensure_ascii=False)
            for eid, ev in state["events"].items():
                if not ev["revealed"]:
                    assert not any(p in view for p in secrets if p == state["secret"]["events"][eid])
        action = choose(state, listing["actions"], rng, g)
        ORDERS["n"] += action["type"] == "order"
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{info['seq']}")
        assert resolver.run(gid) == 1
        moves += 1
        assert moves <= MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"


@pytest.mark.slow
def test_fuzzed_demo_games_through_the_service_all_verify(tmp_path: Any) -> None:
    store = open_store(f"sqlite:///{tmp_path}/lnl.sqlite3")
    svc = Warlog(store, lambda gid: None)
    resolver = Resolver(store)
    total = 0
    for seed in range(GAMES):
        gid, moves = play_through_service(svc, resolver, seed)
        total += moves
        report = verify_lines(list(export_lines(store, gid)))
        assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
        assert report.dice_derived > 0
    assert ORDERS["n"] > 0  # random standing orders were given, and replayed by verify
    print(f"\nLnL ledgers: {GAMES} games, {total} moves ({ORDERS['n']} standing orders), every export verified")
    store.close()
