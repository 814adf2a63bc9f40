"""Scripted Assault on Belgium players and the balance tournament (run: tools/aob_strategy.py)."""
