"""Tournaments on the web: the JSON API under /api/v1/tournaments and the pages /tournaments,
/tournaments/<id> (public: standings, rounds and pairings, crosstable, each game's status),
registration, and the director's desk (/tournaments/<id>/desk: games with status, overdue,
disputes, the adjudication queue with each game's victory situation, forms for awards,
extensions, rulings and re-pairing). Acting needs a signed-in player (warlog.players); the
director is the player who created the tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup
from marshmallow import Schema, ValidationError

from rules import get_game
from validators import tournaments as schemas
from warlog.boundary import json_object
from warlog.pageutil import PageError, check_csrf, error_page, finish, ruling_from_form
from warlog.players.store import PlayerError
from warlog.players.web import current_player
from warlog.service import Forbidden, ServiceError, Unprocessable
from warlog.tournaments.bundle import bundle_lines
from warlog.tournaments.model import Tournament
from warlog.tournaments.pairing import rounds_planned
from warlog.tournaments.ratings import ratings
from warlog.tournaments.service import Tournaments
from warlog.tournaments.standings import tiebreak_names

tournaments_api = Blueprint("tournaments_api", __name__, url_prefix="/api/v1/tournaments")
tournaments_pages = Blueprint("tournaments_pages", __name__)
PAGE = 25


def svc() -> Tournaments:
    found: Tournaments = current_app.extensions["warlog_tournaments"]
    return found


def _load(schema: Schema) -> dict[str, Any]:
    try:
        loaded: dict[str, Any] = schema.load(json_object(ServiceError))
    except ValidationError as err:
        raise Unprocessable("the request does not fit its schema", fields=err.messages) from None
    return loaded


# -- documents --------------------------------------------------------------------------------

def summary_doc(t: Tournament) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "game": t.game, "scenario": t.scenario, "options": t.options,
            "format": t.format, "points": t.points, "status": t.status, "director": t.director,
            "entrants": len(t.active_entrants()), "round": t.current_round, "rounds": rounds_planned(t),
            "seed_commitment": t.seed_commitment, "seed": t.seed, "created_at": t.created_at, "seq": t.last_seq}


def game_rows(t: Tournament, status: dict[str, tuple[str, list[str]]] | None = None,
              only: int | None = None) -> list[dict[str, Any]]:
    """Every game of the tournament (or of round `only`) with its status, who is to move and
    their deadline (two queries in all, whatever the number of games)."""
    status = status if status is not None else svc().store.game_status(t.id)
    deadlines = _deadlines(t.id)
    rows = []
    for number, p in t.games():
        if only is not None and number != only:
            continue
        s, seats = status.get(p.game_id or "", ("missing", []))
        res = t.results.get(p.game_id or "")
        active = seats if s == "active" else []
        due = [deadlines[(p.game_id, seat)] for seat in active if (p.game_id, seat) in deadlines]
        rows.append({"round": number, "table": p.table, "pool": p.pool, "game_id": p.game_id,
                     "seats": {role: {"player_id": pid, "name": t.name_of(pid)} for role, pid in p.seats.items()},
                     "status": s, "to_move": [p.seats.get(r, r) for r in active],
                     "result": None if res is None else {"winner": res.winner, "points": res.points, "how": res.how,
                                                         "score": res.score},
                     "deadline": due[0] if due else None})
    return rows


def _deadlines(tid: str) -> dict[tuple[str, str], dict[str, Any]]:
    clock = current_app.extensions.get("warlog_clock")
    if clock is None:
        return {}
    now = clock.now()
    return {(d.game_id, d.seat): d.to_json(now) for d in clock.deadlines(tid, status=None) if d.status != "cleared"}


def tournament_doc(t: Tournament, status: dict[str, tuple[str, list[str]]] | None = None,
                   only: int | None = None) -> dict[str, Any]:
    """The whole tournament; `only` limits the games listed to that round."""
    _lines, table = svc().table(t)
    return {**summary_doc(t),
            "entrants_list": [{"player_id": e.player_id, "name": e.display_name, "withdrawn": e.withdrawn}
                              for e in t.entrants.values()],
            "rounds_list": [{"round": r.number, "byes": r.byes, "dice": r.dice,
                             **{k: v for k, v in r.extra.items()}} for r in sorted(t.rounds.values(),
                                                                                    key=lambda r: r.number)],
            "games": game_rows(t, status, only), "standings": _standings_json(t),
            "tiebreaks": tiebreak_names(t), "crosstable": table,
            "disputes": list(t.disputes.values()), "rulings": t.rulings, "extensions": t.extensions,
            "timeouts": t.timeouts,
            "ended": t.ended, "champion": champion(t)}


def champion(t: Tournament) -> str | None:
    """The playoff's winner once its final has a result."""
    from warlog.tournaments.pairing import playoff_advance

    last = t.rounds.get(t.current_round)
    if t.kind != "pools" or last is None or "playoff" not in last.extra or not t.round_complete(last.number):
        return None
    through = playoff_advance(t, last.number)
    return through[0] if len(through) == 1 else None


