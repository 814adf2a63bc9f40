"""How a delivery leaves: SMTP mail, the embedded outbox, a signed webhook POST.

Each transport raises `DeliveryError` with a message a director can read; the notifier records
it and retries. A webhook's host is resolved once, checked (public addresses only, unless
WARLOG_WEBHOOK_ALLOW_PRIVATE), and the POST connects to that very address (Host and TLS SNI
still name the host), so a name that answers differently the second time (DNS rebinding) cannot
reach the server's own network; a refusal says only "not a public address". Webhook bodies are signed: `X-Warlog-Signature: sha256=<hex>` is
HMAC-SHA256(secret, "<X-Warlog-Timestamp>.<body>"), so a receiver can check origin and freshness.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import smtplib
import socket
import ssl
import time
from collections.abc import Callable
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
        # allowed_mentions: no text of ours (a tournament's or a player's name) pings anyone
        return json.dumps({"username": "Warlog", "content": content[:2000],
                           "allowed_mentions": {"parse": []}}).encode("utf-8")
    return json.dumps(doc, sort_keys=True).encode("utf-8")


NOT_PUBLIC = "not a public address"
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
Resolver = Callable[..., list[Any]]


def is_public(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A globally routable unicast address, also for what an IPv6 address embeds: IPv4-mapped,
    6to4, Teredo and NAT64 (64:ff9b::7f00:1 is loopback through a NAT64 gateway)."""
    if not addr.is_global or addr.is_multicast:
        return False
    if isinstance(addr, ipaddress.IPv6Address):
        inner: list[ipaddress.IPv4Address] = []
        if addr.ipv4_mapped:
            inner.append(addr.ipv4_mapped)
        if addr.sixtofour:
            inner.append(addr.sixtofour)
        if addr.teredo:
            inner.extend(addr.teredo)
        if any(addr in net for net in NAT64):
            inner.append(ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF))
        return all(is_public(v4) for v4 in inner)
    return True


@dataclass(frozen=True)
class WebhookTarget:
    """A checked webhook URL and the one address it is delivered to."""

    scheme: str
    host: str
    port: int
    path: str
    ip: str


def check_webhook_url(url: str, allow_private: bool, resolve: Resolver = socket.getaddrinfo) -> WebhookTarget:
    """http(s) only; the name is resolved once here, and unless `allow_private` every address it
    resolves to must be public (a player's webhook must not reach into the server's own network).
    The error never says what the name resolved to (that would be a DNS oracle)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DeliveryError("a webhook URL must be http:// or https:// with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise DeliveryError("the webhook URL's port is not a number") from None
    try:
        infos = resolve(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise DeliveryError(f"webhook host {parts.hostname!r} does not resolve") from None
    addrs = []
    for info in infos:
        try:
            addrs.append(ipaddress.ip_address(str(info[4][0]).split("%")[0]))
        except ValueError:
            continue
    if not addrs:
        raise DeliveryError(f"webhook host {parts.hostname!r} does not resolve")
    if not allow_private and not all(is_public(a) for a in addrs):
        raise DeliveryError(f"webhook host {parts.hostname!r}: {NOT_PUBLIC}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return WebhookTarget(parts.scheme, parts.hostname, port, path, str(addrs[0]))


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address; the Host header still names the URL's host."""

    def __init__(self, target: WebhookTarget, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.pinned = target.ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self.pinned, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """TLS to the checked address, with the URL's host as SNI and as the certificate's name."""

    def __init__(self, target: WebhookTarget, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self.pinned = target.ip

    def connect(self) -> None:
        sock = socket.create_connection((self.pinned, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post_webhook(url: str, secret: str, body: bytes, allow_private: bool = False,
                 resolve: Resolver = socket.getaddrinfo) -> None:
    """POST `body`, signed, to the address `check_webhook_url` checked (one resolution: a name
    that resolves elsewhere the second time cannot lead past the check). A redirect is a failure."""
    target = check_webhook_url(url, allow_private, resolve)
    timestamp = str(int(time.time()))
    conn: http.client.HTTPConnection = (_PinnedHTTPS if target.scheme == "https" else _PinnedHTTP)(
        target, WEBHOOK_TIMEOUT)
    try:
        conn.request("POST", target.path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "Warlog-Webhook/1",
            TIMESTAMP_HEADER: timestamp, SIGNATURE_HEADER: sign(secret, timestamp, body)})
        resp = conn.getresponse()
        status, reason = resp.status, resp.reason
        resp.read(65536)
    except (OSError, http.client.HTTPException) as err:
        raise DeliveryError(f"webhook {target.host}: {type(err).__name__} (no answer)") from None
    finally:
        conn.close()
    if not 200 <= status < 300:
        raise DeliveryError(f"webhook {target.host}: HTTP {status} {reason}")
