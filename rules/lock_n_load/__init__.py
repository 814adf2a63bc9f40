"""Lock 'n Load: Forgotten Heroes Vietnam (demo rules): data, line of sight and rules engine.

Rules: the rulebook (LnL n.m; its Japanese translation wins over the English digest); what is
implemented, what is missing and every reading taken: docs/games/lock-n-load.md.
"""

from rules import register
from rules.lock_n_load.game import LockNLoad, LockNLoadV1, LockNLoadV2, LockNLoadV3

GAME = register(LockNLoad(), LockNLoadV3(), LockNLoadV2(), LockNLoadV1())

__all__ = ["LockNLoad", "LockNLoadV1", "LockNLoadV2", "LockNLoadV3", "GAME"]
