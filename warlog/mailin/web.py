"""/me/play-by-mail: how a player plays each game — by mail, on the page, or both — with a
default for games to come, and the player's recent replies with their verdicts.

* `both` (the default): turn mails show the position and the codes, and link to the page;
* `mail`: the same without the link (the player lives in the mail client);
* `page`: the plain "your turn" notice with its link; a reply by mail is refused.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, render_template, request, url_for

from warlog.mailin.play import MailPlay
from warlog.mailin.store import MODES
from warlog.players.web import current_player
from warlog.web.boundary import request_json
from warlog.web.errors import install_page_errors
from warlog.web.pageutil import PageError, check_csrf, finish, wants_json

mail_pages = Blueprint("mail_pages", __name__)
install_page_errors(mail_pages, 'a mail page')


def play() -> MailPlay:
    found: MailPlay = current_app.extensions["warlog_mail"]
    return found


@mail_pages.before_request
def _guard() -> None:
    # a form from a browser carries its cookie and must come from our page; a client with a bearer
    # player token (which no other site can make a browser send) needs no such check
    if request.method == "POST" and not request.headers.get("Authorization", "").lower().startswith("bearer "):
        check_csrf()


@mail_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


def _doc(player_id: str) -> dict[str, Any]:
    p = play()
    games = [{"game_id": g, "seat": s, "mode": p.mail.mode(player_id, g)} for g, s in
             p.players.seats_of(player_id)]
    default = p.mail.mode(player_id, "")
    replies = [m for g in games for m in p.mail.recent(20, g["game_id"]) if m.seat == g["seat"]]
    replies.sort(key=lambda m: m.received_at, reverse=True)
    return {"default": default, "games": games, "address": f"{p.local}@{p.domain}",
            "replies": [{"received_at": m.received_at, "game_id": m.game_id, "from": m.from_addr,
                         "verdict": m.verdict or "waiting", "reason": m.reason} for m in replies[:20]]}


@mail_pages.get("/me/play-by-mail")
def modes() -> Any:
    player = current_player()
    if player is None:
        if wants_json():
            raise PageError(401, "Sign in first.", "Not signed in")
        return redirect(url_for("players_pages.signin"), code=303)
    doc = _doc(player.id)
    if wants_json():
        return jsonify(doc)
    return render_template("play_by_mail.html", player=player, modes=MODES, saved=False, **doc)


@mail_pages.post("/me/play-by-mail")
def modes_post() -> Any:
    player = current_player()
    if player is None:
        raise PageError(401, "Sign in first.", "Not signed in")
    form = request_json() if request.is_json else request.form
    form = form or {}
    mode, game_id = str(form.get("mode", "")), str(form.get("game_id") or "") or None
    if mode not in MODES:
        raise PageError(400, f"A mode of play is one of {', '.join(MODES)}.")
    if game_id is not None and play().players.seat_of(game_id, player.id) is None:
        raise PageError(404, "You hold no seat in that game.")
    play().mail.set_mode(player.id, mode, game_id)
    doc = _doc(player.id)
    if wants_json() or request.is_json:
        return jsonify(doc)
    return render_template("play_by_mail.html", player=player, modes=MODES, saved=True, **doc)


def init_app(app: Flask, the_play: MailPlay) -> None:
    app.extensions["warlog_mail"] = the_play
    app.register_blueprint(mail_pages)
