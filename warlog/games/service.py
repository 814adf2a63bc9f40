"""What the web process does: create and join games, take submissions, answer queries.

It checks credentials and shapes, appends, enqueues, and answers at once; judging is the
worker's (warlog.judging.resolver). Every failure is a typed `ServiceError` with an HTTP status
and a message a player can act on.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from ledger.canonical import state_hash
from ledger.dice import (
    SCHEME,
    DerivedDice,
    commitment,
    derive_blind,
    dice_key,
    dice_stream_of,
    entropy_digest,
    new_seed,
    seed_in_force,
)
from ledger.events import (
    DIRECTOR,
    GAME_CREATED,
    GAME_ENDED,
    GAME_STARTED,
    HIDDEN_VIEWED,
    NO_STATE,
    REJECTED,
    RESOLVED,
    SEAT_JOINED,
    SEED_REVEALED,
    SUBMITTED,
    UMPIRE_INVITED,
    Event,
    NewEvent,
    withdrawn,
)
from ledger.export import export_lines
from ledger.store import Conflict, DuplicateKey, EventStore, GameSummary, SummaryUpdate
from rules import game_of, get_game
from rules.core.dice import RecordingDice
from rules.core.game import Game, IllegalAction
from validators.actions import ActionShapeError, validate_action
from validators.requests import PROBE_REFUSED, probe_ops
from warlog.catalogs import N_
from warlog.games.history import SNAPSHOT_EVERY, StateCache, StoreHistory, seat_entropy
from warlog.games.readview import ReadView
from warlog.judging import wakeup
from warlog.ops.lru import BoundedCache
from warlog.rulings import sandbox as sandboxing
from warlog.trust.seeds import SeedBooks

log = logging.getLogger(__name__)


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail


class BadRequest(ServiceError):
    status = 400


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Gone(ServiceError):
    status = 410


class StaleSeq(ServiceError):
    status = 409


class Unprocessable(ServiceError):
    status = 422


class PrivateGame(ServiceError):
    """A duplicate round's game while its round runs (warlog.trust.rounds.check_private): not a
    Forbidden, which a page reads as "a spectator"."""

    status = 403


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat (role), the director, or a spectator (seat None). `who` names a
    director in the record of what they looked at: "director" (the game's director token),
    "umpire" (an umpire invitation a seat had made), or a tournament director's name."""

    seat: str | None
    director: bool = False
    who: str = DIRECTOR

    @property
    def label(self) -> str:
        return DIRECTOR if self.director else (self.seat or "spectator")


SPECTATOR = Viewer(None)
LATEST = 2**62  # a seq after any game's last (StateCache.get: the newest state kept)
JUDGEMENT_NEAR = 8  # `move` reads this many events after a submission with it, for its judgement


