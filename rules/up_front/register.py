"""Registers the game (imported by rules._load): kept apart from the package so that tests and
tools can use the rules without the registry. Versions 1, 2 and 3 stay runnable for the games
recorded under them."""

from rules import register
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV1, UpFrontMountainsV2, UpFrontMountainsV3

GAME = register(UpFrontMountains(), UpFrontMountainsV3(), UpFrontMountainsV2(), UpFrontMountainsV1())
