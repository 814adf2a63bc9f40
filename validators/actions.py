"""Per-game action schemas: one marshmallow schema per action type, unknown keys refused."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

_SCHEMAS: dict[str, dict[str, type[Schema]]] = {}


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


def action_type(name: str) -> fields.String:
    """The `type` field of an action schema, fixed to one value."""
    return fields.String(required=True, validate=validate.Equal(name))


class ActionShapeError(ValueError):
    """The action is not of any shape this game accepts. `messages` is marshmallow's dict."""

    def __init__(self, messages: dict[str, Any]) -> None:
        super().__init__("malformed action")
        self.messages = messages


def register_actions(game: str, schemas: dict[str, type[Schema]]) -> None:
    """Register the action schemas of `game`, keyed by the action's `type` string."""
    _SCHEMAS[game] = dict(schemas)


def schemas_for(game: str) -> dict[str, type[Schema]]:
    """The action schemas of `game`, by action type (KeyError for a game without any)."""
    if game not in _SCHEMAS:
        # Each game's schemas live in validators/<game module>.py and register on import.
        import importlib

        importlib.import_module("validators." + game.replace("-", "_"))
    return _SCHEMAS[game]


def validate_action(game: str, action: Any) -> dict[str, Any]:
    """Check an action's shape; return it (loaded) or raise ActionShapeError."""
    if not isinstance(action, dict):
        raise ActionShapeError({"action": ["must be an object with a 'type'"]})
    schemas = schemas_for(game)
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in schemas:
        known = ", ".join(sorted(schemas))
        raise ActionShapeError({"type": [f"unknown action type {kind!r}; this game takes: {known}"]})
    try:
        loaded: dict[str, Any] = _instance(schemas[kind]).load(action)
    except ValidationError as err:
        raise ActionShapeError(err.messages if isinstance(err.messages, dict) else {"action": err.messages}) from None
    return loaded


_INSTANCES: dict[type[Schema], Schema] = {}


def _instance(cls: type[Schema]) -> Schema:
    """One instance per action schema (building one per action was a tenth of `verify`'s time;
    `load` keeps no state on the instance)."""
    schema = _INSTANCES.get(cls)
    if schema is None:
        schema = _INSTANCES[cls] = cls()
    return schema


class ActionField(fields.Dict):
    """An action of some game: an object with a `type`. Loaded as a dict here (the game's own
    schema checks it in `validate_action`); the OpenAPI document shows it as the union of every
    game's action schemas (warlog.openapi)."""


def hex_label(digits: int = 4) -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(rf"^\d{{{digits}}}$", error="a hex number like 0917"))
