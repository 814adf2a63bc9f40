"""How a delivery leaves: SMTP mail, the embedded outbox, a signed webhook POST.

Each transport raises `DeliveryError` with a message a director can read; the notifier records
it and retries. Webhook bodies are signed: `X-Warlog-Signature: sha256=<hex>` is
HMAC-SHA256(secret, "<X-Warlog-Timestamp>.<body>"), so a receiver can check origin and freshness.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import smtplib
import socket
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from validators.names import control_character

SMTP_TIMEOUT = 20.0
WEBHOOK_TIMEOUT = 10.0
SIGNATURE_HEADER = "X-Warlog-Signature"
TIMESTAMP_HEADER = "X-Warlog-Timestamp"


class DeliveryError(Exception):
    """One failed attempt (the notifier decides whether to try again)."""


@dataclass(frozen=True)
class SmtpConfig:
    """From a URL: smtp://[user:password@]host[:port][?starttls=1] or smtps://… (implicit TLS)."""

    host: str
    port: int
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> SmtpConfig:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"WARLOG_SMTP_URL must be smtp://host:port or smtps://host:port, not {url!r}")
        tls = parts.scheme == "smtps"
        return cls(parts.hostname, parts.port or (465 if tls else 25), tls=tls,
                   starttls="starttls=1" in (parts.query or "") or "starttls=true" in (parts.query or ""),
                   user=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)


def header_text(text: str) -> str:
    """`text` on one header line: control characters (a CR/LF in a name recorded before names were
    checked) become spaces, so the mail still goes out."""
    return " ".join("".join(" " if control_character(ch) else ch for ch in text).split())


def mail_message(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, header_text(subject)
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "warlog.local")
    msg.set_content(body)
    return msg


def send_smtp(config: SmtpConfig, msg: EmailMessage) -> None:
    try:
        if config.tls:
            client: smtplib.SMTP = smtplib.SMTP_SSL(config.host, config.port, timeout=SMTP_TIMEOUT,
                                                    context=ssl.create_default_context())
        else:
            client = smtplib.SMTP(config.host, config.port, timeout=SMTP_TIMEOUT)
        with client:
            if config.starttls:
                client.starttls(context=ssl.create_default_context())
            if config.user:
                client.login(config.user, config.password or "")
            client.send_message(msg)
    except (OSError, smtplib.SMTPException) as err:
        raise DeliveryError(f"SMTP {config.host}:{config.port}: {err}") from None


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def webhook_body(fmt: str, doc: dict[str, Any]) -> bytes:
    """`json`: the delivery as a JSON object; `discord`: a Discord-compatible {"content": …}."""
    if fmt == "discord":
        content = f"**{doc['subject']}**\n{doc['text']}"
        if doc.get("link"):
            content += f"\n{doc['link']}"
        return json.dumps({"username": "Warlog", "content": content[:2000]}).encode("utf-8")
    return json.dumps(doc, sort_keys=True).encode("utf-8")


def check_webhook_url(url: str, allow_private: bool) -> None:
    """http(s) only; unless `allow_private`, never a loopback, private or link-local address (a
    player's webhook must not reach into the server's own network)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DeliveryError(f"a webhook URL must be http:// or https://, not {url!r}")
    if allow_private:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except OSError as err:
        raise DeliveryError(f"webhook host {parts.hostname!r} does not resolve: {err}") from None
    for info in infos:
        addr = ipaddress.ip_address(info[4][0])
        if not addr.is_global:
            raise DeliveryError(f"webhook host {parts.hostname!r} is a non-public address ({addr}); refused")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is a failure: following it could lead past `check_webhook_url`."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def post_webhook(url: str, secret: str, body: bytes, allow_private: bool = False) -> None:
    check_webhook_url(url, allow_private)
    timestamp = str(int(time.time()))
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "Warlog-Webhook/1",
        TIMESTAMP_HEADER: timestamp, SIGNATURE_HEADER: sign(secret, timestamp, body)})
    try:
        with _OPENER.open(req, timeout=WEBHOOK_TIMEOUT) as resp:
            status = resp.status
    except urllib.error.HTTPError as err:
        raise DeliveryError(f"webhook {url}: HTTP {err.code} {err.reason}") from None
    except (OSError, ValueError) as err:
        raise DeliveryError(f"webhook {url}: {err}") from None
    if not 200 <= status < 300:
        raise DeliveryError(f"webhook {url}: HTTP {status}")
