"""Green Beret: Vietnam (solitaire): rules engine. Digest: ../shared/rules/green-beret-vietnam.md."""

from rules import register
from rules.green_beret_vietnam.game import GreenBeretVietnam

GAME = register(GreenBeretVietnam())

__all__ = ["GreenBeretVietnam", "GAME"]
