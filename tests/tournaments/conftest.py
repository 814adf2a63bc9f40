"""A tournament app on both ledgers, players with API tokens, and helpers to drive the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.players.conftest import close_app, make_app
from tests.support.documented import Documented


@pytest.fixture
def tapp(db_url: str) -> Iterator[Flask]:
    app = make_app(db_url)
    yield app
    close_app(app)


class Desk:
    """Players (each with a personal API token) and a tournament driven through the HTTP API."""

    def __init__(self, app: Flask) -> None:
        self.app, self.client = app, app.test_client()
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        self.documented: Documented | None = None

    def _check(self, method: str, path: str, r: Any) -> None:
        """Every API answer the tournament tests see must be the one the document describes."""
        if path.startswith("/api/v1/") and path != "/api/v1/openapi.json":
            if self.documented is None:
                self.documented = Documented(self.client)
            self.documented.check(method, path, r)

    def player(self, name: str) -> str:
        store = self.app.extensions["warlog_players"]
        p = store.register(name, f"{name.lower()}@example.org")
        self.tokens[name], self.ids[name] = store.issue_token(p.id), p.id
        return p.id

    def auth(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def post(self, path: str, who: str | None, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        r = self.client.post(path, json=body or {}, headers=self.auth(who) if who else {})
        self._check("post", path, r)
        assert r.status_code == status, (path, r.status_code, r.get_json())
        return r.get_json()

    def get(self, path: str) -> Any:
        r = self.client.get(path)
        self._check("get", path, r)
        assert r.status_code == 200, (path, r.status_code, r.get_data(as_text=True)[:500])
        return r.get_json()

    def drain(self) -> None:
        self.app.extensions["warlog_queue"].drain()

    def name(self, pid: str) -> str:
        return next(n for n, i in self.ids.items() if i == pid)


@pytest.fixture
def desk(tapp: Flask) -> Desk:
    return Desk(tapp)


def client_of(app: Flask) -> FlaskClient:
    return app.test_client()
