"""The interface in English or Japanese (Flask-Babel and Babel message catalogs).

A translator edits `warlog/translations/<lang>/LC_MESSAGES/messages.po` (`tools/catalogs`
extracts the messages of the templates, warlog/ and rules/ into `messages.pot` and merges
them into each catalog). The app compiles each catalog into a `.mo` file when it starts, into
its instance folder (or a temporary folder where that cannot be written), again only when the
`.po` changed: a fresh clone, a wheel and a read-only install all work with no build step and
no compiled file in the repository.

The language of a page, in order: the `lang` cookie (the switch in every page's top bar sets
it), the signed-in player's own choice (the last one they made with the switch, kept with
their account: their mails use it too), the browser's Accept-Language, English.
"""

from __future__ import annotations

import html
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, g, has_request_context, redirect, request, url_for
from flask_babel import Babel, force_locale, get_locale, gettext  # type: ignore[import-untyped]
from markupsafe import Markup, escape

from warlog.catalogs import (
    DEFAULT,
    LANGUAGES,
    N_,
    PlayerLanguages,
    compile_catalogs,
    game_text,
    svg_texts,
)
from warlog.ops.sqldb import SqlDb

LANG_COOKIE = "lang"
COOKIE_AGE = timedelta(days=365)
i18n_pages = Blueprint("i18n", __name__)

def tr(text: object) -> str:
    """`text` in the page's language if the catalog has it (whole, or by one of the phrase
    shapes of warlog.i18n_terms), else as it is; never %-formatted, unlike a template's `_()`."""
    s = str(text)
    code = lang()
    if not s or code == DEFAULT:
        return s
    return _translated(code, s)


def _translated(code: str, s: str) -> str:
    """`tr` for the language `code` of the current locale (the catalogs' `game_text`)."""
    return game_text(code, s)


# The page script's words (warlog/static/warlog.js `T()`), sent translated in every page
JS_MESSAGES = [N_("Zoom the map"), N_("Copied"), N_("Confirm"), N_("Cancel"), N_("Choose:"),
               N_("Move %(unit)s: %(path)s (%(mp)s MP left)"), N_("Move %(unit)s: tap the hexes of its path"),
               N_("Move %(unit)s: click the hexes of its path"), N_("Confirm move"), N_("Undo last hex"),
               N_("Sending %(n)s actions to the umpire…"), N_("Sending %(n)s action to the umpire…"),
               N_("Units in %(hex)s:"), N_("Click the first hex."), N_("From %(hex)s: click the second hex."),
               N_("Autoplay"), N_("Pause"), N_("Tap a highlighted hex for %(what)s."),
               N_("Click a highlighted hex for %(what)s."), N_("Map"), N_("Fit"), N_("Auto"), N_("fit"), N_("auto")]


def js_messages() -> dict[str, str]:
    """The script's words in the page's language (none on an English page: it keeps its own)."""
    if lang() == DEFAULT:
        return {}
    return {m: gettext(m) for m in JS_MESSAGES}


_TEXT_NODE = re.compile(r">([^<]+)<")


def text_nodes(markup: str) -> list[str]:
    """The texts between the tags of an HTML fragment (a map key), unescaped and trimmed."""
    return [html.unescape(t).strip() for t in _TEXT_NODE.findall(str(markup)) if t.strip()]


def tr_markup(markup: Any) -> Markup:
    """An HTML fragment made elsewhere (a renderer's map key) with each text between its tags
    passed through `tr`; the markup itself is kept as it is."""
    code = lang()
    if code == DEFAULT:
        return Markup(markup)
    return _translated_markup(code, str(markup))


@lru_cache(maxsize=64)
def _translated_markup(code: str, markup: str) -> Markup:
    """`tr_markup` for `code`, kept per process (a map key is the same on every page)."""

    def one(m: re.Match[str]) -> str:
        raw = m.group(1)
        text = html.unescape(raw).strip()
        if not text:
            return m.group(0)
        found = tr(text)
        if found == text:
            return m.group(0)
        lead, trail = raw[:len(raw) - len(raw.lstrip())], raw[len(raw.rstrip()):]
        return f">{lead}{escape(found)}{trail}<"

    return Markup(_TEXT_NODE.sub(one, markup))


def tr_svg(markup: Any) -> Markup:
    """A board drawn by a renderer (an <svg>) with each of its texts passed through `tr`
    (`warlog.catalogs.svg_texts`). Not cached whole (a board changes with every move); each
    text is."""
    return Markup(svg_texts(lang(), str(markup)))


STATUS_WORDS = {"waiting": N_("waiting"), "active": N_("active"), "ended": N_("ended")}
STATUS_BADGES = {"waiting": N_("waiting for seats"), "active": N_("in play"), "ended": N_("over")}


def status_word(status: str) -> str:
    return tr(STATUS_WORDS.get(status, status))


