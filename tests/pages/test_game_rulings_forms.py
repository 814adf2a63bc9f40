"""The rulings and disputes forms of an ordinary game's pages answer bad input with a clear page,
never a 500: a spectator cannot dispute, a seat cannot rule, a dispute names an event
of the game and says something, a ruling fits its schema; the director's answer is recorded once."""

from __future__ import annotations

import re
from typing import Any

from tests.pages.conftest import post_form


def _director(app: Any, pg: Any) -> Any:
    link = re.search(r'value="(http://localhost/games/[0-9a-f]+/seat/[^"]+)" aria-label="Director link"',
                     pg.created_html)
    assert link, "no director link on the created page"
    c = app.test_client()
    assert c.get(link.group(1).replace("http://localhost", "")).status_code == 303
    return c


def test_bad_rulings_and_disputes_are_clear_pages(app: Any, page_game: Any) -> None:
    pg = page_game()
    seat = next(iter(pg.seats))
    client, path = pg.seats[seat], f"/games/{pg.id}"
    director = _director(app, pg)
    assert 'id="dispute-form"' in pg.page(seat) and 'id="rule-form"' not in pg.page(seat)
    assert 'id="rule-form"' in director.get(path).get_data(as_text=True)
    assert 'id="rulings"' not in pg.page("spectator")
    cases = [
        (pg.spectator, "/dispute", {"seq": "1", "text": "x"}, "/", 401),
        (client, "/dispute", {"seq": "", "text": "x"}, path, 400),
        (client, "/dispute", {"seq": "999", "text": "x"}, path, 422),
        (client, "/dispute", {"seq": "1", "text": "  "}, path, 422),
        (client, "/rule", {"kind": "award", "text": "mine"}, path, 403),
        (director, "/rule", {"kind": "void", "text": "no target"}, path, 422),
        (director, "/rule", {"kind": "adjust", "patch": "not json", "text": "x"}, path, 400),
        (director, "/rule", {"kind": "bogus", "text": "x"}, path, 422),
        (director, "/disputes/999", {"decision": "dismiss", "text": "x"}, path, 404),
    ]
    for who, route, data, page, status in cases:
        r = post_form(who, path + route, data, page)
        assert r.status_code == status, (route, data, r.status_code, r.get_data(as_text=True)[:300])
        assert "Traceback" not in r.get_data(as_text=True)
    r = post_form(client, path + "/dispute", {"seq": "1", "text": "that seat joined twice"}, path)
    assert r.status_code == 303
    dispute = int(re.search(r'id="dispute-(\d+)"', director.get(path).get_data(as_text=True)).group(1))  # type: ignore[union-attr]
    assert post_form(director, f"{path}/disputes/{dispute}", {"decision": "maybe", "text": "x"}, path).status_code == 422
    assert post_form(director, f"{path}/disputes/{dispute}", {"decision": "dismiss", "text": "it did not"},
                     path).status_code == 303
    again = post_form(director, f"{path}/disputes/{dispute}", {"decision": "dismiss", "text": "again"}, path)
    assert again.status_code == 409
    events = app.extensions["warlog"].store.read(pg.id)
    assert [e.type for e in events].count("dispute_answered") == 1
