"""Each game's published schemas in the OpenAPI document: one component per action type (from
the marshmallow schemas `validators.validate_action` checks moves with), a `oneOf` per game
discriminated by `type` (`AobAction`, `GbvAction`, ...), the union `Action` of them all, and
the game's state schema where the game has one (`state_json_schema()`)."""

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
        state_schema = getattr(game, "state_json_schema", None)
        if callable(state_schema):
            doc: dict[str, Any] = state_schema()
            spec.components.schema(f"{pre}State", {k: v for k, v in doc.items() if not k.startswith("$")})
    spec.components.schema("Action", {
        "description": "An action of the game being played: one of the game's own action schemas "
                       "(several games share a `type` name, so the game's schema decides).",
        "anyOf": unions})
