"""A board's SVG drawn as PNG (cairosvg: the same SVG the page shows, drawn by Cairo), for the
replay's picture of a step and the board in a play-by-mail turn."""

from __future__ import annotations


def board_png(svg: str, scale: float = 1.0) -> bytes:
    import cairosvg

    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))
