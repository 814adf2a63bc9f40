"""Messages on the web (warlog.messages.book).

    GET  /api/v1/games/<id>/messages                   the messages the bearer may read
    POST /api/v1/games/<id>/messages                   {"to", "text"} (a seat's bearer token), 201
    POST /api/v1/games/<id>/messages/<mid>/report      {"reason"} (a recipient's bearer token)
    POST /api/v1/games/<id>/messages/mute              {"muted": true | false} (a seat's bearer token)

The bearer is a seat token, a player token (the seat that player owns), the game's director
token, or the player token of a director of the game's tournament. Pages: the panel beside the
board (`messages_of`), and POST /games/<id>/messages, …/<mid>/report, …/mute (its forms).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, request, url_for
from marshmallow import Schema, ValidationError

from ledger.events import DIRECTOR, DISPUTE_RAISED
from validators.players import MuteMessagesSchema, ReportMessageSchema, SendMessageSchema
from warlog.games.service import SPECTATOR, Forbidden, ServiceError, Unauthorized, Unprocessable, Viewer
from warlog.messages.book import PER_HOUR, TEXT_MAX, MessageBook
from warlog.web.boundary import json_object
from warlog.web.errors import install_api_errors, install_page_errors
from warlog.web.pageutil import PageError, check_csrf, finish, seat_token

messages_api = Blueprint("messages_api", __name__, url_prefix="/api/v1")
install_api_errors(messages_api, 'the messages API')
messages_pages = Blueprint("messages_pages", __name__)
install_page_errors(messages_pages, 'a messages page', titles={422: 'Not sent', 429: 'Not sent'})


def book() -> MessageBook:
    found: MessageBook = current_app.extensions["warlog_messages"]
    return found


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _tournament(game_id: str) -> Any:
    tournaments = current_app.extensions.get("warlog_tournaments")
    if tournaments is None:
        return None
    tid = tournaments.store.game_tournament(game_id)
    return tournaments.get(tid) if tid else None


def _directors(game_id: str) -> list[str]:
    """The players who direct the game's tournament (mailed what is sent or reported to the director)."""
    t = _tournament(game_id)
    return [t.director, *t.co_directors] if t is not None else []


def _reader(game_id: str, token: str | None) -> str | None:
    """The seat `token` speaks for, "director", or None (a spectator, another game's player)."""
    svc = current_app.extensions["warlog"]
    try:
        viewer: Viewer = svc.viewer(game_id, token)
    except Forbidden:
        viewer = SPECTATOR
    if viewer.seat is not None:
        return str(viewer.seat)
    if viewer.director:
        return DIRECTOR
    players = current_app.extensions.get("warlog_players")
    if token and players is not None:
        player = players.by_token(token) or players.by_session(token)
        if player is not None and player.id in _directors(game_id):
            return DIRECTOR
    return None


def _disputed(game_id: str) -> bool:
    """A dispute is raised in the game: in its own ledger, or in its tournament's stream."""
    if current_app.extensions["warlog"].store.events_of_types(game_id, (DISPUTE_RAISED,)):
        return True
    t = _tournament(game_id)
    return t is not None and any(d.get("game_id") == game_id for d in t.disputes.values())


def panel(game_id: str, token: str | None) -> dict[str, Any] | None:
    """What `token` reads of the game's messages, or None when it may read none."""
    reader = _reader(game_id, token)
    if reader is None:
        return None
    b = book()
    messages = b.readable(game_id, reader, _disputed(game_id) if reader == DIRECTOR else False)
    muted = reader != DIRECTOR and reader in b.muted_seats(game_id)
    return {"game_id": game_id, "reader": reader, "muted": muted,
            "messages": [m.to_json(reader) for m in messages]}


def _seat(game_id: str, token: str | None) -> str:
    if not token:
        raise Unauthorized("this needs 'Authorization: Bearer <seat token>'")
    reader = _reader(game_id, token)
    if reader is None or reader == DIRECTOR:
        raise Forbidden("only a seat of the game sends, reports or mutes its messages")
    return reader


