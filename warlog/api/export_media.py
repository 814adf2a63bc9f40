"""The media types an export (a game's JSON Lines, a tournament's bundle) is served as: JSON
Lines (`application/x-ndjson`) unless the client asks for `application/octet-stream` (the same
bytes), the type a generated client reads as bytes. The OpenAPI document lists both."""

from __future__ import annotations

from typing import Any

from flask import request

JSON_LINES = "application/x-ndjson"
BYTES = "application/octet-stream"


def export_mimetype() -> str:
    """The client's choice by Accept; JSON Lines when it names neither (or anything)."""
    return request.accept_mimetypes.best_match([JSON_LINES, BYTES], default=JSON_LINES) or JSON_LINES


def export_content(description: str) -> dict[str, Any]:
    """The OpenAPI answer of an export: JSON Lines, or the same bytes as an octet stream."""
    return {"description": description, "content": {
        JSON_LINES: {"schema": {"type": "string"}},
        BYTES: {"schema": {"type": "string"}}}}
