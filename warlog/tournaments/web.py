"""Tournaments on the web: the JSON API under /api/v1/tournaments and the pages /tournaments,
/tournaments/<id> (public: standings, rounds and pairings, crosstable, each game's status),
registration, and the director's desk (/tournaments/<id>/desk: games with status, overdue,
disputes, the adjudication queue with each game's victory situation, forms for awards,
extensions, rulings and re-pairing). Acting needs a signed-in player (warlog.players); the
director is the player who created the tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from marshmallow import Schema, ValidationError

from rules import get_game
from validators import tournaments as schemas
from warlog.api.export_media import export_mimetype
from warlog.catalogs import N_
from warlog.games.replay import seat_name
from warlog.games.service import Forbidden, NotFound, ServiceError, StaleSeq, Unprocessable
from warlog.i18n import lang, tr
from warlog.players.web import current_player
from warlog.tournaments.bracket_svg import bracket_svg
from warlog.tournaments.bundle import bundle_lines
from warlog.tournaments.deskview import step_names, voidable
from warlog.tournaments.knockout import bracket_doc, playoff_bracket_doc
from warlog.tournaments.knockout import champion as knockout_champion
from warlog.tournaments.model import FORMAT_NAMES, Tournament
from warlog.tournaments.pairing import rounds_planned
from warlog.tournaments.ratings import ratings
from warlog.tournaments.service import Tournaments, entry_refusal
from warlog.tournaments.standings import tiebreak_label, tiebreak_names
from warlog.web.boundary import json_object
from warlog.web.errors import install_api_errors, install_page_errors
from warlog.web.pageutil import PageError, check_csrf, finish, ruling_from_form

tournaments_api = Blueprint("tournaments_api", __name__, url_prefix="/api/v1/tournaments")
install_api_errors(tournaments_api, 'the tournaments API')
tournaments_pages = Blueprint("tournaments_pages", __name__)
install_page_errors(tournaments_pages, 'a tournament page')
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
            "seed_commitment": t.seed_commitment, "seed": t.seed, "created_at": t.created_at, "seq": t.last_seq,
            "entry": dict(t.entry)}


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
                                                         "score": res.score, "event": res.seq,
                                                         "corrected": res.reason if res.corrects is not None
                                                         else None},
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
            "disputes": list(t.disputes.values()), "rulings": t.rulings, "corrections": t.corrections,
            "extensions": t.extensions,
            "timeouts": t.timeouts,
            "leave": t.leaves, "leave_policy": t.leave_policy,
            "ended": t.ended, "champion": champion(t), "bracket": bracket_doc(t) or playoff_bracket_doc(t),
            "co_directors": [{"player_id": pid, "name": name} for pid, name in t.co_directors.items()],
            "announcements": t.announcements,
            "seat_changes": [{k: v for k, v in c.items() if k != "token_sha256"} for c in t.seat_changes]}


def champion(t: Tournament) -> str | None:
    """The knockout's or the playoff's winner once its final has a result."""
    from warlog.tournaments.pairing import playoff_advance

    if t.kind == "knockout":
        return knockout_champion(t)
    last = t.rounds.get(t.current_round)
    if t.kind != "pools" or last is None or "playoff" not in last.extra or not t.round_complete(last.number):
        return None
    through = playoff_advance(t, last.number)
    return through[0] if len(through) == 1 else None


def utc_time(value: Any) -> str:
    """An ISO time as a person reads it: "2026-11-28 16:28 UTC" (no seconds, no microseconds)."""
    if not value:
        return ""
    try:
        at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def score_text(value: Any) -> str:
    """A solitaire game's score as the page shows it: "1–0", not "[1, 0]"."""
    if isinstance(value, list | tuple):
        return "–".join(str(v) for v in value)
    return "" if value is None else str(value)


def _page(cursor: str | None) -> tuple[list[dict[str, Any]], str | None]:
    before = None
    if cursor:
        at, _sep, tid = cursor.partition("~")
        if not at or not tid:
            raise ServiceError(N_("bad cursor"))
        before = (at, tid)
    rows = svc().store.page(PAGE + 1, before)
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    nxt = f"{rows[-1]['created_at']}~{rows[-1]['id']}" if more and rows else None
    return rows, nxt


# -- API -------------------------------------------------------------------------------------


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
                     data["format"], data["points"], data["time_control"], data["entry"], leave=data["leave"])
    return jsonify(tournament_doc(t)), 201


def _current(tid: str, only: Callable[[Tournament], int | None] = lambda t: None
             ) -> tuple[Tournament, dict[str, tuple[str, list[str]]]]:
    """The tournament with every ended game's result recorded, and its games' status (one read):
    of every game while some have no result yet (sync needs them), else of round `only(t)`
    alone when it names one (a page shows one round)."""
    t = svc().get(tid)  # 404 first
    if (t.ended is not None or len(t.results) == len(t.games())) and not svc().needs_sync(t):
        return t, svc().store.game_status(tid, only(t))
    status = svc().store.game_status(tid)
    return svc().sync(tid, status), status


def standings_html(t: Tournament) -> Markup:
    """The page's standings and crosstable, rendered once per chain head of the tournament (they
    are derived from the stream alone and show nothing private)."""
    base = url_for("players_pages.profile", player_id="x")[:-1]

    def build() -> Markup:
        lines, table = svc().table(t)
        doc = {"standings": _standings_json(t), "tiebreaks": tiebreak_names(t), "crosstable": table,
               "labels": {n: tiebreak_label(n) for n in tiebreak_names(t)}}
        return Markup(render_template("_tournament_standings.html", t=t, doc=doc, profile_base=base))

    html: Markup = svc().derived(t, f"standings_html {lang()} {base}", build)  # once per language too
    return html


def _standings_json(t: Tournament) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = svc().derived(t, "standings_json",
                                               lambda: [line.to_json() for line in svc().table(t)[0]])
    return rows


