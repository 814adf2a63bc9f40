"""The OpenAPI 3 document of /api/v1, built by apispec from the same marshmallow schemas that
check the requests (validators.requests) and describe the answers (validators.responses), so
the document cannot drift from what the server accepts and sends. Every operation has a
snake_case operationId and a tag (a generated client's function and module names); each game's
action schemas are published (warlog.api.openapi_games)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields

from rules import all_games
from validators.actions import ActionField
from validators.listing import (
    GamesQuerySchema,
    LogConsistencyQuerySchema,
    LogEntriesQuerySchema,
    LogProofQuerySchema,
)
from validators.player_responses import SCHEMAS as PLAYER_RESPONSES
from validators.players import SCHEMAS as PLAYER_REQUESTS
from validators.requests import (
    CreateGameSchema,
    EventsQuerySchema,
    JoinSchema,
    MoveQuerySchema,
    MoveSchema,
    RulingSchema,
    StateQuerySchema,
    UmpireSchema,
)
from validators.responses import SCHEMAS as RESPONSES
from validators.tournament_responses import SCHEMAS as TOURNAMENT_RESPONSES
from validators.tournaments import TimeControlSchema
from warlog.api.export_media import export_content
from warlog.api.openapi_enforced import as_enforced, text_pattern
from warlog.api.openapi_games import add_game_schemas, ref
from warlog.api.openapi_ids import name_operations
from warlog.api.openapi_links import add_links

BEARER = [{"seat": []}]
OPTIONAL_BEARER = [{}, {"seat": []}]  # the answer depends on the token: a seat's view, the director's, or public


def _json(name: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": ref(name)}}}


def answer(description: str, name: str) -> dict[str, Any]:
    """A JSON answer whose body is the component schema `name` (validators.responses)."""
    return {"description": description, "content": {"application/json": {"schema": ref(name)}}}


def _resp(description: str, **extra: Any) -> dict[str, Any]:
    """An untyped JSON object (the tournament paths' answers, not typed yet)."""
    return {"description": description, "content": {"application/json": {"schema": {"type": "object", **extra}}}}


ERRORS = {
    "400": answer("bad request: the body is not a JSON object, a query parameter is malformed, the Authorization "
                  "header is not 'Bearer <token>', or a field holds the NUL character", "Error"),
    "401": answer("missing Authorization: Bearer token", "Error"),
    "403": answer("the token is not a seat (or director) of this game; or the game is a duplicate round's, private "
                  "to its player and its tournament's director until every game of the round has ended", "Error"),
    "404": answer("no such game or step", "Error"),
    "409": answer("stale expected_seq, not this seat's turn, or the game is not active: current_seq is the game's "
                  "last event", "Conflict"),
    "413": answer("the request body is larger than the server takes (2 MiB)", "Error"),
    "414": answer("the request's URI (path and query) is longer than the server takes", "Error"),
    "422": answer("the body does not fit its schema, or the action is malformed", "Error"),
    "429": answer("too many refused moves from this seat (see Retry-After)", "Error"),
    "503": answer("the ledger or the queue is unreachable just now; nothing was recorded (see Retry-After)",
                  "Error"),
}
ALWAYS = ("400", "414", "503")  # any request can be malformed or too long, and any can meet an outage


def _errors(*codes: str) -> dict[str, Any]:
    return {k: ERRORS[k] for k in codes}


def _action_union(_conv: Any, field: fields.Field, ret: dict[str, Any], **_: Any) -> dict[str, Any]:
    if isinstance(field, ActionField):
        ret.clear()  # not a free-form object: the union of every game's action schemas
        return ref("Action")
    return {}


def _nullable_nested(_conv: Any, field: fields.Field, ret: dict[str, Any], **_: Any) -> dict[str, Any]:
    # apispec writes a nullable Nested as anyOf [ref, {nullable object}], which generators turn into an
    # unusable union; OpenAPI 3.0's own form is a nullable allOf of the one schema.
    if isinstance(field, fields.Nested) and field.allow_none and "anyOf" in ret:
        refs = [s for s in ret.pop("anyOf") if "$ref" in s]
        return {"allOf": refs, "nullable": True}
    return {}


def _spec() -> APISpec:
    plugin = MarshmallowPlugin()
    spec = APISpec(title="Warlog API", version="1", openapi_version="3.0.3", plugins=[plugin],
                   info={"description": "Event-sourced game log and umpire for play-by-email wargames."})
    assert plugin.converter is not None
    plugin.converter.add_attribute_function(_action_union)
    plugin.converter.add_attribute_function(_nullable_nested)
    plugin.converter.add_attribute_function(text_pattern)
    return spec


def sandbox_paths(spec: APISpec) -> dict[str, dict[str, Any]]:
    """The dispute sandbox's fork and the games' state schemas (docs/sandbox.md)."""
    from validators.requests import AddDiceSchema, ForkSchema

    spec.components.schema("Fork", schema=ForkSchema)
    spec.components.schema("AddDice", schema=AddDiceSchema)
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "/api/v1/games/{game_id}/fork": {"post": {
            "summary": "a dispute sandbox from step N (director; anyone once the game has ended), edited by a "
                       "JSON Patch, with forced dice; dry_run only checks", "parameters": [gid], "security": BEARER,
            "requestBody": _json("Fork"),
            "responses": {"201": answer("created, as POST /games, with forked_from", "Forked"),
                          "200": answer("dry run: ok, errors, the edited state, its phase", "ForkCheck"),
                          "422": answer("the position or dice do not fit: each error's path and rule", "Error"),
                          **{k: ERRORS[k] for k in ("403", "404")}}}},
        "/api/v1/games/{game_id}/dice": {"post": {
            "summary": "a sandbox that stops for dice: its director adds forced dice (a dice_added event); the move "
                       "waiting for them is submitted again for its seat and judged with them", "parameters": [gid],
            "security": BEARER, "requestBody": _json("AddDice"),
            "responses": {"201": answer("recorded: the event, the dice forced in all, the waiting move's new "
                                        "submission", "DiceAdded"),
                          "409": answer("the game is not active", "Conflict"),
                          "422": answer("the dice do not fit the game's, or the game is not a sandbox that stops "
                                        "for dice", "Error"),
                          **{k: ERRORS[k] for k in ("401", "403", "404")}}}},
        "/api/v1/games/schemas/{game}/state": {"get": {
            "summary": "the game's state JSON Schema, with every scenario's start state as examples",
            "parameters": [{"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": answer("a JSON Schema (draft 2020-12) with `examples`", "StateSchemaDocument"),
                          "404": ERRORS["404"],
                          "422": ERRORS["422"]}}},
    }


def log_paths() -> dict[str, dict[str, Any]]:
    """The transparency log (warlog.trust.tlog; docs/ledger.md "Transparency log")."""
    no_key = answer("no signing key is configured (WARLOG_LOG_KEY), or the ledger is unreachable", "Error")
    return {
        "/api/v1/log/head": {"get": {"summary": "the latest signed tree head of the transparency log",
                                     "responses": {"200": answer("a signed tree head", "TreeHead"), "503": no_key}}},
        "/api/v1/log/proof/{game_id}": {"get": {
            "summary": "inclusion proofs of the game's log entries against the tree head of `size` (default: now)",
            "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}},
                           {"in": "query", "schema": LogProofQuerySchema}],  # limits from the schema that checks them
            "responses": {"200": answer("tree_head, and entries: index, entry, audit_path (hex)", "InclusionProof"),
                          "400": ERRORS["400"], "404": answer("the game has no entry in the log (yet)", "Error"),
                          "503": no_key}}},
        "/api/v1/log/key": {"get": {
            "summary": "the log's public key, origin, verifier key, maximum merge delay and key rotation statements",
            "responses": {"200": answer("the log's key", "LogKey"), "503": no_key}}},
        "/api/v1/log/checkpoint": {"get": {
            "summary": "the C2SP checkpoint (signed note) of tree size `size` (default: now)",
            "parameters": [{"in": "query", "schema": LogProofQuerySchema}],
            "responses": {"200": {"description": "origin, tree size, base64 root, a blank line, signature lines",
                                  "content": {"text/plain": {"schema": {"type": "string"}}}},
                          "400": ERRORS["400"], "503": no_key}}},
        "/api/v1/log/entries": {"get": {
            "summary": "entries `start` to `end` (both included; at most 1000 per answer), as RFC 6962 get-entries",
            "parameters": [{"in": "query", "schema": LogEntriesQuerySchema}],
            "responses": {"200": answer("tree_size, and entries: index, entry, logged_at", "LogEntries"),
                          "400": ERRORS["400"], "503": no_key}}},
        "/api/v1/log/consistency": {"get": {
            "summary": "the consistency proof from tree size `from` to `to` (default: now), with both signed heads",
            "parameters": [{"in": "query", "schema": LogConsistencyQuerySchema}],
            "responses": {"200": answer("first, second (signed tree heads) and proof (hex)", "ConsistencyProof"),
                          "400": ERRORS["400"], "503": no_key}}},
    }


