"""The web pages: lobby, invitations, play, replay and audit (server-rendered Jinja; a small
script in warlog/static/ enhances them, and every page works without it).

Moves made here go through `Warlog.submit_move`, exactly like the JSON API's.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext  # type: ignore[import-untyped]
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from ledger.dice import round_withheld
from ledger.events import HIDDEN_VIEWED, SUBMITTED, UMPIRE_INVITED, Event
from ledger.paging import OPEN, BadCursor
from rules import all_games, game_of, get_game
from rules.core.game import Game, IllegalAction, same_json
from rules.core.standing import MAX_CONDITIONS as MAX_STANDING_CONDITIONS
from warlog import i18n
from warlog.games import replay as rp
from warlog.games import share
from warlog.games.listing import games_page, next_query
from warlog.games.service import JUDGEMENT_NEAR, SPECTATOR, ServiceError, Viewer, redact, redact_payload
from warlog.i18n import N_
from warlog.judging import wakeup
from warlog.judging.queue import InlineQueue
from warlog.render import Scene, TextRenderer, renderer_for
from warlog.render import standing as standing_words
from warlog.render.png import board_png
from warlog.render.words import action_text, text_words, words_filter
from warlog.trust import audit as audit_mod
from warlog.trust.rounds import private_reason, public_rows
from warlog.web import layerkeep, lobbyrows
from warlog.web.boundary import parse_json
from warlog.web.errors import install_page_errors
from warlog.web.pageutil import (
    PLAYER_COOKIE,
    SEAT_COOKIE,
    PageError,
    check_csrf,
    csrf_token,
    error_page,
    finish,
    forget_seat_cookie,
    guard_private,
    seat_cookies,
    seat_token,
    service,
    set_seat_cookie,
    viewer_for,
    wants_json,
)
from warlog.web.planner import PlanError, reach

pages = Blueprint("pages", __name__)
install_page_errors(pages, 'a page', titles={401: N_('No seat')})
STATUSES = ("waiting", "active", "ended")
LOBBY_STATUSES = (OPEN, *STATUSES, "all")
LOBBY_PAGE = 50
RECENT = 12  # events shown on the play page
WINDOW = 15  # events either side of the replay step
LOOKS_RECENT = 120  # the play page lists the looks at hidden information among this many last events


# -- plumbing ---------------------------------------------------------------------------------

@pages.before_request
def _guard() -> None:
    if request.method == "POST":
        check_csrf()
    game_id = (request.view_args or {}).get("game_id", "")
    guard_private(request.cookies.get(SEAT_COOKIE + str(game_id)), request.cookies.get(PLAYER_COOKIE),
                  (request.view_args or {}).get("token"))


@pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


@pass_context
def _seat_name(ctx: Any, seat: str | None, game: Any = None) -> str:
    """`seat_name(seat)` in a template: the display name in the page's own `game`."""
    return i18n.tr(rp.seat_name(seat, game if game is not None else ctx.get("game")))


def _titles(game: Any, scenario: str | None) -> tuple[str, str]:
    """`titles(game, scenario)` in a template: the game's heading and the scenario's title in the
    page's language."""
    name, scenario_title = rp.titles(game, scenario)
    return i18n.tr(name), i18n.tr(scenario_title)


@pages.app_context_processor
def _context() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "seat_name": _seat_name, "titles": _titles}


@pages.app_template_global("action_text")
def _action_text(game: Game, action: Any) -> str:
    """An action in words in a template (warlog.render.words)."""
    return action_text(game, action) if isinstance(action, dict) else str(action)


pages.app_template_filter("words")(words_filter)


@pages.app_template_global("result_text")
def _result_text(result: Any, game: Game, winner: str | None = None) -> str:
    return rp.result_text(result, game, winner)


@pages.app_template_filter("en")
def _english(text: Any) -> str:
    return rp.english(text)


@pages.app_errorhandler(404)
@pages.app_errorhandler(405)
def _http_error(err: HTTPException) -> Any:
    allow = {k: v for k, v in err.get_headers() if k == "Allow"}  # a 405 says what the path takes
    if request.path.startswith("/api/"):  # no API route matched: still a JSON answer
        return jsonify({"error": f"{err.name}: {request.method} {request.path} is not part of the API "
                                 "(see /api/v1/openapi.json)"}), err.code or 404, allow
    message = N_("There is no such page.") if err.code == 404 else N_("That page does not take this kind of request.")
    title = {404: N_("Not found"), 405: N_("Not allowed")}.get(err.code or 500, err.name)
    resp = finish(Response(*error_page(err.code or 500, title, message)))
    resp.headers.update(allow)
    return resp


def _game(game_id: str) -> Game:
    return game_of(service().created(game_id).payload)


def _visible(events: list[Any], game: Game, viewer: Viewer, full: bool) -> list[dict[str, Any]]:
    return [e.to_json() if full else redact(e, game, viewer) for e in events]


def _int_arg(name: str, default: int | None = None) -> int | None:
    raw = request.args.get(name)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError:
        raise PageError(400, f"'{name}' must be a whole number, not {raw!r}") from None


# -- lobby ------------------------------------------------------------------------------------

