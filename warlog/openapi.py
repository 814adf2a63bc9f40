"""The OpenAPI 3 document of /api/v1, built by apispec from the same marshmallow schemas
that check the requests, so the document cannot drift from what the server accepts."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from validators.listing import GamesQuerySchema
from validators.requests import (
    CreateGameSchema,
    EventsQuerySchema,
    JoinSchema,
    MoveSchema,
    RulingSchema,
    StateQuerySchema,
)

BEARER = [{"seat": []}]


def _json(ref: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": ref}}}


def _resp(description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {"type": "object", **extra}}}}


ERRORS = {
    "400": _resp("bad request: the body is not a JSON object, a query parameter is malformed, the Authorization "
                 "header is not 'Bearer <token>', or a field holds the NUL character",
                 properties={"error": {"type": "string"}, "fields": {"type": "object"}}),
    "401": _resp("missing Authorization: Bearer token"),
    "403": _resp("the token is not a seat (or director) of this game"),
    "404": _resp("no such game or step"),
    "409": _resp("stale expected_seq, or the game is not active", properties={"current_seq": {"type": "integer"}}),
    "422": _resp("the body does not fit its schema, or the action is malformed",
                 properties={"error": {"type": "string"}, "fields": {"type": "object"}}),
    "429": _resp("too many refused moves from this seat (see Retry-After)", properties={"error": {"type": "string"}}),
    "503": _resp("the ledger or the queue is unreachable just now; nothing was recorded (see Retry-After)",
                 properties={"error": {"type": "string"}}),
}
ALWAYS = ("400", "503")  # any request can be malformed, and any can meet an outage (issue 14)


def sandbox_paths(spec: APISpec) -> dict[str, dict[str, Any]]:
    """The dispute sandbox's fork and the games' state schemas (docs/sandbox.md)."""
    from validators.requests import ForkSchema

    spec.components.schema("Fork", schema=ForkSchema)
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    errors = {"type": "array", "items": {"type": "object", "properties": {
        "path": {"type": "string"}, "message": {"type": "string"}, "rule": {"type": "string", "nullable": True}}}}
    return {
        "/api/v1/games/{game_id}/fork": {"post": {
            "summary": "a dispute sandbox from step N (director; anyone once the game has ended), edited by a "
                       "JSON Patch, with forced dice; dry_run only checks", "parameters": [gid], "security": BEARER,
            "requestBody": _json("Fork"),
            "responses": {"201": _resp("created, as POST /games, with forked_from"),
                          "200": _resp("dry run: ok, errors, state, phase", properties={"errors": errors}),
                          "422": _resp("the position or dice do not fit: each error's path and rule",
                                       properties={"error": {"type": "string"}, "errors": errors}),
                          **{k: ERRORS[k] for k in ("403", "404")}}}},
        "/api/v1/games/schemas/{game}/state": {"get": {
            "summary": "the game's state JSON Schema, with every scenario's start state as examples",
            "parameters": [{"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": _resp("a JSON Schema (draft 2020-12)"), "404": ERRORS["404"],
                          "422": ERRORS["422"]}}},
    }


def log_paths() -> dict[str, dict[str, Any]]:
    """The transparency log (warlog.tlog; docs/ledger.md "Transparency log")."""
    size = {"type": "integer", "minimum": 0}
    head = _resp("a signed tree head", properties={
        "tree_size": size, "root_hash": {"type": "string"}, "timestamp": {"type": "string"},
        "public_key": {"type": "string"}, "signature": {"type": "string"}})
    no_key = _resp("no signing key is configured (WARLOG_LOG_KEY), or the ledger is unreachable")
    return {
        "/api/v1/log/head": {"get": {"summary": "the latest signed tree head of the transparency log",
                                     "responses": {"200": head, "503": no_key}}},
        "/api/v1/log/proof/{game_id}": {"get": {
            "summary": "inclusion proofs of the game's log entries against the tree head of `size` (default: now)",
            "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}},
                           {"name": "size", "in": "query", "required": False, "schema": size}],
            "responses": {"200": _resp("tree_head, and entries: index, entry, audit_path (hex)"),
                          "400": ERRORS["400"], "404": _resp("the game has no entry in the log (yet)"),
                          "503": no_key}}},
        "/api/v1/log/consistency": {"get": {
            "summary": "the consistency proof from tree size `from` to `to` (default: now), with both signed heads",
            "parameters": [{"name": "from", "in": "query", "required": True, "schema": {**size, "minimum": 1}},
                           {"name": "to", "in": "query", "required": False, "schema": size}],
            "responses": {"200": _resp("first, second (signed tree heads) and proof (hex)"), "400": ERRORS["400"],
                          "503": no_key}}},
    }


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    spec = APISpec(title="Warlog API", version="1", openapi_version="3.0.3", plugins=[MarshmallowPlugin()],
                   info={"description": "Event-sourced game log and umpire for play-by-email wargames."})
    spec.components.security_scheme("seat", {"type": "http", "scheme": "bearer",
                                             "description": "a seat token (invitation) or the director token"})
    for name, schema in (("CreateGame", CreateGameSchema), ("Join", JoinSchema), ("Move", MoveSchema),
                         ("Ruling", RulingSchema)):
        spec.components.schema(name, schema=schema)
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    paths: dict[str, dict[str, Any]] = {
        "/api/v1/catalogue": {"get": {"summary": "games, scenarios and options", "responses": {"200": _resp("ok")}}},
        "/api/v1/games": {
            "get": {"summary": "list games, newest first, a page at a time (cursor paging)",
                    "parameters": [{"in": "query", "schema": GamesQuerySchema}],
                    "responses": {"200": _resp("games, and `next`: the path of the next page or null", properties={
                        "games": {"type": "array", "items": {"type": "object"}},
                        "next": {"type": "string", "nullable": True}}), "400": ERRORS["400"]}},
            "post": {"summary": "create a game", "requestBody": _json("CreateGame"), "responses": {
                "201": _resp("created: id, seats (role -> token), director_token, seed_commitment", properties={
                    "id": {"type": "string"}, "seats": {"type": "object"}, "director_token": {"type": "string"},
                    "seed_commitment": {"type": "string"}}),
                **{k: ERRORS[k] for k in ("400", "422")}}},
        },
        "/api/v1/games/{game_id}": {"get": {"summary": "status, active_seats, seq", "parameters": [gid],
                                            "responses": {"200": _resp("ok"), "404": ERRORS["404"]}}},
        "/api/v1/games/{game_id}/join": {"post": {
            "summary": "take a seat (optionally adding entropy to the dice)", "parameters": [gid], "security": BEARER,
            "requestBody": _json("Join"), "responses": {"200": _resp("joined"), **{k: ERRORS[k] for k in ("401", "403", "404", "422")}}}},
        "/api/v1/games/{game_id}/moves": {"post": {
            "summary": "submit an action (one of GET .../actions)", "parameters": [gid], "security": BEARER,
            "requestBody": _json("Move"), "responses": {"202": _resp("accepted: seq of the submitted event"),
                                                       **{k: ERRORS[k] for k in ERRORS}}}},  # 409: stale, or not this seat's turn
        "/api/v1/games/{game_id}/moves/{seq}": {"get": {
            "summary": "pending | resolved (facts, dice, rules) | rejected (reasons, rules)",
            "parameters": [gid, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "responses": {"200": _resp("ok"), "404": ERRORS["404"]}}},
        "/api/v1/games/{game_id}/events": {"get": {
            "summary": "events after N, as the caller may see them", "parameters": [gid,
                {"in": "query", "schema": EventsQuerySchema}],  # limits from the schema that checks them
            "responses": {"200": _resp("ok"), **{k: ERRORS[k] for k in ("403", "404")}}}},
        "/api/v1/games/{game_id}/state": {"get": {
            "summary": "the state at step N as the caller may see it", "parameters": [gid,
                {"in": "query", "schema": StateQuerySchema}],
            "responses": {"200": _resp("ok"), **{k: ERRORS[k] for k in ("403", "404")}}}},
        "/api/v1/games/{game_id}/actions": {"get": {
            "summary": "every legal action for the caller's seat now, with the prompt and expected_seq",
            "parameters": [gid], "responses": {"200": _resp("ok"), **{k: ERRORS[k] for k in ("403", "404")}}}},
        "/api/v1/games/{game_id}/rulings": {"post": {
            "summary": "a director's ruling (void, adjust, award, reveal_seed)", "parameters": [gid],
            "security": BEARER, "requestBody": _json("Ruling"),
            "responses": {"202": _resp("accepted"), **{k: ERRORS[k] for k in ("401", "403", "404", "409", "422")}}}},
        "/api/v1/games/{game_id}/export": {"get": {
            "summary": "JSON Lines export (after the end; the director at any time)", "parameters": [gid],
            "responses": {"200": {"description": "one event per line",
                                  "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
                          **{k: ERRORS[k] for k in ("403", "404")}}}},
    }
    paths.update(log_paths())
    paths.update(sandbox_paths(spec))
    from warlog.players import openapi as players_openapi  # players and clocks
    from warlog.tournaments.openapi import tournament_paths

    spec.components.security_scheme(*players_openapi.security_scheme())
    paths.update(players_openapi.paths())
    paths.update(tournament_paths(spec, _resp, ERRORS))  # uses the "player" scheme above
    for path, ops in paths.items():
        for op in ops.values():
            for code in ALWAYS:
                op["responses"].setdefault(code, ERRORS[code])
        spec.path(path=path, operations=ops)
    return spec.to_dict()
