"""Every games list pages to the very first game (API `next`, the lobby's "Older
games", `warlog games --before`), never by OFFSET; the lobby hides ended games by default."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from click.testing import CliRunner

from warlog.app import create_app
from warlog.cli import main
from warlog.web import pages


def _finish(p: Any) -> None:
    while p.info()["status"] != "ended":
        p.play(p.info()["active_seats"][0], {"type": "roll"})


def _walk(client: Any, path: str) -> tuple[list[str], int]:
    ids, pages_seen = [], 0
    while path:
        r = client.get(path)
        assert r.status_code == 200, r.get_json()
        doc = r.get_json()
        ids += [g["id"] for g in doc["games"]]
        pages_seen += 1
        path = doc["next"]
        assert path is None or path.startswith("/api/v1/games?")
    return ids, pages_seen


def _games(client: Any, new_game: Any, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        ids.append(new_game(join=False).id)
    return ids[::-1]  # newest first


def test_the_api_pages_to_the_first_game_with_every_filter(client, new_game):
    ids = _games(client, new_game, 7)
    ended = new_game()
    _finish(ended)
    seen, count = _walk(client, "/api/v1/games?limit=3")
    assert seen == [ended.id, *ids] and count == 3
    assert _walk(client, "/api/v1/games?status=waiting&limit=2")[0] == ids
    assert _walk(client, "/api/v1/games?status=open&limit=2&game=dice-duel")[0] == ids
    assert _walk(client, "/api/v1/games?status=ended&limit=1") == ([ended.id], 1)
    nxt = client.get("/api/v1/games?status=waiting&limit=2").get_json()["next"]
    assert parse_qs(urlparse(nxt).query).keys() == {"status", "limit", "cursor"}  # filters kept
    assert client.get("/api/v1/games").get_json()["next"] is None  # default limit 50 > 8 games


@pytest.mark.parametrize("query, field", [
    ("limit=0", "limit"), ("limit=201", "limit"), ("limit=x", "limit"), ("cursor=garbage!", "cursor"),
    ("cursor=bm90IGEgY3Vyc29y", "cursor"), ("status=bogus", "status"), ("offset=200", "offset"),
    ("page=2", "page"), ("game=a%00b", "game"),
])
def test_bad_list_queries_are_a_clear_400(client, query, field):
    r = client.get(f"/api/v1/games?{query}")
    assert r.status_code == 400 and r.is_json and field in r.get_json()["fields"], r.get_data(as_text=True)


def test_the_openapi_document_bounds_the_page_size(client):
    params = {p["name"]: p for p in client.get("/api/v1/openapi.json").get_json()["paths"]["/api/v1/games"]["get"]
              ["parameters"]}
    assert params["limit"]["schema"]["maximum"] == 200 and params["limit"]["schema"]["minimum"] == 1
    assert {"game", "status", "limit", "cursor"} <= params.keys()


def test_paging_on_postgresql_past_the_prepared_statement_threshold(pg_url):
    """psycopg prepares a statement after 5 runs: later pages run the generic plan."""
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        client = app.test_client()
        ids = [client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()["id"]
               for _ in range(9)][::-1]
        assert _walk(client, "/api/v1/games?limit=1") == (ids, 9)
        assert _walk(client, "/api/v1/games?limit=2&status=waiting&game=dice-duel") == (ids, 5)
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()


def _lobby_ids(html: str) -> list[str]:
    table = re.search(r'<table class="games" id="games">.*?</table>', html, re.S)
    return re.findall(r"<td><code>([0-9a-f]+)</code></td>", table.group(0)) if table else []


def test_the_lobby_hides_ended_games_and_pages_to_the_oldest(client, new_game, monkeypatch):
    monkeypatch.setattr(pages, "LOBBY_PAGE", 2)
    ids = _games(client, new_game, 5)
    ended = new_game()
    _finish(ended)
    html = client.get("/").get_data(as_text=True)
    assert _lobby_ids(html) == ids[:2] and ended.id not in html
    seen, path = [], "/"
    while path:
        html = client.get(path).get_data(as_text=True)
        seen += _lobby_ids(html)
        m = re.search(r'<a class="older" rel="next" href="([^"]+)">Older games</a>', html)
        path = m.group(1).replace("&amp;", "&") if m else None
    assert seen == ids
    assert _lobby_ids(client.get("/?status=ended").get_data(as_text=True)) == [ended.id]
    assert _lobby_ids(client.get("/?status=all").get_data(as_text=True)) == [ended.id, ids[0]]
    assert client.get("/?cursor=forged").status_code == 400


def test_the_cli_pages_with_before_status_and_limit(app, client, new_game):
    ids = _games(client, new_game, 5)
    db = app.config["WARLOG_DB"]
    runner, seen, args = CliRunner(), [], ["games", "--db", db, "--limit", "2", "--status", "waiting"]
    while args:
        r = runner.invoke(main, args)
        assert r.exit_code == 0, r.output
        seen += [line.split()[0] for line in r.output.splitlines() if not line.startswith("older:")]
        older = [line for line in r.output.splitlines() if line.startswith("older: warlog ")]
        args = older[0].split()[2:] if older else None
    assert seen == ids
    r = runner.invoke(main, ["games", "--db", db, "--status", "ended"])
    assert r.exit_code == 0 and r.output.strip() == "no games match"
    r = runner.invoke(main, ["games", "--db", db, "--before", "2000-01-01"])
    assert r.exit_code == 0 and r.output.strip() == "no games match"
    r = runner.invoke(main, ["games", "--db", db, "--before", "nonsense!"])
    assert r.exit_code == 2 and "--before" in r.output