@pages.get("/")
def lobby() -> Any:
    """Newest games first, a page at a time ("Older games"); ended games only when asked for."""
    svc = service()
    games = {g.name: g for g in all_games()}
    game_f = request.args.get("game") or None
    status_f = request.args.get("status") or OPEN  # the lobby hides ended games unless asked
    cursor = request.args.get("cursor") or None
    if game_f is not None and game_f not in games:
        raise PageError(400, f"There is no game called {game_f!r}.")
    if status_f not in LOBBY_STATUSES:
        raise PageError(400, f"A game's status is one of {', '.join(STATUSES)}, not {status_f!r}.")
    try:
        page = games_page(svc.store, game_f, None if status_f == "all" else status_f, LOBBY_PAGE, cursor)
    except BadCursor:
        raise PageError(400, "That link to older games is not one this server made: start from the lobby.") from None
    rows = public_rows(svc, page.rows)  # a duplicate round's games are not listed while the round runs
    more = next_query(page, game_f, status_f if status_f != OPEN else None, LOBBY_PAGE)
    older = f"{url_for('pages.lobby')}?{more}" if more else None
    mine = _my_games()
    token = csrf_token()

    def render() -> str:
        links = tuple(url_for(f"pages.{view}", game_id="GAMEID").replace("GAMEID", "{id}")
                      for view in ("game", "replay_latest", "audit"))
        form = lobbyrows.create_form(games, lambda: render_template("_lobby_create.html", games=games,
                                                                    csrf_token=lambda: lobbyrows.CSRF), lobbyrows.CSRF)
        return render_template("lobby.html", rows=rows, games=games, game_f=game_f, status_f=status_f,
                               rows_html=lobbyrows.rows_html(rows, games, links), create_form=form,
                               statuses=STATUSES, older=older, paged=cursor is not None, mine=mine,
                               status_badge=_badge, seats=_seats)

    if mine or _signed_in():
        return lobbyrows.with_token(render(), token)
    # Everyone else sees the same page for the same rows: rendered once (lobbyrows.page)
    key = (request.script_root, i18n.lang(), tuple(games), game_f, status_f, cursor is not None, older,
           tuple(lobbyrows.row_key(r) for r in rows))
    return lobbyrows.page(current_app.extensions.setdefault("warlog_lobby_pages", lobbyrows.pages_cache()),
                          key, render, token)


def _signed_in() -> bool:
    """Whether the page speaks to a signed-in player (base.html names them)."""
    if "warlog_players" not in current_app.extensions:
        return False
    from warlog.players.web import current_player

    return current_player() is not None


def _badge(status: str) -> Markup:
    """The lobby's status badge (the macro's HTML; importing _macros.html `with context` built
    that template's module again on every lobby request)."""
    return Markup(lobbyrows.status_badge(status))


def _seats(active: list[str], game: str) -> Markup:
    return Markup(lobbyrows.seats(active, game))


def _my_games() -> list[dict[str, Any]]:
    svc, out = service(), []
    for game_id, token in seat_cookies().items():
        try:
            viewer = svc.viewer(game_id, token)
            info = svc.info(game_id)
        except ServiceError:
            continue
        out.append({"info": info, "seat": viewer.label,
                    "my_turn": info["status"] == "active" and viewer.seat in info["active_seats"]})
    return out


@pages.post("/games")
def create() -> Any:
    choice = request.form.get("game", "")
    name, _, scenario = choice.partition("/")
    try:
        game = get_game(name)
    except KeyError:
        raise PageError(400, f"Choose a game and scenario from the list (got {choice!r}).") from None
    if scenario not in game.scenarios():
        raise PageError(400, f"{game.title} has no scenario {scenario!r}.")
    options: dict[str, Any] = {}
    for opt in game.options().values():
        field = f"opt.{game.name}.{opt.name}"
        if set(opt.choices) == {False, True}:
            options[opt.name] = request.form.get(field) == "on"
        elif field in request.form:
            raw = request.form[field]
            match = [c for c in opt.choices if str(c) == raw]
            if not match:
                raise PageError(400, f"Option {opt.name} must be one of {', '.join(map(str, opt.choices))}.")
            options[opt.name] = match[0]
    created = service().create_game(game.name, scenario, options, creator=_creator(game, scenario))
    gid = created["id"]
    links = {seat: url_for(".invitation", game_id=gid, token=tok, _external=True)
             for seat, tok in created["seats"].items()}
    director = (url_for(".invitation", game_id=gid, token=created["director_token"], _external=True)
                if "director_token" in created else None)
    resp = Response(render_template("created.html", game=game, scenario=game.scenarios()[scenario], gid=gid,
                                    links=links, director=director, options=options, mine=created.get("creator_seat"),
                                    commitment=created["seed_commitment"]), status=201)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


def _creator(game: Game, scenario: str) -> str:
    """The lobby form's `creator`: "umpire", or "seat1"/"seat2" (the scenario's first or second
    side; a seat's own name is taken too)."""
    raw = request.form.get("creator") or "umpire"
    roles = list(game.roles(scenario))
    if raw == "umpire" or raw in roles:
        return raw
    if raw.startswith("seat") and raw[4:].isdigit() and 1 <= int(raw[4:]) <= len(roles):
        return roles[int(raw[4:]) - 1]
    raise PageError(400, f"Choose whether you are the umpire or play one of the sides ({', '.join(roles)}).")


@pages.post("/games/<game_id>/umpire")
def umpire(game_id: str) -> Any:
    """A seat of a player-created game has an umpire invitation made (Warlog.invite_umpire): the
    link is shown once, to be given to a neutral person; the game records that it was made."""
    svc = service()
    out = svc.invite_umpire(game_id, seat_token(game_id), request.form.get("text", ""))
    link = url_for(".invitation", game_id=game_id, token=out["umpire_token"], _external=True)
    resp = Response(render_template("umpire.html", info=svc.info(game_id), game=_game(game_id), link=link,
                                    seq=out["seq"]), status=201)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@pages.get("/games/<game_id>/seat/<token>")
