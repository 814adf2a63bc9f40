"""Assault on Belgium (demo game): rules engine. Digest: ../shared/rules/assault-on-belgium.md."""

from rules import register
from rules.assault_on_belgium.game import AssaultOnBelgium

GAME = register(AssaultOnBelgium())

__all__ = ["AssaultOnBelgium", "GAME"]
