"""Notification pages: a player's preferences (/me/notifications) and the outbox (/outbox).

The outbox is the embedded default's mail (no WARLOG_SMTP_URL): everything the server would
have mailed, sign-in links included. It is shown whole only when WARLOG_OUTBOX_LOCAL is set (a
developer's own server; `scripts/serve` sets it), to a client on this machine (loopback) whose
request carries no proxy header (X-Forwarded-For, Forwarded, X-Real-IP: a proxy on this host
makes every visitor loopback). Anyone else who is signed in sees only the mail addressed to
their own address, and nobody else sees anything.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from flask import Blueprint, Flask, Response, current_app, redirect, render_template, request, url_for

from warlog.catalogs import N_
from warlog.notify.notifier import KINDS, Notifier
from warlog.players.web import current_player
from warlog.web.errors import install_page_errors
from warlog.web.pageutil import PageError, check_csrf, finish

notify_pages = Blueprint("notify_pages", __name__)
# the kinds as the preferences form names them (`kind.replace('_', ' ') | tr`), for the catalogs
KIND_NAMES = (N_("your turn"), N_("deadline soon"), N_("deadline passed"), N_("pairing"), N_("game ended"),
              N_("ruling"), N_("leave"), N_("message"))
install_page_errors(notify_pages, 'a notifications page')


def notifier() -> Notifier:
    found: Notifier = current_app.extensions["warlog_notifier"]
    return found


@notify_pages.before_request
def _guard() -> None:
    if request.method == "POST":
        check_csrf()


@notify_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Host")


def _local_embedded() -> bool:
    """WARLOG_OUTBOX_LOCAL is set, and an embedded server (no SMTP, no Redis) is asked from this
    machine, not through a proxy: a developer's own."""
    if str(current_app.config.get("WARLOG_OUTBOX_LOCAL") or "").lower() not in ("1", "true", "yes", "on"):
        return False
    if notifier().smtp is not None or current_app.config.get("WARLOG_REDIS"):
        return False
    if any(h in request.headers for h in PROXY_HEADERS):
        return False
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


@notify_pages.get("/outbox")
def outbox() -> Any:
    if notifier().smtp is not None:
        raise PageError(404, "Mail is sent by SMTP on this server: there is no outbox.")
    if _local_embedded():
        mails, scope = notifier().outbox(), "all"
    else:
        player = current_player()
        if player is None:
            raise PageError(403, "The outbox shows a signed-in player their own mail (or everything, on a "
                                 "developer's own server that set WARLOG_OUTBOX_LOCAL).", "Not allowed")
        mails, scope = notifier().outbox(to=player.email), "mine"
    return render_template("outbox.html", mails=mails, scope=scope)


@notify_pages.get("/me/notifications")
def prefs() -> Any:
    player = current_player()
    if player is None:
        return redirect(url_for("players_pages.signin"), code=303)
    return render_template("notifications.html", player=player, prefs=notifier().prefs(player.id), kinds=KINDS,
                           deliveries=notifier().deliveries(player.id, limit=30), saved=False)


@notify_pages.post("/me/notifications")
def prefs_post() -> Any:
    player = current_player()
    if player is None:
        raise PageError(401, "Sign in first.", "Not signed in")
    form = request.form
    url = form.get("webhook_url", "").strip()
    if url and not url.startswith(("http://", "https://")):
        raise PageError(400, "A webhook URL starts with http:// or https://.")
    fmt = form.get("webhook_format", "json")
    if fmt not in ("json", "discord"):
        raise PageError(400, "The webhook body is 'json' or 'discord'.")
    muted = tuple(k for k in KINDS if form.get(f"mute_{k}"))
    try:
        saved = notifier().set_prefs(player.id, email_on=bool(form.get("email_on")), digest=bool(form.get("digest")),
                                     webhook_url=url or None, webhook_format=fmt, muted_kinds=muted)
    except ValueError as err:  # e.g. a webhook whose host is not a public address
        raise PageError(400, f"The webhook cannot be saved: {err}.") from None
    return render_template("notifications.html", player=player, prefs=saved, kinds=KINDS,
                           deliveries=notifier().deliveries(player.id, limit=30), saved=True)


def init_app(app: Flask, the_notifier: Notifier) -> None:
    app.extensions["warlog_notifier"] = the_notifier
    app.register_blueprint(notify_pages)
