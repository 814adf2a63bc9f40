"""One page of the games list, for the API, the lobby and the CLI (see ledger.paging)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from ledger import paging
from ledger.store import EventStore, GameSummary


def games_page(store: EventStore, game: str | None, status: str | None, limit: int,
               cursor: str | None) -> paging.Page:
    """Newest first; `cursor` (from a previous page) starts strictly after that page's last
    game. BadCursor for a cursor this server did not make."""
    start = paging.decode(cursor) if cursor else None
    rows = store.list_games(game=game, status=status, limit=limit + 1,
                            before=(start.created_at, start.game_id) if start else None)
    return paging.page(rows, limit)


def next_query(page: paging.Page, game: str | None, status: str | None, limit: int) -> str | None:
    """The query string of the next page (None on the last page)."""
    if page.next is None:
        return None
    args: dict[str, Any] = {k: v for k, v in (("game", game), ("status", status)) if v}
    if limit != paging.DEFAULT_LIMIT:
        args["limit"] = limit
    args["cursor"] = paging.encode(page.next)
    return urlencode(args)


def game_json(r: GameSummary) -> dict[str, Any]:
    return {"id": r.game_id, "game": r.game, "scenario": r.scenario, "status": r.status, "seq": r.last_seq,
            "active_seats": r.active_seats if r.status == "active" else [], "created_at": r.created_at,
            "sandbox": r.sandbox}
