"""The interface's message catalogs and the players' languages, without any web code: what a
worker needs to write a player's mail in their language (warlog.notify.hooks), and what the web
app's translation (warlog.i18n, Flask-Babel) is built on.

The catalogs are `.po` files a translator edits (warlog/translations/<lang>/LC_MESSAGES); each
process compiles them into `.mo` files when it first needs them (`compile_catalogs`), so nothing
compiled is kept in the repository.
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import support
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from warlog import PACKAGE
from warlog.ops.sqldb import Ddl, SqlDb, iso, utc_now

LANGUAGES = {"en": "English", "ja": "日本語"}  # code -> the language's own name (the switch's label)
DEFAULT = "en"
CATALOGS = PACKAGE / "translations"
DOMAIN = "messages"

_TABLE = """CREATE TABLE IF NOT EXISTS player_languages (
    player_id TEXT PRIMARY KEY,
    lang TEXT NOT NULL,
    updated_at TEXT NOT NULL
)"""
DDL = Ddl("i18n", sqlite=_TABLE, postgresql=_TABLE)


def N_(text: str) -> str:  # noqa: N802  (the usual name of gettext's no-op marker)
    """Marks a text for the catalogs where it is defined; `tr` translates it where it is shown."""
    return text


def catalogs() -> list[Path]:
    """Every language's `.po` file."""
    return sorted(CATALOGS.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_catalogs(target: Path) -> Path:
    """Compile each `.po` into `target/<lang>/LC_MESSAGES/messages.mo` unless the `.mo` there was
    made from the same `.po` bytes (its SHA-256 is kept beside it). Fuzzy entries are left out,
    as msgfmt does. Returns `target`."""
    for po in catalogs():
        data = po.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        mo = target / po.relative_to(CATALOGS).with_suffix(".mo")
        stamp = mo.with_suffix(".sha256")
        if mo.is_file() and stamp.is_file() and stamp.read_text() == digest:
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3], domain=DOMAIN)
        tmp = mo.with_name(f".{mo.name}.{os.getpid()}.tmp")  # several processes may start at once
        with tmp.open("wb") as out:
            write_mo(out, catalog, use_fuzzy=False)
        os.replace(tmp, mo)
        stamp.write_text(digest)
    return target



# -- a player's language (their mails' too) ------------------------------------------------------

class PlayerLanguages:
    """The language each player last chose with the switch (`player_languages`)."""

    def __init__(self, db: SqlDb) -> None:
        self.db = db

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    def get(self, player_id: str) -> str | None:
        row = self.db.one("SELECT lang FROM player_languages WHERE player_id = ?", (player_id,))
        return str(row[0]) if row and row[0] in LANGUAGES else None

    def set(self, player_id: str, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"not a language of the interface: {lang!r}")
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM player_languages WHERE player_id = ?", (player_id,))
            tx.execute("INSERT INTO player_languages (player_id, lang, updated_at) VALUES (?, ?, ?)",
                       (player_id, lang, iso(utc_now())))



# -- outside a request: a worker's mail --------------------------------------------------------

_LOADED: dict[str, Any] = {}


def translations_for(code: str) -> Any:
    """`code`'s catalog, compiled in memory and loaded once per process (a worker's mails, and
    every game text a page says: `game_text`); no file is written, so a read-only install works.
    A language without a catalog says everything as it is."""
    if code not in _LOADED:
        po = CATALOGS / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if not po.is_file():
            _LOADED[code] = support.NullTranslations()
        else:
            with po.open("rb") as f:
                catalog = read_po(f, locale=code, domain=DOMAIN)
            compiled = io.BytesIO()
            write_mo(compiled, catalog, use_fuzzy=False)
            compiled.seek(0)
            _LOADED[code] = support.Translations(fp=compiled, domain=DOMAIN)
    return _LOADED[code]


def translate(code: str | None, message: str, **values: Any) -> str:
    """`message` in language `code` (None or English: as it is), with `values` put in."""
    text = str(translations_for(code).ugettext(message)) if code and code != DEFAULT else message
    try:
        return text % values if values else text
    except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: the English
        return message % values