def status_badge(status: str) -> str:
    return tr(STATUS_BADGES.get(status, status))


# -- catalogs -----------------------------------------------------------------------------------

def compiled_dir(app: Flask) -> Path:
    """Where the app's compiled catalogs go: its instance folder, else a temporary folder."""
    for base in (Path(app.instance_path), Path(tempfile.gettempdir()) / f"warlog-{os.getuid()}"):
        try:
            return compile_catalogs(base / "translations")
        except OSError:
            continue
    raise RuntimeError("no writable folder for the compiled message catalogs")


# -- which language ---------------------------------------------------------------------------

def chosen_cookie() -> str | None:
    lang = request.cookies.get(LANG_COOKIE)
    return lang if lang in LANGUAGES else None


def select_locale() -> str:
    """The page's language: the switch's cookie, the signed-in player's choice, Accept-Language."""
    if not has_request_context():
        return DEFAULT
    lang = chosen_cookie() or _player_language()
    return lang or request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT) or DEFAULT


def _player_language() -> str | None:
    if "warlog_players" not in current_app.extensions or "warlog_languages" not in current_app.extensions:
        return None
    if "warlog_player_lang" not in g:
        from warlog.players.web import current_player

        player = current_player()
        g.warlog_player_lang = language_of(player.id) if player else None
    found: str | None = g.warlog_player_lang
    return found


def lang() -> str:
    """The current request's language code ("en" or "ja")."""
    return str(get_locale() or DEFAULT)


# -- a player's language (their mails' too) ------------------------------------------------------

def language_of(player_id: str | None) -> str | None:
    """A player's chosen language, if they chose one (None outside an app with players)."""
    store: PlayerLanguages | None = current_app.extensions.get("warlog_languages")
    return store.get(player_id) if store is not None and player_id else None


@contextmanager
def player_locale(player_id: str | None, fallback: str | None = None) -> Iterator[None]:
    """Messages (a mail) in the player's language: their choice, else `fallback` (the page's
    language when the page knows it), else English."""
    chosen = language_of(player_id) or fallback or DEFAULT
    with force_locale(chosen):
        yield


# -- outside a request: a worker's mail --------------------------------------------------------

# -- the switch -------------------------------------------------------------------------------

def _local(target: str | None) -> str:
    """A path on this site to go back to (never another site's address)."""
    if not target:
        return url_for("pages.lobby")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return url_for("pages.lobby")
    return target


@i18n_pages.get("/lang/<code>")
def choose(code: str) -> Any:
    """The top bar's switch: remember the language in a cookie (and for a signed-in player, with
    their account) and go back to the page it was pressed on."""
    if code not in LANGUAGES:
        from warlog.web.pageutil import error_page, finish

        message = gettext("Warlog speaks %(languages)s; “%(code)s” is not one of them.",
                          languages=", ".join(LANGUAGES.values()), code=code)
        return finish(Response(*error_page(404, N_("Not found"), message)))
    resp = redirect(_local(request.args.get("next")), code=303)
    resp.set_cookie(LANG_COOKIE, code, max_age=int(COOKIE_AGE.total_seconds()), samesite="Lax", httponly=True,
                    secure=request.is_secure)
    resp.headers["Cache-Control"] = "no-store"
    store: PlayerLanguages | None = current_app.extensions.get("warlog_languages")
    if store is not None and "warlog_players" in current_app.extensions:
        from warlog.players.web import current_player

        player = current_player()
        if player is not None:
            store.set(player.id, code)
    return resp


def switch_links() -> list[dict[str, Any]]:
    """The top bar's switch: one link per language, the current one marked."""
    here = request.full_path.rstrip("?") if has_request_context() else "/"
    current = lang()
    return [{"code": code, "name": name, "current": code == current,
             "href": url_for("i18n.choose", code=code, next=here)} for code, name in LANGUAGES.items()]


def _vary(resp: Response) -> Response:
    """A page's words depend on the cookie and Accept-Language: caches must keep them apart."""
    if resp.mimetype == "text/html":
        resp.vary.add("Accept-Language")
        resp.vary.add("Cookie")
    return resp


def keep_player_languages(app: Flask, db: SqlDb) -> None:
    """Remember each signed-in player's choice on the services' database."""
    store = PlayerLanguages(db)
    store.create_schema()
    app.extensions["warlog_languages"] = store


def init_app(app: Flask) -> None:
    """Flask-Babel with the compiled catalogs, and the switch."""
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled_dir(app))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(i18n_pages)
    app.after_request(_vary)

    app.add_template_filter(tr, "tr")
    app.add_template_filter(tr_markup, "tr_markup")
    app.add_template_filter(tr_svg, "tr_svg")

    @app.context_processor
    def _languages() -> dict[str, Any]:
        return {"lang": lang, "language_switch": switch_links, "status_word": status_word, "js_messages": js_messages,
                "status_badge_text": status_badge}