@tournaments_api.get("/<tid>")
def api_get(tid: str) -> Response:
    number = _query(schemas.TournamentQuerySchema())["round"]
    t, status = _current(tid, lambda t: number)
    return jsonify(without_hidden_words(t, tournament_doc(t, status, only=number), current_player()))


def without_hidden_words(t: Tournament, doc: dict[str, Any], me: Any) -> dict[str, Any]:
    """The document as the public sees it: the words of disputes and rulings on a game that keeps
    hidden information stay back until that game has ended (as on the page: `withheld_games`);
    a director sees them. The records themselves (status, who, when) stay."""
    if me is not None and t.directs(me.id):
        return doc
    hidden = withheld_games(t)
    if not hidden:
        return doc
    note = "(withheld until game {} has ended: it keeps hidden information)"

    def blank(record: dict[str, Any] | None) -> dict[str, Any] | None:
        if record is None or record.get("game_id") not in hidden:
            return record
        out = {**record, "text": note.format(record["game_id"])}
        if isinstance(out.get("answer"), dict):
            out["answer"] = blank(out["answer"])
        if out.get("refused"):
            out["refused"] = [blank(r) for r in out["refused"]]
        return out

    return {**doc, "disputes": [blank(d) for d in doc["disputes"]], "rulings": [blank(r) for r in doc["rulings"]]}


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
    out = svc().adjudicate(tid, current_player(), game_id, data["decision"], data["winner"], data["reason"],
                           forfeiting=data["forfeiting"])
    return jsonify(out), 202


@tournaments_api.post("/<tid>/games/<game_id>/correct")
def api_correct(tid: str, game_id: str) -> tuple[Response, int]:
    data = _load(schemas.AdjudicateSchema())
    out = svc().correct_result(tid, current_player(), game_id, data["decision"], data["winner"], data["reason"],
                               forfeiting=data["forfeiting"])
    return jsonify(out), 202


@tournaments_api.get("/<tid>/games/<game_id>/void-preview")
def api_void_preview(tid: str, game_id: str) -> Response:
    q = _query(schemas.VoidPreviewQuerySchema())
    t = svc().get(tid)
    svc().director_for_game(t, current_player(), game_id)
    if t.game_round(game_id) is None:
        raise NotFound(f"game {game_id} is not in this tournament")
    return jsonify(svc().void_preview(game_id, q["target"], q["re_resolve"]))


@tournaments_api.post("/<tid>/games/<game_id>/extend")
def api_extend(tid: str, game_id: str) -> Response:
    data = _load(schemas.ExtendSchema())
    t = svc().extend(tid, current_player(), game_id, data["player_id"], data["days"], data["reason"],
                     hours=data["hours"])
    return jsonify(summary_doc(t))


@tournaments_api.post("/<tid>/announcements")
def api_announce(tid: str) -> tuple[Response, int]:
    data = _load(schemas.AnnounceSchema())
    return jsonify(summary_doc(svc().announce(tid, current_player(), data["text"]))), 201


@tournaments_api.post("/<tid>/invitations")
def api_reissue(tid: str) -> tuple[Response, int]:
    """A new seat link for a player (the old one revoked): answered once, and mailed to the player."""
    data = _load(schemas.ReissueSchema())
    link = svc().reissue_invitation(tid, current_player(), data["game_id"], data["player_id"], data["reason"])
    return jsonify({"link": link}), 201


@tournaments_api.post("/<tid>/replacements")
def api_replace(tid: str) -> Response:
    data = _load(schemas.ReplaceSchema())
    t = svc().replace_player(tid, current_player(), data["game_id"], data["player_id"], data["substitute"],
                             data["reason"])
    return jsonify(summary_doc(t))


