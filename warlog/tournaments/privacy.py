"""Who may read a duplicate round's game while the round runs, besides its own player (the
privacy check, warlog.trust.rounds.check_private, asks this through the service's `private_reader` hook).

The tournament's director may, to rule in it, unless they play in that round themselves: an
entrant who read another entrant's game of the same round would see the dice they are about to
meet (every game of a duplicate round shares one seed, ledger.dice step 9).
"""

from __future__ import annotations

from typing import Any


def private_reader(tournaments: Any, players: Any) -> Any:
    """The hook: (game id, credential) -> whether that credential signs in the director of the
    game's tournament who holds no seat in the game's round."""

    def may_read(game_id: str, credential: str) -> bool:
        if players is None:
            return False
        tid = tournaments.store.game_tournament(game_id)
        if tid is None:
            return False
        player = players.by_token(credential) or players.by_session(credential)
        if player is None:
            return False
        t = tournaments.get(tid)
        number = t.round_of.get(game_id)
        if player.id != t.director or number is None:
            return False
        return all(player.id not in p.players() for p in t.rounds[number].pairings)

    return may_read
