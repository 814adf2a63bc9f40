"""Registers the game (imported by rules._load): kept apart from the package so that tests and
tools can use the rules without the registry. Version 1 stays runnable for the games recorded
under it."""

from rules import register
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV1

GAME = register(UpFrontMountains(), UpFrontMountainsV1())