def invitation(game_id: str, token: str) -> Any:
    """Opening an invitation takes the seat: the token goes into this browser's cookie, the
    seat joins the game (idempotent), and the browser lands on the game page."""
    svc = service()
    try:
        viewer = svc.viewer(game_id, token)
    except ServiceError:
        raise PageError(403, "This invitation link is not valid for this game.") from None
    if viewer.seat is not None:
        svc.join(game_id, token)
    resp = redirect(url_for(".game", game_id=game_id, seated=1), 303)
    set_seat_cookie(resp, game_id, token)
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["Cache-Control"] = "no-store"
    return resp


@pages.post("/games/<game_id>/forget")
def forget(game_id: str) -> Any:
    service().created(game_id)
    resp = redirect(url_for(".game", game_id=game_id), 303)
    forget_seat_cookie(resp, game_id)
    return resp


@pages.post("/games/<game_id>/join")
def join(game_id: str) -> Any:
    entropy = request.form.get("entropy", "")[:200]
    service().join(game_id, seat_token(game_id), entropy)
    return redirect(url_for(".game", game_id=game_id), 303)


# -- play ---------------------------------------------------------------------------------------

@pages.get("/games/<game_id>")
def game(game_id: str) -> Any:
    return layerkeep.annotate(render_template("game.html", **_play_context(game_id, _int_arg("last"))))


@pages.get("/games/<game_id>/live")
def live(game_id: str) -> Any:
    """The play page's board and panel (`#play-root`), for the page's script to put in place
    of its own without reloading the page. With `?last=N&wait=1` it first waits (up to
    `LIVE_WAIT` seconds) for the umpire to judge submission N; with `?panel=0` it answers the
    judgement alone (a move of several steps needs only the last one's panel).

    A wait holds a web thread, so at most `LIVE_WAITERS` wait at once in a process: beyond,
    503 with Retry-After (the page asks again then). Deployments serve the waiting pages from
    `warlog live` (warlog/web/live.py) instead, and the page asks here without waiting."""
    svc = service()
    last = _int_arg("last")
    # The answer is built from one read of the ledger made after the wait: the wait keeps in the
    # view only the summary of its last look, which found the judgement in (a view that kept
    # what it read when the wait began served the panel without the other seat's move).
    with svc.one_view():
        if last is not None and request.args.get("wait") == "1":
            with waiter_slot() as admitted:
                if not admitted:
                    return _busy()
                _wait_for_judgement(game_id, last)
        return _live_answer(svc, game_id, last)


def _live_answer(svc: Any, game_id: str, last: int | None) -> Any:
    if request.args.get("panel") == "0":
        if last is None:
            raise PageError(400, "'last' names the submission whose judgement is asked for")
        move = svc.move(game_id, last, viewer_for(game_id))
        # the game's last seq from the summary the view holds (not `info`, which builds all of the game's doc)
        return jsonify({"status": move["status"], "reasons": move.get("reasons", []),
                        "seq": svc.summary(game_id).last_seq})
    html = render_template("_play.html", **_play_context(game_id, last))
    resp = Response(layerkeep.annotate(html, layerkeep.parse_have(request.headers.get(layerkeep.HAVE_HEADER))),
                    mimetype="text/html")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Vary"] = layerkeep.HAVE_HEADER
    return resp


LIVE_WAIT = 8.0
LIVE_WAITERS = 8  # waits one web process holds at once (deploy/gunicorn.conf.py: half its threads)
BUSY_RETRY = 1  # seconds, the Retry-After of a wait refused for want of a slot
POLL_INLINE = 0.1  # a judgement by this process's worker wakes the wait (warlog.judging.wakeup); another process's is polled
POLL_QUEUE = 0.05  # with RQ, while this process's Redis listener (warlog.judging.wakeup.listen) is down
POLL_HEARD = 1.0  # with RQ, while it listens: a published judgement wakes the wait; the poll is a safety net
_waiting = 0
_waiting_lock = threading.Lock()


@contextmanager
def waiter_slot() -> Iterator[bool]:
    """One of the process's LIVE_WAITERS slots for a wait (True), or none free (False)."""
    global _waiting
    with _waiting_lock:
        admitted = _waiting < LIVE_WAITERS
        if admitted:
            _waiting += 1
    try:
        yield admitted
    finally:
        if admitted:
            with _waiting_lock:
                _waiting -= 1