def game_text(code: str | None, text: object) -> str:
    """A game's text (a prompt, an action, a fact, a seat's name) in language `code`: whole if the
    catalog has it, else by one of the phrase shapes of warlog.i18n_terms, else as it is. What
    a page's `tr` does, for a mail written where there is no request (never %-formatted)."""
    s = str(text)
    return s if not s or not code or code == DEFAULT else _game_text(code, s)


@lru_cache(maxsize=65536)
def _game_text(code: str, s: str) -> str:
    """`game_text`, kept per process (the catalogs do not change while it runs: a play page
    shows hundreds of game texts)."""
    found = str(translations_for(code).ugettext(s))
    if found != s:
        return found
    bank = _BANK.fullmatch(s)
    if bank:
        return _bank(code, bank)
    if s[:1].islower():  # a prompt in the middle of a sentence ("the game waits…"), catalogued capitalised
        upper = s[:1].upper() + s[1:]
        found = str(translations_for(code).ugettext(upper))
        if found != upper:
            return found
    from warlog.i18n_terms import shaped

    said = shaped(s, lambda part: game_text(code, part))
    return _BANK.sub(lambda m: _bank(code, m), said) if said else s


# A Vietnam Battles hex on one bank of a river that runs through it ("1226:south", its id in the
# rules): on a translated page the hex with its bank in words ("1226(南岸)").
_BANK = re.compile(r"\b(\d{4}):(north|south)\b")
_BANKS = {"north": N_("north bank"), "south": N_("south bank")}


def _bank(code: str, m: re.Match[str]) -> str:
    return translate(code, "%(hex)s (%(bank)s)", hex=m[1], bank=translate(code, _BANKS[m[2]]))


# A text an SVG board draws or says on a hover: a <text> or <tspan> (no element inside) or a <title>
_SVG_TEXT = re.compile(r"(<(text|tspan|title)\b[^>]*>)([^<]+)(</\2>)")


def svg_texts(code: str | None, markup: str) -> str:
    """A board drawn by a renderer (an <svg>) with each of its texts (terrain and place labels,
    counters' names, status lines, hover titles) in language `code` (`game_text`); the drawing
    itself is kept as it is."""
    if not code or code == DEFAULT:
        return markup

    def one(m: re.Match[str]) -> str:
        text = html.unescape(m.group(3)).strip()
        found = game_text(code, text) if text else text
        if found == text:
            return m.group(0)
        return f"{m.group(1)}{html.escape(found, quote=False)}{m.group(4)}"

    return _SVG_TEXT.sub(one, markup)


def stored_language(db: SqlDb, player_id: str) -> str | None:
    """A player's chosen language read straight from the database (a worker has no app); None
    if they chose none, or on a database that does not have the table yet (before migration 12)."""
    try:
        return PlayerLanguages(db).get(player_id)
    except Exception:
        return None


class Words:
    """A mail's text kept as catalog messages and their values, put into each recipient's
    language when it is sent (`say`): `words("You are withdrawn from %(t)s", t=name) + "."`.
    A plain `str` added to it is kept as it is (a reason the director typed)."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[tuple[str, dict[str, Any] | None], ...]) -> None:
        self.parts = parts

    def __add__(self, other: Words | str) -> Words:
        return Words(self.parts + (other.parts if isinstance(other, Words) else ((other, None),)))

    def __radd__(self, other: str) -> Words:
        return Words(((other, None),) + self.parts)

    def say(self, code: str | None) -> str:
        return "".join(m if values is None else
                       translate(code, m, **{k: v.say(code) if isinstance(v, (Words, GameText)) else v
                                             for k, v in values.items()})
                       for m, values in self.parts)

    def __str__(self) -> str:
        return self.say(None)


class GameText:
    """A game's or the service's own text as a value of `words` (a refusal's reason, a fact):
    said through `game_text`, since it is no message of the catalogs' but may have their shape."""

    __slots__ = ("text",)

    def __init__(self, text: object) -> None:
        self.text = str(text)

    def say(self, code: str | None) -> str:
        return game_text(code, self.text)

    def __str__(self) -> str:
        return self.text


def words(message: str, **values: Any) -> Words:
    """`message` (marked for the catalogs) with its values, translated when it is said."""
    return Words(((message, values),))


def say(text: Words | str, code: str | None) -> str:
    """A notice's text in language `code` (a plain string is as it is)."""
    return text.say(code) if isinstance(text, Words) else text
