"""The interface's message catalogs and the players' languages, without any web code: what a
worker needs to write a player's mail in their language (warlog.notify.hooks), and what the web
app's translation (warlog.i18n, Flask-Babel) is built on.

The catalogs are `.po` files a translator edits (warlog/translations/<lang>/LC_MESSAGES); each
process compiles them into `.mo` files when it first needs them (`compile_catalogs`), so nothing
compiled is kept in the repository.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
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
    """`code`'s catalog where there is no request (a worker's notices), compiled and loaded
    once per process."""
    if code not in _LOADED:
        target = compile_catalogs(Path(tempfile.gettempdir()) / f"warlog-{os.getuid()}" / "translations")
        _LOADED[code] = support.Translations.load(str(target), [code], DOMAIN)
    return _LOADED[code]


def translate(code: str | None, message: str, **values: Any) -> str:
    """`message` in language `code` (None or English: as it is), with `values` put in."""
    text = str(translations_for(code).ugettext(message)) if code and code != DEFAULT else message
    try:
        return text % values if values else text
    except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: the English
        return message % values


def stored_language(db: SqlDb, player_id: str) -> str | None:
    """A player's chosen language read straight from the database (a worker has no app); None
    if they chose none, or on a database that does not have the table yet (before migration 12)."""
    try:
        return PlayerLanguages(db).get(player_id)
    except Exception:
        return None
