"""The key to the Green Beret: Vietnam map."""

from __future__ import annotations


def legend_html() -> str:
    return ""