def _page(cursor: str | None) -> tuple[list[dict[str, Any]], str | None]:
    before = None
    if cursor:
        at, _, tid = cursor.partition("~")
        if not at or not tid:
            raise ServiceError("bad cursor")
        before = (at, tid)
    rows = svc().store.page(PAGE + 1, before)
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    nxt = f"{rows[-1]['created_at']}~{rows[-1]['id']}" if more and rows else None
    return rows, nxt


# -- API -------------------------------------------------------------------------------------

@tournaments_api.errorhandler(ServiceError)
def _api_error(err: ServiceError) -> tuple[Response, int]:
    return jsonify({"error": err.message, **err.detail}), err.status


@tournaments_api.errorhandler(PlayerError)
def _api_player_error(err: PlayerError) -> tuple[Response, int]:
    return jsonify({"error": str(err)}), err.status


@tournaments_api.errorhandler(Exception)
def _api_unexpected(err: Exception) -> tuple[Response, int]:
    from werkzeug.exceptions import HTTPException

    if isinstance(err, HTTPException):
        return jsonify({"error": err.description or err.name}), err.code or 500
    current_app.logger.exception("unexpected error")
    return jsonify({"error": "internal error; nothing was recorded by this request"}), 500


@tournaments_api.get("")
def api_list() -> Response:
    rows, nxt = _page(_query(schemas.ListQuerySchema())["cursor"])
    return jsonify({"tournaments": rows, "next_cursor": nxt})


def _query(schema: Schema) -> dict[str, Any]:
    """The query, loaded by the schema the OpenAPI document shows for it (validators.tournaments)."""
    try:
        loaded: dict[str, Any] = schema.load({k: v for k, v in request.args.items() if v != ""})
    except ValidationError as err:
        raise ServiceError("bad query parameters", fields=err.messages) from None
    return loaded


@tournaments_api.post("")
def api_create() -> tuple[Response, int]:
    data = _load(schemas.CreateTournamentSchema())
    t = svc().create(current_player(), data["name"], data["game"], data["scenario"], data["options"],
                     data["format"], data["points"], data["time_control"])
    return jsonify(tournament_doc(t)), 201


def _current(tid: str, only: Callable[[Tournament], int | None] = lambda t: None
             ) -> tuple[Tournament, dict[str, tuple[str, list[str]]]]:
    """The tournament with every ended game's result recorded, and its games' status (one read):
    of every game while some have no result yet (sync needs them), else of round `only(t)`
    alone when it names one (a page shows one round)."""
    t = svc().get(tid)  # 404 first
    if t.ended is not None or len(t.results) == len(t.games()):
        return t, svc().store.game_status(tid, only(t))
    status = svc().store.game_status(tid)
    return svc().sync(tid, status), status


def standings_html(t: Tournament) -> Markup:
    """The page's standings and crosstable, rendered once per chain head of the tournament (they
    are derived from the stream alone and show nothing private)."""
    base = url_for("players_pages.profile", player_id="x")[:-1]

    def build() -> Markup:
        lines, table = svc().table(t)
        doc = {"standings": _standings_json(t), "tiebreaks": tiebreak_names(t), "crosstable": table}
        return Markup(render_template("_tournament_standings.html", t=t, doc=doc, profile_base=base))

    html: Markup = svc().derived(t, "standings_html " + base, build)
    return html


def _standings_json(t: Tournament) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = svc().derived(t, "standings_json",
                                               lambda: [line.to_json() for line in svc().table(t)[0]])
    return rows


@tournaments_api.get("/<tid>")
def api_get(tid: str) -> Response:
    number = _query(schemas.TournamentQuerySchema())["round"]
    return jsonify(tournament_doc(*_current(tid, lambda t: number), only=number))


@tournaments_api.post("/<tid>/register")
def api_register(tid: str) -> Response:
    return jsonify(summary_doc(svc().register(tid, current_player())))


