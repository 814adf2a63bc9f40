"""The gbv board renderer: importing the package registers it (see warlog/render/__init__.py)."""

from warlog.render.green_beret_vietnam import board  # noqa: F401  (registers the renderer)
