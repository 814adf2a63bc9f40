"""Mechanisms shared by every game: the game interface, dice, hex grid, tables, chit pools."""
