"""The lobby's costly parts built once (the lobby under 10 ms p95). Jinja spent most
of a lobby request on its 50 rows (a macro call and three `url_for` per row) and on the
"New game" form, which lists every scenario and option of every game. A row is now HTML built
here from the listing row, kept in a bounded LRU keyed by everything it shows (a game that
moves gets a new key); the form is rendered once per set of games, the CSRF token put in per
request. What the page shows is unchanged.

The whole page, too, is the same for every visitor who is not signed in and holds no seat
(rendering it was a third of a lobby request's CPU): it is kept per app in a small
LRU keyed by its rows (`row_key`), filters and links, and only the CSRF token is put in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from ledger.store import GameSummary
from warlog.games import replay as rp
from warlog.i18n import lang, tr
from warlog.i18n import status_badge as badge_text
from warlog.ops.lru import BoundedCache

ROWS = 4096  # rows kept (about 1 KiB each)
PAGES = 64  # whole lobby pages kept per app (about 30 KiB each)
_rows: BoundedCache[tuple[Any, ...], str] = BoundedCache(ROWS)
_forms: dict[tuple[str, ...], str] = {}
CSRF = "\x00csrf\x00"


def status_badge(status: str) -> str:
    return f'<span class="badge status-{escape(status)}">{escape(badge_text(status))}</span>'


def seats(active: list[str], game: str) -> str:
    if not active:
        nobody = escape(tr("nobody"))
        return f'<span class="muted">{nobody}</span>'
    return " ".join(f'<span class="seat seat-{escape(s)}">{escape(tr(rp.seat_name(s, game)))}</span>' for s in active)


def row_key(r: GameSummary) -> tuple[Any, ...]:
    """Everything of a listing row that the lobby shows."""
    return (r.game_id, r.game, r.scenario, r.status, r.last_seq, tuple(r.active_seats), r.sandbox, r.created_at)


def row(r: GameSummary, title: str, link: Callable[[str], tuple[str, str, str]], where: str = "",
        scenario: str | None = None) -> str:
    """A game's row; `scenario` the scenario's title (its id when the game no longer knows it)."""
    key = (*row_key(r), title, where, lang())  # the row's words are in the page's language
    html = _rows.get(key)
    if html is None:
        watch, replay, audit = (escape(u) for u in link(quote(r.game_id, safe="")))
        to_act = seats(r.active_seats, r.game) if r.status == "active" else '<span class="muted">—</span>'
        sandbox, watch_word, replay_word, audit_word = (escape(w) for w in (tr("sandbox"), tr("watch"), tr("replay"),
                                                                             tr("audit")))
        html = (f"<tr>\n        <td>{escape(tr(title))}"
                + (f' <span class="badge sandbox">{sandbox}</span>' if r.sandbox else "")
                + f"</td>\n        <td>{escape(tr(scenario or r.scenario))}</td>\n        <td><code>{escape(r.game_id)}</code></td>\n"
                f"        <td>{status_badge(r.status)}</td>\n        <td>{to_act}</td>\n"
                f"        <td>{r.last_seq + 1}</td>\n"
                f"        <td class=\"muted\">{escape(r.created_at[:16].replace('T', ' '))}</td>\n"
                f'        <td class="links"><a href="{watch}">{watch_word}</a> · '
                f'<a href="{replay}">{replay_word}</a> · <a href="{audit}">{audit_word}</a></td>\n      </tr>')
        _rows[key] = html
    return html


def rows_html(rows: list[GameSummary], games: dict[str, Any], urls: tuple[str, str, str]) -> Markup:
    """`urls`: the watch, replay and audit links of a game whose id is `{id}`."""
    def link(gid: str) -> tuple[str, str, str]:
        return urls[0].replace("{id}", gid), urls[1].replace("{id}", gid), urls[2].replace("{id}", gid)

    def scenario(r: GameSummary) -> str | None:
        sc = games[r.game].scenarios().get(r.scenario) if r.game in games else None
        return str(sc.title) if sc is not None else None

    return Markup("\n      ".join(row(r, games[r.game].title if r.game in games else r.game, link, urls[0], scenario(r))
                                   for r in rows))


def create_form(games: dict[str, Any], render: Callable[[], str], token: str) -> Markup:
    key = (*games, lang())
    html = _forms.get(key)
    if html is None:
        html = _forms[key] = render()
    return Markup(html.replace(CSRF, str(escape(token))))


def with_token(html: str, token: str) -> str:
    """A page rendered with the CSRF placeholder, with this visitor's token put in."""
    return html.replace(CSRF, str(escape(token)))


def pages_cache() -> BoundedCache[tuple[Any, ...], str]:
    return BoundedCache(PAGES)


def page(cache: BoundedCache[tuple[Any, ...], str], key: tuple[Any, ...], render: Callable[[], str],
         token: str) -> str:
    """The page `render` makes for `key` (rendered with the CSRF placeholder), once."""
    html = cache.get(key)
    if html is None:
        html = cache[key] = render()
    return with_token(html, token)
