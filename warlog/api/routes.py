"""The JSON API under /api/v1 (described by /api/v1/openapi.json)."""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context, url_for
from marshmallow import Schema, ValidationError

from rules import all_games
from validators.listing import GamesQuerySchema
from validators.requests import (
    AddDiceSchema,
    CreateGameSchema,
    EventsQuerySchema,
    ForkSchema,
    JoinSchema,
    MoveQuerySchema,
    MoveSchema,
    RulingSchema,
    StateQuerySchema,
    UmpireSchema,
)
from warlog.api.export_media import export_mimetype
from warlog.api.openapi import openapi_document
from warlog.games.listing import game_json, games_page, next_query
from warlog.games.service import Forbidden, NotFound, ServiceError, Unauthorized, Unprocessable, Warlog
from warlog.judging import wakeup
from warlog.render import seat_label
from warlog.rulings import sandbox_dice
from warlog.rulings.sandbox import example_state, forced_faces, fork
from warlog.trust.rounds import public_rows
from warlog.web.boundary import json_object
from warlog.web.errors import install_api_errors
from warlog.web.pages import await_judgement, waiter_slot
from warlog.web.pageutil import guard_private, private

api = Blueprint("api", __name__, url_prefix="/api/v1")
install_api_errors(api, 'the API')


def service() -> Warlog:
    return current_app.extensions["warlog"]


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        raise ServiceError("the Authorization header must be 'Bearer <token>'")
    if not token.strip():  # "Bearer" and no token: no credentials (RFC 9110 15.5.2), as without the header
        raise Unauthorized("the Authorization header names no token: 'Bearer <token>'")
    return token.strip()


@functools.cache
def _schema(cls: type[Schema]) -> Schema:
    """One instance of each request schema: building one deep-copies its declared fields (two a
    move's POST were a tenth of its CPU), and `load` keeps no state on the instance."""
    return cls()


def body(schema: type[Schema]) -> dict[str, Any]:
    data = json_object(ServiceError)
    try:
        loaded: dict[str, Any] = _schema(schema).load(data)
    except ValidationError as err:
        raise Unprocessable("the request does not fit its schema", fields=err.messages) from None
    return loaded


def query(schema: type[Schema]) -> dict[str, Any]:
    try:
        loaded: dict[str, Any] = _schema(schema).load(request.args.to_dict())
    except ValidationError as err:
        raise ServiceError("bad query parameters", fields=err.messages) from None
    return loaded


@api.before_request
def _private_game() -> None:
    # a duplicate round's game while the round runs: its player's alone (a malformed header is
    # the route's to refuse, as before)
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    guard_private(token.strip() if scheme.lower() == "bearer" else None)


@api.after_request
def _private(resp: Response) -> Response:
    return private(resp)  # answers depend on the bearer token


@api.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())


@api.get("/games")
def list_games() -> Response:
    """Newest first, a page at a time: `next` is the path of the next page (null on the last)."""
    try:
        q = _schema(GamesQuerySchema).load({k: v for k, v in request.args.items() if v != ""})
    except ValidationError as err:
        raise ServiceError("bad query parameters", fields=err.messages) from None
    page = games_page(service().store, q["game"], q["status"], q["limit"], q["cursor"])
    more = next_query(page, q["game"], q["status"], q["limit"])
    return jsonify({"games": [game_json(r) for r in public_rows(service(), page.rows)],
                    "next": f"{request.path}?{more}" if more else None})


@api.get("/catalogue")
def catalogue() -> Response:
    out = []
    for g in all_games():
        out.append({
            "game": g.name, "title": g.title, "rules_version": g.version, "solitaire": g.solitaire,
            "scenarios": [{"id": s.id, "title": s.title, "roles": list(s.roles), "description": s.description}
                          for s in g.scenarios().values()],
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                         "description": o.description} for o in g.options().values()],
        })
    return jsonify({"games": out})


@api.post("/games")
def create_game() -> tuple[Response, int]:
    data = body(CreateGameSchema)
    created = service().create_game(data["game"], data["scenario"], data["options"], data["sandbox"],
                                    creator=data["creator"])
    return jsonify(with_seat_tokens(created)), 201


@api.post("/games/<game_id>/umpire")
def invite_umpire(game_id: str) -> tuple[Response, int]:
    """A seat of a player-created game has an umpire invitation made (Warlog.invite_umpire)."""
    token = bearer()
    svc = service()
    svc.viewer(game_id, token, required=True)
    data = body(UmpireSchema)
    out = svc.invite_umpire(game_id, token, data["text"])
    url = url_for("pages.invitation", game_id=game_id, token=out["umpire_token"], _external=True)
    return jsonify({**out, "url": url}), 201


def with_seat_tokens(created: dict[str, Any]) -> dict[str, Any]:
    """The create answer's `seats` map also as a typed list (validators.responses.SeatTokenSchema)."""
    game = service().created(created["id"]).payload["game"]
    tokens = [{"seat": seat, "token": token, "display_name": seat_label(game, seat),
               "url": url_for("pages.invitation", game_id=created["id"], token=token, _external=True)}
              for seat, token in created["seats"].items()]
    return {**created, "seat_tokens": tokens}


