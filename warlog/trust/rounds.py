"""A duplicate round's games (ledger.dice step 9): every game of the round shares one seed and
one dice stream, so reading one running game, or one game's revealed seed, would show another
entrant the dice they are about to meet.

* `check_private`: the one privacy check every route of a game makes (the API's and the pages'
  blueprints call it before the route, warlog.web.pageutil.guard_private): until the round's seed is
  revealed, the game is read only by its own seats, its director token, the player who owns its
  seat, or whoever the service's `private_reader` hook admits (the tournament's director).
* `public_rows`: the games list and the lobby without those games.
* `reveal_round_seed`: the reveal the game's end withheld, appended by the tournament once every
  game of the round has ended.
"""

from __future__ import annotations

import hmac

from ledger.store import Conflict, GameSummary
from rules import get_game
from warlog.games.service import PrivateGame, Warlog, token_hash


def private_reason(svc: Warlog, game_id: str) -> str | None:
    """Why the game is private, or None: a duplicate round's game (its game_created names a shared
    `dice_stream`) is until its round's seed (period 0) is revealed."""
    created = svc.created(game_id).payload
    stream = created.get("dice_stream")
    if not stream:
        return None
    book = svc.seed_books.get(svc.store, game_id)
    if book.periods and book.periods[0][1] in book.revealed:
        return None
    found = created.get("duplicate_round") or {}
    which = f"round {found['round']} of tournament {found['tournament']}" if "round" in found else str(stream)
    return (f"game {game_id} is a duplicate round's game ({which}): every entrant of the round plays the same "
            f"dice, so it is private to its player and the tournament's director until every game of the round "
            f"has ended")


def check_private(svc: Warlog, game_id: str, *credentials: str | None) -> None:
    """Refuse (PrivateGame, 403) a reader of a private game (`private_reason`) unless one of
    `credentials` is one of its seat tokens or its director token, signs in the player who owns
    its seat, or is admitted by `svc.private_reader`."""
    why = private_reason(svc, game_id)
    if why is None:
        return
    created = svc.created(game_id).payload
    for token in credentials:
        if not token:
            continue
        h = token_hash(token)
        if hmac.compare_digest(h, created["director_token_sha256"]) or any(
                hmac.compare_digest(h, th) for th in created["seat_token_sha256"].values()):
            return
        if svc.player_seat is not None and svc.player_seat(game_id, token) in created["roles"]:
            return
        if svc.private_reader is not None and svc.private_reader(game_id, token):
            return
    raise PrivateGame(why)


def public_rows(svc: Warlog, rows: list[GameSummary]) -> list[GameSummary]:
    """The listing rows anyone may see: without the private games (only a solitaire game's can be
    one, so only those rows are looked at)."""
    def private(r: GameSummary) -> bool:
        try:
            solitaire = get_game(r.game).solitaire
        except KeyError:
            return False
        return bool(solitaire) and not r.sandbox and private_reason(svc, r.game_id) is not None

    return [r for r in rows if not private(r)]


def reveal_round_seed(svc: Warlog, game_id: str) -> bool:
    """Publish the round's seed (period 0) in an ended game of a duplicate round, whose end
    withheld it: the tournament calls this for every game of the round once all have ended.
    Idempotent; False when there is nothing to reveal (revealed already, not ended, an imported
    game without its seed)."""
    while True:
        if svc.summary(game_id).status != "ended":
            return False
        book = svc.seed_books.get(svc.store, game_id)
        seeds = svc.store.seeds(game_id)
        if not seeds or len(book.periods) != 1 or book.current_revealed():
            return False
        try:
            svc.store.append(game_id, book.scanned, [book.reveal(seeds[0][1])])
        except Conflict:
            continue  # a ruling came in meanwhile: look again
        return True
