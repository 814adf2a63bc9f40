"""Players on the web: who is asking (`current_player`), the JSON API under /api/v1/players and
the pages /signin, /signin/<link>, /me and /players/<id>.

A signed-in browser holds a session cookie (`warlog_player`: HttpOnly, SameSite=Lax, random,
stored hashed); the API takes `Authorization: Bearer <player token>`. Asking for a sign-in link
(or registering) always answers the same and does the same work: one link recorded, one mail
queued (an address without an account gets a link that creates it), so neither the answer nor
its timing tells whether an address is registered. One address gets at most one link every
WARLOG_SIGNIN_EVERY minutes; asking again sooner sends nothing and says a link was sent recently
(it still works), so nobody can flood an inbox or lock its owner out.

Links in mails are built on WARLOG_PUBLIC_URL (set it in a deployment: without it the
request's own host is used, which a forged Host header could point elsewhere).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from marshmallow import Schema, ValidationError
from werkzeug.routing import BaseConverter
from werkzeug.wrappers import Response as BaseResponse

from rules import all_games
from validators.players import ClaimSchema, RegisterSchema, SigninSchema, UseLinkSchema
from warlog.games.service import ServiceError
from warlog.i18n import N_, lang, player_locale
from warlog.players.store import PLAYER_ID, LinkThrottled, Player, PlayerError, PlayerStore, clean_email
from warlog.web.boundary import json_object
from warlog.web.errors import install_api_errors, install_page_errors
from warlog.web.pageutil import PLAYER_COOKIE, PageError, check_csrf, finish, seat_cookies

SENT = N_("If that address can receive mail, a sign-in link is on its way to it. The link works once, "
          "within the hour.")
RECENT = N_("A sign-in link was sent to that address a few minutes ago, and it still works: look for it (and in "
            "the spam folder). Ask again in a few minutes if it has not come.")
MeSection = Callable[[Player], "dict[str, Any] | None"]

players_api = Blueprint("players_api", __name__, url_prefix="/api/v1/players")
install_api_errors(players_api, 'the players API')
players_pages = Blueprint("players_pages", __name__)
install_page_errors(players_pages, 'a player page')


# -- who is asking ----------------------------------------------------------------------------

def store() -> PlayerStore:
    found: PlayerStore = current_app.extensions["warlog_players"]
    return found


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def current_player(*, cookie: bool = True) -> Player | None:
    """The player this request speaks for: a bearer player token, else (if `cookie`) the
    browser's session cookie. None for anyone else (a seat token is not a player)."""
    key = "warlog_player_c" if cookie else "warlog_player_b"
    if key in g:
        found: Player | None = g.get(key)
        return found
    token = _bearer()
    player = store().by_token(token) if token else None
    if player is None and cookie and token is None:
        player = store().by_session(request.cookies.get(PLAYER_COOKIE))
    setattr(g, key, player)
    return player


def add_me_section(app: Flask, section: MeSection) -> None:
    """Add a section to the /me page and to GET /api/v1/players/me (e.g. a player's tournaments):
    `section(player)` returns None or {"title": str, "items": [{"label", "href", "status",
    "detail", "urgent"}]} (all but label optional)."""
    app.extensions.setdefault("warlog_me_sections", []).append(section)


def _public_url(path: str) -> str:
    base = current_app.config.get("WARLOG_PUBLIC_URL") or current_app.config.get("PUBLIC_URL") or request.host_url
    return str(base).rstrip("/") + path


