"""The trust tests' tournament app (tests.tournaments' `tapp`: both ledgers)."""

from __future__ import annotations

from tests.tournaments.conftest import tapp

__all__ = ["tapp"]
