"""An in-memory tournament stream for the pure tests (sealed exactly as the store seals)."""

from __future__ import annotations

import hashlib
from typing import Any

from ledger.canonical import GENESIS_HASH
from ledger.events import Event
from warlog.tournaments import events as T
from warlog.tournaments.model import DEFAULT_POINTS, Tournament, fold, pairings_doc
from warlog.tournaments.pairing import PairingDice, pair_next

SEED = bytes(range(32))


class Stream:
    def __init__(self, kind: str, roles: list[str], **fmt: Any) -> None:
        self.id = "t" + "0" * 15 + "1"
        self.events: list[Event] = []
        self.games = 0
        self.add(T.CREATED, {"name": "test", "game": "g", "scenario": "s", "options": {}, "roles": roles,
                             "format": {"kind": kind, **fmt}, "points": DEFAULT_POINTS, "director": "pd",
                             "seed_commitment": hashlib.sha256(SEED).hexdigest()})

    def add(self, type_: str, payload: dict[str, Any]) -> Event:
        prev = self.events[-1].hash if self.events else GENESIS_HASH
        ev = T.seal(self.id, len(self.events), type_, None, payload, "2026-01-01T00:00:00.000000Z", prev)
        self.events.append(ev)
        return ev

    @property
    def t(self) -> Tournament:
        return fold(self.events)

    def register(self, *names: str) -> None:
        for n in names:
            self.add(T.REGISTERED, {"player_id": n, "display_name": n.upper()})

    def pair(self) -> dict[str, Any]:
        t = self.t
        proposal = pair_next(t, PairingDice(SEED, self.id, len(self.events)))
        for p in proposal.pairings:
            self.games += 1
            p.game_id = f"g{self.games}"
        payload = {"round": proposal.round, "pairings": pairings_doc(proposal.pairings), "byes": proposal.byes,
                   "dice": proposal.dice, **proposal.extra}
        self.add(T.ROUND_PAIRED, payload)
        return payload

    def result(self, game_id: str, winner: str | None) -> None:
        t = self.t
        number, p = t.game_round(game_id)  # type: ignore[misc]
        pts = {pid: (1 if winner is None else 2 if pid == winner else 0) for pid in p.players()}
        self.add(T.RESULT, {"round": number, "game_id": game_id, "winner": winner, "points": pts, "how": "played"})