def safe_next(value: str | None) -> str | None:
    """Where a sign-in returns to: a path of this site only ("/tournaments/t…"), never another
    site ("//evil", "https://…", a backslash trick); None otherwise."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value or len(value) > 300:
        return None
    if any(ord(c) < 33 for c in value):
        return None
    return value


def _send_link(email: str, display_name: str | None, next_path: str | None = None) -> str:
    """Record a link and queue its mail; the same work whether the address has an account.
    Within WARLOG_SIGNIN_EVERY minutes of the address's last link nothing is sent (that link
    stays valid): the answer, RECENT instead of SENT, says so. Returns the answer."""
    try:
        secret, player = store().signin_link(email, display_name)
    except LinkThrottled:
        return RECENT
    link = _public_url(url_for("players_pages.use_link", secret=secret, next=safe_next(next_path)))
    # in the player's own language if they chose one, else in the language of the page that asked
    with player_locale(player.id if player else None, fallback=lang()):
        if player is not None:
            subject = gettext("Your Warlog sign-in link")
            text = gettext("Hello %(name)s,\n\nSign in to Warlog with this link (it works once, within the "
                           "hour):\n\n%(link)s\n\nIf you did not ask for it, ignore this mail.\n",
                           name=player.display_name, link=link)
        else:
            subject = gettext("Your Warlog account")
            text = gettext("Someone (you, we hope) asked to sign in to Warlog or to register with this address, "
                           "which has no account yet. Open this link to create it (it works once, within the "
                           "hour):\n\n%(link)s\n\nIf you did not ask for it, ignore this mail: nothing is created "
                           "without the link.\n", link=link)
    current_app.extensions["warlog_notifier"].send_mail(email, subject, text)
    return SENT


# -- what /me shows -----------------------------------------------------------------------------

def my_games(player: Player) -> list[dict[str, Any]]:
    """Every game with a seat of the player: status, whose turn, the player's deadline."""
    svc = current_app.extensions["warlog"]
    deadline_of = current_app.extensions.get("warlog_deadline_of")  # (game_id, seat) -> dict | None
    out = []
    games = {g.name: g for g in all_games()}
    for game_id, seat in store().seats_of(player.id):
        try:
            info = svc.info(game_id)
        except ServiceError:
            continue
        scenario = games[info["game"]].scenarios().get(info["scenario"]) if info["game"] in games else None
        out.append({"id": game_id, "title": info["title"], "scenario": info["scenario"], "seat": seat,
                    "scenario_title": scenario.title if scenario else info["scenario"],
                    "status": info["status"], "active_seats": info["active_seats"],
                    "my_turn": info["status"] == "active" and seat in info["active_seats"],
                    "deadline": deadline_of(game_id, seat) if deadline_of else None})
    return out


def my_sections(player: Player) -> list[dict[str, Any]]:
    found = (fn(player) for fn in current_app.extensions.get("warlog_me_sections", []))
    return [s for s in found if s]


def _me_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "display_name": player.display_name, "email": player.email,
            "games": my_games(player), "sections": my_sections(player)}


# -- the JSON API -------------------------------------------------------------------------------

def _load(schema: Schema) -> dict[str, Any]:
    """The body, loaded by the schema the OpenAPI document shows for it (validators.players)."""
    try:
        loaded: dict[str, Any] = schema.load(json_object(PlayerError))
    except ValidationError as err:
        msgs = err.messages if isinstance(err.messages, dict) else {"body": err.messages}
        raise PlayerError("; ".join(f"{k!r}: {' '.join(map(str, v))}" for k, v in msgs.items())) from None
    return loaded


@players_api.post("")
def api_register() -> tuple[Response, int]:
    """Register: mails a link that creates the account (or signs in, if the address has one)."""
    data = _load(RegisterSchema())
    return jsonify({"message": _send_link(data["email"], data["display_name"])}), 202


@players_api.post("/signin")
def api_request_link() -> tuple[Response, int]:
    return jsonify({"message": _send_link(_load(SigninSchema())["email"], None)}), 202


@players_api.post("/signin/<secret>")
def api_use_link(secret: str) -> Response:
    """Use a sign-in link from the API: the player and a new personal API token (shown once)."""
    name = _load(UseLinkSchema())["display_name"]
    player = store().use_link(secret, name)
    token = store().issue_token(player.id)
    return jsonify({"player": {**player.public(), "email": player.email}, "token": token})


@players_api.get("/me")
def api_me() -> Any:
    player = current_player()
    if player is None:
        return jsonify({"error": "this needs 'Authorization: Bearer <player token>' (or a signed-in browser)"}), 401
    return jsonify(_me_json(player))


@players_api.post("/me/token")
def api_new_token() -> Any:
    """A new personal API token (the old one stops working); bearer only."""
    player = current_player(cookie=False)
    if player is None:
        return jsonify({"error": "this needs 'Authorization: Bearer <player token>'"}), 401
    return jsonify({"token": store().issue_token(player.id)})


@players_api.post("/claim")
def api_claim() -> Any:
    """Claim a seat: {"game_id", "seat_token"}; the seat token proves the seat, the bearer the player."""
    player = current_player(cookie=False)
    if player is None:
        return jsonify({"error": "this needs 'Authorization: Bearer <player token>'"}), 401
    data = _load(ClaimSchema())
    game_id = data["game_id"]
    seat = _claim(game_id, data["seat_token"], player)
    return jsonify({"game_id": game_id, "seat": seat, "player": player.public()})


class PlayerIdConverter(BaseConverter):
    """A player id as the store makes them ("p" and 16 hex digits): /api/v1/players/signin and
    /claim are not profiles, so OPTIONS on them allows POST only."""

    regex = PLAYER_ID


@players_api.get("/<player_id:player_id>")
def api_profile(player_id: str) -> Any:
    player = store().get(player_id)
    if player is None:
        return jsonify({"error": f"no player {player_id}"}), 404
    return jsonify(player.public())


