"""Each game's published schemas in the OpenAPI document: one component per action type (from
the marshmallow schemas `validators.validate_action` checks moves with), a `oneOf` per game
discriminated by `type` (`AobAction`, `GbvAction`, ...), the union `Action` of them all, and
the game's state schema where the game has one (`<Game>State`, from `state_json_schema`)."""

from __future__ import annotations

import json
from typing import Any

from apispec import APISpec

from rules.core.game import Game
from validators.actions import schemas_for


def prefix(game: str) -> str:
    """The component prefix of a game: the initials of its name (assault-on-belgium -> Aob)."""
    parts = [p for p in game.split("-") if p]
    return parts[0][0].upper() + "".join(p[0].lower() for p in parts[1:])


def camel(kind: str) -> str:
    return "".join(p.capitalize() for p in kind.split("_"))


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def add_game_schemas(spec: APISpec, games: list[Game]) -> None:
    """Each game's action components and discriminated union, the `Action` union of every action
    type, and each game's state schema. An action type several games share with the same shape
    (`pass` in Lock 'n Load and Vietnam Battles) is one component, `PassAction`: no game's name
    types another game's action. Types whose shapes differ keep one component per shape, named
    by the games that use it (`AobMoveAction`, `LnlMoveAction`), under `MoveAction`."""
    by_kind: dict[str, dict[str, str]] = {}  # type -> game -> its component (registered below)
    for game in games:
        for kind, schema in sorted(schemas_for(game.name).items()):
            name = f"{prefix(game.name)}{camel(kind)}Action"
            spec.components.schema(name, schema=schema)
            by_kind.setdefault(kind, {})[game.name] = name
    component: dict[tuple[str, str], str] = {}  # (game, type) -> the component its actions are typed by
    per_kind: dict[str, str] = {}  # type -> the component `Action` maps it to
    for kind, names in sorted(by_kind.items()):
        shapes: dict[str, list[str]] = {}  # a shape (its schema, as JSON) -> the games using it
        for game, name in names.items():
            shapes.setdefault(json.dumps(spec.components.schemas[name], sort_keys=True), []).append(game)
        for users in shapes.values():
            if len(users) == 1:
                component[(users[0], kind)] = names[users[0]]
                continue
            joined = camel(kind) + "Action" if len(shapes) == 1 else "".join(prefix(g) for g in users) + camel(kind) + "Action"
            spec.components.schemas[joined] = {
                **spec.components.schemas[names[users[0]]],
                "description": f"`{kind}`, of " + ", ".join(users) + " (the same shape in each)."}
            for game in users:
                del spec.components.schemas[names[game]]
                component[(game, kind)] = joined
        variants = sorted({component[(game, kind)] for game in names})
        if len(variants) == 1:
            per_kind[kind] = variants[0]
        else:  # the games' shapes of one type: the game being played decides which
            per_kind[kind] = f"{camel(kind)}Action"
            spec.components.schema(per_kind[kind], {
                "description": f"`{kind}`, in the shape of the game being played.",
                "anyOf": [ref(v) for v in variants]})
    for game in games:
        pre = prefix(game.name)
        mapping = {kind: ref(component[(game.name, kind)])["$ref"] for kind in sorted(schemas_for(game.name))}
        spec.components.schema(f"{pre}Action", {
            "description": f"An action of {game.title} ({game.name}), by its `type`.",
            "oneOf": [{"$ref": r} for r in dict.fromkeys(mapping.values())],
            "discriminator": {"propertyName": "type", "mapping": mapping}})
        state_schema = state_json_schema(game)
        if state_schema is not None:
            spec.components.schema(f"{pre}State", state_schema)
    spec.components.schema("Action", {
        "description": "An action of the game being played, by its `type`: the server checks it against the "
                       "game's own union (`AobAction`, `VbAction`, ...); a type the game does not take is a 422.",
        "oneOf": [ref(name) for name in dict.fromkeys(per_kind[k] for k in sorted(per_kind))],
        "discriminator": {"propertyName": "type",
                          "mapping": {kind: ref(name)["$ref"] for kind, name in sorted(per_kind.items())}}})


STATE_SCHEMA_URL = "/api/v1/games/schemas/{game}/state"


def state_json_schema(game: Game) -> dict[str, Any] | None:
    """The game's state schema (Draft 2020-12, rules/<game>/data/state.schema.json) as an OpenAPI
    3.0.3 Schema Object, or None for a game without one; the full JSON Schema stays published at
    its URL, which the description names."""
    doc = game.state_schema()
    if doc is None:
        return None
    url = STATE_SCHEMA_URL.format(game=game.name)
    out = to_openapi_30(doc, url)
    out.pop("title", None)  # a generator names the model by its title: the component's name says it (AobState)
    out["description"] = (f"{doc.get('description', game.title + ' state').rstrip('.')}. An OpenAPI 3.0 reading "
                          f"of the game's state schema; the full JSON Schema (Draft 2020-12), with each record "
                          f"kind's own required keys and every scenario's example state, is published at GET {url}.")
    return out


_DROPPED = ("$schema", "$id", "$defs", "$comment", "if", "then", "else", "examples")


def to_openapi_30(node: Any, url: str) -> Any:
    """A Draft 2020-12 schema as an OpenAPI 3.0.3 Schema Object: `const` becomes a one-value `enum`,
    a type list `["null", T]` becomes `type: T, nullable: true` (several types: a `oneOf`),
    `$schema`/`$id` and empty `required` lists go, an array without `items` gets `items: {}`, and `if`/`then` (each record kind's own required keys, within `allOf`)
    are dropped — the record's schema keeps the union of its kinds' properties, and its
    description points to the full JSON Schema at `url`."""
    if isinstance(node, list):
        return [to_openapi_30(v, url) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    dropped = False
    for key, value in node.items():
        if key in _DROPPED:
            dropped = dropped or key in ("if", "then", "else")
        elif key == "required" and not value:
            continue  # OpenAPI 3.0 wants a non-empty list, or none
        elif key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            types = [t for t in value if t != "null"]
            if "null" in value:
                out["nullable"] = True
            if len(types) == 1:
                out["type"] = types[0]
            else:
                out["oneOf"] = [{"type": t} for t in types]
        elif key == "allOf":
            kept = [to_openapi_30(v, url) for v in value if not (isinstance(v, dict) and ("if" in v or "then" in v))]
            dropped = dropped or len(kept) < len(value)
            if kept:
                out["allOf"] = kept
        elif key in ("properties", "patternProperties", "dependentSchemas"):
            out[key] = {name: to_openapi_30(v, url) for name, v in value.items()}
        else:
            out[key] = to_openapi_30(value, url)
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {}  # any item: OpenAPI 3.0 wants `items` on every array (a generator drops the schema without)
    if dropped:
        note = f"Each `kind` of this record has its own required keys, checked by the full JSON Schema at GET {url}."
        out["description"] = f"{out['description'].rstrip('.')}. {note}" if out.get("description") else note
    return out