def _busy() -> Response:
    message = N_("Too many pages are waiting on this server; ask again in a moment.")
    if wants_json():
        resp = jsonify({"error": message})
    else:
        resp = Response(*error_page(503, N_("Busy"), message))
    resp.status_code = 503
    resp.headers["Retry-After"] = str(BUSY_RETRY)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _wait_for_judgement(game_id: str, seq: int) -> None:
    """Block until submission `seq` has its judgement in the ledger (or LIVE_WAIT passes): woken
    by this process's worker as it records it, or by a judgement published on Redis
    (warlog.judging.wakeup), else by polling the ledger. Each look is one read of the game's
    summary (submissions are judged in order: `seq` is judged once the summary's last handled
    submission is at or past it), and the view keeps the last one for the answer, which found the
    judgement in."""
    import time

    svc = service()
    svc.forget_view(game_id)
    mark = wakeup.generation(game_id)  # taken before the first look: a judgement after it ends the wait below
    if _judged_or_gone(svc, game_id, seq):  # inside one_view: the summary is kept for the answer
        return
    if svc.history(game_id).event(seq).type != SUBMITTED:
        return  # nothing to wait for: the answer says what `seq` is
    inline = isinstance(current_app.extensions.get("warlog_queue"), InlineQueue)
    deadline = time.monotonic() + LIVE_WAIT
    while (left := deadline - time.monotonic()) > 0:
        wakeup.wait(game_id, mark, min(POLL_INLINE if inline else POLL_HEARD if wakeup.listening() else POLL_QUEUE,
                                       left))
        mark = wakeup.generation(game_id)  # taken before reading: a judgement after it ends the next wait
        svc.forget_view(game_id)  # what the view read of the game is older than this look
        if _judged_or_gone(svc, game_id, seq):
            return
    svc.forget_view(game_id)  # what the looks read is older than the answer's reads


def _judged_or_gone(svc: Any, game_id: str, seq: int) -> bool:
    """One look at the game's summary: `seq` is judged already, or there is nothing to wait for.
    The look reads, in the same statement, the events the answer reads next (`Warlog.move`: the
    submission and the few after it, where its judgement nearly always is)."""
    svc.prefetch(game_id, seq - 1, seq + JUDGEMENT_NEAR)
    summary = svc.store.summary(game_id)
    return summary is None or not 0 <= seq <= summary.last_seq or seq <= summary.last_handled_seq


def await_judgement(game_id: str, seq: int, since: int, timeout: float) -> None:
    """For a request inside `one_view()` that has just appended submission `seq` (`since`: the
    game's wake-up generation read before the append, warlog.judging.wakeup): return once the
    game's summary says `seq` is judged (submissions are judged in order) or the game has ended,
    or after `timeout` seconds. A look follows each wake-up (or poll interval, as in
    `_wait_for_judgement`) and is one read of the summary, which the view keeps for the answer:
    a move judged by the first wake-up costs one statement here."""
    import time

    svc = service()
    inline = isinstance(current_app.extensions.get("warlog_queue"), InlineQueue)
    deadline = time.monotonic() + timeout
    mark = since
    while True:
        left = deadline - time.monotonic()
        if left > 0:
            wakeup.wait(game_id, mark, min(POLL_INLINE if inline else POLL_HEARD if wakeup.listening() else POLL_QUEUE,
                                           left))
        mark = wakeup.generation(game_id)  # taken before the look: a judgement after it ends the next wait
        svc.forget_view(game_id)
        summary = svc.store.summary(game_id)
        if summary is None or summary.status == "ended" or seq <= summary.last_handled_seq or left <= 0:
            return


def _play_context(game_id: str, last: int | None) -> dict[str, Any]:
    """What the play page and its live panel show, read in one view of the ledger (the recent
    events are read first: the state, the actions and the last judgement then come from them)."""
    with service().one_view():
        return _play_context_in_view(game_id, last)


def _play_context_in_view(game_id: str, last: int | None) -> dict[str, Any]:
    svc = service()
    info = svc.info(game_id)
    recent = svc.store.read(game_id, after=max(-1, info["seq"] - RECENT - 40), upto=info["seq"])
    g = _game(game_id)
    viewer = viewer_for(game_id)
    state_doc = svc.state(game_id, None, viewer, look="the full state (the play page)")
    listing = svc.actions(game_id, viewer)
    full = viewer.director or svc.open_book(game_id)
    docs = _visible(recent, g, viewer, full)
    rows = rp.move_rows(docs, g)[-RECENT:][::-1]
    renderer = renderer_for(g.name)
    targets_of = getattr(renderer, "action_targets", None) or (lambda a: (a.get("unit"), a.get("hex")))
    actions = []
    to_confirm = {c["index"]: c["confirm"] for c in listing.get("confirm", [])}
    for i, a in enumerate(listing["actions"]):
        unit, hx = targets_of(a)  # what a click on the map picks this action by
        label = i18n.tr(action_text(g, a))  # in the page's language: the page's script shows it too
        actions.append({"i": i, "action": a, "label": label, "short": i18n.tr(_short(a, g, renderer, unit, hx)),
                        "type": a.get("type"), "unit": unit, "hex": hx, "json": json.dumps(a, sort_keys=True),
                        "confirm": to_confirm.get(i), "ask": confirm_question(label, to_confirm.get(i))})
    state = state_doc.get("state")
    scene = Scene(state, target_hexes=frozenset(a["hex"] for a in actions if isinstance(a["hex"], str)),
                  target_units=frozenset(a["unit"] for a in actions if isinstance(a["unit"], str)),
                  extra={"seat": viewer.seat, "los": _los_arg()})
    orders = [a for a in actions if a["type"] == "order"]
    result = None
    if last is not None:
        try:
            result = svc.move(game_id, last, viewer, look=None)  # within the full view recorded above
        except ServiceError:
            result = None
    los_pair = _los_arg()
    los_of = getattr(renderer, "los_report", None)
    los = los_of(state, *los_pair) if (los_of and los_pair) else None
    prompt = listing["prompt"]
    if not listing["actions"] and info["status"] == "active" and prompt.startswith("waiting for "):
        prompt = "waiting for " + (", ".join(rp.seat_name(s, g) for s in info["active_seats"]) or "nobody")
    prompt = text_words(g, prompt)
    return dict(
        info=info, game=g, viewer=viewer, state_doc=state_doc, listing=listing, actions=actions, prompt=prompt,
        groups=_group_actions([a for a in actions if a["type"] != "order"], getattr(renderer, "action_groups", {})),
        orders=_order_choices(orders, state, viewer.seat), orders_now=_orders_now(state, viewer.seat),
        standing=_standing_panel(g, state, viewer.seat, info, renderer), los=los, los_tool=los_of is not None, rows=rows, board=renderer.board(scene),
        legend=renderer.legend(),
        planner=renderer.planner(state) if listing["actions"] else None, result=result,
        my_turn=viewer.seat is not None and viewer.seat in info["active_seats"], looks=looks_at_hidden(game_id, LOOKS_RECENT),
        joined=viewer.seat in info["joined"] if viewer.seat else True,
        seated=request.args.get("seated") == "1", key=uuid.uuid4().hex)


