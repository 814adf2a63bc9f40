"""The message catalogs are complete: every message the templates, warlog/ and rules/ mark for
translation (babel.cfg) is in each language's catalog, translated (a non-empty msgstr, nothing
fuzzy), with the same placeholders and the same HTML tags as the English text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from warlog.catalogs import CATALOGS, DOMAIN, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "tr": None, "_l": None, "translate": (2,)}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
TAG = re.compile(r"</?([a-z]+)\b")
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def catalog(lang: str) -> Catalog:
    with (CATALOGS / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang)


def marked_messages() -> set[str | tuple[str, ...]]:
    """What the sources mark for translation now (babel.cfg, as tools/catalogs extracts it)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                       keywords=KEYWORDS):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def strings(msg: Message) -> list[str]:
    return list(msg.string) if isinstance(msg.string, (tuple, list)) else [msg.string]


def test_there_is_a_japanese_catalog() -> None:
    assert (CATALOGS / "ja" / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
    assert "ja" in TRANSLATED


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    untranslated = [m.id for m in catalog(lang) if m.id and (not all(s.strip() for s in strings(m)))]
    fuzzy = [m.id for m in catalog(lang) if m.id and m.fuzzy]
    assert not untranslated, f"{lang}: {len(untranslated)} messages without a translation: {untranslated[:10]}"
    assert not fuzzy, f"{lang}: fuzzy entries (check them, then drop the flag): {fuzzy[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_message_is_in_the_catalog(lang: str) -> None:
    """A text marked in a template or in the code but never merged into the catalog (run
    tools/catalogs, then translate) would show in English on a Japanese page."""
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog(lang) if m.id}
    missing = sorted(map(str, marked_messages() - have))
    assert not missing, f"{lang}: {len(missing)} marked messages not in the catalog: {missing[:10]}"


# A literal piped through the `tr` filter in a template ({{ 'Draw pile'|tr }}): no extractor sees it.
TR_LITERAL = re.compile(r"""(['"])((?:(?!\1).)+)\1\s*\|\s*tr\b""")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_literal_a_template_says_through_tr_is_in_the_catalog(lang: str) -> None:
    """`'…'|tr` in a template is not extracted by tools/catalogs (it is meant for the games'
    own texts): a fixed phrase said that way must be catalogued some other way, or it stays
    English; a template's own phrase is better marked with `_()`."""
    have = {m.id for m in catalog(lang) if isinstance(m.id, str)}
    said = {(str(path.relative_to(ROOT)), m[2]) for path in (ROOT / "templates").rglob("*.html")
            for m in TR_LITERAL.finditer(path.read_text(encoding="utf-8"))}
    assert [m[2] for m in TR_LITERAL.finditer("""{{ 'Your hand'|tr }} {{ "it's" | tr }}""")] == ["Your hand", "it's"]
    missing = sorted(f"{path}: {text}" for path, text in said if text not in have)
    assert not missing, f"{lang}: {missing[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_the_markup(lang: str) -> None:
    wrong = []
    for m in catalog(lang):
        if not m.id:
            continue
        source = m.id if isinstance(m.id, str) else m.id[0]
        for text in strings(m):
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(source)) and not isinstance(m.id, tuple):
                wrong.append((source, text, "placeholders"))
            if sorted(TAG.findall(text)) != sorted(TAG.findall(source)):
                wrong.append((source, text, "tags"))
    assert not wrong, wrong[:5]


def test_the_checks_fail_on_an_untranslated_message(tmp_path: Path) -> None:
    """The completeness check is not vacuous: an empty msgstr is seen."""
    po = tmp_path / "messages.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  'msgid "Lobby"\nmsgstr ""\n\n#, fuzzy\nmsgid "Game"\nmsgstr "ゲーム"\n', encoding="utf-8")
    with po.open("rb") as f:
        cat = read_po(f, locale="ja")
    assert [m.id for m in cat if m.id and not all(s.strip() for s in strings(m))] == ["Lobby"]
    assert [m.id for m in cat if m.id and m.fuzzy] == ["Game"]
