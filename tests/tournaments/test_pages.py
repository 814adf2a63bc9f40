"""The tournament pages as browsers use them: a director creates a tournament on
/tournaments, players signed in by their mailed link register on its page, the desk pairs,
a player raises a dispute on a move from the tournament page, the director answers it with a
ruling from the desk, adjudicates a game from the desk's form, and the public page shows
standings and the crosstable. Nobody but the director reaches the desk."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import settle, sign_in


def _form(client, path: str, data: dict, page: str):  # type: ignore[no-untyped-def]
    return client.post(path, data={"csrf": csrf_of(client, page), **data}, headers=ORIGIN)


@pytest.mark.slow
def test_director_and_players_through_the_pages(tapp: Flask) -> None:
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    r = _form(director, "/tournaments", {"name": "Club Swiss", "game": "assault-on-belgium:may-1940",
                                         "kind": "swiss", "rounds": "2", "engine": "dutch"}, "/tournaments")
    assert r.status_code == 303, r.get_data(as_text=True)
    page = r.headers["Location"]
    tid = page.rsplit("/", 1)[1]
    players = {}
    for name in ("Ann", "Bob", "Cid", "Dee"):
        c = tapp.test_client()
        sign_in(tapp, c, f"{name.lower()}@example.org", name)
        assert _form(c, f"{page}/register", {}, page).status_code == 303
        players[name] = c
    html = director.get(page).get_data(as_text=True)
    assert all(n in html for n in players) and "Director&#39;s desk" in html or "Director's desk" in html
    assert players["Ann"].get(f"{page}/desk").status_code == 403
    assert _form(director, f"{page}/desk/pair", {}, f"{page}/desk").status_code == 303
    settle(tapp)
    mails = tapp.extensions["warlog_notifier"].outbox(to="ann@example.org")
    assert any("round 1" in m["subject"] for m in mails), [m["subject"] for m in mails]
    before = director.get(page).get_data(as_text=True)  # standings rendered (and cached) at this chain head
    assert "Crosstable" in before and "<td>?" in before and not re.search(r"<td>[WL]\d", before)
    desk = director.get(f"{page}/desk").get_data(as_text=True)
    games = sorted(set(re.findall(r'name="game_id" value="([0-9a-f]+)"', desk)))
    assert len(games) == 2
    assert "Germany holds neither objective" in desk  # the game's own victory statement (AoB 3)
    assert "Germany: holds no objective" in desk and "germany:" not in desk  # each side by its name
    ja_desk = director.get(f"{page}/desk", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "ドイツ軍はどちらの目標も確保していない" in ja_desk and "確保した目標なし" in ja_desk, ja_desk
    assert "Germany holds" not in ja_desk and "holds no objective" not in ja_desk
    # Ann disputes the start of her game from the tournament page.
    store = tapp.extensions["warlog_players"]
    ann_game = next(g for g in games if any(store.get(pid).display_name == "Ann" for pid in store.owners(g).values()))
    started = tapp.extensions["warlog"].store.summary(ann_game).last_seq  # the game's start: a position
    replay = f"/games/{ann_game}/replay/{started}"
    assert "Dispute this step" in players["Ann"].get(replay).get_data(as_text=True)
    assert "Dispute this step" not in director.get(replay).get_data(as_text=True)  # not a player of it
    r = _form(players["Ann"], f"{page}/dispute", {"game_id": ann_game, "seq": str(started),
                                                    "text": "the seat joined twice?"},
              replay)
    assert r.status_code == 303, r.get_data(as_text=True)
    desk = director.get(f"{page}/desk").get_data(as_text=True)
    assert "the seat joined twice?" in desk
    dispute = re.search(r'/desk/dispute/(\d+)"', desk).group(1)  # type: ignore[union-attr]
    r = _form(director, f"{page}/desk/sandbox/{dispute}", {}, f"{page}/desk")
    assert r.status_code == 201, r.get_data(as_text=True)
    sandbox_id = re.search(r"game <code>([0-9a-f]+)</code> created", r.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert tapp.extensions["warlog"].store.summary(sandbox_id).sandbox
    r = _form(director, f"{page}/desk/dispute/{dispute}", {"decision": "rule", "kind": "award", "winner": "belgium",
                                                           "result": "Belgium wins (dispute)",
                                                           "text": "upheld: awarded", "confirmed": "1"},
              f"{page}/desk")
    assert r.status_code == 303, r.get_data(as_text=True)
    settle(tapp)
    # The other game is adjudicated from the desk's form.
    other = next(g for g in games if g != ann_game)
    winner = list(tapp.extensions["warlog_players"].owners(other).values())[0]
    r = _form(director, f"{page}/desk/adjudicate", {"game_id": other, "decision": "win", "winner": winner,
                                                   "reason": "position won", "confirmed": "1"}, f"{page}/desk")
    assert r.status_code == 303, r.get_data(as_text=True)
    settle(tapp)
    html = director.get(page).get_data(as_text=True)
    # ... and re-rendered once the results moved the head on
    assert html.count("(adjudicated)") == 2 and "Crosstable" in html and re.search(r"<td>W\d", html) and ">L" in html
    # A bad form is a clear page, never a 500.
    r = _form(director, f"{page}/desk/extend", {"game_id": other, "player_id": winner, "days": "x", "reason": "r"},
              f"{page}/desk")
    assert r.status_code == 400
    r = _form(director, f"{page}/desk/adjudicate", {"game_id": other, "decision": "win", "winner": winner,
                                                   "reason": "again"}, f"{page}/desk")
    assert r.status_code == 409
    me = players["Ann"].get("/me").get_data(as_text=True)
    assert "My tournaments" in me and "Club Swiss" in me
    listing = director.get("/tournaments").get_data(as_text=True)
    assert "Club Swiss" in listing and tid in listing
