"""Players' webhooks cannot reach the server's own network: the URL is checked when it is saved
(it used to be saved unchecked), the refusal says only "not a public address" (it used to name
the address the server resolved: a DNS oracle), the POST goes to the address that was checked
(the HTTP client used to resolve the name a second time: DNS rebinding), addresses an IPv6
address embeds are checked (NAT64 64:ff9b::7f00:1 is loopback), and Discord bodies mention
nobody. A real HTTP receiver on 127.0.0.1, with WARLOG_WEBHOOK_ALLOW_PRIVATE set and unset."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.notify.conftest import Receiver
from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import close_app, make_app, settle, sign_in
from warlog.notify.transports import DeliveryError, check_webhook_url, is_public, post_webhook, webhook_body


def _app(tmp_path: Any, allow: str | None) -> Flask:
    config = {"WARLOG_WEBHOOK_ALLOW_PRIVATE": allow} if allow is not None else {}
    return make_app(f"sqlite:///{tmp_path}/w.sqlite3", **config)


@pytest.fixture(params=[None, "1"], ids=["public-only", "allow-private"])
def happ(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Flask]:
    app = _app(tmp_path, request.param)
    yield app
    close_app(app)


def _save(app: Flask, url: str) -> Any:
    client = app.test_client()
    sign_in(app, client, "ann@example.org", "Ann")
    return client.post("/me/notifications", headers=ORIGIN, data={
        "csrf": csrf_of(client, "/me/notifications"), "webhook_url": url, "webhook_format": "json", "email_on": ""})


def test_saving_a_webhook_to_a_private_address(happ: Flask, receiver: Receiver) -> None:
    allowed = happ.config.get("WARLOG_WEBHOOK_ALLOW_PRIVATE") is not None
    url = receiver.url.replace("127.0.0.1", "localhost")
    r = _save(happ, url)
    page = r.get_data(as_text=True)
    player = happ.extensions["warlog_players"].by_email("ann@example.org")
    saved = happ.extensions["warlog_notifier"].prefs(player.id).webhook_url
    if allowed:
        assert r.status_code == 200 and saved == url
        happ.extensions["warlog_notifier"].notify(player.id, "your_turn", "Your turn", "north to move")
        settle(happ)
        [req] = receiver.requests
        assert req["headers"]["Host"] == url.split("/")[2]  # connected to the address, named by the host
    else:
        assert r.status_code == 400 and saved is None
        assert "not a public address" in page
        assert "127.0.0.1" not in page and "::1" not in page  # nothing of what the name resolved to
        assert receiver.requests == []


@pytest.mark.parametrize("url", ["http://127.0.0.1/x", "http://localhost/x", "http://[::1]/x", "http://10.1.2.3/x",
                                 "http://169.254.169.254/latest", "http://[64:ff9b::7f00:1]/x",
                                 "http://[64:ff9b::a9fe:a9fe]/x", "http://[::ffff:127.0.0.1]/x",
                                 "http://[2002:7f00:1::]/x", "http://0.0.0.0/x", "http://100.64.0.1/x"])
def test_a_non_public_address_is_refused_without_naming_it(url: str) -> None:
    with pytest.raises(DeliveryError) as err:
        check_webhook_url(url, allow_private=False)
    host = url.split("/")[2].strip("[]")
    message = str(err.value)
    assert message == f"webhook host {host!r}: not a public address"  # the host as given, nothing resolved


def test_nat64_and_other_embedded_addresses() -> None:
    assert not is_public(ipaddress.ip_address("64:ff9b::7f00:1"))
    assert not is_public(ipaddress.ip_address("64:ff9b:1::a00:1"))
    assert is_public(ipaddress.ip_address("64:ff9b::808:808"))  # 8.8.8.8 through NAT64
    assert is_public(ipaddress.ip_address("2606:4700::1111"))


def test_the_post_goes_to_the_address_that_was_checked(receiver: Receiver) -> None:
    """A rebinding name: public when checked, loopback when asked again. The POST must go to the
    checked (public) address, never to the receiver on 127.0.0.1; and the name is resolved once."""
    asked: list[str] = []
    port = int(receiver.url.split(":")[2].split("/")[0])
    answers = iter(["192.88.99.1", "127.0.0.1", "127.0.0.1"])  # 192.88.99.1: public, nothing listens

    def rebinding(host: str, port_: Any, *args: Any, **kwargs: Any) -> list[Any]:
        asked.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port_))]

    original = socket.getaddrinfo

    def system(host: Any, *args: Any, **kwargs: Any) -> Any:
        return rebinding(host, *args, **kwargs) if host == "rebind.test" else original(host, *args, **kwargs)

    socket.getaddrinfo = system  # what the HTTP client would use to resolve the name again
    try:
        with pytest.raises(DeliveryError) as err:
            import warlog.notify.transports as transports

            transports.WEBHOOK_TIMEOUT, old_timeout = 2.0, transports.WEBHOOK_TIMEOUT
            try:
                post_webhook(f"http://rebind.test:{port}/hook", "s", b"{}", allow_private=False, resolve=system)
            finally:
                transports.WEBHOOK_TIMEOUT = old_timeout
    finally:
        socket.getaddrinfo = original
    assert receiver.requests == []
    assert asked == ["rebind.test"]
    assert "127.0.0.1" not in str(err.value) and "192.88.99.1" not in str(err.value)


def test_discord_bodies_mention_nobody() -> None:
    import json

    body = json.loads(webhook_body("discord", {"subject": "@everyone", "text": "<@123> hi", "link": None}))
    assert body["allowed_mentions"] == {"parse": []}
