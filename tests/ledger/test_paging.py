"""Cursor paging of the games list on both backends (nothing listed game 201 and
older). Rows of the `games` projection are written directly, with created_at ties, so that
every filter can be paged to the very first game."""

from __future__ import annotations

import pytest

from ledger import paging

GAMES = ("ardennes", "kursk")
STATUS_CYCLE = ("waiting", "active", "ended", "ended", "active")


def fill(backend, store, n: int) -> list[tuple[str, str, str, str]]:
    """n games; every third pair shares a created_at (ties are broken by game_id)."""
    rows = []
    for i in range(n):
        created = f"2026-01-{1 + i // 40:02d}T10:00:{(i // 2) % 60:02d}.000000Z"
        rows.append((f"g{i:04d}", GAMES[i % 2], STATUS_CYCLE[i % 5], created))
    values = ", ".join(f"('{g}', '{name}', 's1', '{st}', '{c}', 0)" for g, name, st, c in rows)
    backend.raw(store, f"INSERT INTO games (game_id, game, scenario, status, created_at, last_seq) VALUES {values}")
    return rows


def walk(store, game, status, limit):
    seen, before, pages = [], None, 0
    while True:
        rows = store.list_games(game=game, status=status, limit=limit + 1, before=before)
        page = paging.page(rows, limit)
        seen += [r.game_id for r in page.rows]
        pages += 1
        if page.next is None:
            return seen, pages
        # through the opaque cursor, as a client would
        pos = paging.decode(paging.encode(page.next))
        before = (pos.created_at, pos.game_id)


@pytest.mark.parametrize("game", [None, "kursk"])
@pytest.mark.parametrize("status", [None, "waiting", "active", "ended", "open"])
@pytest.mark.slow
def test_every_filter_pages_to_the_first_game(backend, store, game, status):
    rows = fill(backend, store, 230)
    expected = sorted(
        ((c, g) for g, name, st, c in rows
         if (game is None or name == game)
         and (status is None or st == status or (status == "open" and st != "ended"))),
        reverse=True)
    seen, pages = walk(store, game, status, 17)
    assert seen == [g for _, g in expected]  # newest first, each game once, down to the oldest
    assert pages == max(1, -(-len(expected) // 17))


def test_before_a_date_and_bounds(backend, store):
    fill(backend, store, 120)  # days 01..03
    older = store.list_games(limit=200, before=(paging.before("2026-01-03").created_at, ""))
    assert {r.created_at[:10] for r in older} == {"2026-01-01", "2026-01-02"} and len(older) == 80
    with pytest.raises(ValueError, match="status must be one of"):
        store.list_games(status="bogus")
    with pytest.raises(ValueError, match="limit must be"):
        store.list_games(limit=0)


@pytest.mark.parametrize("bad", ["", "!!", "a" * 500, "bm90IGEgY3Vyc29y",  # "not a cursor"
                                 paging.encode(paging.Position("yesterday", "g1")),
                                 paging.encode(paging.Position("2026-01-01T00:00:00Z", "a\x00b"))])
def test_a_cursor_this_server_did_not_make_is_refused(bad):
    with pytest.raises(paging.BadCursor):
        paging.decode(bad)


def test_cursor_round_trip():
    pos = paging.Position("2026-11-24T06:12:24.123456Z", "3f9c-é")
    assert paging.decode(paging.encode(pos)) == pos