@tournaments_api.post("/<tid>/withdraw")
def api_withdraw(tid: str) -> Response:
    data = _load(schemas.WithdrawSchema())
    me = current_player()
    pid = data["player_id"] or (me.id if me else "")
    return jsonify(summary_doc(svc().withdraw(tid, me, pid, data["reason"])))


@tournaments_api.post("/<tid>/rounds")
def api_pair(tid: str) -> tuple[Response, int]:
    t = svc().pair_next_round(tid, current_player())
    return jsonify(tournament_doc(t)), 201


@tournaments_api.post("/<tid>/rounds/<int:number>/repair")
def api_repair(tid: str, number: int) -> Response:
    data = _load(schemas.RepairSchema())
    t = svc().repair(tid, current_player(), number, data["pairings"], data["byes"], data["reason"])
    return jsonify(tournament_doc(t))


@tournaments_api.post("/<tid>/games/<game_id>/adjudicate")
def api_adjudicate(tid: str, game_id: str) -> tuple[Response, int]:
    data = _load(schemas.AdjudicateSchema())
    out = svc().adjudicate(tid, current_player(), game_id, data["decision"], data["winner"], data["reason"])
    return jsonify(out), 202


@tournaments_api.post("/<tid>/games/<game_id>/extend")
def api_extend(tid: str, game_id: str) -> Response:
    data = _load(schemas.ExtendSchema())
    t = svc().extend(tid, current_player(), game_id, data["player_id"], data["days"], data["reason"])
    return jsonify(summary_doc(t))


@tournaments_api.post("/<tid>/games/<game_id>/rulings")
def api_rule(tid: str, game_id: str) -> tuple[Response, int]:
    data = _load(schemas.GameRulingSchema())
    t, ruled = svc().rule(tid, current_player(), game_id, data["ruling"], data["text"])
    return jsonify({"event": t.last_seq, "game_ruling_seq": ruled}), 202


@tournaments_api.post("/<tid>/disputes")
def api_dispute(tid: str) -> tuple[Response, int]:
    data = _load(schemas.DisputeSchema())
    t = svc().raise_dispute(tid, current_player(), data["game_id"], data["seq"], data["text"])
    return jsonify({"dispute": t.last_seq}), 201


@tournaments_api.post("/<tid>/disputes/<int:dispute>")
def api_answer(tid: str, dispute: int) -> Response:
    data = _load(schemas.AnswerSchema())
    t = svc().answer_dispute(tid, current_player(), dispute, data["decision"], data["text"], data["ruling"])
    return jsonify(t.disputes[dispute])


@tournaments_api.post("/<tid>/end")
def api_end(tid: str) -> Response:
    return jsonify(tournament_doc(svc().finish(tid, current_player())))


