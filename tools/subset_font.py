"""Make warlog/static/noto-sans-jp-subset.woff2: Noto Sans CJK JP Regular cut down to the
characters the pages can show in Japanese, so that a machine with no CJK font shows words,
not empty boxes, for about 1 % of the full font's size.

The characters: every CJK character, kana and full-width form in the message catalogs
(warlog/translations), the templates, warlog/ and rules/ (the games' own Japanese terms), plus
all of hiragana, katakana, CJK punctuation and the full-width ASCII forms (a player's name in
kana). Run it again after the catalogs change; tests/i18n/test_font.py fails when a translated
character is missing from the font.

The source is Debian's fonts-noto-cjk (`apt-get install fonts-noto-cjk`), SIL Open Font License
1.1 (warlog/static/OFL.txt). The subset is a modified version in the licence's sense: it is
renamed "Warlog Noto Sans JP subset" and keeps the copyright and licence notices.

    .venv/bin/python tools/subset_font.py [path/to/NotoSansCJK-Regular.ttc]
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
TARGET = ROOT / "warlog" / "static" / "noto-sans-jp-subset.woff2"
FAMILY = "Warlog Noto Sans JP subset"
ALWAYS = [(0x3000, 0x303F), (0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF01, 0xFF5E), (0xFF61, 0xFF9F)]
SCANNED = [("warlog/translations", "*.po"), ("templates", "*.html"), ("warlog", "*.py"), ("rules", "*.py"),
           ("rules", "*.json"), ("rules", "*.md")]


def is_cjk(ch: str) -> bool:
    """Characters the page font leaves to this one (the stylesheet's unicode-range)."""
    cp = ord(ch)
    return (0x3000 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or 0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF
            or 0xF900 <= cp <= 0xFAFF or 0xFF00 <= cp <= 0xFFEF)


def wanted(root: Path = ROOT) -> set[str]:
    chars = {chr(cp) for lo, hi in ALWAYS for cp in range(lo, hi + 1) if unicodedata.category(chr(cp)) != "Cn"}
    for folder, pattern in SCANNED:
        for path in (root / folder).rglob(pattern):
            chars.update(ch for ch in path.read_text(encoding="utf-8", errors="ignore") if is_cjk(ch))
    return chars


def japanese_face(source: Path) -> TTFont:
    """The JP face of the collection (or the file itself if it is a single font)."""
    if source.suffix.lower() != ".ttc":
        return TTFont(str(source))
    for font in TTCollection(str(source)).fonts:
        if font["name"].getDebugName(1) == "Noto Sans CJK JP":
            return font
    raise SystemExit(f"{source}: no Noto Sans CJK JP face")


def build(source: Path = SOURCE, target: Path = TARGET) -> int:
    font = japanese_face(source)
    cmap = font.getBestCmap()
    chars = sorted(ch for ch in wanted() if ord(ch) in cmap)
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # CFF hints: a tenth of the size, no visible gain at screen sizes
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, version, licence
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(ch) for ch in chars])
    sub.subset(font)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 6):
            names.setName("WarlogNotoSansJPsubset-Regular", record.nameID, record.platformID, record.platEncID,
                          record.langID)
    font.flavor = "woff2"
    font.save(str(target))
    return len(chars)


if __name__ == "__main__":
    count = build(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE)
    print(f"{TARGET.relative_to(ROOT)}: {count} characters, {TARGET.stat().st_size // 1024} KiB")