def _order_words(order: str) -> str:
    """A Lock 'n Load standing order in words ("within2" → "fire at enemies moving within 2 hexes")."""
    from warlog.render.lock_n_load.words import order_words

    return order_words(order)


def _order_choices(orders: list[dict[str, Any]], state: Any, seat: str | None) -> list[dict[str, Any]]:
    """Standing orders (LnL, ours) as one choice per hex: the hex, the seat's units in it, its
    order now, and the orders it may get (the page shows them as a select grouped by hex)."""
    st = state or {}
    units = st.get("units") or {}
    now = ((st.get("orders") or {}).get(seat) or {}) if seat else {}
    by: dict[str, dict[str, Any]] = {}
    for a in orders:
        h = str(a["action"].get("hex"))
        grp = by.setdefault(h, {"hex": h, "now": now.get(h, "ask"), "now_words": _order_words(now.get(h, "ask")),
                                "actions": [],
                                "units": sorted(u for u, r in units.items() if r.get("at") == h and r.get("side") == seat)})
        grp["actions"].append(a)
    return [by[h] for h in sorted(by)]


def _orders_now(state: Any, seat: str | None) -> list[dict[str, str]]:
    """The seat's own Lock 'n Load standing orders in words, hex by hex ("1C3: fire at enemies
    moving within 2 hexes"): the page lists them as it lists the other games' standing answers."""
    now = ((state or {}).get("orders") or {}).get(seat) if seat else None
    if not isinstance(now, dict):
        return []
    return [{"hex": h, "words": _order_words(o)} for h, o in sorted(now.items())
            if isinstance(o, str) and o not in ("ask", "hidden")]


def _may_record_standing(g: Game, state: Any, seat: str, info: dict[str, Any]) -> bool:
    """Whether the seat may record a standing answer now (a move: its turn, and not in a phase that
    takes none, as Vietnam Battles' secret set-up), asked of the rules on the seat's own view."""
    if info["status"] != "active" or seat not in info["active_seats"] or not isinstance(state, dict):
        return False
    kind, k = next(iter(standing_words.kinds(g).items()))
    try:
        return bool(g.is_legal(state, seat, {"type": "standing", "kind": kind, "answer": k.answers[0], "when": []}))
    except Exception:  # a view the rules cannot judge from: the form is offered, the judge decides
        return True


def _standing_panel(g: Game, state: Any, seat: str | None, info: dict[str, Any], renderer: Any
                    ) -> dict[str, Any] | None:
    """Standing answers (ours; AoB and VB from rules version 2): the seat's own in words, and the
    form to set, change or take one back (a move: only while the seat is to act). Another seat's
    are face-down until the game ends; then every seat's is shown. None: the game takes none."""
    if not standing_words.kinds(g):  # UP FRONT's and Lock 'n Load's: given from the listing, shown in words
        mine = ((state or {}).get("standing") or {}).get(seat) if seat else None
        lines = [standing_words.describe(g.name, kind, str(v.get("answer", "?")), v.get("when") or [],
                                         getattr(renderer, "name_of", None))
                 for kind, v in sorted(mine.items()) if isinstance(v, dict)] if isinstance(mine, dict) else []
        for line in lines:  # UP FRONT's conditional turn (CORE 11.2): its actions, turn by turn
            turns = (mine or {}).get(line.kind, {}).get("turns") if line.kind == "turn" else None
            if isinstance(turns, list):
                line.detail = ["; ".join(g.describe_action(a) for a in one if isinstance(a, dict))
                               for one in turns if isinstance(one, list)]
        return {"plain": lines} if lines else None
    name_of = getattr(renderer, "name_of", None)
    if info["status"] == "ended":
        shown = [{"seat": s, "answers": standing_words.of_seat(g, state, s, name_of)}
                 for s in sorted((state or {}).get("standing") or {})]
        return {"ended": True, "seats": [x for x in shown if x["answers"]]}
    if seat is None:
        return None
    return {"ended": False, "mine": standing_words.of_seat(g, state, seat, name_of),
            "form": standing_words.form(g), "can_set": _may_record_standing(g, state, seat, info),
            "max": MAX_STANDING_CONDITIONS, "ops": list(standing_words.OP_WORDS.items()), "ask": standing_words.ASK_WORDS}


def _los_arg() -> tuple[str, str] | None:
    """`?los=1B4,1D4`: two hexes whose line of sight the board draws (a renderer that knows
    none ignores it; one that does ignores hexes it has not)."""
    parts = request.args.get("los", "").split(",")
    if len(parts) != 2 or not all(0 < len(p) <= 12 for p in parts):
        return None
    return parts[0], parts[1]


