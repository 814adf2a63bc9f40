"""Vietnam Battles games played by random legal moves through the real service and ledger
(the VB ledger fuzzer's way), for the replay file and the PNG: a finished game, or one stopped
after some moves with the VC's hidden units on the map."""

from __future__ import annotations

import random
from typing import Any

from ledger.store import EventStore
from rules import get_game
from tests.vietnam_battles.vb_fuzz import choose
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver


def vb_game(store: EventStore, seed: int, scenario: str = "boys67", moves: int | None = None
            ) -> tuple[str, dict[str, str], str]:
    """Play `moves` moves (None: to the end) of a new game; its id, seat tokens, director token."""
    svc = Warlog(store, lambda gid: None)  # judged here, in order, by this test's own resolver
    resolver = Resolver(store)
    svc.new_seed, svc.new_id = (lambda: seed.to_bytes(4, "big") * 8), (lambda: f"vb-{scenario}-{seed:04d}")
    created = svc.create_game("vietnam-battles", scenario, {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, f"{seat}-{seed}")
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    rng = random.Random(seed)
    game = get_game("vietnam-battles")
    done = 0
    while moves is None or done < moves:
        info = svc.info(gid)
        if info["status"] != "active":
            break
        (seat,) = info["active_seats"]
        listing = svc.actions(gid, viewers[seat])
        state = svc.history(gid).state_at(listing["expected_seq"])
        action = choose(state, listing["actions"], rng)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{info['seq']}")
        assert resolver.run(gid) == 1
        done += 1
    assert game.name == "vietnam-battles"
    return gid, tokens, created["director_token"]


def secrets(store: EventStore, game_id: str) -> list[tuple[str, str]]:
    """The hidden units and secret camps of the game now, with the hex each is in."""
    svc = Warlog(store, lambda gid: None)
    state: Any = svc.history(game_id).state_at(store.last_seq(game_id))
    sec = state.get("secret") or {}
    return list((sec.get("hidden") or {}).items()) + list((sec.get("camps") or {}).items())
