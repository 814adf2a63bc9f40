"""Housekeeping that history does not need: the snapshots (a cache) and idempotency keys of
ended games. Neither is ever exported or verified, and the append-only triggers guard only
`events`, so deleting them needs no trigger disabled. Run by the owner role (`warlog db
prune`): the app role may not delete idempotency keys."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.sqlstore import SqlEventStore

BATCH = 500  # games per transaction


@dataclass(frozen=True)
class Pruned:
    games: int
    snapshots: int
    keys: int


def prune_ended(store: SqlEventStore, batch: int = BATCH) -> Pruned:
    """Delete the snapshots and idempotency keys of every ended game, a batch of games per
    transaction, walking the ended games by the listing index (newest first)."""
    games = snapshots = keys = 0
    before: tuple[str, str] | None = None
    while True:
        rows = store.list_games(status="ended", limit=min(batch, 201), before=before)
        if not rows:
            return Pruned(games, snapshots, keys)
        ids = [r.game_id for r in rows]
        marks = ", ".join("?" for _ in ids)
        with store._write() as conn:
            snapshots += int(conn.execute(store._sql(f"DELETE FROM snapshots WHERE game_id IN ({marks})"),
                                          ids).rowcount)
            keys += int(conn.execute(store._sql(f"DELETE FROM idempotency WHERE game_id IN ({marks})"),
                                     ids).rowcount)
        games += len(ids)
        before = (rows[-1].created_at, rows[-1].game_id)