def _short(a: dict[str, Any], g: Game, renderer: Any, unit: Any, hx: Any) -> str:
    """A button's text inside its group: the hex or unit it names ("Brussels (1005)")."""
    name_of = getattr(renderer, "name_of", None)
    if name_of is None or (unit is None and hx is None):
        return action_text(g, a)
    parts = [name_of("unit", unit)] if isinstance(unit, str) else []
    if isinstance(hx, str):
        parts.append(name_of("hex", hx))
    text = " → ".join(i18n.tr(p) for p in parts)
    return text + (" " + i18n.tr("(tank battle)") if a.get("tank_battle") else "")


ACTION_GROUPS = {
    "select": "Select a unit", "place": "Place it in", "unplace": "Pick up again", "move": "Move one hex to",
    "fly": "Fly a mission", "unfly": "Keep at base", "resolve_battle": "Resolve a battle",
    "choose_fighter": "Fighting unit", "choose_bomber": "Bomber support", "assign_hit": "Excess hit to",
    "retreat": "Retreat to", "withdraw": "Withdraw", "pursuit_toggle": "Pursuing group",
    "pursue": "Pursue into", "attack": "Attack",
}


def _group_actions(actions: list[dict[str, Any]], titles: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Legal actions grouped by type, in the order the rules listed them; the single
    actions (end the phase, standard set-up, no bomber…) come first as plain buttons.
    `titles` are the renderer's own group titles for its game's action types."""
    groups: dict[str, dict[str, Any]] = {}
    for a in actions:
        kind = a["type"]
        title = (titles or {}).get(kind) or ACTION_GROUPS.get(kind, "")
        key = kind if title else "_single"
        grp = groups.setdefault(key, {"type": key, "title": title, "actions": []})
        grp["actions"].append(a)
    for grp in groups.values():  # two buttons of a group never read alike: those that would say it all
        shorts = [a["short"] for a in grp["actions"] if "short" in a]
        for a in grp["actions"]:
            if "short" in a and shorts.count(a["short"]) > 1:
                a["short"] = a.get("label", a["short"])
    singles = groups.pop("_single", None)
    return ([singles] if singles else []) + list(groups.values())


@pages.post("/games/<game_id>/act")
def act(game_id: str) -> Any:
    raw = request.form.get("action", "")
    try:
        action = parse_json(raw, "the action")
    except ValueError:
        raise PageError(400, "The action is not readable; choose one from the list on the game page.") from None
    try:
        expected = int(request.form.get("expected_seq", ""))
    except ValueError:
        raise PageError(400, "The form lacks the position it was made at; reload the game page.") from None
    key = (request.form.get("key") or uuid.uuid4().hex)[:100]
    if request.form.get("confirmed") != "1":
        why = _needs_confirming(game_id, action)
        if why and wants_json():
            return jsonify({"error": f"confirm first: this {why}", "confirm": why}), 409
        if why:  # ends the game, or a whole phase with units still able to act: asked first
            return render_template("act_confirm.html", game_id=game_id, why=why, label=action_text(_game(game_id), action),
                                   fields=[("action", raw), ("expected_seq", str(expected)), ("key", key)]), 200
    out = service().submit_move(game_id, seat_token(game_id), action, expected, key)
    if wants_json():
        return jsonify(out), 202
    return redirect(url_for(".game", game_id=game_id, last=out["seq"]), 303)


@pages.post("/games/<game_id>/standing")
def set_standing(game_id: str) -> Any:
    """The play page's standing-answer form: the answer (and its conditions) built into the same
    move the API takes, `{"type": "standing", ...}`, checked first so a bad one is a clear 400."""
    g = _game(game_id)
    if not standing_words.kinds(g):
        raise PageError(400, "This game takes no standing answers.")
    try:
        action = standing_words.action_from_form(g, request.form)
    except IllegalAction as err:
        raise PageError(400, f"Not a standing answer this game takes: {err}") from None
    try:
        expected = int(request.form.get("expected_seq", ""))
    except ValueError:
        raise PageError(400, "The form lacks the position it was made at; reload the game page.") from None
    key = (request.form.get("key") or uuid.uuid4().hex)[:100]
    out = service().submit_move(game_id, seat_token(game_id), action, expected, key)
    if wants_json():
        return jsonify(out), 202
    return redirect(url_for(".game", game_id=game_id, last=out["seq"]), 303)


@pages.post("/games/<game_id>/moves/<int:seq>/take-back")
def take_back(game_id: str, seq: int) -> Any:
    """The seat's own move, not judged yet, taken back (`GameService.take_back`)."""
    out = service().take_back(game_id, seat_token(game_id), seq)
    if wants_json():
        return jsonify(out)
    return redirect(url_for(".game", game_id=game_id, last=seq), 303)


def confirm_question(label: str, why: str | None) -> str | None:
    """What the page asks before it sends an action that ends the game or a whole phase: the
    action and its effect in one question, in the page's language ("End the movement? This ends
    the German movement while 3 units could still move (AoB 5.1).")."""
    if not why:
        return None
    said = i18n.tr(label)
    return f"{said[:1].upper()}{said[1:]}? " + str(gettext("This %(why)s.", why=i18n.tr(why)))


def _needs_confirming(game_id: str, action: Any) -> str | None:
    """Why the seat's listing marks `action` for confirmation (`GameService.actions`), if it does."""
    if type(_game(game_id)).confirm is Game.confirm:  # a game that marks nothing: no listing computed
        return None
    listing = service().actions(game_id, viewer_for(game_id))
    return next((c["confirm"] for c in listing.get("confirm", []) if same_json(c["action"], action)), None)


@pages.get("/games/<game_id>/reach/<unit>")
def plan(game_id: str, unit: str) -> Any:
    """JSON for the path planner: where `unit` can go after the hexes in `?path=a,b`."""
    svc = service()
    viewer = viewer_for(game_id)
    info = svc.info(game_id)
    if viewer.seat is None or viewer.seat not in info["active_seats"]:
        return jsonify({"error": "only the seat to act may plan a move"}), 403
    g = _game(game_id)
    state = svc.state(game_id, None, viewer)["state"]
    path = [h for h in request.args.get("path", "").split(",") if h]
    try:
        found = reach(g, state, viewer.seat, unit, path)
    except PlanError as err:
        return jsonify({"error": str(err)}), 400
    return jsonify({**found.to_json(), "seq": info["seq"]})


# -- replay -----------------------------------------------------------------------------------------

VIEWS = ("public", "seat", "full")


def looks_at_hidden(game_id: str, recent: int | None = None) -> list[dict[str, Any]]:
    """The recorded looks at what the rules hide in this game (`hidden_viewed`), newest first,
    each with its words: all of them (the audit page), or those among the last `recent` events
    (the play page, which links to the audit for the rest)."""
    svc = service()
    if recent is None:
        evs: Any = svc.store.events_of_types(game_id, (HIDDEN_VIEWED,))
    else:
        g = _game(game_id)
        if not (g.hidden_information or g.keeps_secrets):
            return []
        evs = svc.store.read(game_id, after=max(-1, svc.store.last_seq(game_id) - recent))
    return [{"seq": ev.seq, "at": ev.recorded_at[:19].replace("T", " "), "text": rp.look_text(ev.payload),
             **ev.payload} for ev in evs if ev.type == HIDDEN_VIEWED][::-1]


def _view_for(viewer: Viewer, ended: bool) -> tuple[str, Viewer, list[str], dict[str, str]]:
    """The chosen viewpoint, the viewer it reads as, the viewpoints this browser may pick, and
    the query arguments that keep the choice in links (none for the default)."""
    allowed = ["public"] + (["seat"] if viewer.seat else []) + (["full"] if ended or viewer.director else [])
    default = "full" if "full" in allowed else "seat" if viewer.seat else "public"
    wanted = request.args.get("view") or default
    if wanted not in VIEWS:
        raise PageError(400, f"The viewpoint is one of {', '.join(VIEWS)}.")
    if wanted not in allowed:
        raise PageError(403, "That viewpoint opens when the game is over (or to the director); "
                             "a seat sees its own view, a spectator the public one.")
    as_viewer = {"public": SPECTATOR, "seat": viewer,
                 "full": viewer if viewer.director else Viewer(None, director=True)}[wanted]
    return wanted, as_viewer, allowed, ({} if wanted == default else {"view": wanted})


@pages.get("/games/<game_id>/replay")
def replay_latest(game_id: str) -> Any:
    """The last step, or `?step=N` (the slider's form without script)."""
    info = service().info(game_id)
    step = _int_arg("step", info["seq"])
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k == "view"}
    return redirect(url_for(".replay", game_id=game_id, step=step, **args), 302)


