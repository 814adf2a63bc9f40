"""Lock 'n Load's board renderer (registered as "lock-n-load" by `board`)."""

from warlog.render.lnl import board  # noqa: F401
