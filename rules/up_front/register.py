"""Registers the game (imported by rules._load): kept apart from the package so that tests and
tools can use the rules without the registry."""

from rules import register
from rules.up_front.game import UpFrontMountains

GAME = register(UpFrontMountains())
