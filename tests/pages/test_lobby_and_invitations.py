"""Lobby, game creation, invitations and the seat cookie; CSRF; friendly errors."""

from __future__ import annotations

import re

from tests.pages.conftest import ORIGIN, csrf_of, drain, post_form


def test_lobby_lists_games_filters_them_and_offers_the_create_form(client, page_game, new_game):
    new_game("dice-duel", "short")  # active
    pg = page_game(join=False)  # waiting
    html = client.get("/").get_data(as_text=True)
    assert "Assault on Belgium" in html and pg.id in html and 'id="create-form"' in html
    assert "Options for Assault on Belgium" in html and "no_entry_nl_france" in html
    waiting = _table(client.get("/?status=waiting").get_data(as_text=True))
    assert pg.id in waiting and "Dice Duel" not in waiting and "dice-duel" not in waiting
    only_aob = client.get("/?game=assault-on-belgium&status=active").get_data(as_text=True)
    assert pg.id not in only_aob and "No games match this filter" in only_aob


def _table(html: str) -> str:
    m = re.search(r'<table class="games" id="games">.*?</table>', html, re.S)
    return m.group(0) if m else ""


def test_bad_lobby_filters_are_a_friendly_400(client):
    for query in ("?status=bogus", "?game=chess"):
        r = client.get("/" + query)
        assert r.status_code == 400
        body = r.get_data(as_text=True)
        assert "<html" in body and "Traceback" not in body


def test_creating_a_game_shows_every_invitation_once_and_no_store(client, page_game):
    pg = page_game(join=False)
    assert set(pg.links) == {"germany", "belgium"}
    assert "Director" in pg.created_html and "Seed commitment" in pg.created_html
    r = post_form(client, "/games", {"game": "assault-on-belgium/may-1940"})
    assert r.headers["Cache-Control"] == "no-store" and r.headers["Referrer-Policy"] == "no-referrer"


def test_options_from_the_form_reach_the_game(client, page_game):
    pg = page_game(**{"opt.assault-on-belgium.no_entry_nl_france": "on"})
    info = client.get(f"/api/v1/games/{pg.id}").get_json()
    assert info["options"] == {"no_entry_nl_france": True, "reaction_before_german_air": False}


def test_bad_create_input_is_a_400(client):
    for choice in ("nothing/here", "assault-on-belgium/may-1941"):
        r = post_form(client, "/games", {"game": choice})
        assert r.status_code == 400 and "Traceback" not in r.get_data(as_text=True)


def test_opening_an_invitation_sets_an_httponly_lax_cookie_and_takes_the_seat(app, client, page_game):
    pg = page_game(join=False)
    c = app.test_client()
    link = pg.links["belgium"].replace("http://localhost", "")
    r = c.get(link)
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{pg.id}?seated=1"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"warlog_seat_{pg.id}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie
    info = client.get(f"/api/v1/games/{pg.id}").get_json()
    assert info["joined"] == ["belgium"] and info["status"] == "waiting"
    page = c.get(f"/games/{pg.id}?seated=1").get_data(as_text=True)
    assert "You have taken your seat" in page and "You play" in page
    assert c.get(link).status_code == 303  # opening it again is harmless
    g = app.test_client()
    g.get(pg.links["germany"].replace("http://localhost", ""))
    drain(app)
    assert client.get(f"/api/v1/games/{pg.id}").get_json()["status"] == "active"


def test_my_games_shows_whose_turn_it_is(app, page_game):
    pg = page_game()
    html = pg.seats["belgium"].get("/").get_data(as_text=True)
    assert "My games" in html and "Your turn" in html
    html = pg.seats["germany"].get("/").get_data(as_text=True)
    assert "My games" in html and "Your turn" not in html


def test_forgetting_a_seat_drops_the_cookie(page_game):
    pg = page_game()
    c = pg.seats["belgium"]
    r = post_form(c, f"/games/{pg.id}/forget", {}, f"/games/{pg.id}")
    assert r.status_code == 303 and f"warlog_seat_{pg.id}=;" in r.headers["Set-Cookie"]
    assert "spectator" in c.get(f"/games/{pg.id}").get_data(as_text=True)


