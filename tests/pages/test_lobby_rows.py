"""The lobby's rows and New game form built once and cached (the lobby under 10 ms):
a game that moves shows its new state at once, what a row shows is escaped, each seat's CSRF
token is its own though the form is cached, and the row cache is bounded. The whole page is
kept for visitors who hold no seat and are not signed in: it is the page rendered afresh, a
new game shows at once, and a seat holder still gets their own page."""

from __future__ import annotations

import re

from ledger.store import GameSummary
from tests.pages.conftest import csrf_of, drain
from warlog.web import lobbyrows


def _row(html: str, game_id: str) -> str:
    m = re.search(rf"<tr>(?:(?!</tr>).)*{game_id}.*?</tr>", html, re.S)
    assert m, f"no row for {game_id}"
    return m.group(0)


def test_a_cached_row_follows_its_game(app, client, page_game):
    pg = page_game(join=False)
    before = _row(client.get("/").get_data(as_text=True), pg.id)
    assert "waiting for seats" in before and f'href="/games/{pg.id}"' in before
    assert f'href="/games/{pg.id}/audit"' in before
    for link in pg.links.values():  # each seat opens its invitation in its own browser
        assert app.test_client().get(link.replace("http://localhost", "")).status_code == 303
    drain(app)
    after = _row(client.get("/").get_data(as_text=True), pg.id)
    assert after != before and "in play" in after and 'class="seat seat-' in after


def test_each_visitor_gets_their_own_csrf_token_in_the_cached_form(app):
    one, two = app.test_client(), app.test_client()
    assert csrf_of(one) != csrf_of(two)
    assert "\x00" not in one.get("/").get_data(as_text=True)


def test_a_row_escapes_what_it_shows_and_the_cache_is_bounded():
    s = GameSummary("g<1>", "x", "<b>scenario</b>", "active", "2026-01-02T03:04:05.000000Z", 4, ["r<d"], 4, 4, True)
    html = lobbyrows.rows_html([s], {}, ("/games/{id}", "/games/{id}/replay", "/games/{id}/audit"))
    assert "<b>scenario" not in html and "&lt;b&gt;scenario&lt;/b&gt;" in html
    assert "g&lt;1&gt;" in html and 'href="/games/g%3C1%3E"' in html and "r&lt;d" in html
    assert "sandbox" in html and "<td>5</td>" in html and "2026-01-02 03:04" in html
    assert lobbyrows._rows.maxsize == lobbyrows.ROWS


def _fresh(app) -> None:
    app.extensions.pop("warlog_lobby_pages", None)


def test_a_kept_lobby_page_is_the_page_rendered_afresh_with_each_visitors_token(app, page_game):
    page_game(join=False)
    one, two = app.test_client(), app.test_client()
    _fresh(app)
    first = one.get("/?status=all").get_data(as_text=True)  # rendered, then kept
    again = one.get("/?status=all").get_data(as_text=True)  # from the kept page
    _fresh(app)
    afresh = one.get("/?status=all").get_data(as_text=True)
    assert first == again == afresh and len(app.extensions["warlog_lobby_pages"]) == 1
    other = two.get("/?status=all").get_data(as_text=True)
    assert csrf_of(one, "/?status=all") != csrf_of(two, "/?status=all")
    assert other.replace(csrf_of(two, "/?status=all"), "T") == first.replace(csrf_of(one, "/?status=all"), "T")
    assert "\x00" not in other


def test_a_new_game_shows_at_once_on_a_kept_lobby_page(app, client, page_game):
    one = page_game(join=False)
    assert one.id in client.get("/").get_data(as_text=True)
    two = page_game(join=False)
    html = client.get("/").get_data(as_text=True)
    assert one.id in html and two.id in html


def test_a_seat_holder_gets_their_own_lobby_not_the_kept_one(app, client, page_game):
    pg = page_game()
    anonymous = client.get("/").get_data(as_text=True)  # kept for everyone without a seat
    assert "My games" not in anonymous and pg.id in anonymous
    html = pg.seats["belgium"].get("/").get_data(as_text=True)
    assert "My games" in html and "Your turn" in html
    assert "My games" not in client.get("/").get_data(as_text=True)
    assert app.extensions["warlog_lobby_pages"].maxsize == lobbyrows.PAGES
