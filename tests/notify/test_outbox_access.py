"""Who may read the whole outbox (every mail, sign-in links included) is an explicit setting,
WARLOG_OUTBOX_LOCAL, off unless asked for: a loopback client used to see it all, so behind a
proxy on the same host every anonymous visitor read the sign-in links."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.players.conftest import close_app, make_app, settle


@pytest.fixture
def mailed(tmp_path: object) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    app.test_client().post("/api/v1/players/signin", json={"email": "ann@example.org"})
    settle(app)
    yield app
    close_app(app)


def test_by_default_a_loopback_visitor_sees_no_mail(mailed: Flask) -> None:
    r = mailed.test_client().get("/outbox", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert r.status_code == 403
    assert "ann@example.org" not in r.get_data(as_text=True) and "/signin/" not in r.get_data(as_text=True)


def test_with_the_setting_a_local_developer_sees_everything(mailed: Flask) -> None:
    mailed.config["WARLOG_OUTBOX_LOCAL"] = "1"
    r = mailed.test_client().get("/outbox", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert r.status_code == 200 and "/signin/" in r.get_data(as_text=True)


@pytest.mark.parametrize("header", [{"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"},
                                    {"X-Real-IP": "203.0.113.9"}])
@pytest.mark.slow
def test_even_with_the_setting_a_visitor_through_a_local_proxy_sees_nothing(mailed: Flask,
                                                                            header: dict[str, str]) -> None:
    mailed.config["WARLOG_OUTBOX_LOCAL"] = "1"
    r = mailed.test_client().get("/outbox", headers=header, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert r.status_code == 403 and "/signin/" not in r.get_data(as_text=True)


def test_the_setting_is_read_from_the_environment(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARLOG_OUTBOX_LOCAL", "1")
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3")
    try:
        assert str(app.config["WARLOG_OUTBOX_LOCAL"]) == "1"
    finally:
        close_app(app)
