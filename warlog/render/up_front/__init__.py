"""The UP FRONT card-table renderer: importing the package registers it (see warlog/render/__init__.py)."""

from warlog.render.up_front import board  # noqa: F401  (registers the renderer)
