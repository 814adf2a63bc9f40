"""Imported by worker processes in tests (WARLOG_GAME_MODULES) to register the test game."""

from tests.support.dice_duel import install

install()
