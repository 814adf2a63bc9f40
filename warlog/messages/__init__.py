"""A word to the opponent: per-game messages between seats and to the director (docs/players.md)."""
