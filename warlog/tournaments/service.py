"""What a tournament does: create, register, withdraw, pair rounds (making their games), record
results from the games' ledgers, adjudicate, extend, answer disputes, end and reveal the seed.

Every act is an event in the tournament's stream (warlog.tournaments.events); the games are
ordinary games of the same ledger whose seats belong to the paired players. The tournament
keeps each game's director token (tournament_games, never shown) to rule in it: an
adjudication is an `award` ruling in the game, and the game's end then becomes a result.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ledger.dice import SCHEME, commitment, new_seed
from ledger.events import GAME_ENDED
from ledger.store import Conflict
from rules import get_game
from validators.names import NO_CONTROLS, control_character
from warlog.catalogs import N_, Words, say, stored_language, words
from warlog.games.replay import seat_name
from warlog.games.service import (
    Forbidden,
    NotFound,
    ServiceError,
    StaleSeq,
    Unauthorized,
    Unprocessable,
    Warlog,
    token_hash,
)
from warlog.notify.naming import game_named, game_titled, tagged
from warlog.ops.lru import BoundedCache
from warlog.tournaments import events as T
from warlog.tournaments.deskview import step_names, void_preview, voidable
from warlog.tournaments.model import (
    DEFAULT_POINTS,
    FORMAT_NAMES,
    FORMATS,
    ModelError,
    Pairing,
    Tournament,
    apply,
    fold,
    pairings_doc,
)
from warlog.tournaments.pairing import PairingDice, PairingError, duplicate_seed, pair_next, rounds_planned
from warlog.tournaments.standings import crosstable, standings, standings_doc
from warlog.tournaments.store import TournamentStore
from warlog.trust.rounds import reveal_round_seed

ENGINES = ("auto", "dutch", "casual")
SWISS_FEED = 3  # how a new Swiss tournament's history is fed to the pairing engine (pairing.swiss_feed)
FORFEITS = ("unplayed", "played")  # how a Swiss round counts a forfeited game (FIDE: unplayed)
SEAT_LINK_LIFE = timedelta(days=7)  # a re-issued seat link signs its player in this long
WITHDRAWALS = ("forfeit", "adjudicate")  # a withdrawn player's running game: forfeited, or the director adjudicates


class Tournaments:
    def __init__(self, warlog: Warlog, store: TournamentStore, players: Any,
                 notify: Callable[..., Any] | None = None, base_url: Callable[[], str] = lambda: "") -> None:
        self.warlog, self.store, self.players = warlog, store, players
        self.notify = notify  # notifier.notify(player_id, kind, subject, text, ...) or None
        self.base_url = base_url  # the site's public address: every link in a notice is absolute
        self.clock: Any = None  # warlog.clock's GameClock, when deadlines are wired (clockwire.attach)
        self.calendar: Any = None  # warlog.tournaments.publish.CalendarTokens: players' private iCal links
        # (LeavePolicy, tournament id): the leave book's set_policy, when leave is wired (leavewire.attach)
        self.set_leave_policy: Callable[[Any, str], None] | None = None
        self._cache: dict[str, Tournament] = {}
        # tournament id -> (its chain head, what was derived from the stream at that head): the
        # standings, the crosstable, the page's rendered standings; dropped when the head moves
        self._derived: BoundedCache[str, tuple[tuple[int, str], dict[str, Any]]] = BoundedCache(256)
        self._checked: dict[str, int] = {}  # game id -> the game's last event compared with its recorded result
        self._sent: set[tuple[str, int]] = set()  # (tournament, seq) of notices known to be recorded

    # -- reading -----------------------------------------------------------------------
    def get(self, tid: str) -> Tournament:
        cached = self._cache.get(tid)
        last = self.store.last_seq(tid)
        if last < 0:
            raise NotFound(f"no tournament {tid}")
        if cached is not None and cached.last_seq == last:
            return cached
        t = fold(self.store.read(tid))
        self._cache[tid] = t
        return t

    def derived(self, t: Tournament, name: str, build: Callable[[], Any]) -> Any:
        """`build()`, cached under `name` until the tournament's chain head (last seq and hash)
        moves on: what is derived from the stream alone (standings, crosstable, their page)
        is computed once per event, not once per request."""
        head = (t.last_seq, t.last_hash)
        found = self._derived.get(t.id)
        if found is None or found[0] != head:
            found = (head, {})
            self._derived[t.id] = found
        values = found[1]
        if name not in values:
            values[name] = build()
        return values[name]

    def table(self, t: Tournament) -> tuple[list[Any], dict[str, Any]]:
        """The standings and crosstable of `t` (cached by the chain head: they depend on nothing else)."""
        def build() -> tuple[list[Any], dict[str, Any]]:
            lines = standings(t)
            return lines, crosstable(t, lines)

        found: tuple[list[Any], dict[str, Any]] = self.derived(t, "table", build)
        return found

    def _append(self, t: Tournament, new: list[tuple[str, str | None, dict[str, Any]]],
                status: str | None = None, retry: bool = False) -> Tournament:
        """Append `new` after `t`'s last event, once it is checked to fold (a stream that cannot be
        folded is never written). `retry`: for acts that do not depend on what the actor saw
        (a registration, a dispute, a recorded result), append at the new end when another
        writer got there first, checked again against it."""
        for _attempt in range(8):
            self._check(t, new)
            try:
                self.store.append(t.id, t.last_seq, new, projection={"status": status} if status else None)
            except Conflict:
                if not retry:
                    raise StaleSeq(N_("the tournament changed while this was being done; try again")) from None
                t = self.get(t.id)
                continue
            return self.get(t.id)
        raise StaleSeq(N_("the tournament is too busy just now; try again"))

    @staticmethod
    def _check(t: Tournament, new: list[tuple[str, str | None, dict[str, Any]]]) -> None:
        probe, prev = copy.deepcopy(t), t.last_hash
        for i, (type_, seat, payload) in enumerate(new):
            ev = T.seal(t.id, t.last_seq + 1 + i, type_, seat, payload, "", prev)
            prev = ev.hash
            try:
                apply(probe, ev)
            except ModelError as err:
                raise StaleSeq(err.reason) from None

    def _director(self, t: Tournament, player: Any) -> None:
        if player is None:
            raise Unauthorized(N_("sign in as the tournament's director"))  # no credentials: 401 (RFC 9110 15.5.2), not 403
        if not t.directs(player.id):
            raise Forbidden(N_("only the tournament's director (or a co-director) may do this"))

    def director_for_game(self, t: Tournament, player: Any, game_id: str) -> None:
        """A director acts on a game only if they do not play in it: a director who is also an
        entrant would see (or probe) their opponent's hidden information. A co-director, or a
        named deputy (`add_director`), rules there instead."""
        self._director(t, player)
        found = t.game_round(game_id)
        if found is not None and player.id in found[1].players():
            raise Forbidden("you play in this game: a co-director rules your own games (the tournament's "
                            "director names one on the tournament page)")

    @staticmethod
    def directors_for(t: Tournament, game_id: str) -> list[str]:
        """The directors who may act on a game: the director and co-directors who do not play in it."""
        found = t.game_round(game_id)
        players = found[1].players() if found is not None else []
        return [pid for pid in (t.director, *t.co_directors) if pid not in players]

    def add_director(self, tid: str, actor: Any, player_id: str) -> Tournament:
        """The tournament's director names a co-director (a `director_added` event), who may do
        everything a director does except name others; each ruling records who made it."""
        t = self.get(tid)
        if actor is None or actor.id != t.director:
            raise Forbidden(N_("only the director who created the tournament names co-directors"))
        if t.ended is not None:
            raise StaleSeq(N_("the tournament has ended"))
        player = self.players.get(player_id) if self.players is not None and player_id else None
        if player is None:
            raise NotFound(f"no player {player_id!r}")
        if t.directs(player.id):
            return t
        return self._append(t, [(T.DIRECTOR_ADDED, "director", {"player_id": player.id,
                                                                 "display_name": player.display_name})], retry=True)

    # -- creating and registering ------------------------------------------------------------
    def create(self, director: Any, name: str, game_name: str, scenario: str | None, options: dict[str, Any] | None,
               fmt: dict[str, Any], points: dict[str, int] | None = None,
               time_control: dict[str, Any] | None = None, entry: dict[str, Any] | None = None,
               leave: dict[str, Any] | None = None) -> Tournament:
        if director is None:
            raise Unauthorized(N_("sign in to create a tournament (its director is you)"))  # no credentials: 401 (RFC 9110 15.5.2), not 403
        if control_character(name):  # the name is in every mail's subject (validators.names)
            raise Unprocessable(f"the tournament's name {NO_CONTROLS}; found {control_character(name)}",
                                fields={"name": [NO_CONTROLS]})
        game = self.warlog._game(game_name)
        scenario = scenario or next(iter(game.scenarios()))
        if scenario not in game.scenarios():
            raise Unprocessable(f"unknown scenario {scenario!r} for {game.name}")
        try:
            game.check_option_types(options)
            opts = game.resolve_options(options)
            game.check_options(scenario, opts)
        except Exception as err:
            raise Unprocessable(str(err)) from None
        roles = list(game.roles(scenario))
        kind = fmt.get("kind")
        if kind not in FORMATS:
            raise Unprocessable(f"format.kind must be one of {', '.join(FORMATS)}")
        if kind == "knockout" and len(roles) != 2:
            raise Unprocessable(N_("a knockout tournament is for a two-seat game"))
        if kind == "duplicate" and len(roles) != 1:
            raise Unprocessable(N_("a duplicate tournament is for a solitaire game (one seat), e.g. green-beret-vietnam"))
        if kind != "duplicate" and len(roles) != 2:
            raise Unprocessable(f"a {kind} tournament is for a two-seat game")
        doc: dict[str, Any] = {"kind": kind}
        if kind in ("swiss", "duplicate"):
            doc["rounds"] = int(fmt.get("rounds") or 1)
            if not 1 <= doc["rounds"] <= 30:
                raise Unprocessable(N_("format.rounds must be 1..30"))
        if kind == "swiss":
            doc["engine"] = fmt.get("engine") or "auto"
            if doc["engine"] not in ENGINES:
                raise Unprocessable(f"format.engine must be one of {', '.join(ENGINES)}")
            doc["feed"] = SWISS_FEED  # FIDE's reading of the history (warlog.tournaments.pairing.swiss_feed)
            doc["forfeits"] = fmt.get("forfeits") or "unplayed"
            if doc["forfeits"] not in FORFEITS:
                raise Unprocessable(N_("format.forfeits must be unplayed (FIDE: no side, a rematch allowed) or played"))
            if fmt.get("accelerated") not in (None, False, True):
                raise Unprocessable(N_("format.accelerated must be true or false (Baku acceleration, FIDE C.04.5.1)"))
            if fmt.get("accelerated"):  # virtual points for the top half early on (pairing.baku_points)
                doc["accelerated"] = True
        elif fmt.get("accelerated"):
            raise Unprocessable(N_("format.accelerated (Baku acceleration) is for a Swiss"))
        if fmt.get("withdrawal") is not None:
            doc["withdrawal"] = fmt["withdrawal"]
            if doc["withdrawal"] not in WITHDRAWALS:
                raise Unprocessable(N_("format.withdrawal must be forfeit or adjudicate"))
        if fmt.get("auto_pair"):
            doc["auto_pair"] = True
        if fmt.get("seeding") not in (None, "random", "rating"):
            raise Unprocessable(N_("format.seeding must be random or rating"))
        if fmt.get("seeding") == "rating":  # the players' OpenSkill ratings order round 1 (docs/tournaments.md)
            doc["seeding"] = "rating"
        if kind == "knockout" and fmt.get("third_place"):
            doc["third_place"] = True
        if kind == "pools":
            doc["pools"] = int(fmt.get("pools") or 1)
            doc["playoff"] = int(fmt.get("playoff") or 0)
            if not 1 <= doc["pools"] <= 64 or not 0 <= doc["playoff"] <= 8:
                raise Unprocessable(N_("format.pools must be 1..64 and format.playoff (qualifiers per pool) 0..8"))
        pts = {**DEFAULT_POINTS, **(points or {})}
        if set(pts) != set(DEFAULT_POINTS) or not all(isinstance(v, int) and 0 <= v <= 100 for v in pts.values()):
            raise Unprocessable(N_("points are integers 0..100 for win, draw, loss and bye"))
        tc = dict(time_control or {})
        if tc:
            from warlog.clock.clock import ClockError
            from warlog.tournaments.clockwire import time_control as as_control

            try:
                tc = as_control(tc).to_json()
            except ClockError as err:
                raise Unprocessable(f"time_control: {err}") from None
        terms = entry_terms(entry or {})
        policy = None
        if leave is not None:  # the entrants' leave allowance and the round deadlines under it (warlog.clock.leave)
            from warlog.clock.leave import AwayRefused, LeavePolicy

            try:
                policy = LeavePolicy(**leave)
            except (AwayRefused, TypeError) as err:
                raise Unprocessable(f"leave: {err}") from None
        seed = new_seed()
        tid = T.ID_PREFIX + secrets.token_hex(8)
        payload = {"name": str(name)[:120] or "Tournament", "game": game.name, "rules_version": game.version,
                   "scenario": scenario, "options": opts, "roles": roles, "format": doc, "points": pts,
                   "time_control": tc, "director": director.id, "dice_scheme": SCHEME,
                   "seed_commitment": commitment(seed)}
        if terms:
            payload["entry"] = terms
        if policy is not None:
            payload["leave"] = policy.to_json()
        self.store.append(tid, -1, [(T.CREATED, "director", payload)], secret=seed,
                          projection={"name": payload["name"], "game": game.name, "kind": kind,
                                      "director": director.id})
        if policy is not None and self.set_leave_policy is not None:
            self.set_leave_policy(policy, tid)
        return self.get(tid)

    def register(self, tid: str, player: Any) -> Tournament:
        t = self.get(tid)
        if player is None:
            raise Unauthorized(N_("sign in to register"))  # no credentials: 401 (RFC 9110 15.5.2), not 403
        if t.status != "registration" and t.kind != "swiss":
            raise StaleSeq(N_("registration has closed (the first round is paired)"))
        if t.status == "ended":
            raise StaleSeq(N_("the tournament has ended"))
        e = t.entrants.get(player.id)
        if e is not None and not e.withdrawn:
            return t
        refused = entry_refusal(t, datetime.now(UTC))
        if refused:
            raise StaleSeq(refused)
        t = self._append(t, [(T.REGISTERED, None, {"player_id": player.id, "display_name": player.display_name})],
                         retry=True)
        self._tell(player.id, "pairing", words("%(t)s: you are registered", t=t.name),
                   words("You are registered in %(t)s (%(kind)s, %(game)s). You are told of each pairing by mail; "
                         "you may withdraw from the tournament page.", t=t.name,
                         kind=words(FORMAT_NAMES[t.kind]) if t.kind in FORMAT_NAMES else t.kind,
                         game=words(get_game(t.game).title)), tid=tid)
        return t

    def withdraw(self, tid: str, actor: Any, player_id: str, reason: str) -> Tournament:
        t = self.get(tid)
        if actor is None or (actor.id != player_id and not t.directs(actor.id)):
            raise Forbidden(N_("a player withdraws themself; a director (or co-director) may withdraw anyone"))
        e = t.entrants.get(player_id)
        if e is None or e.withdrawn:
            raise NotFound(f"{player_id} is not an entrant")
        by_director = actor.id != player_id and t.directs(actor.id)
        t = self._append(t, [(T.WITHDRAWN, "director" if by_director else None,
                              {"player_id": player_id, "reason": reason[:2000]})])
        self._tell(player_id, "pairing", words("%(t)s: you are withdrawn", t=t.name),
                   words("You are withdrawn from %(t)s (%(reason)s).", t=t.name, reason=reason) if reason.strip()
                   else words("You are withdrawn from %(t)s.", t=t.name), tid=tid)
        self._withdrawn_games(t, player_id, reason)
        return self.get(tid)

    def running_games(self, t: Tournament, player_id: str) -> list[Pairing]:
        """The player's games without a result."""
        return [p for _n, p in t.games() if p.game_id and p.game_id not in t.results and player_id in p.players()]

    def _withdrawn_games(self, t: Tournament, player_id: str, reason: str) -> None:
        """A withdrawn player's running games follow the event's policy (`format.withdrawal`):
        forfeited at once, or left to the director to adjudicate; the opponent is told either way."""
        policy = t.format.get("withdrawal", "forfeit")
        for p in self.running_games(t, player_id):
            gid = p.game_id or ""
            others = [q for q in p.players() if q != player_id]
            if policy == "forfeit" and others:
                try:
                    self.adjudicate(t.id, _Actor(t.director), gid, "forfeit", None,
                                    f"{t.name_of(player_id)} withdrew from the tournament", forfeiting=player_id)
                except ServiceError:
                    logging.getLogger("warlog.tournaments").exception("withdrawal forfeit in %s failed", gid)
                what = words(": in the %(game)s the game is forfeited to you (the event's policy).", game=self._named(gid))
            else:
                what = words(": in the %(game)s the director adjudicates the game (the event's policy).",
                             game=self._named(gid))
                for director in self.directors_for(t, gid):
                    self._tell(director, "ruling", words("%(t)s: adjudicate a game", t=t.name),
                               words("%(player)s withdrew from %(t)s; their %(game)s awaits your "
                                     "adjudication (the event's policy).", player=t.name_of(player_id), t=t.name,
                                     game=self._named(gid)), game_id=gid, tid=t.id, link=self._desk(t.id))
            for other in others:
                self._tell(other, "pairing", words("%(t)s: your opponent withdrew", t=t.name),
                           words("%(player)s withdrew from %(t)s", player=t.name_of(player_id), t=t.name)
                           + (f" ({reason})" if reason.strip() else "") + what, game_id=gid, tid=t.id,
                           link=self._url(f"/games/{gid}"))

    # -- rounds ----------------------------------------------------------------------------
    def pair_next_round(self, tid: str, director: Any) -> Tournament:
        t = self.sync(tid)
        self._director(t, director)
        seed = self.store.secret(tid)
        dice = PairingDice(seed, tid, t.last_seq + 1)
        seeding = None
        if t.current_round == 0 and t.format.get("seeding") == "rating":
            from warlog.tournaments.ratings import seed_ratings

            seeding = seed_ratings(self, t.active_entrants())
        try:
            proposal = pair_next(t, dice, seeding)
        except PairingError as err:
            raise StaleSeq(str(err)) from None
        game_seed = duplicate_seed(seed, tid, proposal.round) if t.kind == "duplicate" and seed else None
        self._make_games(t, proposal.round, proposal.pairings, game_seed)
        payload = {"round": proposal.round, "pairings": pairings_doc(proposal.pairings), "byes": proposal.byes,
                   "dice": proposal.dice, **proposal.extra}
        t = self._append(t, [(T.ROUND_PAIRED, "director", payload)], status="running")
        self._tell_pairings(t, proposal.round, proposal.pairings, proposal.byes)
        if not proposal.pairings and t.round_complete(proposal.round):  # a knockout round of walkovers only
            t = self._round_complete(t, proposal.round)
        return t

    def _tell_pairings(self, t: Tournament, number: int, pairings: list[Pairing], byes: list[str],
                       repaired: str | None = None) -> None:
        """Each paired player's table (with its game's link), each bye announced."""
        head = (words("Round %(n)s of %(t)s was re-paired (%(reason)s)", n=number, t=t.name, reason=repaired)
                if repaired else words("Round %(n)s of %(t)s", n=number, t=t.name))
        subject = (words("%(t)s: round %(n)s re-paired", t=t.name, n=number) if repaired else
                   words("%(t)s: round %(n)s", t=t.name, n=number))
        for p in pairings:
            for role, pid in p.seats.items():
                seat = self._seat_named(p.game_id, role)
                play = (words(": you play %(seat)s in the %(game)s against %(opponent)s.", seat=seat,
                              game=self._named(p.game_id),
                              opponent=t.name_of(self._opponent(p, pid))) if len(p.seats) > 1 else
                        words(": you play %(seat)s in the %(game)s.", seat=seat, game=self._named(p.game_id)))
                self._tell(pid, "pairing", subject, head + play,
                           game_id=p.game_id, tid=t.id, link=self._url(f"/games/{p.game_id}"))
        for pid in byes:
            self._tell(pid, "pairing", words("%(t)s: a bye in round %(n)s", t=t.name, n=number),
                       head + words(": you have a bye (%(points)s point(s)); nothing to play this round.",
                                    points=t.points["bye"]), tid=t.id)

    @staticmethod
    def _opponent(p: Pairing, pid: str) -> str:
        return next((q for q in p.players() if q != pid), "")

    def _make_games(self, t: Tournament, number: int, pairings: list[Pairing], game_seed: bytes | None) -> None:
        """A duplicate round's games (a re-paired table's too) share the round's seed and dice
        stream, and withhold the seed at their end until the whole round has ended (ledger.dice
        step 9; revealed by `sync`)."""
        if t.kind == "duplicate" and game_seed is None and (secret := self.store.secret(t.id)):
            game_seed = duplicate_seed(secret, t.id, number)
        stream = f"{t.id}/round-{number}" if game_seed else None
        for p in pairings:
            made = self.warlog.create_game(t.game, t.scenario, t.options, seed=game_seed, dice_stream=stream,
                                           keying="judgement" if stream else None,
                                           duplicate_round={"tournament": t.id, "round": number} if stream else None)
            p.game_id = made["id"]
            self.store.add_game(made["id"], t.id, number, token_hash(made["director_token"]))
            if self.clock is not None and t.time_control:  # before the game starts: its first
                from warlog.tournaments.clockwire import time_control  # "your turn" mail has the deadline

                self.clock.set_time_control(made["id"], time_control(t.time_control), tournament_id=t.id)
            for role, pid in p.seats.items():
                if self.players is not None:
                    self.players.claim_seat(made["id"], role, pid)
                self.warlog.join(made["id"], made["seats"][role], "")

    def repair(self, tid: str, director: Any, round_number: int, pairings: list[dict[str, Any]],
               byes: list[str], reason: str) -> Tournament:
        """A director's manual re-pairing of the current round (every entrant once, a reason given).
        Tables whose seats are unchanged keep their game; new tables get new games."""
        t = self.sync(tid)
        self._director(t, director)
        if round_number != t.current_round or round_number == 0:
            raise StaleSeq(N_("only the current round can be re-paired"))
        if t.kind == "knockout":
            raise StaleSeq("a knockout round is not re-paired (its bracket is drawn from the seeds): replace a "
                           "player with a substitute, or adjudicate the game")
        if not reason.strip():
            raise Unprocessable(N_("a re-pairing needs a reason"))
        old = {tuple(sorted(p.seats.items())): p for p in t.rounds[round_number].pairings}
        old_byes = set(t.rounds[round_number].byes)
        new: list[Pairing] = []
        seen: list[str] = list(byes)
        for i, doc in enumerate(pairings):
            seats = doc.get("seats")
            if not isinstance(seats, dict) or sorted(seats) != sorted(t.roles):
                raise Unprocessable(f"table {i + 1}: seats must name each of {', '.join(t.roles)}")
            seen += list(seats.values())
            keep = old.get(tuple(sorted(seats.items())))
            new.append(Pairing(i + 1, dict(seats), keep.game_id if keep else None))
        if sorted(seen) != sorted(t.active_entrants()):
            raise Unprocessable(N_("a re-pairing places every active entrant exactly once (at a table or with a bye)"))
        self._make_games(t, round_number, [p for p in new if p.game_id is None], None)
        t = self._append(t, [(T.REPAIRED, "director", {"round": round_number, "pairings": pairings_doc(new),
                                                        "byes": list(byes), "dice": [], "reason": reason[:2000]})])
        kept = {p.game_id for p in new}
        for gone in old.values():  # a replaced game is ended by a ruling: it counts for nothing
            summary = self.warlog.store.summary(gone.game_id or "")
            if gone.game_id not in kept and summary is not None and summary.status == "active":
                self.warlog.rule_as_owner(gone.game_id or "", self.store.director_hash(gone.game_id or ""), {
                    "kind": "award", "winner": None, "result": N_("Cancelled: the round was re-paired"),
                    "reason": f"tournament re-pairing: {reason}"[:4000]})
        moved = [p for p in new if tuple(sorted(p.seats.items())) not in old]
        self._tell_pairings(t, round_number, moved, [b for b in byes if b not in old_byes], repaired=reason)
        return t

    # -- results ---------------------------------------------------------------------------
    def sync(self, tid: str, status: dict[str, tuple[str, list[str]]] | None = None, _depth: int = 0) -> Tournament:
        """Bring the stream up to what the games' ledgers say (`status`: the games' status if the
        caller has just read it): the result of every game that has ended since the last look,
        the game's verdict on every ruling it has judged (`ruling_judged`), and a correction
        (`result_corrected`) for every game whose outcome a later ruling changed. Then the
        notices these events ask for are sent (each once; a crash before it leaves it to the
        next look)."""
        t = self.get(tid)
        new: list[tuple[str, str | None, dict[str, Any]]] = []
        if t.ended is not None:  # its results stand; the verdict on a ruling made before the end is still news
            new += self._judgements(t)
        else:
            if len(t.results) < len(t.games()):
                status = status if status is not None else self.store.game_status(tid)
                ended = [(number, p) for number, p in t.games() if p.game_id and p.game_id not in t.results
                         and status.get(p.game_id, ("missing", []))[0] == "ended"]
                if t.kind == "duplicate":
                    self._reveal_rounds(t, status, {number for number, _p in ended})
                new += [(T.RESULT, None, self._result_payload(t, number, p)) for number, p in ended]
            new += self._judgements(t)
            new += self._corrections(t)
        if new:
            was = {n for n in t.rounds if t.round_complete(n)}
            try:
                t = self._append(t, new, retry=True)
            except StaleSeq:  # another request recorded one of these first: look again
                return self.sync(tid, None, _depth + 1) if _depth < 3 else self.get(tid)
            done = [n for n in t.rounds if n not in was and t.round_complete(n)]
            if done:  # only the request that recorded the round's last result gets here
                t = self._round_complete(t, max(done))
        self._deliver(t)
        return t

    def _round_complete(self, t: Tournament, number: int) -> Tournament:
        """Tell the directors a round is complete; pair the next one when the tournament says so
        (`format.auto_pair`)."""
        planned = rounds_planned(t)
        auto = bool(t.format.get("auto_pair")) and t.ended is None and number == t.current_round < planned
        paired = None
        if auto:
            try:
                t = self.pair_next_round(t.id, _Actor(t.director))
                paired = t.current_round
            except ServiceError as err:
                logging.getLogger("warlog.tournaments").warning("automatic pairing of %s failed: %s", t.id, err)
                auto = False
        then = (words("Round %(n)s was paired automatically.", n=paired) if paired else
                words("Every round is played: end the tournament from the desk.") if number >= planned else
                words("Pair the next round from the desk."))
        for director in (t.director, *t.co_directors):
            self._tell(director, "pairing", words("%(t)s: round %(n)s is complete", t=t.name, n=number),
                       words("Every game of round %(n)s of %(t)s has its result.", n=number, t=t.name) + " " + then,
                       tid=t.id, link=self._desk(t.id))
        return t

    def needs_sync(self, t: Tournament) -> bool:
        """Whether `sync` has anything to look at beyond missing results: a ruling the stream has
        not seen judged, a notice not sent, a game whose ledger moved past its recorded result."""
        if t.pending_rulings() or self._unsent(t):
            return True
        if t.ended is not None:
            return False
        heads = self.store.game_heads(t.id)
        return any(heads.get(gid, -1) > self._checked.get(gid, r.final_seq if r.final_seq is not None else -1)
                   for gid, r in t.results.items())

    def _judgements(self, t: Tournament) -> list[tuple[str, str | None, dict[str, Any]]]:
        """`ruling_judged` for each pending ruling the game has judged: `made` (resolved) or
        `refused` (rejected, with the game's reasons)."""
        out: list[tuple[str, str | None, dict[str, Any]]] = []
        for r in t.pending_rulings():
            judged = self.warlog.history(r["game_id"]).find_judgement(int(r["game_ruling_seq"]))
            if judged is None:
                continue
            outcome = "made" if judged.type == "resolved" else "refused"
            reasons = [_short(str(x.get("message", ""))) for x in judged.payload.get("reasons", [])
                       ] if outcome == "refused" else []
            out.append((T.RULING_JUDGED, None, {"ruling": r["ruling_seq"], "game_id": r["game_id"],
                                                "game_ruling_seq": r["game_ruling_seq"],
                                                "judgement_seq": judged.seq, "outcome": outcome,
                                                "reasons": self._public_reasons(r["game_id"], reasons)}))
        return out

    def _public_reasons(self, game_id: str, reasons: list[str]) -> list[str]:
        """The tournament's stream is public: a game that keeps secrets has its refusal's reasons
        withheld there until it ends, as its own ledger's views withhold them."""
        created = self.warlog.created(game_id).payload
        if reasons and get_game(created["game"]).keeps_secrets and self.warlog.summary(game_id).status != "ended":
            return ["the game refused the ruling (its reason is hidden until the game ends)"]
        return reasons

    def _corrections(self, t: Tournament) -> list[tuple[str, str | None, dict[str, Any]]]:
        """`result_corrected` for each game whose ledger now gives another result than the one
        recorded (a ruling after its end: an award, a void that reopened it and a new end)."""
        out: list[tuple[str, str | None, dict[str, Any]]] = []
        heads = self.store.game_heads(t.id)
        for gid, res in t.results.items():
            head = heads.get(gid, -1)
            seen = self._checked.get(gid, res.final_seq if res.final_seq is not None else -1)
            if head <= seen:
                continue
            if self.warlog.summary(gid).status != "ended":  # reopened: the desk shows it; wait for its end
                continue
            found = t.game_round(gid)
            if found is None:
                continue
            payload = self._result_payload(t, found[0], found[1])
            if any(payload.get(k) != v for k, v in (("winner", res.winner), ("points", res.points),
                                                     ("how", res.how), ("score", res.score))):
                reason = str(payload["outcome"].get("reason") or "the game's outcome changed")
                out.append((T.RESULT_CORRECTED, None, {**payload, "corrects": res.seq, "reason": reason[:4000]}))
            self._checked[gid] = head
        return out

    def _reveal_rounds(self, t: Tournament, status: dict[str, tuple[str, list[str]]], rounds: set[int]) -> None:
        """Reveal the round's seed in each game of every duplicate round in `rounds` whose games
        have all ended (ledger.dice step 9), before their results are recorded: a round whose
        last result is recorded has had its reveal, and a crash in between is redone (the reveal
        is idempotent) by the next sync, which finds that result still to record."""
        for number in sorted(rounds):
            if all(status.get(p.game_id or "", ("missing", []))[0] == "ended" for p in t.rounds[number].pairings):
                for game_id, (state, _seats) in self.store.game_status(t.id, number).items():
                    if state == "ended":  # a replaced table's game too (it shares the seed)
                        reveal_round_seed(self.warlog, game_id)

    def _result_payload(self, t: Tournament, number: int, p: Pairing) -> dict[str, Any]:
        events = self.warlog.store.read(p.game_id or "")
        return result_from_game(t, number, p, events, self._final_state(p.game_id or "", events))

    def _final_state(self, game_id: str, events: list[Any]) -> Any:
        last = max((e.seq for e in events if e.type == "resolved"), default=None)
        return self.warlog.history(game_id).state_at(last) if last is not None else None

    def adjudicate(self, tid: str, director: Any, game_id: str, decision: str, winner: str | None,
                   reason: str, forfeiting: str | None = None) -> dict[str, Any]:
        """Award an unfinished game: `decision` win (for `winner`, a player id), draw, or forfeit
        (`forfeiting`: the player who forfeits; the older `winner` alone still names the player
        who did not). An `award` ruling in the game; its end becomes the tournament's result at
        the next sync. The same award twice is one ruling: the second answers with the first."""
        t = self.sync(tid)
        self._director(t, director)
        found = t.game_round(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        if not isinstance(director, _Actor):  # a deadline's forfeit is the policy's, not a person's
            self.director_for_game(t, director, game_id)
        ruling = self._award(t, found[1], decision, winner, forfeiting, reason)
        earlier = self._same_ruling(game_id, ruling)
        if earlier is not None:
            return earlier
        if game_id in t.results:
            raise StaleSeq(N_("that game has a result already: correct the result instead"))
        out = self.warlog.rule_as_owner(game_id, self.store.director_hash(game_id), ruling)
        return {**out, "ruling": ruling}

    def correct_result(self, tid: str, director: Any, game_id: str, decision: str, winner: str | None,
                       reason: str, forfeiting: str | None = None) -> dict[str, Any]:
        """Correct a recorded result: an `award` ruling in the (ended) game, so that the game's
        ledger says it too; once the game has judged it, `sync` records `result_corrected`."""
        t = self.sync(tid)
        self._director(t, director)
        self.director_for_game(t, director, game_id)
        if t.ended is not None:
            raise StaleSeq(N_("the tournament has ended: its results stand"))
        found = t.game_round(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        if game_id not in t.results:
            raise StaleSeq(N_("that game has no result to correct yet: adjudicate it instead"))
        ruling = self._award(t, found[1], decision, winner, forfeiting, reason, correction=True)
        earlier = self._same_ruling(game_id, ruling)
        if earlier is not None:
            return earlier
        out = self.warlog.rule_as_owner(game_id, self.store.director_hash(game_id), ruling)
        return {**out, "ruling": ruling}

    def _award(self, t: Tournament, p: Pairing, decision: str, winner: str | None, forfeiting: str | None,
               reason: str, correction: bool = False) -> dict[str, Any]:
        """The game's `award` ruling for a director's decision on table `p`."""
        allowed = ("end",) if t.kind == "duplicate" else ("win", "draw", "forfeit")
        if decision not in allowed:
            raise Unprocessable(f"decision must be {' or '.join(allowed)}")
        if not reason.strip():
            raise Unprocessable(N_("an adjudication needs a reason"))
        role = None
        if decision == "forfeit" and forfeiting is not None:
            loser = next((r for r, pid in p.seats.items() if pid == forfeiting), None)
            if loser is None:
                raise Unprocessable(N_("forfeiting must be one of the game's players"))
            others = [r for r in p.seats if r != loser]
            if winner is not None and [p.seats[r] for r in others] != [winner]:
                raise Unprocessable(N_("winner and forfeiting disagree: name only the player who forfeits"))
            role = others[0] if others else None
        elif decision not in ("draw", "end"):
            role = next((r for r, pid in p.seats.items() if pid == winner), None)
            if role is None:
                raise Unprocessable("winner must be one of the game's players" if decision == "win" else
                                    "name the player who forfeits (forfeiting)")
        result = {"win": f"{role} wins (adjudicated)", "draw": "Draw (adjudicated)",
                  "forfeit": f"{role} wins by forfeit", "end": "Ended by the director: scored as it stands"}[decision]
        kind = "correction" if correction else "tournament"
        return {"kind": "award", "winner": role, "result": result, "reason": f"{kind} {decision}: {reason}"[:4000]}

    def _same_ruling(self, game_id: str, ruling: dict[str, Any]) -> dict[str, Any] | None:
        """The game's earlier submission of this very ruling, still pending or made (a refused
        one may be tried again), as `rule_as_owner` answers: a repeated act is the first one."""
        history = self.warlog.history(game_id)
        for ev in reversed(self.warlog.store.read(game_id)):
            if ev.type == "submitted" and ev.seat == "director" and ev.payload.get("ruling") == ruling:
                judged = history.find_judgement(ev.seq)
                if judged is None or judged.type == "resolved":
                    return {"seq": ev.seq, "status": "pending" if judged is None else "made", "duplicate": True,
                            "ruling": ruling}
        return None

    def extend(self, tid: str, director: Any, game_id: str, player_id: str, days: int, reason: str,
               by_policy: bool = False, clock_act: str | None = None, hours: int = 0) -> Tournament:
        """Record an extension of `days` and `hours` (the event keeps both; an older one has days
        alone); the director's also moves the player's open deadline on the clock, and the game's
        players are told."""
        t = self.get(tid)
        if not by_policy:
            self.director_for_game(t, director, game_id)
        found = t.game_round(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        if (not isinstance(days, int) or not isinstance(hours, int) or days < 0 or hours < 0
                or not 1 <= days * 24 + hours <= 60 * 24):
            raise Unprocessable(N_("an extension is 1 hour to 60 days"))
        if not reason.strip():
            raise Unprocessable(N_("an extension needs a reason"))
        days, hours = divmod(days * 24 + hours, 24)
        payload: dict[str, Any] = {"game_id": game_id, "player_id": player_id, "days": days, "reason": reason[:2000],
                                   "by": "policy" if by_policy else "director"}
        if hours:
            payload["hours"] = hours
        if clock_act:
            payload["clock_act"] = clock_act
        seat = next((r for r, pid in found[1].seats.items() if pid == player_id), None)
        if seat is None:
            raise Unprocessable(N_("that player does not play this game"))
        due = None
        if not by_policy and self.clock is not None:
            d = self.clock.deadline(game_id, seat)
            if d is not None and d.status == "open":
                from datetime import timedelta

                from warlog.ops.sqldb import parse_iso

                ctl = self.clock.time_control(game_id)
                new_due = parse_iso(d.due_at) + timedelta(days=days, hours=hours)
                before = ctl[0].remind_before(new_due - self.clock.now()) if ctl else timedelta(hours=24)
                due = self.clock.set_deadline(game_id, seat, new_due, d.policy, t.id, then=d.then_policy,
                                              remind_before=before).due_at
        t = self._append(t, [(T.EXTENSION, None if by_policy else "director", payload)], retry=True)
        if not by_policy:
            span = (words("%(days)s day(s) and %(hours)s hour(s)", days=days, hours=hours) if days and hours else
                    words("%(days)s day(s)", days=days) if days else words("%(hours)s hour(s)", hours=hours))
            for pid in found[1].players():
                self._tell(pid, "deadline_passed",
                           words("%(t)s: deadline extended", t=t.name),
                           words("The director extended %(player)s's deadline in the %(game)s by %(span)s, now "
                                 "due %(due)s (UTC): %(reason)s", player=t.name_of(player_id), game=self._named(game_id),
                                 span=span, due=due, reason=reason) if due else
                           words("The director extended %(player)s's deadline in the %(game)s by %(span)s: "
                                 "%(reason)s", player=t.name_of(player_id), game=self._named(game_id), span=span,
                                 reason=reason),
                           game_id=game_id, tid=tid, link=self._url(f"/games/{game_id}"))
        return t

    def record_timeout(self, tid: str, game_id: str, player_id: str, policy: str,
                       clock_act: str | None = None) -> Tournament:
        """A deadline expired (the clock's handler): the event, then the tournament's policy."""
        t = self.get(tid)
        payload = {"game_id": game_id, "player_id": player_id, "policy": policy}
        if clock_act:
            payload["clock_act"] = clock_act
        t = self._append(t, [(T.TIMEOUT, None, payload)], retry=True)
        if policy == "forfeit":
            found = t.game_round(game_id)
            if found is not None and game_id not in t.results:
                other = self._opponent(found[1], player_id)
                director = _Actor(t.director)
                if other:
                    self.adjudicate(tid, director, game_id, "forfeit", None, f"{t.name_of(player_id)} ran out of time",
                                    forfeiting=player_id)
        for who in self.directors_for(t, game_id):  # not a director who plays in the game
            self._tell(who, "deadline_soon", words("%(t)s: a deadline expired", t=t.name),
                       words("%(player)s ran out of time in the %(game)s; policy: %(policy)s.",
                             player=t.name_of(player_id), game=self._named(game_id), policy=policy),
                       game_id=game_id, tid=tid, link=self._desk(tid))
        return self.get(tid)

    # -- disputes --------------------------------------------------------------------------
    def raise_dispute(self, tid: str, player: Any, game_id: str, seq: int, text: str) -> Tournament:
        t = self.get(tid)
        if player is None:
            raise Unauthorized(N_("sign in to raise a dispute"))  # no credentials: 401 (RFC 9110 15.5.2), not 403
        if t.ended is not None:
            raise StaleSeq(N_("the tournament has ended: its results stand"))
        found = t.game_round(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        if player.id not in found[1].players():
            raise Forbidden(N_("only the game's players may raise a dispute on it"))
        if not text.strip():
            raise Unprocessable(N_("say what the dispute is"))
        if not 0 <= seq <= self.warlog.store.last_seq(game_id):
            raise Unprocessable(f"game {game_id} has no event {seq}")
        t = self._append(t, [(T.DISPUTE, None, {"game_id": game_id, "seq": seq, "player_id": player.id,
                                                 "text": text[:4000]})], retry=True)
        for director in self.directors_for(t, game_id):
            self._tell(director, "ruling", words("%(t)s: a dispute", t=t.name),
                       words("%(player)s disputes event %(n)s of the %(game)s:", player=player.display_name, n=seq,
                             game=self._named(game_id)) + f"\n\n{text}", game_id=game_id,
                       tid=tid, link=self._desk(tid) + f"#dispute-{t.last_seq}")
        return t

    def answer_dispute(self, tid: str, director: Any, dispute_seq: int, decision: str, text: str,
                       ruling: dict[str, Any] | None = None) -> Tournament:
        """`decision` dismiss, or rule (then `ruling` is the game ruling: void/adjust/award, its
        reason = text). A ruling is pending until the game judges it (`sync`): made, it closes the
        dispute and the player is told; refused, the dispute is open again. The same answer twice
        is one answer."""
        t = self.sync(tid)
        self._director(t, director)
        d = t.disputes.get(dispute_seq)
        if d is None:
            raise NotFound(f"no dispute {dispute_seq}")
        self.director_for_game(t, director, d["game_id"])
        if decision not in ("dismiss", "rule"):
            raise Unprocessable(N_("decision must be dismiss or rule"))
        if not text.strip():
            raise Unprocessable(N_("an answer needs its reasons"))
        answer = d["answer"]
        if answer is not None:
            if answer.get("decision") == decision and answer.get("text") == text[:4000]:
                return t  # a repeated submission of the answer standing
            raise StaleSeq("that dispute has been answered" if answer["status"] != "pending" else
                           "that dispute's ruling is waiting for the game's judgement")
        if decision == "rule" and t.ended is not None:
            raise StaleSeq(N_("the tournament has ended: its results stand"))
        ruled_seq = self._game_ruling(t, d["game_id"], ruling, text) if decision == "rule" else None
        t = self._append(t, [(T.RULING, "director", {"dispute": dispute_seq, "decision": decision, "text": text[:4000],
                                                      "game_id": d["game_id"], "game_ruling_seq": ruled_seq,
                                                      "notify": d["player_id"], "by": director.id})],
                         retry=decision == "rule")
        return self.sync(tid)

    def rule(self, tid: str, director: Any, game_id: str, ruling: dict[str, Any],
             text: str) -> tuple[Tournament, int]:
        """A director's ruling in one of the tournament's games without a dispute (void and
        re-resolve, adjust, award): the game ruling, then a `ruling_made` event naming it. The
        same ruling twice (pending or made) is one ruling."""
        t = self.sync(tid)
        self._director(t, director)
        if t.game_round(game_id) is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        self.director_for_game(t, director, game_id)
        if t.ended is not None:
            raise StaleSeq(N_("the tournament has ended: its results stand"))
        ruled = self._game_ruling(t, game_id, ruling, text)
        if any(r.get("game_id") == game_id and r.get("game_ruling_seq") == ruled for r in t.rulings):
            return t, ruled
        t = self._append(t, [(T.RULING, "director", {"dispute": None, "decision": "rule", "text": text[:4000],
                                                      "game_id": game_id, "game_ruling_seq": ruled,
                                                      "by": director.id})], retry=True)
        return self.sync(tid), ruled

    def ruling_doc(self, game_id: str, ruling: dict[str, Any] | None, text: str,
                   check_target: bool = True) -> dict[str, Any]:
        """The game ruling a desk ruling submits, checked: its schema, and a void names the
        accepted move of a seat (the events the replay page lists as "#N"), never its submission."""
        if not isinstance(ruling, dict) or ruling.get("kind") not in ("void", "adjust", "award"):
            raise Unprocessable(N_("a ruling is void, adjust or award"))
        if not text.strip():
            raise Unprocessable(N_("a ruling needs its reasons"))
        from marshmallow import ValidationError

        from validators.requests import RulingSchema

        try:
            doc: dict[str, Any] = RulingSchema().load({**ruling, "reason": text[:4000]})
        except ValidationError as err:
            raise Unprocessable("the ruling does not fit its schema", fields=err.messages) from None
        doc.pop("idempotency_key", None)
        if doc["kind"] == "void" and check_target:
            events = self.warlog.store.read(game_id)
            target = doc.get("target")
            if not isinstance(target, int) or target not in {v["seq"] for v in voidable(events, self._gname(game_id))}:
                names = step_names(events, target if isinstance(target, int) else -1, self._gname(game_id))
                hint = (f"; the move at step {target} is #{names['void_target']}: void that"
                        if names["void_target"] not in (None, target) else "")
                raise Unprocessable(f"a void names the accepted move of a seat (the replay's #N), not yet voided: "
                                    f"event {target} is {names['what']}{hint}",
                                    fields={"target": [f"event {target} cannot be voided"]})
        return doc

    def _gname(self, game_id: str) -> str:
        return str(self.warlog.created(game_id).payload["game"])

    def _game_ruling(self, t: Tournament, game_id: str, ruling: dict[str, Any] | None, text: str) -> int:
        doc = self.ruling_doc(game_id, ruling, text, check_target=False)
        earlier = self._same_ruling(game_id, doc)
        if earlier is not None:
            return int(earlier["seq"])
        self.ruling_doc(game_id, ruling, text)
        return int(self.warlog.rule_as_owner(game_id, self.store.director_hash(game_id), doc)["seq"])

    def void_preview(self, game_id: str, target: int, re_resolve: bool) -> dict[str, Any]:
        """What voiding `target` now would undo (warlog.tournaments.deskview.void_preview)."""
        return void_preview(self.warlog.store.read(game_id), target, re_resolve, self._gname(game_id))

    # -- announcements and seats ------------------------------------------------------------
    def announce(self, tid: str, director: Any, text: str) -> Tournament:
        """The director's word to every active entrant (mail and webhook), kept on the
        tournament's page as an `announcement_made` event."""
        t = self.get(tid)
        self._director(t, director)
        if not text.strip():
            raise Unprocessable(N_("an announcement needs its text"))
        t = self._append(t, [(T.ANNOUNCED, "director", {"text": text[:4000], "by": director.id})], retry=True)
        for pid in t.active_entrants():
            self._tell(pid, "pairing", words("%(t)s: an announcement", t=t.name),
                       words("%(director)s writes:", director=getattr(director, "display_name", None) or t.name_of(director.id)) + f"\n\n{text}",
                       tid=tid, link=self._url(f"/tournaments/{tid}#event-{t.last_seq}"))
        return t

    def reissue_invitation(self, tid: str, director: Any, game_id: str, player_id: str, reason: str) -> str:
        """A new seat link for the player who holds a seat of `game_id` (a lost invitation): the
        link signs them in and opens the game; any earlier one for that seat stops working. The
        `invitation_reissued` event keeps the link's SHA-256 (as a game keeps its seat tokens'),
        never the link. Returns the link (mailed to the player, shown once to the director)."""
        t = self.get(tid)
        self.director_for_game(t, director, game_id)
        seat = self._seat_of(t, game_id, player_id)
        if not reason.strip():
            raise Unprocessable(N_("re-issuing an invitation needs a reason"))
        secret = secrets.token_urlsafe(24)
        t = self._append(t, [(T.INVITATION_REISSUED, "director", {
            "game_id": game_id, "seat": seat, "player_id": player_id, "reason": reason[:2000], "by": director.id,
            "token_sha256": hashlib.sha256(secret.encode()).hexdigest()})])
        link = self._url(f"/tournaments/{tid}/seat/{secret}")
        self._tell(player_id, "pairing", words("%(t)s: a new link to your seat", t=t.name),
                   words("The director has issued you a new link to your seat (%(seat)s) in the %(game)s of %(t)s "
                         "(%(reason)s). It signs you in and opens the game; any earlier link to this seat no longer "
                         "works:", seat=self._seat_named(game_id, seat), game=self._named(game_id), t=t.name,
                         reason=reason) + f"\n\n{link}", game_id=game_id, tid=tid, link=self._url(f"/games/{game_id}"))
        return link

    def seat_link(self, tid: str, secret: str) -> tuple[str, str, str] | None:
        """(game id, seat, player id) of a seat link still valid: the newest re-issued for its seat,
        whose player still holds the seat and whose game has no result, within SEAT_LINK_LIFE of
        its issue; else None."""
        t = self.get(tid)
        digest = hashlib.sha256(secret.encode()).hexdigest()
        now = datetime.now(UTC)
        latest: dict[tuple[str, str], dict[str, Any]] = {}
        for c in t.seat_changes:
            latest[(c["game_id"], c["seat"])] = c
        for (gid, seat), c in latest.items():
            found = t.game_round(gid)
            if (c["type"] == T.INVITATION_REISSUED and secrets.compare_digest(c["token_sha256"], digest)
                    and found is not None and found[1].seats.get(seat) == c["player_id"] and gid not in t.results
                    and now - datetime.fromisoformat(str(c["at"]).replace("Z", "+00:00")) <= SEAT_LINK_LIFE):
                return gid, seat, c["player_id"]
        return None

    def replace_player(self, tid: str, director: Any, game_id: str, player_id: str, substitute_id: str,
                       reason: str) -> Tournament:
        """A substitute takes the seat a player abandoned (`seat_replaced`, with its reason): the
        seat is theirs (the player who left can no longer act in it, and any seat link to it stops
        working), they take the player's place in the tournament, and both are told."""
        t = self.get(tid)
        self.director_for_game(t, director, game_id)
        seat = self._seat_of(t, game_id, player_id)
        if not reason.strip():
            raise Unprocessable(N_("a replacement needs a reason"))
        if game_id in t.results:
            raise StaleSeq(N_("that game has a result already"))
        sub = self.players.get(substitute_id) if self.players is not None and substitute_id else None
        if sub is None:
            raise NotFound(f"no player {substitute_id!r}")
        found = t.game_round(game_id)
        assert found is not None
        if sub.id in found[1].players():
            raise Unprocessable(N_("the substitute plays in this game already"))
        if sub.id in t.active_entrants() and any(sub.id in p.players() for p in t.rounds[found[0]].pairings):
            raise Unprocessable(N_("the substitute is paired in this round already"))
        self._append(t, [(T.SEAT_REPLACED, "director", {
            "game_id": game_id, "seat": seat, "player_id": player_id, "substitute": sub.id,
            "display_name": sub.display_name, "reason": reason[:2000], "by": director.id})])
        self.store.transfer_seat(game_id, seat, player_id, sub.id)
        t = self.get(tid)
        opponents = [q for q in found[1].players() if q != player_id]
        given = dict(t=t.name, player=t.name_of(player_id), seat=self._seat_named(game_id, seat),
                     game=self._named(game_id), reason=reason)
        self._tell(sub.id, "pairing", words("%(t)s: you take a seat", t=t.name),
                   (words("The director of %(t)s has given you %(player)s's seat (%(seat)s) in the %(game)s against "
                          "%(opponents)s (%(reason)s). You also take their place in the tournament.",
                          opponents=", ".join(t.name_of(q) for q in opponents), **given) if opponents else
                    words("The director of %(t)s has given you %(player)s's seat (%(seat)s) in the %(game)s "
                          "(%(reason)s). You also take their place in the tournament.", **given)),
                   game_id=game_id, tid=tid, link=self._url(f"/games/{game_id}"))
        self._tell(player_id, "pairing",
                   words("%(t)s: your seat was given to a substitute", t=t.name),
                   words("The director gave your seat (%(seat)s) in the %(game)s to %(substitute)s (%(reason)s); "
                         "you are withdrawn from %(t)s.", substitute=sub.display_name, **given),
                   game_id=game_id, tid=tid)
        for q in opponents:
            self._tell(q, "pairing", words("%(t)s: a new opponent", t=t.name),
                       words("%(substitute)s takes %(player)s's seat (%(seat)s) in the %(game)s (%(reason)s).",
                             substitute=sub.display_name, **given),
                       game_id=game_id, tid=tid, link=self._url(f"/games/{game_id}"))
        return t

    @staticmethod
    def _seat_of(t: Tournament, game_id: str, player_id: str) -> str:
        found = t.game_round(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in this tournament")
        seat = next((r for r, pid in found[1].seats.items() if pid == player_id), None)
        if seat is None:
            raise Unprocessable(N_("that player does not hold a seat of this game"))
        return seat

    # -- the end ---------------------------------------------------------------------------
    def finish(self, tid: str, director: Any) -> Tournament:
        t = self.sync(tid)
        self._director(t, director)
        if t.ended is not None:
            raise StaleSeq(N_("the tournament has ended"))
        if t.current_round < rounds_planned(t) or not t.round_complete(t.current_round):
            raise StaleSeq(N_("every round must be paired and have every result before the end"))
        if t.pending_rulings():  # its verdict could change a result the end would then freeze
            raise StaleSeq(N_("a ruling is waiting for its game's judgement: end the tournament once it is judged"))
        status = self.store.game_status(tid)
        if any(status.get(gid, ("ended", []))[0] != "ended" for gid in t.results):
            raise StaleSeq(N_("a game was reopened after its result: end the tournament once it has ended again"))
        seed = self.store.secret(tid)
        assert seed is not None
        standing = standings_doc(t)
        return self._append(t, [(T.ENDED, "director", {"standings": standing}),
                                (T.SEED_REVEALED, None, {"seed": seed.hex(), "commitment": commitment(seed)})],
                            status="ended")

    # -- notices ---------------------------------------------------------------------------
    def _named(self, game_id: str) -> Words:
        """A game for a notice's text: by its titles and its id (warlog.notify.naming)."""
        return game_named(self.warlog.store, game_id)

    def _seat_named(self, game_id: str, seat: str) -> Words:
        """A seat for a notice's text, as its game names it ("Germany", ドイツ軍), never its id."""
        summary = self.warlog.store.summary(game_id)
        return words(seat_name(seat, summary.game if summary else None))

    def _tell(self, player_id: str, kind: str, subject: Words | str, text: Words | str, game_id: str | None = None,
              tid: str | None = None, link: str | None = None) -> bool:
        """A notice to one player, in the language they chose (warlog.catalogs.Words). A notice of
        a game names it at the end of its subject by its titles, then its id (warlog.notify.naming)."""
        if self.notify is None or not player_id:
            return False
        try:
            if game_id:
                subject = tagged(subject + words(" (%(game)s)", game=game_titled(self.warlog.store, game_id)), game_id)
            lang = stored_language(self.store.db, player_id)
            self.notify(player_id, kind, say(subject, lang), say(text, lang), game_id=game_id, tournament_id=tid,
                        link=self._url(link or (f"/tournaments/{tid}" if tid else "")) or None)
        except Exception:  # a notice never blocks the act (it is recorded by the notifier if it fails)
            import logging

            logging.getLogger("warlog.tournaments").exception("notice to %s failed", player_id)
            return False
        return True

    def _url(self, path: str) -> str:
        """`path` on the site's public address (a link a mail client can open); a link that is
        absolute already is kept."""
        if not path or path.startswith(("http://", "https://")):
            return path
        return self.base_url().rstrip("/") + path

    def _desk(self, tid: str) -> str:
        return self._url(f"/tournaments/{tid}/desk")

    def _unsent(self, t: Tournament) -> list[dict[str, Any]]:
        if self.notify is None:
            return []
        return [n for n in t.notices if (t.id, n["seq"]) not in self._sent]

    def _deliver(self, t: Tournament) -> None:
        """Send each notice an event of the stream asks for (a dispute's answer: dismissed, or
        ruled once the game has judged the ruling) unless the notifier has it already: each
        notice's link names its event, so a crash between the event and its notice leaves it
        to the next look, which finds no delivery for that link and sends it."""
        for n in self._unsent(t):
            path = f"/tournaments/{t.id}#event-{n['seq']}"
            link = self._url(path)
            if self.store.notice_recorded(t.id, link) or self.store.notice_recorded(t.id, path) or self._tell(
                    n["player_id"], "ruling", words("%(t)s: your dispute was answered", t=t.name),
                    words(N_("Dismissed: %(text)s") if n["text"].startswith("Dismissed") else N_("Ruled: %(text)s"),
                          **n.get("text_values", {"text": n["text"]})), game_id=n.get("game_id"),
                    tid=t.id, link=link):
                self._sent.add((t.id, n["seq"]))


ENTRY_TIMES = ("starts_at", "registration_opens", "registration_closes")


def entry_terms(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry's terms as the stream keeps them: times as ISO UTC to the minute, the cap a whole
    number, the texts trimmed (Unprocessable names a bad one)."""
    out: dict[str, Any] = {}
    for key in ("description", "rules"):
        text = str(entry.get(key) or "").strip()
        if text:
            out[key] = text[:8000]
    for key in ENTRY_TIMES:
        value = entry.get(key)
        if value in (None, ""):
            continue
        try:
            at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise Unprocessable(f"entry.{key} is a date and time (YYYY-MM-DDTHH:MM, UTC)",
                                fields={key: ["not a date and time"]}) from None
        at = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)
        out[key] = at.strftime("%Y-%m-%dT%H:%MZ")
    if out.get("registration_opens") and out.get("registration_closes") and \
            out["registration_closes"] <= out["registration_opens"]:
        raise Unprocessable("registration closes after it opens", fields={"registration_closes": ["before it opens"]})
    cap = entry.get("max_entrants")
    if cap not in (None, "", 0):
        if not isinstance(cap, int) or isinstance(cap, bool) or not 2 <= cap <= 4096:
            raise Unprocessable("entry.max_entrants is a whole number 2..4096", fields={"max_entrants": ["2..4096"]})
        out["max_entrants"] = cap
    return out


def entry_refusal(t: Tournament, now: datetime) -> str | None:
    """Why a registration is refused now by the entry's terms (the window, the cap), or None."""
    stamp = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")
    opens, closes = t.entry.get("registration_opens"), t.entry.get("registration_closes")
    if opens and stamp < opens:
        return f"registration opens at {opens.replace('T', ' ').replace('Z', ' UTC')}"
    if closes and stamp >= closes:
        return f"registration closed at {closes.replace('T', ' ').replace('Z', ' UTC')}"
    cap = t.entry.get("max_entrants")
    if cap and len(t.active_entrants()) >= int(cap):
        return f"the tournament is full ({cap} entrants)"
    return None


def _short(text: str, limit: int = 300) -> str:
    """A reason as the tournament's stream keeps it: the game's own ledger keeps it whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Actor:
    def __init__(self, pid: str) -> None:
        self.id = pid


def result_from_game(t: Tournament, number: int, p: Pairing, events: list[Any], final_state: Any) -> dict[str, Any]:
    """The result a game's ledger gives (pure: the verifier calls it on the bundle's games)."""
    outcome, ruled = None, False
    for ev in events:
        if ev.type == GAME_ENDED:
            outcome = ev.payload["outcome"]
    if outcome is None:
        raise ValueError(f"game {p.game_id} has not ended")
    ruled = outcome.get("rule") == "director ruling"
    reason = str(outcome.get("reason", ""))
    how = (("forfeit" if reason.startswith(("tournament forfeit", "correction forfeit")) else "adjudicated")
           if ruled else "played")
    winner_role = outcome.get("winner")
    winner = p.seats.get(winner_role) if winner_role else None
    points = {}
    score = None
    if t.kind == "duplicate":
        game = get_game(t.game)
        status = game.victory_status(final_state) if final_state is not None else None
        score = list((status or {}).get("score") or [0, 0])
        points = {pid: 0 for pid in p.players()}
    else:
        for pid in p.players():
            points[pid] = (t.points["draw"] if winner is None else t.points["win"] if pid == winner
                           else t.points["loss"])
    final = events[-1]
    return {"round": number, "game_id": p.game_id, "winner": winner, "points": points, "how": how,
            "outcome": outcome, "score": score, "final_seq": final.seq, "final_hash": final.hash}
