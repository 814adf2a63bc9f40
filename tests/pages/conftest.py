"""Helpers to drive the web pages as browsers would: a CSRF token from a page, form posts
with this site's Origin, one test client (one cookie jar) per seat."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

ORIGIN = {"Origin": "http://localhost"}


def csrf_of(client: FlaskClient, path: str = "/") -> str:
    html = client.get(path).get_data(as_text=True)
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, f"no CSRF token on {path}"
    return m.group(1)


def post_form(client: FlaskClient, path: str, data: dict[str, Any], csrf_from: str = "/") -> Any:
    return client.post(path, data={"csrf": csrf_of(client, csrf_from), **data}, headers=ORIGIN)


def drain(app: Flask) -> None:
    app.extensions["warlog_queue"].drain()


@dataclass
class PageGame:
    """A game created through the lobby form, each seat in its own browser (test client)."""

    app: Flask
    id: str
    links: dict[str, str]
    created_html: str
    seats: dict[str, FlaskClient] = field(default_factory=dict)
    spectator: FlaskClient | None = None

    @property
    def tokens(self) -> list[str]:
        return [link.rsplit("/", 1)[1] for link in self.links.values()]

    def page(self, seat: str, path: str = "") -> str:
        client = self.spectator if seat == "spectator" else self.seats[seat]
        assert client is not None
        r = client.get(f"/games/{self.id}{path}")
        assert r.status_code == 200, (path, r.status_code)
        return r.get_data(as_text=True)

    def expected_seq(self, seat: str) -> int:
        m = re.search(r'name="expected_seq" value="(\d+)"', self.page(seat))
        assert m, "no action form on the page"
        return int(m.group(1))

    def act(self, seat: str, action: str, **extra: Any) -> Any:
        client = self.seats[seat]
        data = {"action": action, "expected_seq": str(self.expected_seq(seat)), **extra}
        r = post_form(client, f"/games/{self.id}/act", data, f"/games/{self.id}")
        if r.status_code == 200 and 'id="act-confirm"' in r.get_data(as_text=True):
            # the page asked first (the move ends the game, or a phase while units could act):
            # confirmed, as a player does
            r = post_form(client, f"/games/{self.id}/act", {**data, "confirmed": "1"}, f"/games/{self.id}")
        drain(self.app)
        return r


@pytest.fixture
def page_game(app: Flask, client: FlaskClient) -> Any:
    def make(game: str = "assault-on-belgium/may-1940", join: bool = True, **form: str) -> PageGame:
        r = post_form(client, "/games", {"game": game, **form})
        assert r.status_code == 201, r.get_data(as_text=True)[:500]
        html = r.get_data(as_text=True)
        links = dict(re.findall(r'value="(http://localhost/games/[0-9a-f]+/seat/[^"]+)" aria-label="Invitation link '
                                r'for (\w+)"', html))
        links = {seat.lower(): link for link, seat in links.items()}
        gid = next(iter(links.values())).split("/")[4]
        pg = PageGame(app, gid, links, html, spectator=app.test_client())
        if join:
            for seat, link in links.items():
                c = app.test_client()
                r = c.get(link.replace("http://localhost", ""))
                assert r.status_code == 303
                pg.seats[seat] = c
            drain(app)
        return pg

    return make
