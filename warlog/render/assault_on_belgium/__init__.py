"""The aob board renderer: importing the package registers it (see warlog/render/__init__.py)."""

from warlog.render.assault_on_belgium import board  # noqa: F401  (registers the renderer)
