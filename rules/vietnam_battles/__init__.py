"""Vietnam Battles: Iron Triangle & Snoopy's Nose (Folio system): rules engine.

Digest: ../shared/rules/vietnam-battles.md. Not yet in the registry (rules/__init__.py): see
docs/games/vietnam-battles.md for what is implemented.
"""

from rules.vietnam_battles.game import VietnamBattles

__all__ = ["VietnamBattles"]