class Warlog:
    def __init__(self, store: EventStore, enqueue: Callable[[str], None],
                 new_seed: Callable[[], bytes] = new_seed, new_id: Callable[[], str] = lambda: secrets.token_hex(8)) -> None:
        self._store = store
        self._view = threading.local()  # this thread's ReadView while a `one_view()` is open
        self.enqueue = enqueue
        self.new_seed, self.new_id = new_seed, new_id  # injectable for reproducible test games
        self._created: BoundedCache[str, Event] = BoundedCache()  # an LRU: a process may touch every game
        self._umpires: BoundedCache[str, tuple[int, list[str]]] = BoundedCache()  # game -> (seq read to, hashes)
        self._joined: BoundedCache[str, list[str]] = BoundedCache()  # a started game -> its seats that joined
        self.states = StateCache()
        self.seed_books = SeedBooks()
        # (game id, credential) -> the seat owned by the player that credential signs in (warlog.players)
        self.player_seat: Callable[[str, str], str | None] | None = None
        # told (game id, seq of game_started, active seats) when a game starts (clocks, "your turn")
        self.on_started: Callable[[str, int, list[str]], None] | None = None
        # (game id, credential) -> whether that credential may read a private game although it
        # holds none of its seats (a duplicate tournament's director: warlog.trust.rounds, warlog.tournaments.privacy)
        self.private_reader: Callable[[str, str], bool] | None = None

    # -- commands --------------------------------------------------------------------

    @property
    def store(self) -> EventStore:
        """The ledger; inside `one_view()`, this thread's ReadView of it (warlog.games.readview)."""
        view: ReadView | None = getattr(self._view, "current", None)
        return view if view is not None else self._store  # type: ignore[return-value]

    @contextmanager
    def one_view(self) -> Iterator[None]:
        """Read each game's summary and events once for the rest of the block (a page built of
        several queries); nested blocks share the outer one's view."""
        if getattr(self._view, "current", None) is not None:
            yield
            return
        self._view.current = ReadView(self._store)
        try:
            yield
        finally:
            self._view.current = None

    def prefetch(self, game_id: str, after: int, upto: int | None = None) -> None:
        """Inside `one_view()`, before the request's first look at the game: its summary and its
        events in (after, upto] read together, one statement (ReadView.prefetch); outside a
        view, or once the view has the summary, nothing."""
        view: ReadView | None = getattr(self._view, "current", None)
        if view is not None:
            view.prefetch(game_id, after, upto)

    def prefetch_from_kept_state(self, game_id: str) -> None:
        """`prefetch` the events after the newest state this process keeps of the game (what
        `history(game_id).state_at` of the last step reads after the summary), at most
        SNAPSHOT_EVERY of them (further behind, a snapshot is read instead)."""
        kept = self.states.get(game_id, LATEST, shared=True)
        if kept is not None:
            self.prefetch(game_id, kept[0] - 1, kept[0] - 1 + SNAPSHOT_EVERY)

    def forget_view(self, game_id: str) -> None:
        """Inside `one_view()`: read `game_id` afresh from here on (a request that waits for a
        change); outside it, nothing to forget."""
        view: ReadView | None = getattr(self._view, "current", None)
        if view is not None:
            view.forget(game_id)

    def create_game(self, game_name: str, scenario: str | None, options: dict[str, Any] | None,
                    sandbox: dict[str, Any] | None = None, *, seed: bytes | None = None,
                    dice_stream: str | None = None, keying: str | None = None,
                    duplicate_round: dict[str, Any] | None = None, creator: str | None = None) -> dict[str, Any]:
        """`seed` and `dice_stream` (a duplicate tournament's games: one seed, one dice stream name
        in place of the game id, so the same choices meet the same dice) default to fresh ones;
        `keying="judgement"` keys the dice by judgement number (ledger.dice step 8);
        `duplicate_round` ({"tournament", "round"}) withholds the seed at the game's end until the
        round's reveal (ledger.dice step 9).
        `creator`: "umpire" (the default) or the seat the creator plays; a player-creator gets
        no director token, and no one holds one until a seat has an umpire invitation made
        (`invite_umpire`): the game records `"director": "none"` in place of a token's hash."""
        game = self._game(game_name)
        scenarios = game.scenarios()
        scenario = scenario or next(iter(scenarios))
        if scenario not in scenarios:
            raise Unprocessable(f"unknown scenario {scenario!r} for {game.name}; known: {', '.join(scenarios)}")
        creator = creator or "umpire"
        if creator != "umpire" and creator not in game.roles(scenario):
            raise Unprocessable(f"the creator is the game's umpire or plays one of its seats "
                                f"({', '.join(game.roles(scenario))}), not {creator!r}",
                                fields={"creator": ["\"umpire\" or a seat of the scenario"]})
        if creator != "umpire" and sandbox is not None:
            raise Unprocessable("a sandbox is made by its director: its creator is the umpire",
                                fields={"creator": ["a sandbox's creator is \"umpire\""]})
        try:
            game.check_option_types(options)
            fitting = getattr(game, "scenario_options", None)  # a scenario whose own defaults differ (UP FRONT N)
            opts = game.resolve_options({**(fitting(scenario) if fitting else {}), **options})
            game.check_options(scenario, opts)
        except IllegalAction as err:
            raise Unprocessable(err.message, fields={"options": [err.message]}) from None
        sandbox_doc = None
        if sandbox is not None:
            sandbox_doc = self._check_sandbox(game, scenario, sandbox)
        roles = list(game.roles(scenario))
        seat_tokens = {role: secrets.token_urlsafe(24) for role in roles}
        director_token = secrets.token_urlsafe(24) if creator == "umpire" else None
        seed = seed or self.new_seed()
        game_id = self.new_id()
        payload = {
            "game": game.name,
            "title": game.title,
            "rules_version": game.version,
            "scenario": scenario,
            "options": opts,
            "roles": roles,
            "seat_token_sha256": {r: token_hash(t) for r, t in seat_tokens.items()},
            **({"director_token_sha256": token_hash(director_token)} if director_token is not None
               else {"director_token_sha256": None, "director": "none", "creator_seat": creator}),
            "dice_scheme": SCHEME,
            "seed_commitment": commitment(seed),
            "sandbox": sandbox_doc,
            **({"dice_stream": dice_stream} if dice_stream else {}),
            **({"dice_key": "judgement"} if keying == "judgement" else {}),
            **({"duplicate_round": dict(duplicate_round)} if duplicate_round else {}),
        }
        self.store.append(game_id, -1, [NewEvent(GAME_CREATED, None, payload)], secret=seed,
                          game_info=(game.name, scenario, sandbox_doc is not None),
                          summary=SummaryUpdate(status="waiting", active_seats=roles))
        out: dict[str, Any] = {"id": game_id, "seats": seat_tokens, "seed_commitment": payload["seed_commitment"],
                               "sandbox": sandbox_doc is not None}
        if director_token is not None:
            out["director_token"] = director_token
        else:
            out["creator_seat"] = creator
        if sandbox_doc is not None:
            out["on_dice_exhausted"] = sandbox_doc["on_dice_exhausted"]
            out["forced_dice"] = len(sandbox_doc["dice"])
        return out

    def _check_sandbox(self, game: Game, scenario: str, sandbox: dict[str, Any]) -> dict[str, Any]:
        """A sandbox's start position and forced dice, checked deeply (warlog.rulings.sandbox): a 422
        naming every error's path and rule, never a game that fails later."""
        state, dice = sandbox.get("state"), list(sandbox.get("dice") or [])
        mode = sandbox.get("on_dice_exhausted") or "derive"
        if mode not in sandboxing.ON_DICE_EXHAUSTED:
            raise Unprocessable("on_dice_exhausted is \"stop\" or \"derive\"",
                                fields={"on_dice_exhausted": [f"not a choice: {mode!r}"]})
        errors = sandboxing.dice_errors(game, dice)
        if errors:
            raise Unprocessable(f"the forced dice do not fit {game.title}'s dice", errors=errors)
        if state is not None:
            errors = sandboxing.position_errors(game, scenario, state)
            if errors:
                first = errors[0]
                raise Unprocessable(f"the sandbox state is not a position of {game.title} ({len(errors)} error(s); "
                                    f"first at {first['path'] or '/'}: {first['message']})", errors=errors)
        doc = {"state": copy.deepcopy(state), "dice": dice, "on_dice_exhausted": mode}
        if sandbox.get("forked_from") is not None:
            doc["forked_from"] = dict(sandbox["forked_from"])
        return doc

    def join(self, game_id: str, token: str | None, entropy: str = "") -> dict[str, Any]:
        viewer = self.viewer(game_id, token, required=True)
        if viewer.director or viewer.seat is None:
            raise Forbidden(N_("only a seat token can take a seat"))
        created = self.created(game_id)
        while True:
            events = self.store.read(game_id)
            joined = seat_entropy(events)
            if viewer.seat in joined:
                return {"seat": viewer.seat, "joined": True, "already": True, "status": self._status(game_id)}
            last = events[-1].seq
            new = [NewEvent(SEAT_JOINED, viewer.seat, {"entropy": entropy})]
            joined[viewer.seat] = entropy
            summary = SummaryUpdate(status="waiting")
            if set(joined) == set(created.payload["roles"]):
                started = self._start(game_id, created, joined, last + 2)
                new.append(started)
                summary = SummaryUpdate(status="active", active_seats=started.payload["active_seats"])
            try:
                appended = self.store.append(game_id, last, new, summary=summary)
            except Conflict:
                continue  # another seat joined at the same moment: read again
            if len(appended) > 1:
                self.store.save_snapshot(game_id, appended[-1].seq, appended[-1].payload["state"])
                self._tell_started(game_id, appended[-1])
            return {"seat": viewer.seat, "joined": True, "already": False, "status": self._status(game_id)}

    def _tell_started(self, game_id: str, started: Event) -> None:
        if self.on_started is None:
            return
        try:
            self.on_started(game_id, started.seq, list(started.payload["active_seats"]))
        except Exception:  # the game has started; a hook's trouble is only logged
            log.exception("game %s: the on_started hook failed", game_id)

    def _start(self, game_id: str, created: Event, joined: dict[str, str], seq: int) -> NewEvent:
        """The game_started event: every seat has joined, so the dice are now fixed (DESIGN)."""
        game = game_of(created.payload)
        digest = entropy_digest(joined)
        sandbox = created.payload.get("sandbox")
        if sandbox and sandbox.get("state") is not None:
            state, dice = sandbox["state"], []
        else:
            seed = self.store.secret(game_id)
            assert seed is not None
            rec = RecordingDice(DerivedDice(seed, dice_stream_of(created), dice_key(created.payload, seq, 0), digest))
            state = game.setup(created.payload["scenario"], created.payload["options"], rec)
            dice = rec.to_json()
        return NewEvent(GAME_STARTED, None, {
            "entropy": digest, "seat_entropy": joined, "state": state, "state_hash": state_hash(state),
            "dice": dice, "active_seats": game.active_seats(state), "phase": game.phase(state),
            **self._blind(game_id, seq),
        })

    def _blind(self, game_id: str, seq: int, fresh: bytes | None = None) -> dict[str, str]:
        """The salt an event at `seq` carries in a game that keeps secrets (ledger.dice, step 5),
        so that its public hash gives away nothing of what is hidden in it; from the seed in
        force at `seq` (step 7), or the `fresh` one committed just before it."""
        game = game_of(self.created(game_id).payload)
        if not game.keeps_secrets:
            return {}
        seed = fresh if fresh is not None else seed_in_force(self.seed_books.seeds(self.store, game_id, seq - 1), seq)
        return {"blind": derive_blind(seed, game_id, seq)} if seed is not None else {}

    def submit_move(self, game_id: str, token: str | None, action: Any, expected_seq: int,
                    idempotency_key: str) -> dict[str, Any]:
        viewer = self.viewer(game_id, token, required=True)
        if viewer.director or viewer.seat is None:
            raise Forbidden(N_("moves are made with a seat token; a director submits rulings"))
        created = self.created(game_id)
        summary = self.summary(game_id)
        status = summary.status
        if status != "active" or viewer.seat not in summary.active_seats:
            # A resend of a move already recorded (its answer lost with a killed web process) is
            # answered as the duplicate it is, although the turn, or the game, has moved on since
            # (found by bench/chaos_soak.py: such a resend was refused with 409).
            seq = self.store.idempotent_seq(game_id, idempotency_key, viewer.seat) if idempotency_key else None
            if seq is not None:
                return {"seq": seq, "status": "duplicate", "duplicate": True}
        if status != "active":
            raise StaleSeq(f"the game is {status}: no moves are taken now", status=status,
                           current_seq=summary.last_seq)
        if viewer.seat not in summary.active_seats:  # the seat not asked cannot stall the other
            waiting = ", ".join(summary.active_seats) or "nobody"
            raise StaleSeq(f"it is not {viewer.seat}'s turn: the game waits for {waiting}"
                           f"{' (a move is being judged)' if summary.pending else ''}",
                           active_seats=summary.active_seats, current_seq=summary.last_seq)
        if not isinstance(expected_seq, int) or not 0 <= expected_seq < 2**53:
            raise Unprocessable("expected_seq must be the sequence number of an event you have seen (0 or more)",
                                fields={"expected_seq": ["not a sequence number"]})
        try:
            action = validate_action(created.payload["game"], action)
        except ActionShapeError as err:
            raise Unprocessable("malformed action", fields=err.messages) from None
        payload = {"action": action, "expected_seq": expected_seq}  # the key is the seat's alone: not in the ledger
        at = expected_seq
        while True:
            try:
                return self._append_submission(game_id, viewer.seat, payload, at, idempotency_key)
            except StaleSeq as err:
                # a look, a dispute or an umpire's invitation since the seat's last read changes
                # nothing it saw: the move goes in after it (the payload keeps what the seat saw)
                later = self.store.read(game_id, after=at)
                if not later or any(ev.type not in NO_STATE for ev in later):
                    raise err from None
                at = later[-1].seq

    def take_back(self, game_id: str, token: str | None, seq: int) -> dict[str, Any]:
        """The seat takes back its own move `seq` while the umpire has not judged it. The ledger
        records it as that submission's judgement, a `rejected` event appended under the seat's
        name with `withdrawn: true` and no dice (docs/ledger.md): the move changes nothing, and
        the umpire, finding it judged, never rolls for it. A move already judged stands."""
        viewer = self.viewer(game_id, token, required=True)
        if viewer.director or viewer.seat is None:
            raise Forbidden(N_("a move is taken back by the seat that made it"))
        if not 0 <= seq <= self.store.last_seq(game_id):
            raise NotFound(f"no event {seq} in game {game_id}")
        sub = self.history(game_id).event(seq)
        if sub.type != SUBMITTED or sub.seat != viewer.seat:
            raise Forbidden(f"event {seq} is not a move of {viewer.seat}'s")
        while True:
            judged = self.history(game_id).find_judgement(seq)
            if judged is not None:
                raise StaleSeq(f"move #{seq} has been judged already (event {judged.seq}): it stands",
                               current_seq=self.store.last_seq(game_id))
            last = self.store.last_seq(game_id)
            payload = {"submission_seq": seq, "seat": viewer.seat, "withdrawn": True,
                       "reasons": [{"message": f"taken back by {viewer.seat} before the umpire judged it",
                                    "rule": None}], **self._blind(game_id, last + 1)}
            try:
                ev = self.store.append(game_id, last, [NewEvent(REJECTED, viewer.seat, payload)])[-1]
            except Conflict:
                continue  # the umpire (or anyone) appended meanwhile: judged now, or still not
            wakeup.judged(game_id)
            return {"seq": seq, "event_seq": ev.seq, "status": "withdrawn"}

    def submit_ruling(self, game_id: str, token: str | None, ruling: dict[str, Any],
                      idempotency_key: str | None = None) -> dict[str, Any]:
        viewer = self.viewer(game_id, token, required=True)
        if not viewer.director:
            raise Forbidden(N_("only the game's director may rule"))
        return self._rule(game_id, ruling, idempotency_key, viewer.who)

    def rule_as_owner(self, game_id: str, director_token_sha256: str, ruling: dict[str, Any]) -> dict[str, Any]:
        """A ruling by the in-process owner of the game (a tournament, which checked its own
        director first and keeps only the SHA-256 of the game's director token): never reachable
        from a request. The hash must be the one the game's game_created records."""
        if not hmac.compare_digest(director_token_sha256 or "", self.created(game_id).payload["director_token_sha256"] or "-"):
            raise Forbidden(N_("that is not the director of this game"))
        return self._rule(game_id, ruling, None)

    def _rule(self, game_id: str, ruling: dict[str, Any], idempotency_key: str | None,
              who: str = DIRECTOR) -> dict[str, Any]:
        summary = self.summary(game_id)
        if summary.status == "waiting":
            raise StaleSeq("the game has not started", status=summary.status, current_seq=summary.last_seq)
        roles = self.created(game_id).payload["roles"]
        if probe_ops(ruling.get("patch")):  # every path in: the API's, a page's, a tournament's
            raise Unprocessable(PROBE_REFUSED, fields={"patch": [PROBE_REFUSED]})
        if ruling.get("kind") == "award" and ruling.get("winner") not in (*roles, "draw", None):  # an award names a seat or a draw
            raise Unprocessable(f"an award's winner is one of the seats ({', '.join(roles)}) or \"draw\"",
                                fields={"winner": [f"not a seat of this game: {ruling.get('winner')!r}"]})
        if ruling.get("kind") == "adjust":  # made or refused, its outcome tells something of the hidden state
            self.record_look(game_id, Viewer(None, director=True, who=who), summary.last_seq,
                             "the hidden state, through an adjustment's outcome")
        while True:
            last = self.store.last_seq(game_id)
            try:
                return self._append_submission(game_id, DIRECTOR, {"ruling": ruling}, last, idempotency_key)
            except StaleSeq:
                continue  # rulings do not depend on what the director saw: retry at the new end

    def _append_submission(self, game_id: str, seat: str, payload: dict[str, Any], expected_seq: int,
                           key: str | None) -> dict[str, Any]:
        """Append a submission, blinded; if the seed in force was revealed (an ended game a
        ruling may reopen, or an old ledger), a fresh seed is committed just before it, so that
        its dice and blind and every later one are unpredictable again (ledger.dice step 7)."""
        new: list[NewEvent] = []
        fresh = None
        # The book as far as `expected_seq` is enough: the append below succeeds only if nothing
        # follows that event (else Conflict, and the caller tries again after a fresh read).
        book = self.seed_books.kept(self.store, game_id, expected_seq)
        if book.current_revealed() and self.store.seeds(game_id):
            fresh = self.new_seed()
            if commitment(fresh) in {c for _, c in book.periods}:  # a test's fixed seed: never reuse one
                fresh = new_seed()
            new.append(book.commit(fresh))
        seq = expected_seq + len(new) + 1
        new.append(NewEvent(SUBMITTED, seat, {**payload, **self._blind(game_id, seq, fresh)}))
        try:
            ev = self.store.append(game_id, expected_seq, new, idempotency_key=key, secret=fresh)[-1]
        except DuplicateKey as dup:
            return {"seq": dup.seq, "status": "duplicate", "duplicate": True}
        except Conflict as c:
            raise StaleSeq(f"stale: you saw event {expected_seq} but the game is at {c.current_seq}; "
                           "fetch the state and try again", current_seq=c.current_seq) from None
        try:
            self.enqueue(game_id)
        except Exception:  # the move is in the ledger; a worker's sweep will find it (DESIGN: nothing lost)
            log.exception("game %s: could not enqueue submission %s; the sweeper will", game_id, ev.seq)
        return {"seq": ev.seq, "status": "pending", "duplicate": False}

    # -- queries -----------------------------------------------------------------------
    def history(self, game_id: str) -> StoreHistory:
        return StoreHistory(self.store, game_id, cache=self.states)

    def created(self, game_id: str) -> Event:
        ev = self._created.get(game_id)
        if ev is None:
            events = self.store.read(game_id, after=-1, upto=0)
            if not events or events[0].type != GAME_CREATED:
                row = self.store.summary(game_id) if not events else None
                if row is not None and row.status == "ended":  # its month's partition was detached
                    raise Gone(f"game {game_id} is archived: the games created in {row.created_at[:7]} were "
                               f"detached from the ledger (the operator can attach them again: warlog archive "
                               f"attach {row.created_at[:7]}); ask for its export from the archive")
                raise NotFound(f"no game {game_id}")
            ev = self._created[game_id] = events[0]
        return ev

    def vanished(self, game_id: str) -> NoReturn:
        """A game whose events were not there although its row says they must be: its month
        was detached after this process cached its creation record. The record and
        its cached states are dropped, so this and every later request answers 410 Gone
        (or 404 if the game itself is gone)."""
        self._created.pop(game_id)
        self.states.drop(game_id)
        self.created(game_id)  # raises Gone (the row is there) or NotFound
        raise Gone(f"game {game_id} is archived: its events are not in the ledger")

    def viewer(self, game_id: str, token: str | None, required: bool = False) -> Viewer:
        created = self.created(game_id)
        if not token:
            if required:
                raise Unauthorized(N_("this needs 'Authorization: Bearer <seat token>'"))
            return SPECTATOR
        h = token_hash(token)
        director_hash = created.payload.get("director_token_sha256")
        if director_hash is not None and hmac.compare_digest(h, director_hash):
            return Viewer(None, director=True)
        for role, th in created.payload["seat_token_sha256"].items():
            if hmac.compare_digest(h, th):
                return Viewer(role)
        seat = self.player_seat(game_id, token) if self.player_seat is not None else None
        if seat is not None and seat in created.payload["roles"]:
            return Viewer(seat)  # a signed-in player acting in the seat they own
        if director_hash is None and any(hmac.compare_digest(h, u) for u in self.umpire_hashes(game_id)):
            return Viewer(None, director=True, who="umpire")
        raise Forbidden(N_("that token is not a seat of this game"))

    def umpire_hashes(self, game_id: str) -> list[str]:
        """The hashes of the umpire invitations made in a player-created game (asked only when a
        token is no seat's); the events are read once, then only those after the last read."""
        seen, hashes = self._umpires.get(game_id) or (-1, [])
        new = self.store.read(game_id, after=seen) if self.store.last_seq(game_id) > seen else []
        if new:
            hashes = hashes + [str(ev.payload.get("token_sha256")) for ev in new if ev.type == UMPIRE_INVITED]
            self._umpires[game_id] = (new[-1].seq, hashes)
        return hashes

    def invite_umpire(self, game_id: str, token: str | None, text: Any) -> dict[str, Any]:
        """A seat of a player-created game (which has no director) has an umpire invitation made,
        for a neutral person to rule a dispute: the token is answered once; the game records that
        it was made, by whom and why (`umpire_invited`), and every look the umpire takes at what
        the rules hide is recorded too (`hidden_viewed`), so every seat sees both."""
        viewer = self.viewer(game_id, token, required=True)
        if viewer.seat is None:
            raise Forbidden(N_("a seat of the game asks for an umpire (the umpire or director has the view already)"))
        if self.created(game_id).payload.get("director_token_sha256") is not None:
            raise Forbidden(N_("this game has a director, who rules its disputes: ask them"))
        if not isinstance(text, str) or not text.strip():
            raise Unprocessable("say why an umpire is needed (every seat will read it)",
                                fields={"text": ["required, 1 to 4000 characters"]})
        umpire = secrets.token_urlsafe(24)
        seq = self._append_beside(game_id, NewEvent(UMPIRE_INVITED, viewer.seat, {
            "token_sha256": token_hash(umpire), "text": text.strip()[:4000]}))
        return {"seq": seq, "umpire_token": umpire}

    def _append_beside(self, game_id: str, event: NewEvent) -> int:
        """Append an event that changes no state at the game's end, whatever came before it."""
        while True:
            last = self.store.last_seq(game_id)
            try:
                return self.store.append(game_id, last, [event])[-1].seq
            except Conflict:
                continue

    def open_book(self, game_id: str, summary: GameSummary | None = None) -> bool:
        """Whether everything is open to everyone: the game has ended and, if it is a sandbox
        forked from another game, that game has ended too (a sandbox of a running game's position
        keeps its seats' secrets as long as that game runs). `summary`: the game's, if just read."""
        if (summary or self.summary(game_id)).status != "ended":
            return False
        source = ((self.created(game_id).payload.get("sandbox") or {}).get("forked_from") or {}).get("game")
        if not source or source == game_id:
            return True
        try:
            return self.open_book(str(source))
        except ServiceError:  # the source is gone (archived): it ended long ago
            return True

    def hides(self, game_id: str) -> bool:
        """Whether a full view of the game now shows something the rules hide from its seats."""
        game = game_of(self.created(game_id).payload)
        if not (game.hidden_information or game.keeps_secrets) or self.open_book(game_id):
            return False
        s = self.summary(game_id)
        return s.status != "waiting" or bool(s.sandbox)

    def record_look(self, game_id: str, viewer: Viewer, step: int, what: str) -> int | None:
        """A director's (or umpire's) look at what the rules hide, recorded in the game's ledger
        before it is shown (`hidden_viewed`: who, what, at which step), so that every seat sees
        it; None when nothing hidden is shown (a game without secrets, or one whose book is
        open) or when this viewer's look at this step is recorded already."""
        if not viewer.director or not self.hides(game_id):
            return None
        window = self.store.read(game_id, after=max(-1, step - 64), upto=step)
        step = max((ev.seq for ev in window if ev.type not in NO_STATE), default=step)  # a look at a look is one at the step before
        for ev in self.store.read(game_id, after=step):
            if ev.type == HIDDEN_VIEWED and ev.payload.get("by") == viewer.who and ev.payload.get("step") == step:
                return None
        return self._append_beside(game_id, NewEvent(HIDDEN_VIEWED, DIRECTOR, {
            "by": viewer.who, "step": step, "what": what[:200]}))

    def summary(self, game_id: str) -> GameSummary:
        self.created(game_id)
        s = self.store.summary(game_id)
        if s is None:
            raise NotFound(f"no game {game_id}")
        return s

    def _status(self, game_id: str) -> str:
        return self.summary(game_id).status

    def info(self, game_id: str) -> dict[str, Any]:
        created = self.created(game_id)
        s = self.summary(game_id)
        joined = self._joined.get(game_id)
        if joined is None:
            # seat_joined events are 1..len(roles): nothing else is taken before the game starts
            joined = sorted(seat_entropy(self.store.read(game_id, after=0, upto=len(created.payload["roles"]))))
            if s.status != "waiting":  # no seat joins a started game: kept for good
                self._joined[game_id] = joined
        out = {
            "id": game_id, "game": created.payload["game"], "title": created.payload["title"],
            "scenario": created.payload["scenario"], "options": created.payload["options"],
            "rules_version": created.payload["rules_version"], "roles": created.payload["roles"],
            "joined": joined, "status": s.status, "active_seats": s.active_seats if s.status == "active" else [],
            "seq": s.last_seq, "pending": s.pending, "created_at": s.created_at,
            "seed_commitment": created.payload["seed_commitment"], "sandbox": s.sandbox,
        }
        if s.status == "ended":
            out["outcome"] = self._outcome(game_id)
        waiting = self.waiting_for_dice(game_id, None) if s.sandbox else None
        if waiting is not None:
            out["waiting_for_dice"] = waiting
        return out

    def waiting_for_dice(self, game_id: str, viewer: Viewer | None) -> dict[str, Any] | None:
        """The move a sandbox that stops for dice waits for (warlog.rulings.sandbox_dice), as `viewer` may
        see it: the action only to the director and its own seat; None when nothing waits."""
        from warlog.rulings.sandbox_dice import stops, waiting_for_dice

        if not stops(self.created(game_id).payload.get("sandbox")):
            return None
        waiting = waiting_for_dice(self.store.read(game_id))
        if waiting is not None and (viewer is None or not (viewer.director or viewer.seat == waiting["seat"])):
            waiting.pop("action", None)
        return waiting

    def _outcome(self, game_id: str) -> dict[str, Any] | None:
        """An ended game's outcome (its last `game_ended`: a reopened game may have several), read
        alone, not with the whole game; a game whose events are gone is `vanished`."""
        ended = self.store.events_of_types(game_id, (GAME_ENDED,))
        if not ended and self.store.last_seq(game_id) < 0:
            self.vanished(game_id)
        return ended[-1].payload["outcome"] if ended else None

    def state(self, game_id: str, at: int | None, viewer: Viewer, look: str | None = "the full state") -> dict[str, Any]:
        """The state at step `at` (the last by default) as `viewer` may see it; a director's full
        view while the game hides something is recorded first (`record_look`, as `look`; None:
        the caller records it, or shows this state only beside one it has recorded)."""
        s = self.summary(game_id)
        at = s.last_seq if at is None else at
        if not 0 <= at <= s.last_seq:
            raise NotFound(f"no step {at}: this game has events 0..{s.last_seq}")
        game = game_of(self.created(game_id).payload)
        state = self.history(game_id).state_at(at)
        if state is None and s.status == "ended" and not self.store.read(game_id, after=-1, upto=0):
            self.vanished(game_id)  # its events are gone (a detached month); steps before the start have no state
        if state is None:
            return {"at": at, "state": None, "phase": "waiting for seats", "sandbox": s.sandbox}
        full = viewer.director or self.open_book(game_id, s)
        if viewer.director and look is not None:
            self.record_look(game_id, viewer, at, look)
        out = {"at": at, "state": state if full else game.view(state, viewer.seat), "phase": game.phase(state),
               "active_seats": game.active_seats(state), "viewer": viewer.label, "sandbox": s.sandbox}
        waiting = self.waiting_for_dice(game_id, viewer) if s.sandbox and at == s.last_seq else None
        if waiting is not None:
            out["waiting_for_dice"] = waiting
        return out

    def actions(self, game_id: str, viewer: Viewer) -> dict[str, Any]:
        self.prefetch_from_kept_state(game_id)
        s = self.summary(game_id)
        game = game_of(self.created(game_id).payload)
        base = {"seat": viewer.label, "expected_seq": s.last_seq, "status": s.status, "sandbox": s.sandbox,
                "active_seats": s.active_seats if s.status == "active" else []}
        waiting = self.waiting_for_dice(game_id, viewer) if s.sandbox else None
        if waiting is not None:
            base["waiting_for_dice"] = waiting
            if s.status == "active":
                return {**base, "prompt": f"the sandbox waits for the director to add forced dice (die "
                                          f"#{waiting['needed']} for {waiting['seat']}'s move)", "actions": []}
        if s.status != "active" or viewer.seat is None:
            why = {"waiting": "the game waits for every seat to join", "ended": "the game is over"}.get(
                s.status, "spectators and directors make no moves")
            return {**base, "prompt": why, "actions": []}
        state = self.history(game_id).state_at(s.last_seq, shared=True)  # only read here: no copies
        view: ReadView | None = getattr(self._view, "current", None)
        for events in view.read_so_far(game_id) if view is not None else ():
            self.seed_books.see(game_id, events)  # what the seat's next move needs, read already
        if viewer.seat not in game.active_seats(state):
            waiting = ", ".join(game.active_seats(state)) or "nobody"
            return {**base, "prompt": f"waiting for {waiting}", "actions": [], "pending": s.pending}
        legal = game.legal_actions(state, viewer.seat)
        return {**base, "prompt": game.prompt(state, viewer.seat), "actions": legal,
                "confirm": confirmations(game, state, viewer.seat, legal), "pending": s.pending}

    def after_move(self, game_id: str, viewer: Viewer, seq: int, listing: bool) -> dict[str, Any]:
        """What the POST of submission `seq` answers besides its seq (docs/api.md, "The next
        listing"): its `judgement` as `move` gives it and, with `listing`, the seat's `actions`.
        Inside `one_view()`: the summary (kept by the view if the request has just looked at it,
        warlog.web.pages.await_judgement) and then one read of the events, from the state this
        process keeps of the game (or the submission), serve both."""
        self.summary(game_id)  # first: the events read next are at least as new as it
        cached = self.states.get(game_id, seq, shared=True)
        self.store.read(game_id, after=min(seq, cached[0] if cached is not None else seq) - 1)
        out: dict[str, Any] = {"judgement": self.move(game_id, seq, viewer)}
        if listing:
            out["listing"] = self.actions(game_id, viewer)
        return out

    def move(self, game_id: str, seq: int, viewer: Viewer, look: str | None = "a move and its judgement"
             ) -> dict[str, Any]:
        """A submission and its judgement, as `viewer` may see them (see `redact_payload`); a
        director's look is recorded as in `state` (None: the caller has recorded one that covers it)."""
        s = self.summary(game_id)
        if not 0 <= seq <= s.last_seq:
            raise NotFound(f"no event {seq} in game {game_id}")
        # One read for the submission and the events right after it, where its judgement nearly
        # always is (the next one unless other submissions queued before it); further on, streamed.
        near = self.store.read(game_id, after=seq - 1, upto=seq + JUDGEMENT_NEAR)
        if not near or near[0].seq != seq:
            self.vanished(game_id)
        sub = near[0]
        if sub.type != SUBMITTED:
            raise NotFound(f"event {seq} is a {sub.type}, not a submission")
        judged = next((ev for ev in near[1:] if ev.type in (RESOLVED, REJECTED)
                       and ev.payload.get("submission_seq") == seq), None)
        if judged is None and near[-1].seq == seq + JUDGEMENT_NEAR:
            judged = self.history(game_id).find_judgement(seq + JUDGEMENT_NEAR, of=seq)
        full = viewer.director or self.open_book(game_id, s)
        game = game_of(self.created(game_id).payload)
        if viewer.director and look is not None:
            self.record_look(game_id, viewer, judged.seq if judged is not None else seq, look)

        def shown(ev: Event) -> dict[str, Any]:
            return dict(ev.payload) if full else redact_payload(ev, game, viewer)

        out: dict[str, Any] = {"seq": seq, "seat": sub.seat, "submitted": shown(sub), "sandbox": s.sandbox}
        if judged is None:
            return {**out, "status": "pending"}
        p = shown(judged)
        if judged.type == REJECTED:
            out = {**out, "status": "withdrawn" if withdrawn(judged) else "rejected", "event_seq": judged.seq,
                   "reasons": p["reasons"],
                   "rules": sorted({r["rule"] for r in p["reasons"] if r.get("rule")})}
            if s.sandbox and any(r.get("waiting_for_dice") for r in judged.payload.get("reasons", [])):
                out.update(self._dice_wait(game_id, seq))
            return out
        out = {**out, "status": "resolved", "event_seq": judged.seq, "facts": p["facts"], "dice": p["dice"],
               "rules": p["rules"], "active_seats": p["active_seats"]}
        if "state_hash" in p:
            out["state_hash"] = p["state_hash"]
        return out

    def _dice_wait(self, game_id: str, seq: int) -> dict[str, Any]:
        """A move refused for want of forced dice: still waiting, or submitted again (`retried_as`)."""
        for ev in self.store.read(game_id, after=seq):
            if ev.type == SUBMITTED and ev.payload.get("retry_of") == seq:
                return {"retried_as": ev.seq}
        waiting = self.waiting_for_dice(game_id, None)
        return {"status": "waiting_for_dice"} if waiting and waiting["submission_seq"] == seq else {}

    def events(self, game_id: str, after: int, viewer: Viewer, limit: int = 1000) -> dict[str, Any]:
        s = self.summary(game_id)
        game = game_of(self.created(game_id).payload)
        full = viewer.director or self.open_book(game_id, s)
        read = self.store.read(game_id, after=after, upto=after + limit)
        if viewer.director and any(ev.type not in NO_STATE for ev in read):
            self.record_look(game_id, viewer, read[-1].seq, "the events, unredacted")
        out = []
        for ev in read:
            out.append(ev.to_json() if full else redact(ev, game, viewer))
        if not out and after < s.last_seq:
            self.vanished(game_id)
        return {"events": out, "last_seq": s.last_seq, "viewer": viewer.label, "sandbox": s.sandbox,
                "redacted": not full}

    def export(self, game_id: str, viewer: Viewer) -> Iterator[str]:
        s = self.summary(game_id)
        if not self.open_book(game_id, s) and not viewer.director:
            raise Forbidden("the full export opens when the game has ended (a director may export at any time)"
                            if s.status != "ended" else "the export of a sandbox of a running game opens when "
                            "that game has ended")
        if viewer.director:
            self.record_look(game_id, viewer, s.last_seq, "the full export")
        lines = export_lines(self.store, game_id)
        first = next(lines, None)
        if first is None:
            self.vanished(game_id)
        return itertools.chain([first], lines)

    @staticmethod
    def _game(name: str) -> Game:
        try:
            return get_game(name)
        except KeyError as err:
            raise Unprocessable(str(err.args[0])) from None


