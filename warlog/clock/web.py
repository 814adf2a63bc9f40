"""A game's clock through the API: its director sets a time control on an ordinary game
(tournaments set theirs through GameClock); anyone reads the deadlines and the clock's acts
(they are public: they say when, never what).

    POST /api/v1/games/<id>/clock   director's bearer token; body: a TimeControl
    GET  /api/v1/games/<id>/clock   {"control", "tournament_id", "deadlines", "acts"}
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from marshmallow import ValidationError

from validators.tournaments import TimeControlSchema
from warlog.clock.clock import ClockError, GameClock, TimeControl
from warlog.games.service import ServiceError
from warlog.web.boundary import json_object
from warlog.web.errors import install_api_errors

clock_api = Blueprint("clock_api", __name__, url_prefix="/api/v1/games")
install_api_errors(clock_api, 'the clock API')


def clock() -> GameClock:
    found: GameClock = current_app.extensions["warlog_clock"]
    return found


@clock_api.before_request
def _private_game() -> None:
    """A duplicate round's game is its player's alone while the round runs (warlog.web.pageutil.guard_private)."""
    from warlog.web.pageutil import guard_private

    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    guard_private(token.strip() if scheme.lower() == "bearer" else None)


@clock_api.errorhandler(ClockError)
def _clock_error(err: ClockError) -> tuple[Response, int]:
    return jsonify({"error": str(err)}), 422


def _doc(game_id: str) -> dict[str, Any]:
    svc = current_app.extensions["warlog"]
    roles = svc.created(game_id).payload["roles"]  # 404 for an unknown game
    ctl = clock().time_control(game_id)
    now = clock().now()
    deadlines = {seat: d.to_json(now) for seat in roles if (d := clock().deadline(game_id, seat)) is not None}
    return {"game_id": game_id, "control": ctl[0].to_json() if ctl else None,
            "tournament_id": ctl[1] if ctl else None, "deadlines": deadlines,
            "acts": [{"act": a.act, "seat": a.seat, "at": a.at, "detail": a.detail} for a in clock().acts(game_id)]}


@clock_api.get("/<game_id>/clock")
def get_clock(game_id: str) -> Response:
    return jsonify(_doc(game_id))


@clock_api.post("/<game_id>/clock")
def set_clock(game_id: str) -> Any:
    svc = current_app.extensions["warlog"]
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    viewer = svc.viewer(game_id, token.strip() if scheme.lower() == "bearer" else None, required=True)
    if not viewer.director:
        return jsonify({"error": "only the game's director sets its clock"}), 403
    data = json_object(ServiceError)
    try:  # the schema the OpenAPI document shows for this body (validators.tournaments.TimeControlSchema)
        data = TimeControlSchema().load(data)
    except ValidationError as err:
        return jsonify({"error": "the body does not fit the time control schema", "fields": err.messages}), 422
    control = TimeControl.from_json(data)
    if svc.summary(game_id).status == "ended":
        return jsonify({"error": "the game has ended"}), 409
    clock().set_time_control(game_id, control)
    return jsonify(_doc(game_id))


def init_app(app: Flask, the_clock: GameClock) -> None:
    app.extensions["warlog_clock"] = the_clock
    app.extensions["warlog_deadline_of"] = the_clock.deadline_json
    app.register_blueprint(clock_api)
