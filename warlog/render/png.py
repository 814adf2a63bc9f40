"""A board's SVG drawn as PNG (cairosvg: the same SVG the page shows, drawn by Cairo), for the
replay's picture of a step and the board in a play-by-mail turn."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache

REGION = {"ja": "JP"}  # how a pan-CJK font family names the cut for a language
BOARD_FONT = "DejaVu Sans"  # the boards' own font (their SVG names it first), drawn for English


def board_png(svg: str, scale: float = 1.0, lang: str | None = None) -> bytes:
    """The PNG of `svg`; with `lang`, its texts drawn in a font of that language's script
    (`font_for`: Cairo's simple font choice takes no other font for a glyph its font lacks)."""
    import cairosvg

    family = font_for(lang) if lang else None
    if family:
        svg = svg.replace(BOARD_FONT, family)
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))


@lru_cache(maxsize=8)
def font_for(code: str) -> str | None:
    """A font family that fontconfig knows for `code`'s script ("Noto Sans CJK JP" from Debian's
    fonts-noto-cjk for Japanese), None if there is none. A PNG is drawn with the machine's fonts,
    not the pages' own: without one, Japanese comes out as empty boxes."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        found = subprocess.run([fc_list, f":lang={code}", "family"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    families = sorted({f.split(",")[0].strip() for f in found.stdout.splitlines() if f.strip()})
    sans = [f for f in families if "Sans" in f and "Mono" not in f]
    own = [f for f in sans if REGION.get(code, code.upper()) in f.split()]  # the JP cut, not the Chinese
    return (own or sans or families or [None])[0]