@api.get("/games/schemas/<game>/state")
def state_schema(game: str) -> Response:
    """The game's state JSON Schema (docs/sandbox.md), with its scenarios' start states as `examples`."""
    g = Warlog._game(game)
    schema = g.state_schema()
    if schema is None:
        raise NotFound(f"{g.title} publishes no state schema")
    examples = {sc: example_state(g, sc) for sc in g.scenarios()}
    return jsonify({**schema, "examples": list(examples.values()), "x-example-scenarios": list(examples),
                    "x-forced-dice-faces": forced_faces(g), "x-forced-dice": g.forcible_dice()})


@api.post("/games/<game_id>/fork")
def fork_game(game_id: str) -> tuple[Response, int]:
    """A dispute sandbox from this game's step N (director, or anyone once the game has ended)."""
    data = body(ForkSchema)
    token = bearer()
    try:
        out = fork(service(), game_id, token, data["step"], data["patch"], data["dice"],
                   data["on_dice_exhausted"], data["dry_run"])
    except Forbidden as err:
        if token is None:  # no credentials at all: a 401 (RFC 9110 15.5.2), as every route that needs a token
            raise Unauthorized(f"{err.message}: send 'Authorization: Bearer <token>'") from None
        raise
    return jsonify(out if data["dry_run"] else with_seat_tokens(out)), 200 if data["dry_run"] else 201


@api.post("/games/<game_id>/dice")
def add_dice(game_id: str) -> tuple[Response, int]:
    """A stop sandbox's director adds forced dice; the move waiting for them is judged (warlog.rulings.sandbox_dice)."""
    token = bearer()
    svc = service()
    svc.viewer(game_id, token, required=True)
    data = body(AddDiceSchema)
    return jsonify(sandbox_dice.add_dice(svc, game_id, token, data["dice"])), 201


@api.get("/games/<game_id>")
def game_info(game_id: str) -> Response:
    return jsonify(service().info(game_id))


@api.post("/games/<game_id>/join")
def join(game_id: str) -> Response:
    data = body(JoinSchema)
    return jsonify(service().join(game_id, bearer(), data["entropy"]))


@api.post("/games/<game_id>/moves")
def submit_move(game_id: str) -> tuple[Response, int]:
    """The move recorded (202); with `?wait=S` the answer waits up to S seconds for its
    judgement, with `?listing=true` it carries the seat's next listing (docs/api.md, "The next
    listing"): a client then needs neither GET of the game nor of its actions between moves."""
    token = bearer()
    svc = service()
    viewer = svc.viewer(game_id, token, required=True)  # 404/401/403 before the body is judged
    data = body(MoveSchema)
    asked = query(MoveQuerySchema)
    since = wakeup.generation(game_id)  # before the append: a judgement after it wakes the wait
    out = svc.submit_move(game_id, token, data["action"], data["expected_seq"], data["idempotency_key"])
    if asked["wait"] or asked["listing"]:
        with svc.one_view():
            if asked["wait"]:
                with waiter_slot() as admitted:  # a wait holds a web thread, as the long-poll's does
                    if admitted:
                        # a resend's move may be long judged: look at once (-1 is no generation)
                        await_judgement(game_id, out["seq"], -1 if out["duplicate"] else since, asked["wait"])
            out.update(svc.after_move(game_id, viewer, out["seq"], asked["listing"]))
    return jsonify(out), 202


@api.get("/games/<game_id>/moves/<int:seq>")
def move(game_id: str, seq: int) -> Response:
    svc = service()
    return jsonify(svc.move(game_id, seq, svc.viewer(game_id, bearer())))


@api.post("/games/<game_id>/moves/<int:seq>/take-back")
def take_back(game_id: str, seq: int) -> Response:
    """The seat's own move, not judged yet, taken back (Warlog.take_back)."""
    return jsonify(service().take_back(game_id, bearer(), seq))


@api.get("/games/<game_id>/events")
def events(game_id: str) -> Response:
    q = query(EventsQuerySchema)
    svc = service()
    return jsonify(svc.events(game_id, q["after"], svc.viewer(game_id, bearer()), q["limit"]))


@api.get("/games/<game_id>/state")
def state(game_id: str) -> Response:
    q = query(StateQuerySchema)
    svc = service()
    return jsonify(svc.state(game_id, q["at"], svc.viewer(game_id, bearer())))


@api.get("/games/<game_id>/actions")
def actions(game_id: str) -> Response:
    svc = service()
    with svc.one_view():  # the events read for the state also bring the seed book forward (Warlog.actions)
        return jsonify(svc.actions(game_id, svc.viewer(game_id, bearer())))


@api.post("/games/<game_id>/rulings")
def ruling(game_id: str) -> tuple[Response, int]:
    token = bearer()
    svc = service()
    svc.viewer(game_id, token, required=True)
    data = body(RulingSchema)
    key = data.pop("idempotency_key", None)
    return jsonify(svc.submit_ruling(game_id, token, data, key)), 202


@api.get("/games/<game_id>/export")
def export(game_id: str) -> Response:
    svc = service()
    lines = svc.export(game_id, svc.viewer(game_id, bearer()))
    return Response(stream_with_context(lines), mimetype=export_mimetype(),
                    headers={"Content-Disposition": f'attachment; filename="warlog-{game_id}.jsonl"'})
