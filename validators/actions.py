"""Per-game action schemas: one marshmallow schema per action type, unknown keys refused."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ledger.canonical import NotCanonical, canonical_bytes

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
    _verdict.cache_clear()  # verdicts given under the schemas replaced


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


def check_action(game: str, action: Any) -> None:
    """`validate_action`'s verdict alone (what judging asks), remembered per distinct action: a
    game's moves repeat (marshmallow was a twelfth of `verify`). Raises ActionShapeError
    with the same messages `validate_action` gives; an action that is not canonical JSON (a float,
    a non-str key) is checked afresh every time."""
    try:
        key = canonical_bytes(action)
    except (NotCanonical, ValueError, TypeError, RecursionError):
        validate_action(game, action)
        return
    messages = _verdict(game, key)
    if messages is not None:
        raise ActionShapeError(copy.deepcopy(messages))


@functools.lru_cache(maxsize=8192)
def _verdict(game: str, encoded: bytes) -> dict[str, Any] | None:
    """None for an action of a shape `game` takes, else the messages (never handed out: copied)."""
    try:
        validate_action(game, json.loads(encoded))
    except ActionShapeError as err:
        return err.messages
    return None


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
