"""The pages serve their own CJK font (a machine without one would show empty boxes): the
stylesheet names it, the server answers it, and it draws every character of the Japanese
catalog and of the games' Japanese terms (tools/subset_font.py cuts it to those)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from fontTools.ttLib import TTFont

from tests.players.conftest import close_app, make_app
from tools.subset_font import is_cjk, wanted
from warlog import PACKAGE
from warlog.catalogs import CATALOGS

FONT = PACKAGE / "static" / "noto-sans-jp-subset.woff2"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3", WARLOG_PERIODIC=False)
    yield app
    close_app(app)


def font_chars(data: bytes) -> set[str]:
    return {chr(cp) for cp in TTFont(io.BytesIO(data)).getBestCmap()}


def catalog_chars() -> set[str]:
    chars: set[str] = set()
    for po in CATALOGS.glob("*/LC_MESSAGES/*.po"):
        with po.open("rb") as f:
            for m in read_po(f):
                for s in (m.string if isinstance(m.string, (tuple, list)) else [m.string]):
                    chars.update(ch for ch in s or "" if is_cjk(ch))
    return chars


def test_the_font_draws_every_japanese_character_of_the_catalog() -> None:
    drawn = font_chars(FONT.read_bytes())
    missing = "".join(sorted(catalog_chars() - drawn))
    assert catalog_chars() and not missing, f"run tools/subset_font.py: not in the font: {missing}"


def test_the_font_draws_the_games_own_japanese_terms() -> None:
    missing = "".join(sorted(wanted() - font_chars(FONT.read_bytes())))
    assert "支配地域" not in missing and not missing, f"run tools/subset_font.py: not in the font: {missing[:40]}"


def test_the_font_is_renamed_and_keeps_its_licence() -> None:
    """SIL OFL 1.1: a modified font keeps the copyright and licence and is told apart by name."""
    names = TTFont(str(FONT))["name"]
    assert names.getDebugName(1) == "Warlog Noto Sans JP subset"
    assert "Adobe" in (names.getDebugName(0) or "") and "Open Font License" in (names.getDebugName(13) or "")
    assert "SIL OPEN FONT LICENSE Version 1.1" in (PACKAGE / "static" / "OFL.txt").read_text(encoding="utf-8")


def test_every_page_links_the_stylesheet_that_serves_the_font(app: Flask) -> None:
    client = app.test_client()
    html = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "/static/i18n.css" in html
    css = client.get("/static/i18n.css")
    assert css.status_code == 200 and b"noto-sans-jp-subset.woff2" in css.data and b"unicode-range" in css.data
    font = client.get("/static/noto-sans-jp-subset.woff2")
    assert font.status_code == 200 and font.mimetype == "font/woff2"
    assert font_chars(font.data) >= set("ロビー新しいゲーム")
