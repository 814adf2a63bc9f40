"""Rulings and disputes on an ordinary game's pages: the holder of the game's director
token (its invitation link puts the token in the browser's cookie) gets a ruling form on the play
page — void and re-resolve, adjust, award — and the game's disputes, each with a form to dismiss
it or rule; a seat raises a dispute from the play or replay page. A tournament's games are
answered from the tournament's desk (warlog.tournaments.web), so these forms are for the rest.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, redirect, request, url_for

from warlog.rulings import disputes as dsp
from warlog.web.pages import pages
from warlog.web.pageutil import PageError, ruling_from_form, seat_token, service, viewer_for


def _tournament_game(game_id: str) -> bool:
    t = current_app.extensions.get("warlog_tournaments")
    return t is not None and t.store.game_tournament(game_id) is not None


def _back(game_id: str) -> str:
    """Where a form returns: the page it came from on this game, else the play page."""
    back = request.form.get("back", "")
    if back.startswith(f"/games/{game_id}") and "//" not in back:
        return back
    return url_for("pages.game", game_id=game_id)


@pages.post("/games/<game_id>/dispute")
def game_dispute(game_id: str) -> Any:
    seq = request.form.get("seq", "")
    if not seq.strip().isdigit():
        raise PageError(400, "Name the event (its number) you dispute.")
    if _tournament_game(game_id):
        raise PageError(409, "This game is part of a tournament: raise the dispute from its replay page, "
                             "where it goes to the tournament's director.")
    dsp.raise_dispute(service(), game_id, seat_token(game_id), int(seq), request.form.get("text", ""))
    return redirect(_back(game_id) + "#rulings", code=303)


@pages.post("/games/<game_id>/rule")
def game_rule(game_id: str) -> Any:
    dsp.submit_ruling(service(), game_id, seat_token(game_id), ruling_from_form(), request.form.get("text", ""))
    return redirect(url_for("pages.game", game_id=game_id, ruled=1) + "#rulings", code=303)


@pages.post("/games/<game_id>/disputes/<int:dispute>")
def game_answer(game_id: str, dispute: int) -> Any:
    f = request.form
    ruling = ruling_from_form() if f.get("decision") == "rule" else None
    dsp.answer_dispute(service(), game_id, seat_token(game_id), dispute, f.get("decision", ""), f.get("text", ""),
                       ruling)
    return redirect(url_for("pages.game", game_id=game_id, ruled=1) + "#rulings", code=303)


def init_app(app: Flask) -> None:
    @app.context_processor
    def _rulings() -> dict[str, Any]:
        def game_rulings(game_id: str) -> dict[str, Any] | None:
            """What the rulings card of a game page shows this browser: None for a tournament's
            game (its desk rules) or a spectator; else the role, the game's roles and disputes."""
            if _tournament_game(game_id):
                return None
            viewer = viewer_for(game_id)
            if not viewer.director and viewer.seat is None:
                return None
            svc = service()
            created = svc.created(game_id).payload
            return {"director": viewer.director, "seat": viewer.seat, "roles": list(created["roles"]),
                    "no_director": created.get("director_token_sha256") is None,  # a player created it
                    "disputes": dsp.disputes(svc, game_id), "status": svc.info(game_id)["status"]}

        return {"game_rulings": game_rulings}
