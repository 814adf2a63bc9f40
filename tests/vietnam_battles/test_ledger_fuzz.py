"""Random legal play of The Boys of '67 through the real service (Warlog + SQLite ledger +
resolver), both seats: every game is played to its end from the committed seed, exported, and
the export passes `verify` (chain, seed, every die re-derived, every judgement and state hash
reproduced). VB_LEDGER_GAMES sets how many (default 6)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from ledger.export import export_lines
from ledger.factory import open_store
from rules import get_game
from rules.vietnam_battles.game import VietnamBattles
from tests.vietnam_battles.vb_fuzz import choose
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines

GAMES = int(os.environ.get("VB_LEDGER_GAMES", "6"))
SNOOPY_GAMES = int(os.environ.get("VB_LEDGER_SNOOPY", "1"))
MAX_MOVES = 12000


def install() -> VietnamBattles:
    g = get_game("vietnam-battles")
    assert isinstance(g, VietnamBattles)
    return g


def _no_leak(svc: Warlog, gid: str, viewer: Any, state: dict[str, Any], seen: int) -> int:
    """H2, H3: nothing the US seat can read (its state view, the events since `seen`) pairs a
    still-hidden unit or camp with its recorded hex."""
    sec = state.get("secret") or {}
    secrets = list(sec.get("hidden", {}).items()) + list(sec.get("camps", {}).items())
    view = svc.state(gid, None, viewer)["state"]
    assert not (view.get("secret") or {}).get("hidden") and not (view.get("secret") or {}).get("camps")
    assert not (view.get("secret") or {}).get("victory")  # H1
    evs = svc.events(gid, seen, viewer)
    for ev in evs["events"]:
        p = ev["payload"]
        assert not (ev["type"] == "submitted" and ev["seat"] == "vc" and "action" in p)
        for f in p.get("facts", []):
            text = json.dumps(f)
            assert f["kind"] not in ("secret_roll", "secret_setup"), f
            for who, where in secrets:
                assert not (f'"{who}"' in text and f'"{where}"' in text), (who, where, f)
    return int(evs["last_seq"])


def play_through_service(svc: Warlog, resolver: Resolver, seed: int, scenario: str = "boys67",
                         check_secrets: bool = False) -> tuple[str, int]:
    g = install()
    svc.new_seed, svc.new_id = (lambda: seed.to_bytes(4, "big") * 8), (lambda: f"vb-{scenario}-{seed:04d}")
    created = svc.create_game(g.name, scenario, {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, f"{seat}-{seed}")
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
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
        action = choose(state, listing["actions"], rng)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{info['seq']}")
        assert resolver.run(gid) == 1
        if check_secrets and svc.info(gid)["status"] == "active":
            now = svc.history(gid).state_at(svc.info(gid)["seq"])
            seen = _no_leak(svc, gid, viewers["us"], now, seen)
        moves += 1
        assert moves <= MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"


@pytest.mark.slow
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


@pytest.mark.slow
def test_snoopys_nose_through_the_service_verifies_and_never_shows_the_us_a_secret(tmp_path: Any) -> None:
    store = open_store(f"sqlite:///{tmp_path}/vbs.sqlite3")
    svc = Warlog(store, lambda gid: None)
    resolver = Resolver(store)
    for seed in range(SNOOPY_GAMES):
        gid, moves = play_through_service(svc, resolver, 50 + seed, "snoopys_nose", check_secrets=True)
        report = verify_lines(list(export_lines(store, gid)))
        assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
    store.close()


@pytest.mark.slow
def test_the_iron_triangle_through_the_service_verifies_and_keeps_the_condition_secret(tmp_path: Any) -> None:
    store = open_store(f"sqlite:///{tmp_path}/vbi.sqlite3")
    svc = Warlog(store, lambda gid: None)
    resolver = Resolver(store)
    for seed in range(SNOOPY_GAMES):
        gid, moves = play_through_service(svc, resolver, 70 + seed, "iron_triangle", check_secrets=True)
        report = verify_lines(list(export_lines(store, gid)))
        assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
    store.close()
