"""Each game's published schemas in the OpenAPI document: one component per action type (from
the marshmallow schemas `validators.validate_action` checks moves with), a `oneOf` per game
discriminated by `type` (`AobAction`, `GbvAction`, ...), the union `Action` of them all, and
the game's state schema where the game has one (`<Game>State`, from `state_json_schema`)."""

from __future__ import annotations

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
    unions = []
    for game in games:
        pre = prefix(game.name)
        mapping = {}
        for kind, schema in sorted(schemas_for(game.name).items()):
            name = f"{pre}{camel(kind)}Action"
            spec.components.schema(name, schema=schema)
            mapping[kind] = ref(name)["$ref"]
        spec.components.schema(f"{pre}Action", {
            "description": f"An action of {game.title} ({game.name}), by its `type`.",
            "oneOf": [{"$ref": r} for r in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping}})
        unions.append(ref(f"{pre}Action"))
        state_schema = state_json_schema(game)
        if state_schema is not None:
            spec.components.schema(f"{pre}State", state_schema)
    spec.components.schema("Action", {
        "description": "An action of the game being played: one of the game's own action schemas "
                       "(several games share a `type` name, so the game's schema decides).",
        "anyOf": unions})


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
    out["description"] = (f"{doc.get('description', game.title + ' state').rstrip('.')}. An OpenAPI 3.0 reading "
                          f"of the game's state schema; the full JSON Schema (Draft 2020-12), with each record "
                          f"kind's own required keys and every scenario's example state, is published at GET {url}.")
    return out


_DROPPED = ("$schema", "$id", "$defs", "$comment", "if", "then", "else", "examples")


def to_openapi_30(node: Any, url: str) -> Any:
    """A Draft 2020-12 schema as an OpenAPI 3.0.3 Schema Object: `const` becomes a one-value `enum`,
    a type list `["null", T]` becomes `type: T, nullable: true` (several types: a `oneOf`),
    `$schema`/`$id` and empty `required` lists go, and `if`/`then` (each record kind's own required keys, within `allOf`)
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
    if dropped:
        note = f"Each `kind` of this record has its own required keys, checked by the full JSON Schema at GET {url}."
        out["description"] = f"{out['description'].rstrip('.')}. {note}" if out.get("description") else note
    return out
