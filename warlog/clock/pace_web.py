"""The pace record (warlog.clock.pace) where people read it: a player's profile page
(/players/<id>) and `GET /api/v1/players/<id>/pace`, and the director's desk beside an overdue
game. Each game's figures come from its own ledger; its time control from the clock (a
tournament's game: the tournament's), its extensions from the tournament's stream, so a
tournament game's figures are the ones its bundle carries.

A private game (a duplicate round's, while the round runs) is left out of the public record.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify

from ledger.events import Event
from warlog.clock.pace import SeatPace, game_pace, parse_time, record, tournament_pace
from warlog.web.errors import install_api_errors

pace_api = Blueprint("pace_api", __name__, url_prefix="/api/v1")
install_api_errors(pace_api, 'the pace API')
GAMES_READ = 200  # a profile reads at most this many of the player's newest games


def _extensions(tournament: Any, game_id: str, seat: str, player_id: str) -> list[tuple[str, datetime, int]]:
    return [(seat, parse_time(e["at"]), int(e.get("days", 0)) * 24 + int(e.get("hours", 0)))
            for e in tournament.extensions if e.get("game_id") == game_id and e.get("player_id") == player_id]


def player_record(app: Flask, player_id: str, public: bool = True) -> dict[str, Any]:
    """The player's pace record over their seats (the newest GAMES_READ games)."""
    from warlog.trust.rounds import private_reason

    service = app.extensions["warlog"]
    clock = app.extensions.get("warlog_clock")
    tournaments = app.extensions.get("warlog_tournaments")
    paces: list[SeatPace] = []
    for game_id, seat in app.extensions["warlog_players"].seats_of(player_id)[-GAMES_READ:]:
        if public and private_reason(service, game_id) is not None:
            continue
        events = service.store.read(game_id)
        ctl = clock.time_control(game_id) if clock is not None else None
        control, extensions = (ctl[0].to_json() if ctl else None), []
        if ctl and ctl[1] and tournaments is not None and tournaments.store.exists(ctl[1]):
            extensions = _extensions(tournaments.get(ctl[1]), game_id, seat, player_id)
        pace = game_pace(events, control, extensions).get(seat)
        if pace is not None:
            paces.append(pace)
    return record(paces)


def desk_pace(tournament_events: Sequence[Event], ledgers: dict[str, list[Event]], store: Any,
              players: set[str]) -> dict[str, Any]:
    """The desk's record of `players` (those of its overdue games) in this tournament."""
    def events_of(game_id: str) -> list[Event]:
        if game_id not in ledgers:
            ledgers[game_id] = store.read(game_id)
        return ledgers[game_id]

    return tournament_pace(tournament_events, events_of, players) if players else {}


def duration(seconds: Any) -> str:
    """A response time as people say it: 45 min, 2 h 05 min, 3 d 4 h."""
    if not isinstance(seconds, int):
        return "—"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min" if minutes else f"{seconds} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h"


@pace_api.get("/players/<player_id>/pace")
def api_pace(player_id: str) -> Any:
    if current_app.extensions["warlog_players"].get(player_id) is None:
        return jsonify({"error": f"no player {player_id}"}), 404
    return jsonify({"player_id": player_id, **player_record(current_app._get_current_object(), player_id)})  # type: ignore[attr-defined]


def init_app(app: Flask) -> None:
    app.register_blueprint(pace_api)
    app.add_template_filter(duration, "duration")

    @app.context_processor
    def _pace() -> dict[str, Any]:
        return {"pace_of": lambda player_id: player_record(current_app._get_current_object(), player_id)}  # type: ignore[attr-defined]
