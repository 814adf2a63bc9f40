"""Vietnam Battles: Iron Triangle & Snoopy's Nose (Folio system): rules engine.

Rules cited as "VB n.m". Offers The Boys of '67 (VB 25.0); what is implemented
and what is missing: docs/games/vietnam-battles.md.
"""

from rules import register
from rules.vietnam_battles.game import VietnamBattles, VietnamBattlesV1

GAME = register(VietnamBattles(), VietnamBattlesV1())

__all__ = ["VietnamBattles", "VietnamBattlesV1", "GAME"]
