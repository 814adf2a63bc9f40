"""The judge's own view is the whole table: the director's "everything" viewpoint of a replay step
(its page's SVG and its PNG) draws every secret the full state holds, not one seat's share of it.
UP FRONT: both hands, card by card (a seat's view holds only its own). Lock 'n Load: both sides'
standing orders and the face-down event paragraphs (1.7)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from rules.core.dice import fixed_dice
from rules.lock_n_load.game import LockNLoad
from warlog.render import Scene, renderer_for

CARD = re.compile(r'data-unit="(UF\d+)"')


def _client_as(app: Flask, game_id: str, token: str) -> FlaskClient:
    client = app.test_client()
    assert client.get(f"/games/{game_id}/seat/{token}").status_code == 303
    return client


def _cards_drawn(html: str) -> set[str]:
    svg = html[html.index('<svg xmlns="http://www.w3.org/2000/svg" class="cardtable"'):]
    return set(CARD.findall(svg[:svg.index("</svg>")]))


def test_up_front_everything_view_draws_both_hands(app: Flask, new_game: Any) -> None:
    p = new_game("up-front", "A")
    step = p.info()["seq"]
    state = p.client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
    hands = {seat: set(cards) for seat, cards in state["hands"].items()}
    assert all(hands.values()) and len(hands) == 2
    director = _client_as(p.app, p.id, p.created["director_token"])
    seats = {seat: _client_as(p.app, p.id, token) for seat, token in p.created["seats"].items()}

    page = director.get(f"/games/{p.id}/replay/{step}?view=full").get_data(as_text=True)
    assert _cards_drawn(page) == set().union(*hands.values())
    for seat, client in seats.items():
        own = client.get(f"/games/{p.id}/replay/{step}?view=seat").get_data(as_text=True)
        assert _cards_drawn(own) == hands[seat]  # a seat still sees its own hand only

    full_png = director.get(f"/games/{p.id}/replay/{step}.png?view=full")
    assert full_png.status_code == 200 and full_png.mimetype == "image/png"
    for seat, client in seats.items():
        png = client.get(f"/games/{p.id}/replay/{step}.png?view=seat")
        assert png.status_code == 200 and png.get_data() != full_png.get_data(), seat


def test_lnl_everything_view_draws_both_sides_orders_and_face_down_paragraphs() -> None:
    game = LockNLoad()
    s = game.setup("demo", {}, fixed_dice([4, 3] * 20))
    s["orders"] = {"us": {"1A1": "hold"}, "vc": {"1B2": "within2"}}
    board = str(renderer_for("lock-n-load").board(Scene(s, extra={"seat": None})))
    assert "SO hold" in board and "SO within2" in board
    paragraph = next(iter(s["secret"]["events"].values()))
    assert paragraph.split(":")[0][:30] in board  # the judge reads a face-down event's paragraph
    for seat in ("us", "vc"):
        seen = str(renderer_for("lock-n-load").board(Scene(game.view(s, seat), extra={"seat": seat})))
        assert ("SO hold" in seen) == (seat == "us") and ("SO within2" in seen) == (seat == "vc")
        assert paragraph.split(":")[0][:30] not in seen
