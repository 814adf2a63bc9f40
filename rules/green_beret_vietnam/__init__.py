"""Green Beret: Vietnam (solitaire): rules engine; rule sections cited as "GBV n.m"."""

from rules import register
from rules.green_beret_vietnam.game import GreenBeretVietnam, GreenBeretVietnamV1

GAME = register(GreenBeretVietnam(), GreenBeretVietnamV1())

__all__ = ["GreenBeretVietnam", "GreenBeretVietnamV1", "GAME"]