def _body(schema: Schema) -> dict[str, Any]:
    """The request body loaded by its schema (validators.players); a body that does not fit is a 422."""
    try:
        loaded: dict[str, Any] = schema.load(json_object(ServiceError))
    except ValidationError as err:
        raise Unprocessable("the request does not fit its schema", fields=err.messages) from None
    return loaded


@messages_api.get("/games/<game_id>/messages")
def api_messages(game_id: str) -> Response:
    token = _bearer()
    if not token:
        raise Unauthorized("this needs 'Authorization: Bearer <token>' of a seat or the director")
    found = panel(game_id, token)
    if found is None:
        raise Forbidden("the messages of a game are its seats' (and, once a dispute is raised, its director's)")
    return jsonify(found)


@messages_api.post("/games/<game_id>/messages")
def api_send(game_id: str) -> tuple[Response, int]:
    seat = _seat(game_id, _bearer())
    data = _body(SendMessageSchema())
    msg = book().send(game_id, seat, data["to"], data["text"], _directors(game_id))
    return jsonify({"message": msg.to_json(seat)}), 201


@messages_api.post("/games/<game_id>/messages/<message_id>/report")
def api_report(game_id: str, message_id: str) -> Response:
    seat = _seat(game_id, _bearer())
    msg = book().report(game_id, seat, message_id, _body(ReportMessageSchema())["reason"], _directors(game_id))
    return jsonify({"message": msg.to_json(seat)})


@messages_api.post("/games/<game_id>/messages/mute")
def api_mute(game_id: str) -> Response:
    seat = _seat(game_id, _bearer())
    muted = _body(MuteMessagesSchema())["muted"]
    return jsonify({"game_id": game_id, "seat": seat, "muted": book().mute(game_id, seat, muted)})


# -- pages ----------------------------------------------------------------------------------------

@messages_pages.before_request
def _guard() -> None:
    check_csrf()


@messages_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


def _page_seat(game_id: str) -> str:
    reader = _reader(game_id, seat_token(game_id))
    if reader is None or reader == DIRECTOR:
        raise PageError(403, "Only a seat of the game sends, reports or mutes its messages.")
    return reader


def _back(game_id: str) -> Any:
    return redirect(url_for("pages.game", game_id=game_id) + "#messages", code=303)


@messages_pages.post("/games/<game_id>/messages")
def page_send(game_id: str) -> Any:
    seat = _page_seat(game_id)
    to = request.form.get("to", "opponents")
    book().send(game_id, seat, to if to in ("opponents", DIRECTOR) else [to], request.form.get("text", ""),
                _directors(game_id))
    return _back(game_id)


@messages_pages.post("/games/<game_id>/messages/<message_id>/report")
def page_report(game_id: str, message_id: str) -> Any:
    book().report(game_id, _page_seat(game_id), message_id, request.form.get("reason", ""), _directors(game_id))
    return _back(game_id)


@messages_pages.post("/games/<game_id>/messages/mute")
def page_mute(game_id: str) -> Any:
    book().mute(game_id, _page_seat(game_id), request.form.get("muted") == "1")
    return _back(game_id)


def init_app(app: Flask, messages: MessageBook) -> None:
    app.extensions["warlog_messages"] = messages
    app.register_blueprint(messages_api)
    app.register_blueprint(messages_pages)

    @app.context_processor
    def _messages() -> dict[str, Any]:
        def messages_of(game_id: str) -> dict[str, Any] | None:
            found = panel(game_id, seat_token(game_id))
            if found is not None:
                found.update(limit=TEXT_MAX, per_hour=PER_HOUR,
                             roles=current_app.extensions["warlog"].created(game_id).payload["roles"])
            return found

        return {"messages_of": messages_of}
