"""Warlog: an event-sourced game-log server and umpire for play-by-email wargames."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """The pages' templates: the repository's top-level `templates/` beside this package in a
    checkout, or the copy an installed wheel carries as `warlog/templates` (setup.py)."""
    packaged = PACKAGE / "templates"
    return packaged if packaged.is_dir() else PACKAGE.parent / "templates"


def version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" from a bare checkout."""
    try:
        return metadata.version("warlog")
    except metadata.PackageNotFoundError:
        return "unknown"