def game_paths() -> dict[str, dict[str, Any]]:
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    seen = _errors("403", "404")  # the routes that read an optional token: a wrong one is a 403
    return {
        "/api/v1/catalogue": {"get": {"summary": "games, scenarios and options",
                                      "responses": {"200": answer("the games this server plays", "Catalogue")}}},
        "/api/v1/games": {
            "get": {"summary": "list games, newest first, a page at a time (cursor paging)",
                    "parameters": [{"in": "query", "schema": GamesQuerySchema}],
                    "responses": {"200": answer("games, and `next`: the path of the next page or null", "GamesPage")}},
            "post": {"summary": "create a game", "requestBody": _json("CreateGame"), "responses": {
                "201": answer("created: id, seats (role -> token), director_token (an umpire-creator's) or "
                              "creator_seat, seed_commitment", "Created"),
                **_errors("422")}},
        },
        "/api/v1/games/{game_id}": {"get": {"summary": "status, active_seats, seq", "parameters": [gid],
                                            "responses": {"200": answer("the game", "GameInfo"),
                                                          **_errors("403", "404")}}},
        "/api/v1/games/{game_id}/join": {"post": {
            "summary": "take a seat (optionally adding entropy to the dice)", "parameters": [gid], "security": BEARER,
            "requestBody": _json("Join"),
            "responses": {"200": answer("joined", "Joined"), **_errors("401", "403", "404", "422")}}},
        "/api/v1/games/{game_id}/moves": {"post": {
            "summary": "submit an action (one of GET .../actions)", "security": BEARER,
            "description": "With `wait` the answer waits for the move's judgement; with `listing` it carries the "
                           "seat's next listing too, so a client needs no GET between its moves.",
            "parameters": [gid, {"in": "query", "schema": MoveQuerySchema}],  # limits from the schema that checks them
            "requestBody": _json("Move"),
            "responses": {"202": answer("accepted: seq of the submitted event (with `judgement` and `listing` "
                                        "when asked)", "Accepted"),
                          **_errors("401", "403", "404", "409", "422", "429")}}},
        "/api/v1/games/{game_id}/moves/{seq}": {"get": {
            "summary": "pending | resolved (facts, dice, rules) | rejected (reasons, rules)", "security": OPTIONAL_BEARER,
            "parameters": [gid, {"name": "seq", "in": "path", "required": True,
                                 "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": answer("the submission and its judgement as the caller may see them", "MoveResult"),
                          **seen}}},
        "/api/v1/games/{game_id}/moves/{seq}/take-back": {"post": {
            "summary": "the seat takes back its own move while it is not judged yet (recorded as its judgement: a "
                       "rejected event under the seat's name with withdrawn: true); a judged move stands (409)",
            "security": BEARER,
            "parameters": [gid, {"name": "seq", "in": "path", "required": True,
                                 "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": answer("taken back", "TakenBack"), **_errors("401", "403", "404", "409")}}},
        "/api/v1/games/{game_id}/events": {"get": {
            "summary": "events after N, as the caller may see them (a director's look at a running game that hides "
                       "something is recorded in it first, as a hidden_viewed event)", "security": OPTIONAL_BEARER,
            "parameters": [gid, {"in": "query", "schema": EventsQuerySchema}],  # limits from the schema that checks them
            "responses": {"200": answer("a page of events", "Events"), **seen}}},
        "/api/v1/games/{game_id}/state": {"get": {
            "summary": "the state at step N as the caller may see it (a director's full view of a running game "
                       "that hides something is recorded in it first, as a hidden_viewed event)", "security": OPTIONAL_BEARER,
            "parameters": [gid, {"in": "query", "schema": StateQuerySchema}],
            "responses": {"200": answer("the state", "State"), **seen}}},
        "/api/v1/games/{game_id}/actions": {"get": {
            "summary": "every legal action for the caller's seat now, with the prompt and expected_seq",
            "security": OPTIONAL_BEARER, "parameters": [gid],
            "responses": {"200": answer("the caller's legal actions", "Actions"), **seen}}},
        "/api/v1/games/{game_id}/rulings": {"post": {
            "summary": "a director's ruling (void, adjust, award, reveal_seed)", "parameters": [gid],
            "security": BEARER, "requestBody": _json("Ruling"),
            "responses": {"202": answer("accepted: seq of the ruling's submission", "Accepted"),
                          **_errors("401", "403", "404", "409", "422")}}},
        "/api/v1/games/{game_id}/umpire": {"post": {
            "summary": "a seat of a game whose creator plays (no director) has an umpire invitation made for a "
                       "neutral person (an umpire_invited event every seat sees)", "parameters": [gid],
            "security": BEARER, "requestBody": _json("Umpire"),
            "responses": {"201": answer("the umpire's token and link, shown once", "UmpireInvited"),
                          **_errors("401", "403", "404", "422")}}},
        "/api/v1/games/{game_id}/export": {"get": {
            "summary": "JSON Lines export (after the end; the director at any time)", "parameters": [gid],
            "security": OPTIONAL_BEARER,
            "responses": {"200": export_content("one event per line (warlog verify checks it)"),
                          **seen}}},
    }


def openapi_document() -> dict[str, Any]:
    """The document for the games registered now (a test may register a toy game)."""
    return _document(tuple(g.name for g in all_games()))


@lru_cache(maxsize=4)
def _document(game_names: tuple[str, ...]) -> dict[str, Any]:
    spec = _spec()
    spec.components.security_scheme("seat", {"type": "http", "scheme": "bearer",
                                             "description": "a seat token (invitation) or the director token"})
    for name, schema in (("CreateGame", CreateGameSchema), ("Join", JoinSchema), ("Move", MoveSchema),
                         ("Ruling", RulingSchema), ("Umpire", UmpireSchema), *RESPONSES.items(), *PLAYER_RESPONSES.items(),
                         *TOURNAMENT_RESPONSES.items(), ("TimeControl", TimeControlSchema),
                         *PLAYER_REQUESTS.items()):
        spec.components.schema(name, schema=schema)
    add_game_schemas(spec, [g for g in all_games() if g.name in game_names])
    paths = game_paths()
    paths.update(log_paths())
    paths.update(sandbox_paths(spec))
    from warlog.players import openapi as players_openapi  # players and clocks
    from warlog.tournaments.openapi import tournament_paths

    spec.components.security_scheme(*players_openapi.security_scheme())
    paths.update(players_openapi.paths())
    busy = answer("the tournament changed meanwhile, or the act does not fit its state now", "Error")
    paths.update(tournament_paths(spec, _resp, {**ERRORS, "409": busy}))  # uses the "player" scheme above
    name_operations(paths)
    add_links(paths)
    for ops in paths.values():
        for op in ops.values():
            for code in ALWAYS:
                op["responses"].setdefault(code, ERRORS[code])
            if op.get("security"):  # a token is read: "Bearer" with none, or none where one is needed, is a 401
                op["responses"].setdefault("401", ERRORS["401"])
            if "requestBody" in op:
                op["responses"].setdefault("413", ERRORS["413"])
    for path, ops in paths.items():
        spec.path(path=path, operations=ops)
    return as_enforced(spec.to_dict(), [g for g in all_games() if g.name in game_names])
