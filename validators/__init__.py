"""Request and action schemas (marshmallow), then the legality check through the rules.

Two layers, in this order:
1. shape: `validators.requests` (every HTTP body) and the per-game action schemas
   registered here (unknown keys refused) -> a clear 4xx with field messages;
2. legality: the game's own rules (`rules.<game>.apply` raising IllegalAction with its
   rule section) -> a `rejected` event in the ledger, with the reason.
"""

from validators.actions import ActionShapeError, register_actions, validate_action

__all__ = ["ActionShapeError", "register_actions", "validate_action"]
