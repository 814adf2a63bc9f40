"""Pauses: a seat of a game asks, every other seat agrees, and every clock of the game stops
until a seat resumes it (or withdraws or declines the pause asked); each clock then has the
time it had left. Recorded beside the play: `pause_asked`, `pause_agreed`, `pause_ended`.
Part of warlog.clock.leave.AwayBook."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ledger.events import PAUSE_AGREED, PAUSE_ASKED, PAUSE_ENDED, NewEvent
from warlog.catalogs import N_, words
from warlog.clock.clock import DAY, GameClock
from warlog.clock.stops import PAUSED, Stop, due_after, running_seconds
from warlog.games.replay import seat_name
from warlog.notify.naming import game_named, game_titled, tagged
from warlog.ops.sqldb import SqlDb, iso, parse_iso, sortable_id
from warlog.players.store import PlayerError, PlayerStore


class AwayConflict(PlayerError):
    """Not possible in the game's present state (HTTP 409)."""

    status = 409


class Pauses:
    """The pause half of AwayBook (which supplies the attributes and helpers below)."""

    clock: GameClock
    db: SqlDb
    players: PlayerStore
    append: Callable[[str, NewEvent], int]
    base_url: Callable[[], str]

    def now(self) -> datetime: ...
    def stops_of(self, game_id: str, seat: str, a: datetime, b: datetime) -> list[Stop]: ...
    def _open(self, game_id: str) -> list[Any]: ...
    def _move(self, game_id: str, seat: str, due: datetime, why: str) -> None: ...
    def _send(self, notices: list[dict[str, Any]]) -> None: ...

    def pause(self, game_id: str) -> dict[str, Any] | None:
        """The game's pause asked or running (None when there is none)."""
        row = self.db.one("SELECT id, asked_by, asked_seq, asked_at, agreed, paused_at FROM away_pauses "
                          "WHERE game_id = ? AND ended_at IS NULL ORDER BY asked_at DESC", (game_id,))
        if row is None:
            return None
        return {"id": row[0], "asked_by": row[1], "asked_seq": row[2], "asked_at": row[3],
                "agreed": json.loads(row[4]), "paused": row[5] is not None, "paused_at": row[5]}

    def ask_pause(self, game_id: str, seat: str) -> dict[str, Any]:
        self._active(game_id)
        if self.pause(game_id) is not None:
            raise AwayConflict("a pause is asked or running already in this game")
        seq = self.append(game_id, NewEvent(PAUSE_ASKED, seat, {}))
        self.db.execute("INSERT INTO away_pauses (id, game_id, asked_by, asked_seq, asked_at, agreed) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (sortable_id("z"), game_id, seat, seq, iso(self.now()),
                                                      json.dumps([seat])))
        self._tell_seats(game_id, seat, N_("Pause asked: %(game)s"),
                         N_("%(seat)s asks to pause the %(game)s: open the game to agree (or decline)."))
        found = self.pause(game_id)
        assert found is not None
        return found

    def agree_pause(self, game_id: str, seat: str) -> dict[str, Any]:
        """The seat agrees; when every seat has, the clocks stop (each keeps its time left)."""
        roles = self._active(game_id)
        p = self.pause(game_id)
        if p is None or p["paused"]:
            raise AwayConflict("there is no pause asked to agree to")
        if seat in p["agreed"]:
            raise AwayConflict("you have agreed to this pause already")
        agreed = sorted(set(p["agreed"]) | {seat})
        paused = set(agreed) >= set(roles)
        now = self.now()
        remaining = {d.seat: max(0, running_seconds(self.stops_of(game_id, d.seat, now, parse_iso(d.due_at)), now,
                                                    parse_iso(d.due_at)))
                     for d in self._open(game_id) if parse_iso(d.due_at) != PAUSED}
        if self.db.execute("UPDATE away_pauses SET agreed = ?, paused_at = ?, remaining = ? WHERE id = ? "
                           "AND agreed = ? AND ended_at IS NULL",
                           (json.dumps(agreed), iso(now) if paused else None, json.dumps(remaining),
                            p["id"], json.dumps(p["agreed"]))) != 1:
            raise AwayConflict("the pause changed meanwhile; look again")
        self.append(game_id, NewEvent(PAUSE_AGREED, seat, {"asked": p["asked_seq"], "paused": paused}))
        if paused:
            for s in sorted(remaining):
                self._move(game_id, s, PAUSED, "paused")
            self._tell_seats(game_id, seat, N_("Game paused: %(game)s"),
                             N_("Every seat agreed: the %(game)s is paused and its clocks stopped until a seat "
                                "resumes it."))
        found = self.pause(game_id)
        assert found is not None
        return found

    def end_pause(self, game_id: str, seat: str) -> dict[str, Any]:
        """Resume a paused game, or withdraw / decline a pause asked: the clocks run again,
        each with the time it had left."""
        self._active(game_id)
        p = self.pause(game_id)
        if p is None:
            raise AwayConflict("this game is not paused and no pause is asked")
        now = self.now()
        if self.db.execute("UPDATE away_pauses SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                           (iso(now), p["id"])) != 1:
            raise AwayConflict("the pause changed meanwhile; look again")
        self.append(game_id, NewEvent(PAUSE_ENDED, seat, {"asked": p["asked_seq"]}))
        if p["paused"]:
            row = self.db.one("SELECT remaining FROM away_pauses WHERE id = ?", (p["id"],))
            remaining = json.loads(row[0]) if row else {}
            ctl = self.clock.time_control(game_id)
            for d in self._open(game_id):
                if parse_iso(d.due_at) != PAUSED:
                    continue
                left = remaining.get(d.seat)
                if left is None:  # a turn that began while paused: its whole time
                    left = (ctl[0].move_time.total_seconds() if ctl[0].mode == "per_move" else self.clock.bank(game_id, d.seat) or 0) \
                        if ctl else DAY
                self._move(game_id, d.seat, due_after(self.stops_of, game_id, d.seat, now, int(left)), "resumed")
            self._tell_seats(game_id, seat, N_("Game resumed: %(game)s"),
                             N_("%(seat)s resumed the %(game)s: its clocks run again."))
        return {"game_id": game_id, "ended": iso(now), "was_paused": p["paused"]}

    def _active(self, game_id: str) -> list[str]:
        summary = self.clock.store.summary(game_id)
        if summary is None or summary.status != "active":
            raise AwayConflict("only a game in play can be paused or resumed")
        created = self.clock.store.read(game_id, upto=0)
        return [str(r) for r in created[0].payload.get("roles", [])] if created else []


    def _tell_seats(self, game_id: str, seat: str, subject: str, text: str) -> None:
        """Tell the other seats' players, each in their language: the subject names the game by its
        titles (its id at the end), the text by its titles and id, the seat by the game's name for it."""
        base = self.base_url().rstrip("/")
        store = self.clock.store
        summary = store.summary(game_id)
        title = game_titled(store, game_id)
        named = game_named(store, game_id)
        who = words(seat_name(seat, summary.game if summary else None))
        said, told = tagged(words(subject, game=title), game_id), words(text, seat=who, game=named)
        self._send([{"player_id": p, "kind": "leave", "subject": said, "text": told, "game_id": game_id,
                     "tournament_id": None, "link": f"{base}/games/{game_id}" if base else None}
                    for s, p in sorted(self.players.owners(game_id).items()) if s != seat])