@tournaments_api.get("/<tid>/export")
def api_export(tid: str) -> Response:
    """The bundle holds every game's full ledger (hidden information included), so it opens when
    the tournament and every game in it have ended; the director may export it at any time."""
    t = svc().get(tid)
    status = svc().store.game_status(tid)
    me = current_player()
    if (t.ended is None or any(s != "ended" for s, _seats in status.values())) and (me is None or me.id != t.director):
        raise Forbidden("the bundle opens when the tournament and all its games have ended "
                        "(the director may export it at any time)")
    lines = bundle_lines(svc().warlog.store, svc().store, tid)
    return Response(lines, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{tid}.bundle.jsonl"'})


@tournaments_api.get("/ratings")
def api_ratings() -> Response:
    return jsonify({"ratings": ratings(svc())})


# -- pages -----------------------------------------------------------------------------------

@tournaments_pages.before_request
def _guard() -> None:
    if request.method == "POST":
        check_csrf()


@tournaments_pages.after_request
def _after(resp: Response) -> Response:
    return finish(resp)


@tournaments_pages.errorhandler(ServiceError)
def _page_service_error(err: ServiceError) -> Any:
    return error_page(err.status, "Not possible", err.message)


@tournaments_pages.errorhandler(PageError)
def _page_error(err: PageError) -> Any:
    return error_page(err.status, err.title, err.message)


@tournaments_pages.errorhandler(PlayerError)
def _page_player_error(err: PlayerError) -> Any:
    return error_page(err.status, "Not possible", str(err))


@tournaments_pages.errorhandler(Exception)
def _page_unexpected(err: Exception) -> Any:
    from werkzeug.exceptions import HTTPException

    if isinstance(err, HTTPException):
        return error_page(err.code or 500, err.name, err.description or err.name)
    current_app.logger.exception("unexpected error on a tournament page")
    return error_page(500, "Something went wrong", "Nothing was recorded by this request; try again.")


def _games_catalogue() -> list[dict[str, Any]]:
    from rules import all_games

    return [{"name": g.name, "title": g.title, "scenarios": list(g.scenarios()), "solitaire": g.solitaire}
            for g in all_games()]


@tournaments_pages.get("/tournaments")
def list_page() -> Any:
    rows, nxt = _page(request.args.get("cursor"))
    return render_template("tournaments.html", rows=rows, next_cursor=nxt, games=_games_catalogue(),
                           me=current_player())


@tournaments_pages.post("/tournaments")
def create_page() -> Any:
    f = request.form
    fmt = {"kind": f.get("kind", "swiss"), "rounds": int(f.get("rounds") or 1) if (f.get("rounds") or "1").isdigit()
           else 0, "pools": int(f.get("pools") or 1) if (f.get("pools") or "1").isdigit() else 0,
           "playoff": int(f.get("playoff") or 0) if (f.get("playoff") or "0").isdigit() else -1,
           "engine": f.get("engine") or "auto"}
    game, _, scenario = (f.get("game") or "").partition(":")
    options = None
    days = f.get("days", "0")
    if not days.isdigit():
        raise PageError(400, "Days per move is a whole number.")
    control = {"days": int(days), "policy": f.get("policy", "notify_director"),
               **({"bank_days": 3} if f.get("policy") == "extend" else {})} if int(days) else None
    try:
        t = svc().create(current_player(), f.get("name", "").strip() or "Tournament", game, scenario or None,
                         options, fmt, None, control)
    except ServiceError as err:
        raise PageError(err.status, err.message) from None
    return redirect(url_for("tournaments_pages.show", tid=t.id), code=303)


@tournaments_pages.get("/tournaments/<tid>")
def show(tid: str) -> Any:
    shown = request.args.get("round", "")

    def shown_round_of(t: Tournament) -> int:
        return int(shown) if shown.isdigit() and int(shown) in t.rounds else t.current_round

    t, status = _current(tid, shown_round_of)
    me = current_player()
    shown_round = shown_round_of(t)
    doc = tournament_doc(t, status, shown_round)
    return render_template("tournament.html", t=t, doc=doc, me=me, is_director=bool(me and me.id == t.director),
                           shown_round=shown_round, standings_html=standings_html(t),
                           entered=bool(me and me.id in t.entrants and not t.entrants[me.id].withdrawn))


@tournaments_pages.post("/tournaments/<tid>/register")
def register_page(tid: str) -> Any:
    me = current_player()
    if me is None:
        return redirect(url_for("players_pages.signin"), code=303)
    svc().register(tid, me)
    return redirect(url_for("tournaments_pages.show", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/withdraw")
def withdraw_page(tid: str) -> Any:
    me = current_player()
    svc().withdraw(tid, me, request.form.get("player_id") or (me.id if me else ""), request.form.get("reason", ""))
    return redirect(url_for("tournaments_pages.show", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/dispute")
def dispute_page(tid: str) -> Any:
    f = request.form
    seq = f.get("seq", "")
    if not seq.isdigit():
        raise PageError(400, "Name the event (its number) you dispute.")
    svc().raise_dispute(tid, current_player(), f.get("game_id", ""), int(seq), f.get("text", ""))
    return redirect(url_for("tournaments_pages.show", tid=tid, disputed=1), code=303)


def _director_page(tid: str) -> Tournament:
    t = svc().sync(tid)
    me = current_player()
    if me is None or me.id != t.director:
        raise PageError(403, "The desk is the tournament director's. Sign in as the director.")
    return t


@tournaments_pages.get("/tournaments/<tid>/desk")
def desk(tid: str) -> Any:
    t = _director_page(tid)
    doc = tournament_doc(t)
    game = get_game(t.game)
    queue = []
    for row in doc["games"]:
        if row["result"] is None and row["game_id"]:
            history = svc().warlog.history(row["game_id"])
            s = svc().warlog.store.summary(row["game_id"])
            state = history.state_at(s.last_seq) if s else None
            status = game.victory_status(state) if state is not None else None
            queue.append({**row, "victory": status, "phase": game.phase(state) if state is not None else "waiting"})
    open_disputes = [d for d in t.disputes.values() if d["answer"] is None]
    failed = []
    notifier = current_app.extensions.get("warlog_notifier")
    if notifier is not None:
        failed = notifier.failed(tournament_id=tid)
    return render_template("desk.html", t=t, doc=doc, queue=queue, disputes=open_disputes, failed=failed,
                           can_pair=t.current_round < rounds_planned(t) and (t.current_round == 0
                                                                              or t.round_complete(t.current_round)))


@tournaments_pages.post("/tournaments/<tid>/desk/pair")
def desk_pair(tid: str) -> Any:
    svc().pair_next_round(tid, current_player())
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/adjudicate")
def desk_adjudicate(tid: str) -> Any:
    f = request.form
    svc().adjudicate(tid, current_player(), f.get("game_id", ""), f.get("decision", ""), f.get("winner") or None,
                     f.get("reason", ""))
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/extend")
def desk_extend(tid: str) -> Any:
    f = request.form
    days = f.get("days", "")
    if not days.isdigit():
        raise PageError(400, "An extension is a whole number of days.")
    svc().extend(tid, current_player(), f.get("game_id", ""), f.get("player_id", ""), int(days), f.get("reason", ""))
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/rule")
def desk_rule(tid: str) -> Any:
    svc().rule(tid, current_player(), request.form.get("game_id", ""), ruling_from_form(), request.form.get("text", ""))
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/dispute/<int:dispute>")
def desk_answer(tid: str, dispute: int) -> Any:
    f = request.form
    ruling = ruling_from_form() if f.get("decision") == "rule" else None
    svc().answer_dispute(tid, current_player(), dispute, f.get("decision", ""), f.get("text", ""), ruling)
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/sandbox/<int:dispute>")
def desk_sandbox(tid: str, dispute: int) -> Any:
    """The dispute sandbox at the disputed step: a new sandbox game starting from the state just
    before the disputed event, to replay it (its invitations shown once, as on game creation)."""
    t = _director_page(tid)
    d = t.disputes.get(dispute)
    if d is None:
        raise PageError(404, f"There is no dispute {dispute}.")
    warlog = svc().warlog
    state = warlog.history(d["game_id"]).state_at(max(0, int(d["seq"]) - 1))
    if state is None:
        raise PageError(409, "The game had not started at that step: there is no position to rebuild.")
    created = warlog.create_game(t.game, t.scenario, t.options, {"state": state, "dice": []})
    gid = created["id"]
    game = get_game(t.game)
    links = {seat: url_for("pages.invitation", game_id=gid, token=tok, _external=True)
             for seat, tok in created["seats"].items()}
    director = url_for("pages.invitation", game_id=gid, token=created["director_token"], _external=True)
    resp = Response(render_template("created.html", game=game, scenario=game.scenarios()[t.scenario], gid=gid,
                                    links=links, director=director, options=t.options,
                                    commitment=created["seed_commitment"]), status=201)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@tournaments_pages.post("/tournaments/<tid>/desk/end")
def desk_end(tid: str) -> Any:
    svc().finish(tid, current_player())
    return redirect(url_for("tournaments_pages.show", tid=tid), code=303)


@tournaments_pages.get("/ratings")
def ratings_page() -> Any:
    return render_template("ratings.html", rows=ratings(svc()))


def init_app(app: Flask, tournaments: Tournaments) -> None:
    app.extensions["warlog_tournaments"] = tournaments
    app.register_blueprint(tournaments_api)
    app.register_blueprint(tournaments_pages)
    from warlog.players.web import add_me_section

    def my_tournaments(player: Any) -> dict[str, Any] | None:
        items = []
        for tid in tournaments.store.all_ids():
            t = tournaments.get(tid)
            if player.id in t.entrants or player.id == t.director:
                items.append({"label": t.name, "href": f"/tournaments/{t.id}", "status": t.status,
                              "detail": "director" if player.id == t.director else f"round {t.current_round}"})
        return {"title": "My tournaments", "items": items} if items else None

    add_me_section(app, my_tournaments)

    @app.context_processor
    def _dispute_form() -> dict[str, Any]:
        def dispute_form(game_id: str) -> dict[str, str] | None:
            """The tournament of `game_id` when the signed-in player plays it and it runs (the replay
            page's "dispute this step" form), else None."""
            tid = tournaments.store.game_tournament(game_id)
            me = current_player()
            if tid is None or me is None:
                return None
            t = tournaments.get(tid)
            found = t.game_round(game_id)
            if found is None or me.id not in found[1].players() or t.ended is not None:
                return None
            return {"tid": tid, "name": t.name}

        return {"dispute_form": dispute_form}
