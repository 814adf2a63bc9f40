"""Rulings and disputes of an ordinary game (disputes, rulings_pages) and the dispute sandbox (sandbox,
sandbox_dice, fork_pages)."""
