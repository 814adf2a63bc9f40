"""Disaster recovery of tournaments: `warlog import-tournament BUNDLE` loads a bundle
(warlog/tournaments/bundle.py) into a ledger that holds none of it — every game's ledger as
`warlog import` does, then the tournament's stream exactly as recorded, its listing row and
its games' rounds — so that every chain head, and the transparency log's tree head once the
games are logged again, is the original's.

Nothing is written unless the whole bundle verifies (`verify_bundle`: every game re-run, every
round re-paired, the standings recomputed), and nothing is written if the tournament or any of
its games already has events. What a bundle cannot hold is not restored: the secret seeds of
games and of a pairing not yet revealed, and the games' director tokens (a restored tournament
whose games still run cannot rule in them). A finished tournament comes back whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger.events import Event
from ledger.export import summary_from_events
from ledger.store import Conflict, GameExists
from warlog.tournaments import events as T
from warlog.tournaments.bundle import BundleReport, _parse, verify_bundle
from warlog.tournaments.model import Tournament, apply
from warlog.trust.verify import VerifyFailure


class RestoreRefused(Exception):
    """The bundle does not verify, or the ledger already holds part of it."""


@dataclass
class Restored:
    tournament: str
    events: int
    games: int
    game_events: int
    report: BundleReport

    def summary(self) -> str:
        return (f"imported tournament {self.tournament} ({self.report.name}): {self.events} events, "
                f"{self.games} game(s) with {self.game_events} events")


def projection_of(events: list[Event]) -> tuple[dict[str, Any], dict[str, int]]:
    """The `tournaments` listing row and each game's round, folded from the stream (the same
    values the service writes as it goes: registration, running after a pairing, ended)."""
    t: Tournament | None = None
    for ev in events:
        t = apply(t, ev)
    assert t is not None
    paired = any(ev.type == T.ROUND_PAIRED for ev in events)
    status = "ended" if any(ev.type == T.ENDED for ev in events) else "running" if paired else "registration"
    row = {"name": t.name, "game": t.game, "kind": t.kind, "status": status, "director": t.director}
    return row, dict(t.round_of)


def import_bundle(ledger_store: Any, tournament_store: Any, data: bytes) -> Restored:
    lines = data.splitlines(keepends=True)
    try:
        report = verify_bundle(lines)
    except VerifyFailure as err:
        raise RestoreRefused(f"refusing to import: {err}") from None
    header, streams = _parse(lines)
    tid = str(header["tournament"])
    stream = streams.pop(tid)
    games = [gid for gid in header.get("games", [])]
    if tournament_store.last_seq(tid) >= 0:
        raise RestoreRefused(f"tournament {tid} already exists in this ledger")
    taken = [gid for gid in games if ledger_store.last_seq(gid) >= 0]
    if taken:
        raise RestoreRefused(f"game(s) {', '.join(taken)} of the bundle already exist in this ledger")
    row, rounds = projection_of(stream)
    count = 0
    for gid in games:
        events = streams[gid]
        try:
            ledger_store.import_events(events, None, summary_from_events(events))
        except GameExists as err:
            raise RestoreRefused(f"game {gid}: {err}") from None
        count += len(events)
    try:
        tournament_store.import_stream(stream, row, {gid: rounds[gid] for gid in games if gid in rounds})
    except Conflict:
        raise RestoreRefused(f"tournament {tid} already exists in this ledger") from None
    return Restored(tid, len(stream), len(games), count, report)
