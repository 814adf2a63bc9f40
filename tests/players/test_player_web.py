"""Players through the API and the pages (sign-in by e-mailed link, HttpOnly cookie,
bearer token, seats owned by players, "my games", nobody acts for another player)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import last_link, settle, sign_in


def _api_player(app: Flask, client: FlaskClient, email: str, name: str) -> tuple[dict[str, Any], str]:
    """Register through the API, use the mailed link through the API: (player, API token)."""
    r = client.post("/api/v1/players", json={"email": email, "display_name": name})
    assert r.status_code == 202
    secret = last_link(app, email).rsplit("/", 1)[1]
    r = client.post(f"/api/v1/players/signin/{secret}", json={})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["player"], r.get_json()["token"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_asking_for_a_link_tells_nothing_about_the_address(papp: Flask) -> None:
    """Same status, same answer, same work (one link row and one mail) for a registered address
    and an unknown one (a link request never reveals whether an address is registered)."""
    client = papp.test_client()
    papp.extensions["warlog_players"].signin_every = timedelta(0)  # one address asked twice: not this test's
    _api_player(papp, client, "ann@example.org", "Ann")
    db = papp.extensions["warlog_players"].db
    answers = []
    for email in ("ann@example.org", "nobody@example.org"):
        links_before = db.one("SELECT COUNT(*) FROM signin_links")[0]
        mails_before = len(papp.extensions["warlog_notifier"].outbox(limit=1000))
        r = client.post("/api/v1/players/signin", json={"email": email})
        settle(papp)
        answers.append((r.status_code, r.get_json()))
        assert db.one("SELECT COUNT(*) FROM signin_links")[0] == links_before + 1
        assert len(papp.extensions["warlog_notifier"].outbox(limit=1000)) == mails_before + 1
    assert answers[0] == answers[1] and answers[0][0] == 202
    # registering an address that has an account answers the same too, and creates no second account
    r = client.post("/api/v1/players", json={"email": "ANN@example.org", "display_name": "Impostor"})
    assert (r.status_code, r.get_json()) == answers[0]
    assert db.one("SELECT COUNT(*) FROM players")[0] == 1


def test_api_register_sign_in_and_me(papp: Flask) -> None:
    client = papp.test_client()
    player, token = _api_player(papp, client, "ann@example.org", "Ann")
    assert player["display_name"] == "Ann" and token.startswith("wp_")
    me = client.get("/api/v1/players/me", headers=_bearer(token))
    assert me.status_code == 200 and me.get_json()["email"] == "ann@example.org"
    assert me.get_json()["games"] == []
    assert client.get("/api/v1/players/me").status_code == 401
    assert client.get("/api/v1/players/me", headers=_bearer("wp_forged")).status_code == 401
    public = client.get(f"/api/v1/players/{player['id']}").get_json()
    assert public == {"id": player["id"], "display_name": "Ann"}
    assert client.get("/api/v1/players/nobody").status_code == 404
    new = client.post("/api/v1/players/me/token", headers=_bearer(token)).get_json()["token"]
    assert client.get("/api/v1/players/me", headers=_bearer(token)).status_code == 401
    assert client.get("/api/v1/players/me", headers=_bearer(new)).status_code == 200


def test_api_bad_input_is_a_clear_4xx(papp: Flask) -> None:
    client = papp.test_client()
    cases = [
        client.post("/api/v1/players", data="{not json", content_type="application/json"),
        client.post("/api/v1/players", json=[1, 2]),
        client.post("/api/v1/players", json={"email": "ann@example.org"}),
        client.post("/api/v1/players", json={"email": 5, "display_name": "Ann"}),
        client.post("/api/v1/players", json={"email": "nope", "display_name": "Ann"}),
        client.post("/api/v1/players/signin", json={}),
        client.post("/api/v1/players/signin/forged", json={}),
        client.post("/api/v1/players/claim", json={}),
    ]
    for r in cases:
        assert 400 <= r.status_code < 500 and isinstance(r.get_json().get("error"), str), (r.status_code, r.data)


def test_browser_signs_in_by_link_with_a_safe_cookie(papp: Flask) -> None:
    client = papp.test_client()
    assert client.get("/me").status_code == 303
    r = client.post("/signin", data={"csrf": csrf_of(client, "/signin"), "email": "ann@example.org",
                                     "display_name": "Ann"}, headers=ORIGIN)
    assert r.status_code == 200 and "sign-in link is on its way" in r.get_data(as_text=True)
    path = last_link(papp, "ann@example.org")
    assert client.get(path).status_code == 200
    assert client.get(path).status_code == 200  # a mail scanner opening the link does not use it
    r = client.post(path, data={"csrf": csrf_of(client, path)}, headers=ORIGIN)
    assert r.status_code == 303
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("warlog_player=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    me = client.get("/me").get_data(as_text=True)
    assert "Ann" in me and "ann@example.org" in me
    other = papp.test_client()
    again = other.post(path, data={"csrf": csrf_of(other, "/signin")}, headers=ORIGIN)
    assert again.status_code == 410 and "not valid" in again.get_data(as_text=True)
    r = client.post("/signout", data={"csrf": csrf_of(client, "/me")}, headers=ORIGIN)
    assert r.status_code == 303 and client.get("/me").status_code == 303


def test_forged_signin_post_is_refused(papp: Flask) -> None:
    client = papp.test_client()
    r = client.post("/signin", data={"email": "ann@example.org"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    assert papp.extensions["warlog_notifier"].outbox() == []


def test_public_profile_never_shows_the_email(papp: Flask) -> None:
    client = papp.test_client()
    player, _ = _api_player(papp, client, "ann@example.org", "Ann")
    html = client.get(f"/players/{player['id']}").get_data(as_text=True)
    assert "Ann" in html and "ann@example.org" not in html
    assert client.get("/players/nobody").status_code == 404


def test_claimed_seat_shows_on_my_games_and_plays_by_player_token(papp: Flask, new_game: Any) -> None:
    """A seat claimed with its seat token belongs to the player: /me lists it with whose turn it
    is, and the player's own bearer token acts in it; another player's token cannot."""
    client = papp.test_client()
    ann, ann_token = _api_player(papp, client, "ann@example.org", "Ann")
    bob, bob_token = _api_player(papp, client, "bob@example.org", "Bob")
    game = _game(papp, client)
    seats = game["seats"]
    first, second = sorted(seats)
    r = client.post("/api/v1/players/claim", json={"game_id": game["id"], "seat_token": seats[first]},
                    headers=_bearer(ann_token))
    assert r.status_code == 200 and r.get_json()["seat"] == first
    # Bob cannot take Ann's seat, even with its token; he can claim the other one.
    r = client.post("/api/v1/players/claim", json={"game_id": game["id"], "seat_token": seats[first]},
                    headers=_bearer(bob_token))
    assert r.status_code == 409
    assert client.post("/api/v1/players/claim", json={"game_id": game["id"], "seat_token": seats[second]},
                       headers=_bearer(bob_token)).status_code == 200
    # both join with their player tokens (no seat token)
    for token in (ann_token, bob_token):
        r = client.post(f"/api/v1/games/{game['id']}/join", json={}, headers=_bearer(token))
        assert r.status_code == 200, r.get_json()
    info = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert info["status"] == "active"
    mover = info["active_seats"][0]
    mover_token, other_token = (ann_token, bob_token) if mover == first else (bob_token, ann_token)
    acts = client.get(f"/api/v1/games/{game['id']}/actions", headers=_bearer(mover_token)).get_json()
    assert acts["seat"] == mover and acts["actions"]
    theirs = client.get(f"/api/v1/games/{game['id']}/actions", headers=_bearer(other_token)).get_json()
    assert theirs["seat"] != mover and theirs["actions"] == []
    # the other player cannot move for the mover: their token is their own seat, not the mover's
    r = client.post(f"/api/v1/games/{game['id']}/moves", headers=_bearer(other_token), json={
        "action": acts["actions"][0], "expected_seq": acts["expected_seq"], "idempotency_key": "x1"})
    assert r.status_code == 409 and "turn" in r.get_json()["error"]  # refused at the door
    me = client.get("/api/v1/players/me", headers=_bearer(mover_token)).get_json()
    assert [(g["id"], g["my_turn"]) for g in me["games"]] == [(game["id"], True)]
    # a player token of nobody in this game is refused outright
    cy, cy_token = _api_player(papp, client, "cy@example.org", "Cy")
    r = client.get(f"/api/v1/games/{game['id']}/actions", headers=_bearer(cy_token))
    assert r.status_code == 403
    del ann, bob, cy


def _game(app: Flask, client: FlaskClient) -> dict[str, Any]:
    r = client.post("/api/v1/games", json={"game": "dice-duel"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_claim_the_seat_this_browser_holds_from_the_me_page(papp: Flask) -> None:
    client = papp.test_client()
    game = _game(papp, client)
    seat, token = sorted(game["seats"].items())[0]
    client.get(f"/games/{game['id']}/seat/{token}")  # the invitation: the seat cookie
    sign_in(papp, client, "ann@example.org", "Ann")
    html = client.get("/me").get_data(as_text=True)
    assert "Claim this seat" in html and game["id"] in html
    r = client.post(f"/me/claim/{game['id']}", data={"csrf": csrf_of(client, "/me")}, headers=ORIGIN)
    assert r.status_code == 303
    html = client.get("/me").get_data(as_text=True)
    assert "Claim this seat" not in html and 'id="my-games"' in html and game["id"] in html
    # a second browser signed in as Ann (no seat cookie) sees the game as Ann's seat
    laptop = papp.test_client()
    sign_in(papp, laptop, "ann@example.org")
    page = laptop.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Join" in page or "join" in page
    r = laptop.post(f"/me/claim/{game['id']}", data={"csrf": csrf_of(laptop, "/me")}, headers=ORIGIN)
    assert r.status_code == 403  # this browser holds no seat cookie of that game


def test_outbox_page_is_whole_only_for_the_local_embedded_server(papp: Flask) -> None:
    papp.config["WARLOG_OUTBOX_LOCAL"] = "1"
    client = papp.test_client()
    client.post("/api/v1/players/signin", json={"email": "ann@example.org"})
    settle(papp)
    assert "ann@example.org" in client.get("/outbox").get_data(as_text=True)
    remote = papp.test_client()
    r = remote.get("/outbox", environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert r.status_code == 403 and "ann@example.org" not in r.get_data(as_text=True)


def test_throttled_link_requests_answer_202_and_send_nothing(papp: Flask) -> None:
    client = papp.test_client()
    answers = [(r.status_code, r.get_json()["message"]) for r in
               (client.post("/api/v1/players/signin", json={"email": "ann@example.org"}) for _ in range(7))]
    settle(papp)
    assert {status for status, _ in answers} == {202} and len(set(answers[1:])) == 1
    assert "a few minutes ago" in answers[1][1]
    assert len(papp.extensions["warlog_notifier"].outbox(to="ann@example.org")) == 1


def test_openapi_lists_the_players_and_clock_routes(papp: Flask) -> None:
    doc = papp.test_client().get("/api/v1/openapi.json").get_json()
    for path in ("/api/v1/players", "/api/v1/players/signin", "/api/v1/players/signin/{secret}",
                 "/api/v1/players/me", "/api/v1/players/claim", "/api/v1/games/{game_id}/clock"):
        assert path in doc["paths"], path
    assert doc["components"]["securitySchemes"]["player"]["scheme"] == "bearer"


def test_a_me_section_hook_shows_on_the_page_and_in_the_api(papp: Flask) -> None:
    """The hook the tournaments use to list a player's tournaments on "my games"."""
    from warlog.players.web import add_me_section

    add_me_section(papp, lambda player: {"title": "My tournaments", "items": [
        {"label": f"Spring Swiss ({player.display_name})", "href": "/tournaments/t1", "status": "round 2",
         "urgent": True}]})
    client = papp.test_client()
    sign_in(papp, client, "ann@example.org", "Ann")
    html = client.get("/me").get_data(as_text=True)
    assert "My tournaments" in html and "Spring Swiss (Ann)" in html and 'href="/tournaments/t1"' in html
    _, token = _api_player(papp, papp.test_client(), "bob@example.org", "Bob")
    me = papp.test_client().get("/api/v1/players/me", headers=_bearer(token)).get_json()
    assert me["sections"][0]["items"][0]["label"] == "Spring Swiss (Bob)"


def test_a_signed_in_player_gets_their_own_lobby_not_the_page_kept_for_everyone(papp: Flask) -> None:
    """The lobby's page is kept for visitors who hold no seat and are not signed in:
    a signed-in player, with the same rows, still sees their name in the top bar."""
    anonymous, ann = papp.test_client(), papp.test_client()
    assert "Sign in" in anonymous.get("/").get_data(as_text=True)  # now kept
    sign_in(papp, ann, "ann@example.org", "Ann")
    html = ann.get("/").get_data(as_text=True)
    assert "Ann · my games" in html and ">Sign in<" not in html
    assert "Ann" not in anonymous.get("/").get_data(as_text=True)
