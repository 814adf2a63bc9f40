"""What the server enforces beyond the marshmallow schemas the OpenAPI document is built from,
written into the document (warlog.api.openapi): text without NUL (and names without control
characters) as patterns, the games a request may name and each game's own creation body, a time
control's least time, a list's empty filter, bodies required exactly when the server needs one.
A request the document calls valid is one the server takes, unless what it names is not there
(an id, a log size, a used link) or does not fit the game's state."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from rules.core.game import Game
from validators.names import no_controls
from warlog.api.openapi_create import per_game_create


def as_enforced(doc: dict[str, Any], games: list[Game]) -> dict[str, Any]:
    """`doc` with each of the rules below written in."""
    doc = _name_the_games(doc, games)
    doc = _empty_query_is_absent(_no_nul_in_parameters(_time_control_has_time(doc)))
    return _bodies_required_as_the_server_does(doc)


# What the server refuses in any text (warlog.web.boundary: PostgreSQL text cannot hold a NUL), and in
# a name that reaches a mail header (validators.names: Unicode Cc, Zl and Zp), as patterns a
# client or a fuzzer can read: a string the document allows, the server takes.
NO_NUL = "^[^\\u0000]*$"
NO_CONTROLS = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$"


def text_pattern(_conv: Any, field: fields.Field, ret: dict[str, Any], **_: Any) -> dict[str, Any]:  # type: ignore[type-arg]
    """An apispec attribute function: each marshmallow String's pattern (NO_NUL, or NO_CONTROLS for a name)."""
    if not isinstance(field, fields.String) or "pattern" in ret or "enum" in ret:
        return {}  # a Regexp's own pattern or a fixed list already leaves NUL out
    return {"pattern": NO_CONTROLS if no_controls in field.validators else NO_NUL}


def _name_the_games(doc: dict[str, Any], games: list[Game]) -> dict[str, Any]:
    """A game's name is one of the games this server plays (an unknown one is a 422): an enum
    where a request names a game, and a game's creation body is that game's own shape
    (warlog.api.openapi_create). A tournament's scenario and options are checked against its game
    too (a 422), which its one body shape cannot say."""
    names = [g.name for g in games]
    schemas = doc["components"]["schemas"]
    schemas["CreateTournament"]["properties"]["game"]["enum"] = names
    per_game_create(doc, games)
    for parameter in doc["paths"]["/api/v1/games/schemas/{game}/state"]["get"]["parameters"]:
        if parameter["name"] == "game":
            parameter["schema"] = {**parameter["schema"], "enum": names}
    return doc


def _time_control_has_time(doc: dict[str, Any]) -> dict[str, Any]:
    """validators.tournaments.TimeControlSchema: a move has at least an hour, so a per-move
    control (the default mode) with days 0 needs hours."""
    doc["components"]["schemas"]["TimeControl"]["not"] = {
        "description": "days 0 and no hours, per move: a move would have no time", "required": ["days"],
        "properties": {"days": {"enum": [0]}, "hours": {"enum": [0]}, "mode": {"enum": ["per_move"]}}}
    return doc


# The list routes drop a query parameter left empty (a form's blank filter): "" is no filter.
EMPTY_IS_ABSENT = (("/api/v1/games", "get"), ("/api/v1/tournaments", "get"))


def _empty_query_is_absent(doc: dict[str, Any]) -> dict[str, Any]:
    for path, method in EMPTY_IS_ABSENT:
        for parameter in doc["paths"][path][method].get("parameters", []):
            schema = dict(parameter["schema"])
            if parameter["in"] != "query" or schema.get("type") != "string":
                continue
            schema.pop("minLength", None)
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], ""]
            parameter["schema"] = schema
    return doc


def _bodies_required_as_the_server_does(doc: dict[str, Any]) -> dict[str, Any]:
    """An empty body is read as {} (warlog.web.boundary.json_object): a body is required exactly
    when its schema requires a field, and a route that takes nothing from it but optional
    fields takes none at all."""
    schemas = doc["components"]["schemas"]
    for ops in doc["paths"].values():
        for op in ops.values():
            body = op.get("requestBody")
            if body is not None and "$ref" not in body["content"]["application/json"]["schema"]:
                inline = body["content"]["application/json"]["schema"]  # written with its route
                _no_nul_in_strings(inline)
                body["required"] = bool(inline.get("required"))
            elif body is not None:
                name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
                shapes = [schemas[r["$ref"].rsplit("/", 1)[1]] for r in schemas[name].get("oneOf", [])]
                body["required"] = all(s.get("required") for s in shapes or [schemas[name]])
    return doc


def _no_nul_in_strings(schema: dict[str, Any]) -> None:
    """A body schema written inline with its route: its free strings get NO_NUL, as the
    marshmallow schemas' do (a NUL anywhere in a body is a 400, warlog.web.boundary)."""
    if schema.get("type") == "string" and not {"pattern", "enum"} & set(schema):
        schema["pattern"] = NO_NUL
    for sub in schema.get("properties", {}).values():
        _no_nul_in_strings(sub)
    if isinstance(schema.get("items"), dict):
        _no_nul_in_strings(schema["items"])


def _no_nul_in_parameters(doc: dict[str, Any]) -> dict[str, Any]:
    """A path or query string written by hand (not from a marshmallow schema) gets NO_NUL too:
    a NUL anywhere in the path or query is a 400 (warlog.web.boundary)."""
    for ops in doc["paths"].values():
        for op in ops.values():
            for parameter in op.get("parameters", []):
                schema = parameter.get("schema", {})
                if schema.get("type") == "string" and not {"pattern", "enum"} & set(schema):
                    parameter["schema"] = {**schema, "pattern": NO_NUL}
    return doc