@dataclass
class _Step:
    """A replay step as the chosen viewpoint sees it (the page and its PNG share it)."""

    info: dict[str, Any]
    game: Game
    view: str
    allowed: list[str]
    args: dict[str, Any]
    after: dict[str, Any]
    docs: list[dict[str, Any]]
    current: dict[str, Any] | None
    renderer: Any
    board: Any
    viewer: str


def _step(game_id: str, step: int, look: str = "the full state (the replay page)") -> _Step:
    svc = service()
    info = svc.info(game_id)
    g = _game(game_id)
    last = info["seq"]
    if not 0 <= step <= last:
        raise PageError(404, f"This game has steps 0 to {last}; there is no step {step}.")
    book = svc.open_book(game_id)
    view, as_viewer, allowed, view_args = _view_for(viewer_for(game_id), book)
    full = as_viewer.director or book
    after = svc.state(game_id, step, as_viewer, look=look)
    before = svc.state(game_id, step - 1, as_viewer, look=None) if step > 0 else {"state": None}
    window = svc.store.read(game_id, after=max(-1, step - WINDOW - 30), upto=min(last, step + WINDOW))
    docs = _visible(window, g, as_viewer, full)
    current = next((d for d in docs if d["seq"] == step), None)
    renderer = renderer_for(g.name)
    hl = rp.step_highlights(renderer, current, before.get("state"), after.get("state"), docs, step)
    board = renderer.board(Scene(after.get("state"), highlights=hl, caption=f"Step {step} of {last}"))
    return _Step(info, g, view, allowed, dict(view_args), after, docs, current, renderer, board, as_viewer.label)


