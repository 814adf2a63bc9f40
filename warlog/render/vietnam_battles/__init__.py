"""The vb board renderer: importing the package registers it (see warlog/render/__init__.py)."""

from warlog.render.vietnam_battles import board  # noqa: F401  (registers the renderer)
