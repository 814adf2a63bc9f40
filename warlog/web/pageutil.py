"""What every page needs: the seat cookie, CSRF protection, friendly errors, headers.

Seat tokens travel only in an HttpOnly, SameSite=Lax cookie per game
(`warlog_seat_<game id>`); no page prints one except the creator's invitation list.

CSRF: a state-changing POST must (1) come from this site — its Origin header (or, if a
browser sent none, its Referer) names this host — and (2) carry the per-browser token of
the `warlog_csrf` cookie in its `csrf` field (double submit). The SameSite=Lax seat cookie
already keeps other sites' forms from acting as a seat; the two checks also cover the
forms that need no seat (creating a game) and older browsers.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import Response, current_app, g, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from warlog.games.service import SPECTATOR, Forbidden, NotFound, Viewer, Warlog
from warlog.i18n import N_
from warlog.trust.rounds import check_private

SEAT_COOKIE = "warlog_seat_"
CSRF_COOKIE = "warlog_csrf"
PLAYER_COOKIE = "warlog_player"
COOKIE_AGE = 365 * 24 * 3600
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


class PageError(Exception):
    """A page-level failure shown as a friendly page with this status."""

    def __init__(self, status: int, message: str, title: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message = status, message
        self.title = title or {400: N_("Bad request"), 403: N_("Not allowed"), 404: N_("Not found"),
                               409: N_("Out of date")}.get(status, N_("Error"))


def service() -> Warlog:
    svc: Warlog = current_app.extensions["warlog"]
    return svc


def seat_token(game_id: str) -> str | None:
    """This browser's seat cookie for the game, else its player session (warlog.players: the
    service maps it to the seat that player owns, if any)."""
    return request.cookies.get(SEAT_COOKIE + game_id) or request.cookies.get(PLAYER_COOKIE) or None


def viewer_for(game_id: str) -> Viewer:
    """The viewer this browser's cookie names; a stale or foreign cookie reads as a spectator."""
    try:
        return service().viewer(game_id, seat_token(game_id))
    except Forbidden:
        return SPECTATOR


def guard_private(*credentials: str | None) -> None:
    """Before any route of a game (`game_id` in the path): refuse a duplicate round's game to
    anyone but its player and its tournament's director while the round runs
    (warlog.trust.rounds.check_private, PrivateGame 403). The API passes its bearer token; the pages, the
    seat cookie, the player session and an invitation's token."""
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, str):
        check_private(service(), game_id, *credentials)


def set_seat_cookie(resp: BaseResponse, game_id: str, token: str) -> None:
    resp.set_cookie(SEAT_COOKIE + game_id, token, max_age=COOKIE_AGE, path="/", httponly=True, samesite="Lax",
                    secure=request.is_secure)


def forget_seat_cookie(resp: BaseResponse, game_id: str) -> None:
    resp.delete_cookie(SEAT_COOKIE + game_id, path="/", httponly=True, samesite="Lax", secure=request.is_secure)


def seat_cookies() -> dict[str, str]:
    """game id -> token, for every seat this browser holds."""
    return {k[len(SEAT_COOKIE):]: v for k, v in sorted(request.cookies.items()) if k.startswith(SEAT_COOKIE) and v}


# -- CSRF -------------------------------------------------------------------------------------

def csrf_token() -> str:
    token = getattr(g, "csrf", None)
    if token is None:
        token = request.cookies.get(CSRF_COOKIE) or ""
        if len(token) < 20:
            token = secrets.token_urlsafe(24)
            g.csrf_new = True
        g.csrf = token
    return str(token)


def check_csrf() -> None:
    """Refuse a POST that does not come from one of our own pages (see the module docstring)."""
    here = urlsplit(request.host_url)
    source = request.headers.get("Origin") or request.headers.get("Referer") or ""
    src = urlsplit(source)
    if not source or (src.scheme, src.netloc) != (here.scheme, here.netloc):
        raise PageError(403, N_("This form did not come from a Warlog page (its Origin is missing or foreign). "
                                "Go back, reload the page and try again."))
    cookie = request.cookies.get(CSRF_COOKIE) or ""
    sent = request.form.get("csrf", "")
    if not cookie or not hmac.compare_digest(cookie, sent):
        raise PageError(403, N_("This form has expired (its anti-forgery token does not match). "
                                "Reload the page and try again."))


def private(resp: BaseResponse) -> BaseResponse:
    """What a seat reads is its own: no shared cache may keep it or serve it to
    another cookie or token."""
    resp.headers.setdefault("Cache-Control", "private, no-store")
    if "Vary" in resp.headers:
        resp.vary.add("Cookie")
        resp.vary.add("Authorization")
    else:  # what the two adds give (a HeaderSet parsed and written again for each), set at once
        resp.headers["Vary"] = "Cookie, Authorization"
    return resp


def finish(resp: Response) -> Response:
    """Set the CSRF cookie if this page minted one; add the security and cache headers."""
    private(resp)
    if getattr(g, "csrf_new", False):
        resp.set_cookie(CSRF_COOKIE, g.csrf, path="/", httponly=True, samesite="Lax", secure=request.is_secure)
    resp.headers.setdefault("Content-Security-Policy", CSP)
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    return resp


def error_page(status: int, title: str, message: str, **extra: Any) -> tuple[str, int]:
    return render_template("error.html", status=status, title=title, message=message, **extra), status


def wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


__all__ = ["PageError", "NotFound", "service", "viewer_for", "guard_private", "seat_token", "csrf_token", "check_csrf", "finish", "private",
           "error_page", "wants_json", "set_seat_cookie", "forget_seat_cookie", "seat_cookies"]


def ruling_from_form() -> dict[str, Any]:
    """A ruling from a page's form fields (the desk's and a game page's): kind, target and
    re_resolve (void), winner and result (award), patch (adjust, a JSON Patch list)."""
    from warlog.web.boundary import parse_json

    f = request.form
    kind = f.get("kind", "")
    ruling: dict[str, Any] = {"kind": kind}
    if kind == "void":
        ruling.update(target=int(f.get("target") or -1) if (f.get("target") or "").isdigit() else -1,
                      re_resolve=bool(f.get("re_resolve")))
    elif kind == "award":
        ruling.update(winner=f.get("winner") or None, result=f.get("result") or "awarded")
    elif kind == "adjust":
        try:
            ruling["patch"] = parse_json(f.get("patch") or "[]", "the patch")
        except ValueError:
            raise PageError(400, N_("The adjustment is a JSON Patch list.")) from None
    return ruling
