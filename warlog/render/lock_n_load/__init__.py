"""Lock 'n Load's board renderer (registered as "lock-n-load" by `board`)."""

from warlog.render.lock_n_load import board  # noqa: F401
