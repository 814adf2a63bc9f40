"""Assault on Belgium (demo game): rules engine; rule sections cited as "AoB n.m"."""

from rules import register
from rules.assault_on_belgium.game import AssaultOnBelgium

GAME = register(AssaultOnBelgium())

__all__ = ["AssaultOnBelgium", "GAME"]
