"""A game's state JSON Schema and the deep check of a position (a sandbox's start state).

Each game's schema is the file rules/<game>/data/state.schema.json, written by
tools/state_schemas.py from the states the game's own setup and play produce. `position_errors`
checks a state against it with the `jsonschema` library (every nested record: its keys, their
types, each decision `kind`'s own record), then against the game's invariants
(`Game.check_position`: stacking, this scenario's units, a reachable phase...). Every error
names its place in the state as a JSON Pointer (RFC 6901, the paths a JSON Patch uses) and,
where a rule decides it, the rule section.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema  # type: ignore[import-untyped]

if TYPE_CHECKING:
    from rules.core.game import Game

MAX_ERRORS = 50


def pointer(parts: Any) -> str:
    """A JSON Pointer from path parts: ["units", "a1", "hex"] -> "/units/a1/hex"."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def error(path: list[Any] | str, message: str, rule: str | None = None) -> dict[str, Any]:
    return {"path": path if isinstance(path, str) else pointer(path), "message": message, "rule": rule}


def schema_path(game: Game) -> Path:
    """rules/<game>/data/state.schema.json beside the game's package. A game defined outside a
    package (a test suite's toy game, imported as a bare module) gets a path that does not exist."""
    module = type(game).__module__
    if "." not in module:
        return Path("/nonexistent") / module / "state.schema.json"
    try:
        # one name a time: a game defined in a namespace package (a test's toy game) has a MultiplexedPath
        base = resources.files(module.rsplit(".", 1)[0])
    except (TypeError, ModuleNotFoundError, ValueError):
        return Path("/nonexistent") / module / "state.schema.json"
    return Path(str(base.joinpath("data").joinpath("state.schema.json")))


@cache
def _load(path: str) -> dict[str, Any] | None:
    p = Path(path)
    if not p.exists():
        return None
    doc: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    return doc


@cache
def _validator(path: str) -> Any:
    schema = _load(path)
    return None if schema is None else jsonschema.Draft202012Validator(schema)


def load_schema(game: Game) -> dict[str, Any] | None:
    """The game's state schema, or None for a game that has none (a test suite's toy game)."""
    return _load(str(schema_path(game)))


def schema_errors(game: Game, state: Any) -> list[dict[str, Any]]:
    """Where `state` does not fit the game's schema. A missing key is named by its own path."""
    validator = _validator(str(schema_path(game)))
    if validator is None:
        return []
    out: list[dict[str, Any]] = []
    for err in sorted(validator.iter_errors(state), key=lambda e: [str(p) for p in e.absolute_path]):
        out.extend(_explain(err))
        if len(out) >= MAX_ERRORS:
            break
    return out[:MAX_ERRORS]


def _explain(err: Any) -> list[dict[str, Any]]:
    path = list(err.absolute_path)
    if err.validator == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        return [error([*path, k], "missing") for k in missing]
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = set(err.schema.get("properties") or {})
        return [error([*path, k], "not a key of this record") for k in sorted(err.instance) if k not in known]
    if err.validator == "enum":
        return [error(path, f"{err.instance!r} is not one of {err.validator_value}")]
    if err.validator == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        return [error(path, f"must be {want}, not {_kind(err.instance)}")]
    if err.context:  # an if/then: the sub-errors name the places
        return [e for sub in err.context for e in _explain(sub)]
    return [error(path, err.message)]


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(v), type(v).__name__)
