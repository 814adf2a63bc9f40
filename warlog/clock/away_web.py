"""Leave, quiet days and pauses on the web (warlog.clock.leave).

    GET  /api/v1/players/me/leave        the player's leave, grants, allowance, quiet hours, policy
    POST /api/v1/players/me/leave        {"from", "to"} (player token): declare leave, 201
    PUT  /api/v1/players/me/quiet        {"windows": [{"day", "from", "to"}]} (player token)
    GET  /api/v1/games/<id>/pause        the pause asked or running, or null
    POST /api/v1/games/<id>/pause        {"do": "ask" | "agree" | "resume"} (a seat's bearer token)
    POST /api/v1/games/<id>/leave-grants {"seat", "days", "reason"} (the director's bearer token)

Pages: POST /me/leave and /me/quiet (the forms on /me), POST /games/<id>/pause (the game page).
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, request, url_for
from marshmallow import Schema, ValidationError

from validators.players import GrantLeaveSchema, LeaveSchema, PauseSchema, QuietSchema
from warlog.clock.leave import AwayBook, AwayRefused, LeavePolicy
from warlog.games.service import Forbidden
from warlog.players.store import Player, PlayerError
from warlog.players.web import current_player
from warlog.web.boundary import request_json
from warlog.web.errors import install_api_errors, install_page_errors
from warlog.web.pageutil import PageError, check_csrf, finish, viewer_for

away_api = Blueprint("away_api", __name__, url_prefix="/api/v1")
install_api_errors(away_api, 'the time-away API')
away_pages = Blueprint("away_pages", __name__)
install_page_errors(away_pages, 'a time-away page')


class NotSignedIn(PlayerError):
    status = 401


def book() -> AwayBook:
    found: AwayBook = current_app.extensions["warlog_away"]
    return found


def _load(schema: Schema, data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise PlayerError("the request body must be a JSON object")
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as err:
        raise AwayRefused("; ".join(f"{k!r}: {' '.join(map(str, v))}" for k, v in _flat(err.messages))) from None
    return loaded


def _flat(messages: Any, prefix: str = "") -> list[tuple[str, list[Any]]]:
    if isinstance(messages, dict):
        out: list[tuple[str, list[Any]]] = []
        for k, v in messages.items():
            out += _flat(v, f"{prefix}{k}" if not prefix else f"{prefix}.{k}")
        return out
    return [(prefix or "body", messages if isinstance(messages, list) else [messages])]


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _player(cookie: bool) -> Player:
    player = current_player(cookie=cookie)
    if player is None:
        raise NotSignedIn("this needs 'Authorization: Bearer <player token>'")
    return player


def away_doc(player: Player) -> dict[str, Any]:
    b = book()
    year = b.now().year
    return {"leaves": [lv.to_json() for lv in b.leaves(player.id)], "grants": b.grants(player.id),
            "allowance": b.allowance(player.id, year), "quiet": b.quiet(player.id), "policy": b.policy().to_json()}


def _quiet_windows(data: dict[str, Any]) -> list[dict[str, str]]:
    return [{"day": w["day"], "from": w["from_"], "to": w["to"]} for w in data["windows"]]


@away_api.get("/players/me/leave")
def api_leave() -> Response:
    return jsonify(away_doc(_player(cookie=True)))


@away_api.post("/players/me/leave")
def api_declare() -> tuple[Response, int]:
    player = _player(cookie=False)
    data = _load(LeaveSchema(), request_json())
    leave = book().declare(player.id, data["from_"], data["to"])
    return jsonify({"leave": leave.to_json(), **away_doc(player)}), 201


@away_api.put("/players/me/quiet")
def api_quiet() -> Response:
    player = _player(cookie=False)
    book().set_quiet(player.id, _quiet_windows(_load(QuietSchema(), request_json())))
    return jsonify(away_doc(player))


def _seat(game_id: str, token: str | None) -> str:
    viewer = current_app.extensions["warlog"].viewer(game_id, token, required=True)
    if viewer.seat is None or viewer.director:
        raise Forbidden("only a seat of the game pauses or resumes it")  # the director's token too: 403
    return str(viewer.seat)


def _pause(game_id: str, seat: str, do: str) -> dict[str, Any]:
    b = book()
    if do == "ask":
        return b.ask_pause(game_id, seat)
    if do == "agree":
        return b.agree_pause(game_id, seat)
    return b.end_pause(game_id, seat)


@away_api.get("/games/<game_id>/pause")
def api_pause_state(game_id: str) -> Response:
    current_app.extensions["warlog"].created(game_id)  # 404 for an unknown game
    return jsonify({"game_id": game_id, "pause": book().pause(game_id)})


@away_api.post("/games/<game_id>/pause")
def api_pause(game_id: str) -> Response:
    seat = _seat(game_id, _bearer())
    do = _load(PauseSchema(), request_json())["do"]
    return jsonify({"game_id": game_id, "done": _pause(game_id, seat, do), "pause": book().pause(game_id)})


@away_api.post("/games/<game_id>/leave-grants")
def api_grant(game_id: str) -> tuple[Response, int]:
    viewer = current_app.extensions["warlog"].viewer(game_id, _bearer(), required=True)
    if not viewer.director:
        return jsonify({"error": "only the game's director grants extra leave"}), 403
    data = _load(GrantLeaveSchema(), request_json())
    return jsonify(book().grant(game_id, data["seat"], data["days"], data["reason"],
                                by=f"director of game {game_id}")), 201


# -- pages ----------------------------------------------------------------------------------------

@away_pages.before_request
def _guard() -> None:
    check_csrf()


@away_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


def _signed_in() -> Player:
    player = current_player()
    if player is None:
        raise PageError(401, "Sign in first: ask for a sign-in link on the sign-in page.", "Not signed in")
    return player


def _day(name: str) -> date:
    try:
        return date.fromisoformat(request.form.get(name, "").strip())
    except ValueError:
        raise AwayRefused(f"'{name}' is a date, YYYY-MM-DD") from None


@away_pages.post("/me/leave")
def me_leave() -> Any:
    book().declare(_signed_in().id, _day("from"), _day("to"))
    return redirect(url_for("players_pages.me"), code=303)


@away_pages.post("/me/quiet")
def me_quiet() -> Any:
    days = [d for d in ("mon", "tue", "wed", "thu", "fri", "sat", "sun") if request.form.get(f"quiet_{d}")]
    book().set_quiet(_signed_in().id, [{"day": d, "from": "00:00", "to": "24:00"} for d in days])
    return redirect(url_for("players_pages.me"), code=303)


@away_pages.post("/games/<game_id>/pause")
def game_pause(game_id: str) -> Any:
    viewer = viewer_for(game_id)
    if viewer.seat is None or viewer.director:
        raise PageError(403, "Only a seat of the game pauses or resumes it.")
    do = request.form.get("do", "")
    if do not in ("ask", "agree", "resume"):
        raise PageError(400, "Choose to ask for a pause, agree to it, or resume.")
    _pause(game_id, str(viewer.seat), do)
    return redirect(url_for("pages.game", game_id=game_id), code=303)


def server_policy(conf: Any) -> LeavePolicy | None:
    """WARLOG_LEAVE_POLICY (JSON), the server's allowance; None when unset. A bad one stops the start."""
    raw = conf.get("WARLOG_LEAVE_POLICY", conf.get("LEAVE_POLICY"))
    if raw in (None, ""):
        return None
    try:
        doc = json.loads(raw) if isinstance(raw, str) else raw
        return LeavePolicy(**doc)
    except (ValueError, TypeError, AwayRefused) as err:
        raise ValueError(f"WARLOG_LEAVE_POLICY is not a leave policy: {err}") from None


def init_app(app: Flask, away: AwayBook) -> None:
    app.extensions["warlog_away"] = away
    policy = server_policy(app.config)
    if policy is not None and policy != away.policy():
        away.set_policy(policy)
    app.register_blueprint(away_api)
    app.register_blueprint(away_pages)

    @app.context_processor
    def _away() -> dict[str, Any]:
        return {"away_of": away_doc, "pause_of": away.pause}