def test_a_wrong_invitation_is_403_and_a_missing_game_404(client, page_game):
    pg = page_game(join=False)
    r = client.get(f"/games/{pg.id}/seat/not-a-token")
    assert r.status_code == 403 and "not valid" in r.get_data(as_text=True)
    assert "Set-Cookie" not in r.headers or "warlog_seat_" not in r.headers["Set-Cookie"]
    for path in ("/games/ffffffffffffffff", "/games/ffffffffffffffff/replay/0", "/games/ffffffffffffffff/audit",
                 "/no/such/page"):
        r = client.get(path)
        assert r.status_code == 404, path
        body = r.get_data(as_text=True)
        assert "<html" in body and "Traceback" not in body


def test_the_json_api_keeps_its_own_errors(client):
    r = client.get("/api/v1/games/ffffffffffffffff")
    assert r.status_code == 404 and r.is_json


def test_seat_tokens_never_appear_in_any_page_but_the_creators_invitation_list(page_game):
    pg = page_game()
    for token in pg.tokens:
        assert token in pg.created_html
    pg.act("belgium", '{"type": "standard_setup"}')
    last = pg.seats["belgium"].get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    for who in ("germany", "belgium", "spectator"):
        client = pg.spectator if who == "spectator" else pg.seats[who]
        for path in ("/", f"/games/{pg.id}", f"/games/{pg.id}?last={last - 1}", f"/games/{pg.id}/replay/0",
                     f"/games/{pg.id}/replay/{last}", f"/games/{pg.id}/audit", f"/games/{pg.id}/nope"):
            html = client.get(path).get_data(as_text=True)
            for token in pg.tokens:
                assert token not in html, (who, path)


def test_state_changing_posts_need_our_origin_and_the_csrf_token(app, client, page_game):
    pg = page_game(join=False)
    token = csrf_of(client)
    data = {"csrf": token, "game": "assault-on-belgium/may-1940"}
    assert client.post("/games", data=data).status_code == 403  # no Origin or Referer
    assert client.post("/games", data=data, headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post("/games", data={**data, "csrf": "forged-token-forged-token"}, headers=ORIGIN).status_code == 403
    assert client.post("/games", data=data, headers={"Referer": "http://localhost/"}).status_code == 201
    assert client.post("/games", data=data, headers=ORIGIN).status_code == 201
    seat = app.test_client()
    seat.get(pg.links["belgium"].replace("http://localhost", ""))
    r = seat.post(f"/games/{pg.id}/act", data={"action": '{"type": "standard_setup"}', "expected_seq": "3"},
                  headers={"Origin": "http://evil.example"})
    assert r.status_code == 403


def test_pages_send_security_headers(client):
    r = client.get("/")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["Referrer-Policy"] == "same-origin"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("warlog_csrf=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_failing_page_is_a_friendly_500_without_a_traceback(client, page_game, monkeypatch):
    pg = page_game()

    def broken(name):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("warlog.web.pages.renderer_for", broken)
    r = client.get(f"/games/{pg.id}")
    body = r.get_data(as_text=True)
    assert r.status_code == 500 and "Something went wrong" in body
    assert "secret internals" not in body and "Traceback" not in body


def test_pages_of_a_game_still_waiting_for_its_seats(page_game):
    pg = page_game(join=False)
    game = pg.page("spectator")
    assert "waiting for seats" in game and "The game waits for every seat to join" in game
    assert 'class="hexmap"' in game and 'class="units"' not in game  # the map, no counters yet
    assert 'id="stepno">0<' in pg.page("spectator", "/replay/0")
    assert "Not revealed yet" in pg.page("spectator", "/audit")


def test_the_director_link_gives_the_full_view_and_the_export_at_any_time(app, page_game):
    pg = page_game()
    link = re.search(r'value="(http://localhost/games/[0-9a-f]+/seat/[^"]+)" aria-label="Director link"',
                     pg.created_html).group(1)
    d = app.test_client()
    assert d.get(link.replace("http://localhost", "")).status_code == 303
    assert "You are the <strong>director</strong>" in d.get(f"/games/{pg.id}").get_data(as_text=True)
    audit = d.get(f"/games/{pg.id}/audit").get_data(as_text=True)
    assert "Download the export" in audit
    assert d.get(f"/games/{pg.id}/export.jsonl").status_code == 200
    replay = d.get(f"/games/{pg.id}/replay/0").get_data(as_text=True)
    assert re.search(r'class="chip on"[^>]*>Everything<', replay)
    assert link.rsplit("/", 1)[1] not in audit + replay
