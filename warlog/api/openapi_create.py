"""`CreateGame` in the OpenAPI document, one shape per game: the body names a game, and that
game decides which scenarios, options (and their values) and creator seats it takes — what the
server checks (warlog.games.service.Warlog.create_game, rules.core.game.Game.resolve_options). So a
body the document calls valid names a scenario of its own game, and a client or a fuzzer that
follows the document creates games (whose ids the answer's links then lead on from)."""

from __future__ import annotations

import copy
from typing import Any

from rules.core.game import Game
from warlog.api.openapi_games import prefix, ref

_JSON_TYPES = {bool: "boolean", str: "string", int: "integer"}


def _options(game: Game) -> dict[str, Any]:
    properties = {}
    for name, spec in sorted(game.options().items()):
        properties[name] = {"type": _JSON_TYPES.get(type(spec.default), "string"), "enum": list(spec.choices),
                            "default": spec.default, "description": spec.description}
    return {"type": "object", "additionalProperties": False, "properties": properties,
            "description": f"{game.title}'s options (GET /api/v1/catalogue); an option left out takes its default"}


def _seats_of_every_scenario(game: Game) -> list[str]:
    scenarios = list(game.scenarios().values())
    return [r for r in scenarios[0].roles if all(r in s.roles for s in scenarios[1:])]


def per_game_create(doc: dict[str, Any], games: list[Game]) -> None:
    """Replace the `CreateGame` component by a `oneOf` of each game's shape, discriminated by `game`."""
    schemas = doc["components"]["schemas"]
    base = schemas["CreateGame"]
    mapping = {}
    for game in games:
        properties = copy.deepcopy(base["properties"])
        properties["game"] = {"type": "string", "enum": [game.name]}
        scenario = f"{prefix(game.name)}Scenario"  # a nullable enum's null is a nullable allOf (OpenAPI 3.0.3)
        schemas[scenario] = {"type": "string", "enum": list(game.scenarios()), "description": f"{game.title}'s scenarios"}
        properties["scenario"] = {"allOf": [ref(scenario)], "nullable": True,
                                  "description": "one of the game's scenarios; null or left out: the first"}
        properties["options"] = _options(game)
        properties["creator"] = {**properties["creator"], "enum": ["umpire", *_seats_of_every_scenario(game)]}
        properties["creator"].pop("minLength", None)
        properties["creator"].pop("maxLength", None)
        properties["creator"].pop("pattern", None)
        name = f"Create{prefix(game.name)}Game"
        schemas[name] = {"type": "object", "properties": properties, "required": ["game"],
                         "additionalProperties": False, "description": f"A game of {game.title} to create."}
        mapping[game.name] = ref(name)["$ref"]
    schemas["CreateGame"] = {
        "description": "A game to create: the game's own shape, by its name (each game its scenarios, options "
                       "and seats).",
        "oneOf": [{"$ref": r} for r in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping}}