def _claim(game_id: str, seat_token: str, player: Player) -> str:
    viewer = current_app.extensions["warlog"].viewer(game_id, seat_token, required=True)
    if viewer.seat is None or viewer.director:
        raise PlayerError(N_("only a seat's token can claim that seat"))
    # A player's own credential resolves to the seat they already own: claiming it again is a no-op.
    store().claim_seat(game_id, viewer.seat, player.id)
    return viewer.seat


# -- pages ----------------------------------------------------------------------------------------

@players_pages.before_request
def _guard() -> None:
    if request.method == "POST":
        check_csrf()


@players_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


def _set_session(resp: BaseResponse, secret: str) -> None:
    resp.set_cookie(PLAYER_COOKIE, secret, max_age=int(store().session_ttl.total_seconds()), path="/",
                    httponly=True, samesite="Lax", secure=request.is_secure)


@players_pages.get("/signin")
def signin() -> Any:
    return render_template("signin.html", player=current_player(), sent=False,
                           next_path=safe_next(request.args.get("next")))


@players_pages.post("/signin")
def signin_post() -> Any:
    email = request.form.get("email", "")
    name = request.form.get("display_name", "").strip() or None
    clean_email(email)  # a malformed address is the asker's typo: say so (this tells nothing of accounts)
    next_path = safe_next(request.form.get("next"))
    return render_template("signin.html", player=current_player(), sent=True, next_path=next_path,
                           message=_send_link(email, name, next_path))


@players_pages.get("/signin/<secret>")
def use_link(secret: str) -> Any:
    """Opening the link only shows a button: mail scanners that fetch links must not use them."""
    info = store().peek_link(secret)
    return render_template("signin_link.html", secret=secret, registering=info.player is None,
                           needs_name=info.player is None and not info.display_name,
                           next_path=safe_next(request.args.get("next")))


@players_pages.post("/signin/<secret>")
def use_link_post(secret: str) -> Any:
    player = store().use_link(secret, request.form.get("display_name") or None)
    resp = redirect(safe_next(request.form.get("next")) or url_for("players_pages.me"), code=303)
    _set_session(resp, store().new_session(player.id))
    return resp


@players_pages.post("/signout")
def signout() -> Any:
    secret = request.cookies.get(PLAYER_COOKIE)
    if secret:
        store().end_session(secret)
    resp = redirect(url_for("players_pages.signin"), code=303)
    resp.delete_cookie(PLAYER_COOKIE, path="/", httponly=True, samesite="Lax", secure=request.is_secure)
    return resp


def _signed_in() -> Player:
    player = current_player()
    if player is None:
        raise PageError(401, "Sign in first: ask for a sign-in link on the sign-in page.", "Not signed in")
    return player


@players_pages.get("/me")
def me() -> Any:
    player = current_player()
    if player is None:
        return redirect(url_for("players_pages.signin"), code=303)
    return _me_page(player, None)


def _me_page(player: Player, new_token: str | None) -> str:
    owned = {gid for gid, _ in store().seats_of(player.id)}
    claimable = [gid for gid in seat_cookies() if gid not in owned]
    prefs = "notify_pages.prefs" in current_app.view_functions
    return render_template("me.html", player=player, games=my_games(player), sections=my_sections(player),
                           claimable=claimable, new_token=new_token,
                           notifications_url=url_for("notify_pages.prefs") if prefs else None)


@players_pages.post("/me/token")
def me_token() -> Any:
    player = _signed_in()
    return _me_page(player, store().issue_token(player.id))


@players_pages.post("/me/claim/<game_id>")
def me_claim(game_id: str) -> Any:
    """Claim the seat this browser holds (its invitation cookie) for the signed-in player."""
    player = _signed_in()
    token = seat_cookies().get(game_id)
    if not token:
        raise PageError(403, N_("This browser holds no seat of that game: open its invitation link first."))
    _claim(game_id, token, player)
    return redirect(url_for("players_pages.me"), code=303)


@players_pages.get("/players/<player_id>")
def profile(player_id: str) -> Any:
    player = store().get(player_id)
    if player is None:
        raise PageError(404, f"There is no player {player_id}.")
    return render_template("player.html", shown=player.public())


def init_app(app: Flask, players: PlayerStore) -> None:
    app.extensions["warlog_players"] = players
    app.url_map.converters["player_id"] = PlayerIdConverter
    app.register_blueprint(players_api)
    app.register_blueprint(players_pages)

    @app.context_processor
    def _signed_in_player() -> dict[str, Any]:
        return {"signed_in_player": current_player}
