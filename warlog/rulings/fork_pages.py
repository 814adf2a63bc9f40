"""The dispute sandbox's setup page: fork a game at a step and edit the position before it is
created. A plain form, one edit at a time — move a counter to a hex, change a
marker (any path and value), set the phase — each checked at once like the sandbox will be
(warlog.rulings.sandbox), its errors shown by path; the accepted edits travel as a JSON Patch in a
hidden field. Open to the game's director, or to anyone once the game has ended."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, render_template, request, url_for
from flask_babel import gettext

from warlog.catalogs import N_
from warlog.games.service import Unprocessable
from warlog.render import Scene, renderer_for
from warlog.rulings.sandbox import forced_faces, fork
from warlog.web.boundary import parse_json
from warlog.web.pages import pages
from warlog.web.pageutil import PageError, seat_token, service, viewer_for


def _may_fork(game_id: str) -> None:
    if not viewer_for(game_id).director and not service().open_book(game_id):
        raise PageError(403, N_("Only the game's director may fork a running game; anyone may once it has ended."))


def _counters(state: dict[str, Any]) -> tuple[str, str, list[str]]:
    """(the map of counters, the key of a counter's position, the counter ids) of a state."""
    for key in ("units", "gb"):
        records = state.get(key)
        if isinstance(records, dict) and records:
            first = next(iter(records.values()))
            where = "at" if isinstance(first, dict) and "at" in first else "hex"
            return key, where, sorted(records)
    return "", "", []


def _value(raw: str) -> Any:
    """A form value as JSON (7, true, null, "text", [..]), or else as the text typed."""
    try:
        return parse_json(raw, "the value")
    except ValueError:
        return raw


def _edit(form: Any, state: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    kind = form.get("edit", "")
    if kind == "move":
        key, where, _ = _counters(state)
        unit, to = form.get("unit", ""), form.get("to", "").strip()
        return ({"op": "replace", "path": f"/{key}/{unit}/{where}", "value": to or None},
                gettext("move %(unit)s to %(to)s", unit=unit, to=to))
    if kind == "set":
        path = form.get("path", "").strip()
        return {"op": "replace", "path": path, "value": _value(form.get("value", ""))}, gettext("set %(path)s", path=path)
    if kind == "phase":
        return {"op": "replace", "path": "/phase", "value": form.get("phase", "").strip()}, gettext("set the phase")
    return None, ""


@pages.route("/games/<game_id>/fork/<int:step>", methods=["GET", "POST"])
def fork_setup(game_id: str, step: int) -> Any:
    _may_fork(game_id)
    svc = service()
    info = svc.info(game_id)
    game = svc._game(info["game"])
    form = request.form if request.method == "POST" else {}
    try:
        patch = parse_json(form.get("patch") or "[]", "the patch")
        dice = [int(x) for x in form.get("dice", "").replace(",", " ").split()]
    except ValueError:
        raise PageError(400, N_("The edits and the dice must be a JSON Patch list and whole numbers.")) from None
    mode = form.get("on_dice_exhausted") or "stop"
    token = seat_token(game_id)
    message, errors = "", []
    current = fork(svc, game_id, token, step, patch, dry_run=True)
    op, label = _edit(form, current["state"])
    if op is not None:
        tried = fork(svc, game_id, token, step, [*patch, op], dry_run=True)
        if tried["errors"] and not current["errors"]:
            errors, message = tried["errors"], gettext(
                "Not applied — %(edit)s: the position would not be one the rules allow.", edit=label)
        else:
            patch, current, message = [*patch, op], tried, gettext("Applied: %(edit)s.", edit=label)
    elif form.get("edit") == "undo" and patch:
        patch = patch[:-1]
        current = fork(svc, game_id, token, step, patch, dry_run=True)
        message = gettext("The last edit was undone.")
    elif form.get("edit") == "create":
        try:
            created = fork(svc, game_id, token, step, patch, dice, mode if mode in ("stop", "derive") else "stop")
        except Unprocessable as err:
            errors, message = err.detail.get("errors", []), err.message
        else:
            return _created(game, info, created, step)
    errors = errors or current["errors"]
    key, where, units = _counters(current["state"])
    schema = game.state_schema() or {}
    phases = ((schema.get("properties") or {}).get("phase") or {}).get("enum") or []
    try:
        board = renderer_for(game.name).board(Scene(current["state"], caption=gettext("Forked at step %(n)s", n=step)))
    except Exception:  # a position the checks refused may not draw: the errors say why
        board = ""
    return render_template("fork.html", info=info, game=game, step=step, patch=json.dumps(patch), edits=patch,
                           state=current["state"], phase=current["phase"], errors=errors, message=message,
                           units=units, where=where, phases=phases, board=board, dice=" ".join(map(str, dice)),
                           mode=mode, faces=forced_faces(game)), 422 if errors else 200


def _created(game: Any, info: dict[str, Any], created: dict[str, Any], step: int) -> Response:
    gid = created["id"]
    links = {seat: url_for("pages.invitation", game_id=gid, token=tok, _external=True)
             for seat, tok in created["seats"].items()}
    director = url_for("pages.invitation", game_id=gid, token=created["director_token"], _external=True)
    resp = Response(render_template("created.html", game=game, scenario=game.scenarios()[info["scenario"]], gid=gid,
                                    links=links, director=director, options=info["options"],
                                    commitment=created["seed_commitment"],
                                    forked=(info["id"], step, created["on_dice_exhausted"])), status=201)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp
