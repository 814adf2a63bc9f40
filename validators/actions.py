"""Per-game action schemas: one marshmallow schema per action type, unknown keys refused."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ledger.canonical import NotCanonical, canonical_bytes
from rules.core.verbs import Verb

_SCHEMAS: dict[str, dict[str, type[Schema]]] = {}


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


def action_type(name: str) -> fields.String:
    """The `type` field of an action schema, fixed to one value."""
    return fields.String(required=True, validate=validate.Equal(name))


def schemas_from_verbs(verbs: Iterable[Verb[Any]], kinds: Mapping[str, Callable[[], fields.Field[Any]]],
                       class_name: Callable[[str], str]) -> dict[str, type[Schema]]:
    """One strict schema per verb of a game's table (rules.core.verbs), keyed by its type: the
    `type` field fixed to the verb's name, then each of its fields (all required) made by the
    factory `kinds` gives for the field's kind, then its flags (optional, `true` if given).
    `class_name(verb)` names the schema class (the OpenAPI document shows it)."""
    out: dict[str, type[Schema]] = {}
    for verb in verbs:
        unmapped = sorted({k.name for k in verb.fields.values()} - set(kinds))
        if unmapped:
            raise ValueError(f"no marshmallow field for the kind(s) {', '.join(unmapped)} of {verb.name!r}")
        attrs: dict[str, fields.Field[Any]] = {"type": action_type(verb.name)}
        attrs.update({name: kinds[kind.name]() for name, kind in verb.fields.items()})
        attrs.update({name: fields.Boolean(validate=validate.Equal(True)) for name in verb.flags})  # true or absent
        out[verb.name] = type(class_name(verb.name), (StrictSchema,), attrs)
    return out


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
        # Loading the registry imports every game module (a game from WARLOG_GAME_MODULES registers its
        # schemas there); a built-in game's schemas are validators/<package>.py (rules.companion).
        from rules import companion, get_game

        get_game(game)  # KeyError, in words, for a game this build does not know
        if game not in _SCHEMAS:
            companion("validators", game)
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
    game's action schemas (warlog.api.openapi)."""


def hex_label(digits: int = 4) -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(rf"^\d{{{digits}}}$", error="a hex number like 0917"))
