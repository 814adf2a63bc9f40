"""One request's view of the ledger, read once.

A page of a game asks the service for the game's summary, its state, the seat's actions, the
judgement of the last move and the event list; each of these, written to stand alone, reads the
game's summary and events again (a play page's panel read the ledger 16 times). Inside
`Warlog.one_view()` the service reads through a `ReadView` instead: the first summary of a game
and every range of its events are read once and kept for the rest of the request, and a range
already covered by a wider one read before is answered from it. So the request sees the ledger
as it was at its first read, the way a repeatable-read transaction would.

Anything else (appends, locks, seeds, snapshots) goes straight to the store, and an append
forgets what the view had read of that game, so a request that records something (a look at the
hidden state) reads its own write.
"""

from __future__ import annotations

from typing import Any

from ledger.events import Event
from ledger.store import EventStore, GameSummary

_MISSING = object()


class ReadView:
    """A store that reads each game's summary, last seq and events once (see the module)."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._summaries: dict[str, GameSummary | None] = {}
        self._last: dict[str, int] = {}
        self._spans: dict[str, list[tuple[int, int | None, list[Event]]]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def forget(self, game_id: str) -> None:
        self._summaries.pop(game_id, None)
        self._last.pop(game_id, None)
        self._spans.pop(game_id, None)

    def summary(self, game_id: str) -> GameSummary | None:
        found = self._summaries.get(game_id, _MISSING)
        if found is _MISSING:
            found = self._summaries[game_id] = self._store.summary(game_id)
        return found  # type: ignore[return-value]

    def prefetch(self, game_id: str, after: int, upto: int | None = None) -> None:
        """Read the game's summary and its events in (after, upto] together (one statement on
        the SQL stores), unless this view has read the summary already: a request that knows
        which events it will read after the summary (the state it keeps is at `after` + 1) pays
        one look, not two."""
        if game_id in self._summaries:
            return
        summary, events = self._store.summary_and_read(game_id, after, upto)
        self._summaries[game_id] = summary
        if summary is not None:
            self._spans.setdefault(game_id, []).append((after, upto, events))

    def last_seq(self, game_id: str) -> int:
        if game_id not in self._last:
            self._last[game_id] = self._store.last_seq(game_id)
        return self._last[game_id]

    def read(self, game_id: str, after: int = -1, upto: int | None = None) -> list[Event]:
        for start, end, events in self._spans.get(game_id, ()):
            if start <= after and (end is None or (upto is not None and upto <= end)):
                return [e for e in events if e.seq > after and (upto is None or e.seq <= upto)]
        events = self._store.read(game_id, after=after, upto=upto)
        self._spans.setdefault(game_id, []).append((after, upto, events))
        return events

    def read_so_far(self, game_id: str) -> list[list[Event]]:
        """The ranges of the game's events this view has read (each in seq order)."""
        return [events for _start, _end, events in self._spans.get(game_id, ())]

    def append(self, game_id: str, *args: Any, **kwargs: Any) -> Any:
        self.forget(game_id)
        return self._store.append(game_id, *args, **kwargs)
