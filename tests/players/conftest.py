"""Apps on both ledgers with players and notifications, a movable clock, and the helpers to
sign in as a browser would (reading the link from the outbox, the embedded default's mail)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pages.conftest import ORIGIN, csrf_of

LINK = re.compile(r"https?://[^/\s]+(/signin/[A-Za-z0-9_\-]+)")


class FakeNow:
    """An injected clock (a real datetime that the test moves forward; nothing sleeps)."""

    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)


def make_app(db: str, **config: Any) -> Flask:
    from warlog.app import create_app

    return create_app({"TESTING": True, "WARLOG_DB": db, **config})


def close_app(app: Flask) -> None:
    stop = app.extensions.get("warlog_sweeper_stop")
    if stop is not None:
        stop.set()
    pool = app.extensions.get("warlog_notify_pool")
    if pool is not None:
        pool.shutdown(wait=True)
    app.extensions["warlog"].store.close()


@pytest.fixture
def papp(db_url: str) -> Iterator[Flask]:
    """The app on SQLite and on PostgreSQL."""
    app = make_app(db_url)
    yield app
    close_app(app)


def settle(app: Flask) -> None:
    """Wait for the background deliveries enqueued so far (the embedded notifier's thread)."""
    app.extensions["warlog_notify_pool"].submit(lambda: None).result(timeout=30)
    queue = app.extensions["warlog_queue"]
    if hasattr(queue, "drain"):
        queue.drain()
    app.extensions["warlog_notify_pool"].submit(lambda: None).result(timeout=30)


def last_link(app: Flask, email: str) -> str:
    """The path of the newest sign-in link mailed to `email` (from the outbox)."""
    settle(app)
    mails = app.extensions["warlog_notifier"].outbox(to=email)
    assert mails, f"no mail to {email}"
    m = LINK.search(mails[0]["body"])
    assert m, mails[0]["body"]
    return m.group(1)


def sign_in(app: Flask, client: FlaskClient, email: str, name: str | None = None) -> None:
    """Ask for a link on /signin, open it, press its button: the browser is signed in."""
    r = client.post("/signin", data={"csrf": csrf_of(client, "/signin"), "email": email,
                                     "display_name": name or ""}, headers=ORIGIN)
    assert r.status_code == 200, r.get_data(as_text=True)
    path = last_link(app, email)
    page = client.get(path)
    assert page.status_code == 200
    data = {"csrf": csrf_of(client, path)}
    if 'name="display_name"' in page.get_data(as_text=True):
        data["display_name"] = name or email.split("@")[0]
    r = client.post(path, data=data, headers=ORIGIN)
    assert r.status_code == 303 and r.headers["Location"].endswith("/me"), r.get_data(as_text=True)