def confirmations(game: Game, state: Any, seat: str, legal: list[Any]) -> list[dict[str, Any]]:
    """The listed actions to confirm before sending (they end the game, or pass a whole phase
    while units could still act): their index in the listing, the action, and why."""
    out = []
    for i, action in enumerate(legal):
        why = game.confirm(state, seat, action, legal)
        if why:
            out.append({"index": i, "action": action, "confirm": why})
    return out


def redact(ev: Event, game: Game, viewer: Viewer) -> dict[str, Any]:
    """An event as a seat or spectator may see it while the game runs (DESIGN: hidden
    information stays hidden). Token hashes and state patches are never shown; for games with
    hidden information, other seats' actions and facts not addressed to the viewer are removed."""
    doc = ev.to_json()
    doc["payload"] = redact_payload(ev, game, viewer)
    doc["redacted"] = True
    return doc


def redact_payload(ev: Event, game: Game, viewer: Viewer) -> dict[str, Any]:
    """`ev.payload` as `viewer` may see it while the game runs. Nobody sees a blind or the value
    of a secret die, or another seat's idempotency key. In a game that keeps secrets nobody sees
    a state hash either (a hash over a state with few possible secrets would let a seat find them
    by trying each one), nor a seed a director had revealed, nor what a director's adjustment
    changed (see `redact_ruling`). In a game with hidden information a seat sees its own actions
    and rejections, facts addressed to it and public facts; never another seat's action or
    rejection reasons, and a judgement's rules list names only the rules of the facts it reads."""
    payload = dict(ev.payload)
    payload.pop("blind", None)
    if ev.type == SUBMITTED and ev.seat != viewer.seat:
        payload.pop("idempotency_key", None)
    if game.keeps_secrets:
        if ev.type == SEED_REVEALED:  # a director's reveal in a running game: the public one is at the end
            payload.pop("seed", None)
        if isinstance(payload.get("ruling"), dict):
            payload = redact_ruling(payload)
        if ev.type == REJECTED and payload.get("seat") == DIRECTOR:  # a refused adjustment may quote its patch
            payload["reasons"] = [{"message": "the director's ruling was refused (the reason is hidden until the "
                                              "game ends)", "rule": "director ruling"}]
    if any(d.get("secret") for d in payload.get("dice") or []):
        payload["dice"] = [{**d, "value": None} if d.get("secret") else d for d in payload["dice"]]
    if game.keeps_secrets:
        payload.pop("state_hash", None)
    if ev.type == GAME_CREATED:
        payload.pop("seat_token_sha256", None)
        payload.pop("director_token_sha256", None)
        sandbox = payload.get("sandbox")
        if isinstance(sandbox, dict) and sandbox.get("state") is not None:  # a sandbox's start: the seat's view
            payload["sandbox"] = {**sandbox, "state": game.view(sandbox["state"], viewer.seat)}
    if ev.type in (GAME_STARTED, RESOLVED):
        payload.pop("patch", None)
        payload.pop("state", None)
    if game.hidden_information:
        if ev.type == SUBMITTED and ev.seat != viewer.seat:
            payload.pop("action", None)
        if ev.type == RESOLVED:
            payload["facts"] = [f for f in payload.get("facts", [])
                                if f.get("visible_to") is None or viewer.seat in f["visible_to"]]
            if "rules" in payload:  # the rules list cites only the facts the viewer reads
                payload["rules"] = sorted({f["rule"] for f in payload["facts"] if f.get("rule")})
        if ev.type == REJECTED and payload.get("seat") not in (viewer.seat, DIRECTOR):
            payload["reasons"] = [{"message": "another seat's move was refused (hidden until the game ends)",
                                   "rule": None}]
    return payload


def redact_ruling(payload: dict[str, Any]) -> dict[str, Any]:
    """A ruling's submission or resolution in a game that keeps secrets, while it runs. A
    director's `adjust` is the director's secret move: its patch (paths and values) and the
    fact naming the paths are replaced by a fact that says only that the state was adjusted
    (each seat's view shows what it may see of the result). Other rulings name no secret."""
    ruling = payload["ruling"]
    if ruling.get("kind") != "adjust":
        return payload
    out = {**payload, "ruling": {k: v for k, v in ruling.items() if k != "patch"}}
    if "facts" in out:
        out["facts"] = [{"text": f"Director adjusts the game's state (what changed is hidden until the game "
                                 f"ends): {ruling.get('reason', '')}", "rule": "director ruling", "kind": "ruling",
                         "data": {"overrides": "hidden"}}]
    return out