@tournaments_api.post("/<tid>/games/<game_id>/rulings")
def api_rule(tid: str, game_id: str) -> tuple[Response, int]:
    data = _load(schemas.GameRulingSchema())
    t, ruled = svc().rule(tid, current_player(), game_id, data["ruling"], data["text"])
    made = next(r for r in reversed(t.rulings) if r["game_id"] == game_id and r["game_ruling_seq"] == ruled)
    return jsonify({"event": made["ruling_seq"], "game_ruling_seq": ruled, "status": made["status"],
                    "reasons": made["reasons"]}), 202


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
    if (t.ended is None or any(s != "ended" for s, _seats in status.values())) and (me is None or not t.directs(me.id)):
        raise Forbidden("the bundle opens when the tournament and all its games have ended "
                        "(the director may export it at any time)")
    if t.ended is None or any(s != "ended" for s, _seats in status.values()):
        bundle_looks(t, me, status)
    lines = bundle_lines(svc().warlog.store, svc().store, tid)
    return Response(lines, mimetype=export_mimetype(),
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


def _games_catalogue() -> list[dict[str, Any]]:
    """Each game with its scenarios' display names (an UP FRONT scenario "A" shows its title)."""
    from rules import all_games

    return [{"name": g.name, "title": g.title, "solitaire": g.solitaire,
             "scenarios": [{"id": sid, "title": scenario_title(sc, sid)} for sid, sc in g.scenarios().items()]}
            for g in all_games()]


def scenario_title(scenario: Any, sid: str) -> str:
    """A scenario's display name: its own name or title, led by its id when that is a bare code."""
    name = getattr(scenario, "title", None) or getattr(scenario, "name", None)
    if isinstance(scenario, dict):
        name = scenario.get("title") or scenario.get("name")
    if not name or name == sid:
        return sid
    return f"{sid}: {name}" if len(sid) <= 3 else str(name)


@tournaments_pages.get("/tournaments")
def list_page() -> Any:
    rows, nxt = _page(request.args.get("cursor"))
    return render_template("tournaments.html", rows=rows, next_cursor=nxt, games=_games_catalogue(),
                           me=current_player(), format_names=FORMAT_NAMES)


def _whole(name: str, default: int, refusal: str) -> int:
    """A whole number from the create form, or a 400 with `refusal` (a catalog message)."""
    value = (request.form.get(name) or str(default)).strip()
    if not value.isdigit():
        raise PageError(400, refusal)
    return int(value)


def control_from_form() -> dict[str, Any] | None:
    """The create form's time control: None when the move time is 0 days 0 hours (no clock)."""
    f = request.form
    days = _whole("days", 0, N_("Days per move is a whole number."))
    hours = _whole("hours", 0, N_("Hours per move is a whole number."))
    mode = f.get("mode") or "per_move"
    bank = _whole("bank_days", 0, N_("The bank of days is a whole number."))
    if mode == "per_move" and not days and not hours:
        return None
    policy = f.get("policy") or "notify_director"
    control: dict[str, Any] = {"mode": mode, "days": days, "hours": hours, "bank_days": bank,
                               "remind_hours": _whole("remind_hours", 24, N_(
                                   "Hours before the deadline for the reminder is a whole number.")),
                               "policy": policy, "then": f.get("then") or "notify_director",
                               "increment_hours": _whole("increment_hours", 0, N_("The increment is a whole number."))}
    if mode == "bank":
        control["days"] = max(days, 1)
    if policy == "extend":
        control["extension_days"] = _whole("extension_days", 1, N_("Days drawn from the bank at a time is a whole number."))
    return control


@tournaments_pages.post("/tournaments")
def create_page() -> Any:
    f = request.form
    fmt = {"kind": f.get("kind", "swiss"), "rounds": int(f.get("rounds") or 1) if (f.get("rounds") or "1").isdigit()
           else 0, "pools": int(f.get("pools") or 1) if (f.get("pools") or "1").isdigit() else 0,
           "playoff": int(f.get("playoff") or 0) if (f.get("playoff") or "0").isdigit() else -1,
           "engine": f.get("engine") or "auto", "withdrawal": f.get("withdrawal") or "forfeit",
           "auto_pair": bool(f.get("auto_pair"))}
    if f.get("forfeits"):
        fmt["forfeits"] = f["forfeits"]
    if f.get("seeding"):
        fmt["seeding"] = f["seeding"]
    if f.get("third_place"):
        fmt["third_place"] = True
    if f.get("accelerated"):
        fmt["accelerated"] = True
    cap = (f.get("max_entrants") or "").strip()
    if cap and not cap.isdigit():
        raise PageError(400, N_("The entry cap is a whole number."))
    entry = {"description": f.get("description", ""), "rules": f.get("rules", ""),
             "starts_at": f.get("starts_at", ""), "registration_opens": f.get("registration_opens", ""),
             "registration_closes": f.get("registration_closes", ""), "max_entrants": int(cap) if cap else None}
    game, _sep, scenario = (f.get("game") or "").partition(":")
    try:
        t = svc().create(current_player(), f.get("name", "").strip() or "Tournament", game, scenario or None,
                         None, fmt, None, control_from_form(), entry)
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
    game = get_game(t.game)
    scenario = game.scenarios().get(t.scenario)
    entered = bool(me and me.id in t.entrants and not t.entrants[me.id].withdrawn)
    return render_template("tournament.html", t=t, doc=doc, me=me, is_director=bool(me and t.directs(me.id)),
                           game_title=game.title, scenario_title=scenario_title(scenario, t.scenario),
                           shown_round=shown_round, standings_html=standings_html(t), entered=entered,
                           format_name=FORMAT_NAMES.get(t.kind, t.kind), champions=champions(t, doc),
                           bracket_svg=bracket_svg(doc["bracket"]) if doc["bracket"] else None,
                           withheld=withheld_games(t), entry_closed=entry_refusal(t, datetime.now(UTC)),
                           calendar_form=bool(me and (entered or me.id in t.entrants)),
                           director_name=_display_name(t, t.director), name_for=lambda pid: _display_name(t, pid))


def _display_name(t: Tournament, player_id: str) -> str:
    """A player's name: as the tournament knows it (an entrant, a co-director), else their account's."""
    known = t.name_of(player_id)
    if known != player_id:
        return known
    players = current_app.extensions.get("warlog_players")
    player = players.get(player_id) if players is not None else None
    return str(player.display_name) if player is not None else player_id


# words the page passes through `tr`: a tournament's status, how a result came, a verdict
PAGE_WORDS = [N_("registration"), N_("running"), N_("ended"), N_("played"), N_("forfeit"), N_("adjudicated"),
              N_("notify_director"), N_("extend")]


def champions(t: Tournament, doc: dict[str, Any]) -> list[str]:
    """Who the banner names: the knockout's (or the playoff's) winner once the final has its
    result; else, once the event has ended, every entrant ranked first."""
    if doc.get("champion"):
        return [doc["champion"]]
    if t.ended is None or t.kind == "knockout":
        return []
    return [line["player_id"] for line in t.ended.get("standings", []) if line.get("rank") == 1
            and not line.get("withdrawn")]


def withheld_games(t: Tournament) -> set[str]:
    """Games whose disputes' and rulings' words the public page holds back: those of a game that
    keeps hidden information, until it ends (a dispute may name what one side cannot see)."""
    if not get_game(t.game).keeps_secrets:
        return set()
    named = {d["game_id"] for d in t.disputes.values()} | {r["game_id"] for r in t.rulings}
    return {gid for gid in named if svc().warlog.summary(gid).status != "ended"}


@tournaments_pages.post("/tournaments/<tid>/register")
def register_page(tid: str) -> Any:
    me = current_player()
    if me is None:
        return redirect(url_for("players_pages.signin", next=url_for("tournaments_pages.show", tid=tid)), code=303)
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
        raise PageError(400, N_("Name the event (its number) you dispute."))
    svc().raise_dispute(tid, current_player(), f.get("game_id", ""), int(seq), f.get("text", ""))
    return redirect(url_for("tournaments_pages.show", tid=tid, disputed=1), code=303)


def _director_page(tid: str) -> Tournament:
    t = svc().sync(tid)
    me = current_player()
    if me is None or not t.directs(me.id):
        raise PageError(403, N_("The desk is the tournament director's. Sign in as the director."))
    return t


@tournaments_pages.get("/tournaments/<tid>/desk")
def desk(tid: str) -> Any:
    t = _director_page(tid)
    doc = tournament_doc(t)
    game = get_game(t.game)
    store = svc().warlog.store
    queue, ledgers = [], {}
    for row in doc["games"]:
        if not row["game_id"]:
            continue
        if row["result"] is None or row["status"] != "ended":
            events = store.read(row["game_id"])
            ledgers[row["game_id"]] = events
        if row["result"] is None:
            history = svc().warlog.history(row["game_id"])
            s = store.summary(row["game_id"])
            state = history.state_at(s.last_seq) if s else None
            status = game.victory_status(state) if state is not None else None
            if status and status.get("sides"):  # each side by its display name ("Germany"), never its id
                status = {**status, "sides": {seat_name(side, t.game): what for side, what in status["sides"].items()}}
            queue.append({**row, "victory": status, "phase": game.phase(state) if state is not None else "waiting",
                          "pending": _pending(ledgers[row["game_id"]]),
                          "voidable": voidable(ledgers[row["game_id"]], t.game)[:VOIDABLE]})
    open_disputes = []
    for d in t.disputes.values():
        if d["status"] in ("open", "pending"):
            events = ledgers.get(d["game_id"]) or store.read(d["game_id"])
            ledgers[d["game_id"]] = events
            names = step_names(events, int(d["game_seq"]), t.game)
            targets = voidable(events, t.game)
            open_disputes.append({**d, "names": names, "voidable": targets[:VOIDABLE] + [
                v for v in targets[VOIDABLE:] if v["seq"] == names["void_target"]]})
    queue, open_disputes, own = own_games_apart(t, current_player(), queue, open_disputes)
    _overdue_pace(tid, queue, ledgers)
    results = [row for row in doc["games"] if row["result"] is not None]
    failed = []
    notifier = current_app.extensions.get("warlog_notifier")
    if notifier is not None:
        failed = notifier.failed(tournament_id=tid)
    return render_template("desk.html", t=t, doc=doc, queue=queue, disputes=open_disputes, failed=failed, own=own,
                           results=results, rulings=list(reversed(t.rulings))[:RULINGS_SHOWN],
                           done=request.args.get("done", ""),
                           can_pair=t.current_round < rounds_planned(t) and (t.current_round == 0
                                                                              or t.round_complete(t.current_round)))


def _overdue_pace(tid: str, queue: list[dict[str, Any]], ledgers: dict[str, Any]) -> None:
    """Beside each overdue game: each seat's pace in it and over the tournament (warlog.clock.pace)."""
    from warlog.clock.pace_web import desk_pace

    overdue = [g for g in queue if g.get("deadline") and g["deadline"].get("overdue")]
    players = {s["player_id"] for g in overdue for s in g["seats"].values() if s.get("player_id")}
    pace = desk_pace(svc().store.read(tid), ledgers, svc().warlog.store, players)
    for g in overdue:
        g["pace"] = {role: {"name": s.get("name"), "game": pace[s["player_id"]]["games"].get(g["game_id"]),
                            "overall": pace[s["player_id"]]["overall"]}
                     for role, s in g["seats"].items() if s.get("player_id") in pace}


VOIDABLE = 60  # the newest moves a desk form offers to void (the API takes any)
RULINGS_SHOWN = 30


def _pending(events: list[Any]) -> list[dict[str, Any]]:
    """The director's rulings in a game that it has not judged yet (newest last)."""
    judged = {e.payload.get("submission_seq") for e in events if e.type in ("resolved", "rejected")}
    return [{"seq": e.seq, "ruling": e.payload.get("ruling") or {}} for e in events
            if e.type == "submitted" and e.seat == "director" and e.seq not in judged]


def _verdict() -> tuple[str, str | None, str | None]:
    """The desk's verdict field: `win:<player>`, `draw`, `forfeit:<player who forfeits>`, `end`
    (or the older decision and winner fields)."""
    f = request.form
    verdict = f.get("verdict", "")
    if verdict:
        decision, _sep, player = verdict.partition(":")
        if decision == "forfeit":
            return decision, None, player or None
        return decision, player or None, None
    return f.get("decision", ""), f.get("winner") or None, f.get("forfeiting") or None


def _effect(t: Tournament, game_id: str, decision: str, winner: str | None, forfeiting: str | None) -> str:
    """What a verdict does, in words ("Ann forfeits; Bob wins")."""
    found = t.game_round(game_id)
    players = found[1].players() if found else []
    if decision == "forfeit":
        loser = forfeiting or next((p for p in players if p != winner), None)
        other = winner or next((p for p in players if p != loser), None)
        return _("%(loser)s forfeits; %(winner)s wins", loser=t.name_of(loser or "?"), winner=t.name_of(other or "?"))
    if decision == "win":
        return _("%(who)s wins", who=t.name_of(winner or "?"))
    return {"draw": _("a draw"), "end": _("the game ends and is scored as it stands")}.get(decision, decision)


def _confirm(t: Tournament, title: str, lines: list[str], preview: dict[str, Any] | None = None) -> Any:
    """The confirmation page of a destructive act (no script needed): what it will do, and the
    same form again with `confirmed` set."""
    fields = [(k, v) for k, v in request.form.items(multi=True) if k not in ("csrf", "confirmed")]
    return render_template("desk_confirm.html", t=t, title=title, url=request.path, lines=lines, fields=fields,
                           preview=preview)


def _done(tid: str, message: str) -> Any:
    return redirect(url_for("tournaments_pages.desk", tid=tid, done=message), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/pair")
def desk_pair(tid: str) -> Any:
    svc().pair_next_round(tid, current_player())
    return redirect(url_for("tournaments_pages.desk", tid=tid), code=303)


@tournaments_pages.post("/tournaments/<tid>/desk/adjudicate")
def desk_adjudicate(tid: str) -> Any:
    return _award_page(tid, correction=False)


@tournaments_pages.post("/tournaments/<tid>/desk/correct")
def desk_correct(tid: str) -> Any:
    return _award_page(tid, correction=True)


def _award_page(tid: str, correction: bool) -> Any:
    f = request.form
    t = _director_page(tid)
    game_id = f.get("game_id", "")
    decision, winner, forfeiting = _verdict()
    act = svc().correct_result if correction else svc().adjudicate
    if not f.get("confirmed"):
        ruling = svc()._award(t, _table(t, game_id), decision, winner, forfeiting, f.get("reason", ""),
                              correction=correction)  # bad input is refused before the confirmation
        earlier = svc()._same_ruling(game_id, ruling)
        if earlier is not None:
            return _done(tid, _("Already submitted (game event %(n)s, %(status)s): %(what)s.", n=earlier["seq"],
                                status=tr(earlier["status"]), what=_effect(t, game_id, decision, winner, forfeiting)))
        if not correction and game_id in t.results:
            raise StaleSeq(N_("that game has a result already: correct the result instead"))
        if correction and game_id not in t.results:
            raise StaleSeq(N_("that game has no result to correct yet: adjudicate it instead"))
        what = _effect(t, game_id, decision, winner, forfeiting)
        lines = [_("Game %(game)s: %(what)s.", game=game_id, what=what), _("Reason: %(reason)s", reason=f.get("reason", "")),
                 _("This is an award ruling in the game: it ends the game again with this result, and the tournament "
                   "records the corrected result once the game has judged it.") if correction else
                 _("This is an award ruling in the game: it ends the game; its result enters the standings once the "
                   "game has judged it.")]
        return _confirm(t, _("Correct the result") if correction else _("Award the game"), lines)
    out = act(tid, current_player(), game_id, decision, winner, f.get("reason", ""), forfeiting=forfeiting)
    what = _effect(t, game_id, decision, winner, forfeiting)
    if out.get("duplicate"):
        return _done(tid, _("Already submitted (game event %(n)s, %(status)s): %(what)s.", n=out["seq"],
                            status=tr(out["status"]), what=what))
    return _done(tid, _("Submitted to game %(game)s (event %(n)s): %(what)s. Pending the game's judgement.",
                        game=game_id, n=out["seq"], what=what))


def _table(t: Tournament, game_id: str) -> Any:
    found = t.game_round(game_id)
    if found is None:
        raise PageError(404, f"Game {game_id} is not in this tournament.")
    return found[1]


@tournaments_pages.post("/tournaments/<tid>/desk/extend")
def desk_extend(tid: str) -> Any:
    f = request.form
    amount, unit = f.get("amount", f.get("days", "")).strip(), f.get("unit", "days")
    if not amount.isdigit() or unit not in ("days", "hours"):
        raise PageError(400, N_("An extension is a whole number of days or hours."))
    t = svc().extend(tid, current_player(), f.get("game_id", ""), f.get("player_id", ""),
                     int(amount) if unit == "days" else 0, f.get("reason", ""),
                     hours=int(amount) if unit == "hours" else 0)
    span = _("%(n)s days", n=amount) if unit == "days" else _("%(n)s hours", n=amount)
    return _done(tid, _("Extended %(who)s's deadline in game %(game)s by %(span)s; the game's players are told.",
                        who=t.name_of(f.get("player_id", "")), game=f.get("game_id"), span=span))


@tournaments_pages.post("/tournaments/<tid>/desk/withdraw")
def desk_withdraw(tid: str) -> Any:
    f = request.form
    t = _director_page(tid)
    pid = f.get("player_id", "")
    if pid not in t.entrants or t.entrants[pid].withdrawn:
        raise PageError(400, N_("Choose an entrant who has not withdrawn."))
    if not f.get("reason", "").strip():
        raise PageError(400, N_("A withdrawal by the director needs a reason."))
    if not f.get("confirmed"):
        games = svc().running_games(t, pid)
        policy = t.format.get("withdrawal", "forfeit")
        lines = [_("%(who)s is withdrawn from %(t)s and paired no more. Reason: %(reason)s", who=t.name_of(pid),
                   t=t.name, reason=f.get("reason"))]
        for p in games:
            others = ", ".join(t.name_of(q) for q in p.players() if q != pid) or _("nobody")
            lines.append(_("Game %(game)s (against %(others)s): forfeited at once, %(others)s wins (the event's "
                           "policy).", game=p.game_id, others=others) if policy == "forfeit" else
                         _("Game %(game)s (against %(others)s): left for you to adjudicate (the event's policy).",
                           game=p.game_id, others=others))
        lines.append(_("The player and their opponents are told by mail. A withdrawal cannot be undone "
                       "(the player may register again while registration is open)."))
        return _confirm(t, _("Withdraw a player"), lines)
    svc().withdraw(tid, current_player(), pid, f.get("reason", ""))
    return _done(tid, _("%(who)s is withdrawn.", who=t.name_of(pid)))


@tournaments_pages.post("/tournaments/<tid>/desk/repair")
def desk_repair(tid: str) -> Any:
    """The current round re-paired from the desk's form: each table's seats (selects named
    `table-N-ROLE`), the byes (`bye`), a reason; confirmed first (it cancels replaced games)."""
    f = request.form
    t = _director_page(tid)
    number = t.current_round
    if not number:
        raise PageError(409, N_("No round is paired yet."))
    tables: list[dict[str, Any]] = []
    for n in range(1, len(t.active_entrants()) + 1):
        seats = {role: f.get(f"table-{n}-{role}", "") for role in t.roles}
        if not any(seats.values()):
            continue
        if not all(seats.values()):
            raise PageError(400, f"Table {n}: choose a player for every seat (or none for the table).")
        tables.append({"seats": seats})
    byes = f.getlist("bye")
    reason = f.get("reason", "")
    if not f.get("confirmed"):
        if not reason.strip():
            raise PageError(400, N_("A re-pairing needs a reason."))
        seen = [pid for tb in tables for pid in tb["seats"].values()] + byes
        if sorted(seen) != sorted(t.active_entrants()):
            missing = [t.name_of(p) for p in t.active_entrants() if p not in seen]
            twice = sorted({t.name_of(p) for p in seen if seen.count(p) > 1})
            raise PageError(400, "A re-pairing places every active entrant exactly once (at a table or with a bye)"
                            + (f"; not placed: {', '.join(missing)}" if missing else "")
                            + (f"; placed twice: {', '.join(twice)}" if twice else "") + ".")
        old = {tuple(sorted(p.seats.items())): p for p in t.rounds[number].pairings}
        lines = [_("Round %(n)s is re-paired. Reason: %(reason)s", n=number, reason=reason)]
        for i, tb in enumerate(tables, 1):
            kept = old.get(tuple(sorted(tb["seats"].items())))
            who = " – ".join(f"{t.name_of(pid)} ({tr(seat_name(role, t.game))})" for role, pid in tb["seats"].items())
            lines.append(_("Table %(n)s: %(who)s: keeps game %(game)s.", n=i, who=who, game=kept.game_id) if kept else
                         _("Table %(n)s: %(who)s: a new game.", n=i, who=who))
        kept_ids = {old[k].game_id for k in (tuple(sorted(tb["seats"].items())) for tb in tables) if k in old}
        gone = [p.game_id for p in t.rounds[number].pairings if p.game_id not in kept_ids]
        if byes:
            lines.append(_("Bye: %(who)s.", who=", ".join(t.name_of(b) for b in byes)))
        if gone:
            lines.append(_("Cancelled (counting for nothing): game(s) %(games)s. This cannot be undone.",
                           games=", ".join(str(g) for g in gone)))
        lines.append(_("Every player at a new table, and every new bye, is told by mail."))
        return _confirm(t, _("Re-pair round %(n)s", n=number), lines)
    svc().repair(tid, current_player(), number, tables, byes, reason)
    return _done(tid, _("Round %(n)s re-paired; the players concerned are told.", n=number))


@tournaments_pages.post("/tournaments/<tid>/desk/announce")
def desk_announce(tid: str) -> Any:
    t = svc().announce(tid, current_player(), request.form.get("text", ""))
    return _done(tid, _("Announcement sent to %(n)s entrant(s) and kept on the tournament page.",
                        n=len(t.active_entrants())))


@tournaments_pages.post("/tournaments/<tid>/desk/retry")
def desk_retry(tid: str) -> Any:
    """Try a failed notification of this tournament again (a fresh set of attempts)."""
    _director_page(tid)
    notifier = current_app.extensions.get("warlog_notifier")
    d = notifier.get(request.form.get("delivery_id", "")) if notifier is not None else None
    if notifier is None or d is None or d.tournament_id != tid or d.status not in ("failed", "retrying"):
        raise PageError(404, N_("There is no failed notification of this tournament by that id."))
    notifier.retry(d.id)
    return _done(tid, _("Trying again: %(subject)s (%(channel)s to %(address)s).", subject=d.subject,
                        channel=d.channel, address=d.address))


def _seat_form(t: Tournament) -> tuple[str, str]:
    """The desk's seat picker (`seat` = "game_id:player_id")."""
    game_id, _sep, pid = request.form.get("seat", "").partition(":")
    _table(t, game_id)
    return game_id, pid


@tournaments_pages.post("/tournaments/<tid>/desk/reissue")
def desk_reissue(tid: str) -> Any:
    f = request.form
    t = _director_page(tid)
    game_id, pid = _seat_form(t)
    if not f.get("confirmed"):
        svc().director_for_game(t, current_player(), game_id)
        svc()._seat_of(t, game_id, pid)
        if not f.get("reason", "").strip():
            raise PageError(400, N_("Re-issuing an invitation needs a reason."))
        return _confirm(t, _("Re-issue an invitation"), [
            _("%(who)s gets a new link to their seat in game %(game)s, by mail: it signs them in and opens the game.",
              who=t.name_of(pid), game=game_id),
            _("Any earlier link to this seat stops working. This cannot be undone (issue another to replace it). "
              "Reason: %(reason)s", reason=f.get("reason"))])
    link = svc().reissue_invitation(tid, current_player(), game_id, pid, f.get("reason", ""))
    return _done(tid, _("A new seat link was mailed to %(who)s for game %(game)s (the old one no longer works): "
                        "%(link)s", who=t.name_of(pid), game=game_id, link=link))


@tournaments_pages.post("/tournaments/<tid>/desk/replace")
def desk_replace(tid: str) -> Any:
    f = request.form
    t = _director_page(tid)
    game_id, pid = _seat_form(t)
    sub_id = f.get("substitute", "").strip()
    if not f.get("confirmed"):
        svc().director_for_game(t, current_player(), game_id)
        seat = svc()._seat_of(t, game_id, pid)
        players = current_app.extensions.get("warlog_players")
        sub = players.get(sub_id) if players is not None and sub_id else None
        if sub is None:
            raise PageError(404, f"There is no player {sub_id!r} (give the substitute's player id).")
        if not f.get("reason", "").strip():
            raise PageError(400, N_("A replacement needs a reason."))
        return _confirm(t, _("Replace a player"), [
            _("%(sub)s takes %(who)s's seat (%(seat)s) in game %(game)s, and their place in the tournament; %(who)s "
              "is withdrawn and can no longer act in the game.", sub=sub.display_name, who=t.name_of(pid),
              seat=tr(seat), game=game_id),
            _("Reason: %(reason)s", reason=f.get("reason")),
            _("The substitute, the player who left and the opponents are told by mail. This cannot be undone.")])
    svc().replace_player(tid, current_player(), game_id, pid, sub_id, f.get("reason", ""))
    return _done(tid, _("The substitute takes the seat in game %(game)s.", game=game_id))


@tournaments_pages.get("/tournaments/<tid>/seat/<secret>")
def seat_link(tid: str, secret: str) -> Any:
    """A re-issued seat link: opening it only shows a button (mail scanners fetch links)."""
    found = svc().seat_link(tid, secret)
    if found is None:
        raise PageError(404, "This seat link is not valid (a newer one was issued, the seat changed hands, or the "
                             "game has its result). Ask the tournament's director.")
    t = svc().get(tid)
    return render_template("tournament_seat.html", t=t, game_id=found[0], seat=found[1], name=t.name_of(found[2]))


@tournaments_pages.post("/tournaments/<tid>/seat/<secret>")
def seat_link_post(tid: str, secret: str) -> Any:
    from warlog.players.web import _set_session

    found = svc().seat_link(tid, secret)
    if found is None:
        raise PageError(404, N_("This seat link is not valid any more. Ask the tournament's director."))
    resp = redirect(url_for("pages.game", game_id=found[0]), code=303)
    _set_session(resp, current_app.extensions["warlog_players"].new_session(found[2]))
    return resp


def _ruling_lines(t: Tournament, game_id: str, ruling: dict[str, Any]) -> tuple[list[str], dict[str, Any] | None]:
    """What a ruling will do, for its confirmation page; a void's dry run."""
    svc().ruling_doc(game_id, ruling, request.form.get("text", "") or "-")  # refuse bad input before confirming
    kind = ruling.get("kind")
    if kind == "void":
        p = svc().void_preview(game_id, int(ruling["target"]), bool(ruling.get("re_resolve")))
        lines = [f"Void #{p['target']} in game {game_id}"
                 + (f" and judge its move (submitted at step {p['re_resolve']}) again with fresh dice" if p["re_resolve"] is not None
                    else "") + "."]
        return lines, p
    if kind == "award":
        winner = ruling.get("winner")
        return [f"Award game {game_id}: {ruling.get('result')} (winner: {winner or 'nobody'})."], None
    return [f"Adjust the state of game {game_id} by the JSON Patch {ruling.get('patch')}."], None


@tournaments_pages.post("/tournaments/<tid>/desk/rule")
def desk_rule(tid: str) -> Any:
    f = request.form
    t = _director_page(tid)
    game_id, ruling = f.get("game_id", ""), ruling_from_form()
    _table(t, game_id)
    if not f.get("confirmed"):
        lines, preview = _ruling_lines(t, game_id, ruling)
        return _confirm(t, "Rule on the game", lines + [f"Reasons: {f.get('text', '')}"], preview)
    before = len(t.rulings)
    t2, ruled = svc().rule(tid, current_player(), game_id, ruling, f.get("text", ""))
    if len(t2.rulings) == before:
        return _done(tid, f"Already submitted: the ruling is game event {ruled}.")
    return _done(tid, f"Ruling submitted (game event {ruled}): pending the game's judgement.")


@tournaments_pages.post("/tournaments/<tid>/desk/dispute/<int:dispute>")
def desk_answer(tid: str, dispute: int) -> Any:
    f = request.form
    t = _director_page(tid)
    d = t.disputes.get(dispute)
    if d is None:
        raise PageError(404, f"There is no dispute {dispute}.")
    ruling = ruling_from_form() if f.get("decision") == "rule" else None
    if ruling is not None and not f.get("confirmed"):
        lines, preview = _ruling_lines(t, d["game_id"], ruling)
        return _confirm(t, "Answer the dispute with a ruling", lines + [f"Reasons: {f.get('text', '')}"], preview)
    svc().answer_dispute(tid, current_player(), dispute, f.get("decision", ""), f.get("text", ""), ruling)
    return _done(tid, "Dismissed." if ruling is None else
                 "Ruling submitted: the dispute closes once the game has judged it.")


@tournaments_pages.post("/tournaments/<tid>/desk/sandbox/<int:dispute>")
def desk_sandbox(tid: str, dispute: int) -> Any:
    """The dispute sandbox at the disputed step: a new sandbox game starting from the state just
    before the disputed event, to replay it (its invitations shown once, as on game creation)."""
    t = _director_page(tid)
    d = t.disputes.get(dispute)
    if d is None:
        raise PageError(404, f"There is no dispute {dispute}.")
    created = desk_sandbox_game(t, current_player(), d)
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


def bundle_looks(t: Tournament, me: Any, status: dict[str, tuple[str, list[str]]]) -> None:
    """A director's bundle of a running tournament holds every game's full ledger: refused to a
    director who plays in a game still running (a co-director exports it), and recorded as a
    look in every running game that hides something, before it is given."""
    from warlog.games.service import Viewer

    running = [p.game_id for _n, p in t.games() if p.game_id and status.get(p.game_id, ("", []))[0] != "ended"]
    if any(me.id in p.players() for _n, p in t.games() if p.game_id in running):
        raise Forbidden("you play in a running game of this tournament: a co-director rules your own games, "
                        "and only the bundle of a tournament whose games have all ended is open to you")
    viewer = Viewer(None, director=True, who=f"{t.name_of(me.id)} ({me.id})")
    for game_id in running:
        svc().warlog.record_look(str(game_id), viewer, svc().warlog.store.last_seq(str(game_id)),
                                 "the full export (the tournament's bundle)")


def own_games_apart(t: Tournament, me: Any, queue: list[dict[str, Any]], disputes: list[dict[str, Any]]
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The desk's games and disputes less those of games the signed-in director plays in (a
    co-director rules those: Tournaments.director_for_game), and those games, for the desk to
    say why it shows them without forms."""
    mine = {p.game_id for _n, p in t.games() if me is not None and me.id in p.players()}
    own = [{"game_id": g, "disputes": [d["dispute_seq"] for d in disputes if d["game_id"] == g]} for g in sorted(mine)
           if any(r["game_id"] == g for r in queue) or any(d["game_id"] == g for d in disputes)]
    return ([r for r in queue if r["game_id"] not in mine], [d for d in disputes if d["game_id"] not in mine], own)


def desk_sandbox_game(t: Tournament, me: Any, d: dict[str, Any]) -> dict[str, Any]:
    """The dispute sandbox of dispute `d`: refused to a director who plays in the game; the look
    at the game's hidden position is recorded in the game under the director's name first
    (every seat sees it), and the sandbox names the game it was forked from, so that it keeps
    the seats' secrets until that game has ended (Warlog.open_book)."""
    from warlog.games.service import Viewer

    svc().director_for_game(t, me, d["game_id"])
    warlog = svc().warlog
    history = warlog.history(d["game_id"])  # the position before the disputed step (the start: at it)
    step = max(0, int(d["game_seq"]) - 1)
    state = history.state_at(step)
    if state is None:
        step = int(d["game_seq"])
        state = history.state_at(step)
    if state is None:
        raise PageError(409, N_("The game had not started at that step: there is no position to rebuild."))
    who = f"{t.name_of(me.id)} ({me.id})"
    warlog.record_look(d["game_id"], Viewer(None, director=True, who=who), step,
                       "the full position, to open the dispute sandbox")
    return warlog.create_game(t.game, t.scenario, t.options, {
        "state": state, "dice": [], "forked_from": {"game": d["game_id"], "step": step, "edits": 0}})


@tournaments_pages.post("/tournaments/<tid>/directors")
def add_director_page(tid: str) -> Any:
    svc().add_director(tid, current_player(), request.form.get("player_id", "").strip())
    return redirect(url_for("tournaments_pages.show", tid=tid), code=303)


@tournaments_api.post("/<tid>/directors")
def api_add_director(tid: str) -> Response:
    data = _load(schemas.AddDirectorSchema())
    return jsonify(tournament_doc(svc().add_director(tid, current_player(), data["player_id"])))


@tournaments_pages.post("/tournaments/<tid>/desk/end")
def desk_end(tid: str) -> Any:
    if not request.form.get("confirmed"):
        t = _director_page(tid)
        return _confirm(t, "End the tournament", [
            "The tournament ends: its results and standings stand, no ruling is made in its games after it, "
            "and the pairing seed is revealed. This cannot be undone."])
    svc().finish(tid, current_player())
    return redirect(url_for("tournaments_pages.show", tid=tid), code=303)


@tournaments_pages.get("/tournaments/<tid>/standings.csv")
def standings_csv(tid: str) -> Response:
    from warlog.tournaments.publish import standings_csv as as_csv

    t, _status = _current(tid)
    lines, _table = svc().table(t)
    return _download(as_csv(t, lines), "text/csv; charset=utf-8", f"{tid}-standings.csv")


@tournaments_pages.get("/tournaments/<tid>/crosstable.csv")
def crosstable_csv(tid: str) -> Response:
    from warlog.tournaments.publish import crosstable_csv as as_csv

    t, _status = _current(tid)
    _lines, table = svc().table(t)
    return _download(as_csv(table), "text/csv; charset=utf-8", f"{tid}-crosstable.csv")


@tournaments_pages.get("/tournaments/<tid>/deadlines.ics")
def deadlines_ics(tid: str) -> Response:
    """The event's round deadlines as an iCal feed (public: the page shows them too)."""
    from warlog.tournaments.publish import event_calendar

    t, _status = _current(tid)
    clock = current_app.extensions.get("warlog_clock")
    deadlines = clock.deadlines(tid, status="open") if clock is not None else []
    return _download(event_calendar(t, deadlines, svc()._url), "text/calendar; charset=utf-8", f"{tid}.ics",
                     inline=True)


@tournaments_pages.get("/players/<player_id>/deadlines.ics")
def player_deadlines_ics(player_id: str) -> Response:
    """A player's deadlines in every game they hold a seat in, behind their private token (a
    wrong or missing token is a 404, as is an unknown player: the answer tells nothing)."""
    from warlog.tournaments.publish import player_calendar

    players = current_app.extensions.get("warlog_players")
    calendar = svc().calendar
    player = players.get(player_id) if players is not None else None
    if player is None or calendar is None or not calendar.check(player_id, request.args.get("token", "")):
        raise PageError(404, N_("There is no calendar at this address (the link is wrong, or a newer one replaced it)."))
    clock = current_app.extensions.get("warlog_clock")
    rows = []
    if clock is not None and players is not None:
        for game_id, seat in players.seats_of(player_id):
            d = clock.deadline(game_id, seat)
            if d is not None and d.status == "open":
                tid = svc().store.game_tournament(game_id)
                rows.append((d, svc().get(tid).name if tid else ""))
    rows.sort(key=lambda row: row[0].due_at)
    resp = _download(player_calendar(player.display_name, rows, svc()._url), "text/calendar; charset=utf-8",
                     "deadlines.ics", inline=True)
    resp.headers["Cache-Control"] = "private, no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@tournaments_pages.post("/tournaments/<tid>/calendar-link")
def calendar_link(tid: str) -> Any:
    """A new private link to the signed-in player's deadlines feed, shown once (the old one stops)."""
    me = current_player()
    if me is None:
        return redirect(url_for("players_pages.signin", next=url_for("tournaments_pages.show", tid=tid)), code=303)
    t = svc().get(tid)
    link = svc()._url(url_for("tournaments_pages.player_deadlines_ics", player_id=me.id,
                              token=svc().calendar.issue(me.id)))
    resp = Response(render_template("calendar_link.html", t=t, link=link))
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


def _download(body: str | bytes, mimetype: str, filename: str, inline: bool = False) -> Response:
    resp = Response(body, mimetype=mimetype.split(";")[0])
    resp.headers["Content-Type"] = mimetype
    resp.headers["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    return resp


@tournaments_pages.get("/ratings")
def ratings_page() -> Any:
    return render_template("ratings.html", rows=ratings(svc()))


def init_app(app: Flask, tournaments: Tournaments) -> None:
    app.extensions["warlog_tournaments"] = tournaments
    app.register_blueprint(tournaments_api)
    app.register_blueprint(tournaments_pages)
    app.add_template_filter(utc_time, "utc")
    app.add_template_filter(score_text, "score")
    from warlog.players.web import add_me_section

    def my_tournaments(player: Any) -> dict[str, Any] | None:
        items = []
        for tid in tournaments.store.all_ids():
            t = tournaments.get(tid)
            if player.id in t.entrants or t.directs(player.id):
                items.append({"label": t.name, "href": f"/tournaments/{t.id}", "status": t.status,
                              "detail": "director" if t.directs(player.id) else f"round {t.current_round}"})
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
