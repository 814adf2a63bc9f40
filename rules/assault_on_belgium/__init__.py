"""Assault on Belgium (demo game): rules engine; rule sections cited as "AoB n.m"."""

from rules import register
from rules.assault_on_belgium.game import AssaultOnBelgium, AssaultOnBelgiumV1

GAME = register(AssaultOnBelgium(), AssaultOnBelgiumV1())

__all__ = ["AssaultOnBelgium", "GAME"]