@pages.get("/games/<game_id>/replay/<int:step>")
def replay(game_id: str, step: int) -> Any:
    st = _step(game_id, step)
    info, g, docs, last = st.info, st.game, st.docs, st.info["seq"]
    shown = [d for d in docs if step - WINDOW <= d["seq"] <= step + WINDOW]
    rows = rp.move_rows(shown, g, docs)
    positions = [d["seq"] for d in docs if d["type"] in rp.POSITIONS]
    prev = max([p for p in positions if p < step], default=max(0, step - 1))
    nxt = min([p for p in positions if p > step], default=min(last, step + 1))
    current = st.current
    return render_template(
        "replay.html", info=info, game=g, step=step, last=last, prev=prev, next=nxt, view=st.view,
        allowed=st.allowed, args=st.args, board=st.board, legend=st.renderer.legend(), rows=rows,
        current=rp.event_row(current, g, {d["seq"]: d for d in docs if d["type"] == SUBMITTED}) if current else None,
        phase=st.after.get("phase"), active=st.after.get("active_seats", []),
        png=None if isinstance(st.renderer, TextRenderer) else url_for(".replay_png", game_id=game_id, step=step,
                                                                         **st.args),
        permalink=url_for(".replay", game_id=game_id, step=step, _external=True, **st.args),
        may_fork=service().open_book(game_id) or viewer_for(game_id).director)


_PNGS: OrderedDict[tuple[str, int, str, int], bytes] = OrderedDict()  # drawing one takes a second or two
_FILES: OrderedDict[tuple[str, int, str], str] = OrderedDict()  # replay files, by game and last event
_PNG_LOCK = threading.Lock()


@pages.get("/games/<game_id>/replay/<int:step>.png")
def replay_png(game_id: str, step: int) -> Any:
    """The board at a step as a PNG (for a forum post): the replay page's own SVG, drawn by
    Cairo, with the replay page's viewpoints and their rules (hidden information stays hidden)."""
    st = _step(game_id, step, "the full state (the board picture, PNG)")
    if isinstance(st.renderer, TextRenderer):
        raise PageError(404, f"{st.game.title} has no board to draw; its replay shows the state as text.")
    key = (game_id, step, st.viewer, st.info["seq"])  # the state at a step never changes; its caption names the last
    with _PNG_LOCK:
        png = _PNGS.get(key)
    if png is None:
        png = board_png(str(st.board))
        with _PNG_LOCK:
            _PNGS[key] = png
            while len(_PNGS) > 32:
                _PNGS.popitem(last=False)
    resp = Response(png, mimetype="image/png")
    resp.headers["Content-Disposition"] = f'inline; filename="warlog-{game_id}-step-{step}.png"'
    shared = st.info["status"] == "ended" and private_reason(service(), game_id) is None  # a round's game: never
    resp.headers["Cache-Control"] = "public, max-age=86400" if shared else "no-store"
    return resp


@pages.get("/games/<game_id>/replay.html")
def replay_file(game_id: str) -> Any:
    """The whole replay as one self-contained HTML file to send (see `warlog.games.share`): public
    information only until the game has ended, whoever asks."""
    svc = service()
    svc.created(game_id)
    key = (game_id, svc.store.last_seq(game_id), i18n.lang())  # kept until it moves on, per language
    with _PNG_LOCK:
        html = _FILES.get(key)
    if html is None:
        html = share.build(list(svc.store.iter_events(game_id)), svc.open_book(game_id)).html
        with _PNG_LOCK:
            _FILES[key] = html
            while len(_FILES) > 4:
                _FILES.popitem(last=False)
    return Response(html, mimetype="text/html", headers={
        "Content-Disposition": f'attachment; filename="warlog-{game_id}-replay.html"', "Cache-Control": "no-store"})


@pages.get("/favicon.ico")
def favicon() -> Any:
    return redirect(url_for("static", filename="favicon.svg"), 301)


# -- audit and export --------------------------------------------------------------------------------

@pages.get("/games/<game_id>/audit")
def audit(game_id: str) -> Any:
    svc = service()
    info = svc.info(game_id)
    g = _game(game_id)
    viewer = viewer_for(game_id)
    full = viewer.director or svc.open_book(game_id)
    if viewer.director:
        svc.record_look(game_id, viewer, info["seq"], "every move and die (the audit page)")

    hides = not full and g.hidden_information

    def describe(sub: Event) -> str:
        if "ruling" in sub.payload:
            return rp.describe_ruling(sub.payload["ruling"])
        if "action" not in sub.payload or (hides and sub.seat != viewer.seat):
            return f"a move by {rp.seat_name(sub.seat, g)} (hidden until the game ends)"
        return action_text(g, sub.payload["action"])

    owner = getattr(renderer_for(g.name), "die_owner", None)
    shown = None if full else (lambda ev: redact_payload(ev, g, viewer))  # rulings as this viewer may see them
    report = audit_mod.AUDITS.build(svc.store, game_id, f"{svc.store.display_url()} {game_id}", describe,
                                    viewer.seat, full, owner, shown)
    charts = [(label, test, audit_mod.histogram_svg(test, label)) for label, test in report.fairness]
    withheld = round_withheld(svc.created(game_id).payload) if not report.seed else None  # ledger.dice step 9
    return render_template("audit.html", info=info, game=g, report=report, charts=charts, can_export=full,
                           viewer=viewer, export_name=f"warlog-{game_id}.jsonl", looks=looks_at_hidden(game_id),
                           round_withheld=withheld,
                           umpires=[{"seq": e.seq, "seat": e.seat, "text": e.payload.get("text", "")}
                                    for e in svc.store.events_of_types(game_id, (UMPIRE_INVITED,))])


@pages.get("/games/<game_id>/export.jsonl")
def export(game_id: str) -> Any:
    svc = service()
    lines = svc.export(game_id, viewer_for(game_id))
    return Response(stream_with_context(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="warlog-{game_id}.jsonl"'})
