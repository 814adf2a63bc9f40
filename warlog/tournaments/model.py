"""A tournament's state folded from its stream (pure: no I/O, no clock, no floats in results).

`fold(events)` gives a `Tournament`: its settings, entrants in registration order, each round's
pairings (the latest re-pairing of a round wins) and every recorded result. Pairing
(`warlog.tournaments.pairing`) and standings (`warlog.tournaments.standings`) read only this.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ledger.events import Event
from warlog.catalogs import N_
from warlog.tournaments import events as T

FORMATS = ("swiss", "pools", "duplicate", "knockout")
# each format's name in words (the tournament page, the registration mail), said through the catalogs
FORMAT_NAMES = {"swiss": N_("Swiss"), "pools": N_("round robin in pools"), "duplicate": N_("duplicate"),
                "knockout": N_("single elimination")}
DEFAULT_POINTS = {"win": 2, "draw": 1, "loss": 0, "bye": 2}  # integers: a draw is half a win


@dataclass
class Entrant:
    player_id: str
    display_name: str
    seq: int  # the registration event
    withdrawn: bool = False


@dataclass
class Pairing:
    """One table: `seats` role -> player id (one seat in a solitaire game), its game once made."""

    table: int
    seats: dict[str, str]
    game_id: str | None = None
    pool: int | None = None

    def players(self) -> list[str]:
        return list(self.seats.values())


@dataclass
class Round:
    number: int
    seq: int  # the event that paired it (or re-paired it last)
    pairings: list[Pairing]
    byes: list[str]
    dice: list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)  # format data: starting order, pools


@dataclass
class Result:
    """A game's result: `points` per player id; `winner` None for a draw; `score` (duplicate) the
    game's own measure of the solitaire result."""

    round: int
    game_id: str
    points: dict[str, int]
    winner: str | None
    how: str  # played | adjudicated | forfeit
    seq: int  # the tournament event that recorded it (a correction's, once corrected)
    score: list[int] | None = None
    corrects: int | None = None  # a correction: the tournament event of the result it replaces
    reason: str = ""  # a correction's reason
    final_seq: int | None = None  # the game's event the result was read at


@dataclass
class Tournament:
    id: str
    name: str
    game: str
    scenario: str
    options: dict[str, Any]
    roles: list[str]
    format: dict[str, Any]
    points: dict[str, int]
    director: str
    seed_commitment: str
    created_at: str
    time_control: dict[str, Any] = field(default_factory=dict)
    # the public page's words and the entry's terms: description, rules, starts_at,
    # registration_opens, registration_closes (ISO times, UTC), max_entrants (Tournaments.create)
    entry: dict[str, Any] = field(default_factory=dict)
    leave_policy: dict[str, Any] = field(default_factory=dict)  # its entrants' leave allowance (`leave`), if set
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)  # game id -> result
    extensions: list[dict[str, Any]] = field(default_factory=list)
    timeouts: list[dict[str, Any]] = field(default_factory=list)
    disputes: dict[int, dict[str, Any]] = field(default_factory=dict)  # dispute_seq -> dispute (with its answer)
    rulings: list[dict[str, Any]] = field(default_factory=list)  # every ruling_made, in order, with its status
    corrections: list[dict[str, Any]] = field(default_factory=list)  # every result_corrected, in order
    notices: list[dict[str, Any]] = field(default_factory=list)  # what an event asks to tell a player (`notify`)
    ended: dict[str, Any] | None = None
    round_of: dict[str, int] = field(default_factory=dict)  # game id -> its round (the latest pairing)
    seed: str | None = None
    co_directors: dict[str, str] = field(default_factory=dict)  # player id -> name (director_added)
    announcements: list[dict[str, Any]] = field(default_factory=list)  # every announcement_made, in order
    seat_changes: list[dict[str, Any]] = field(default_factory=list)  # invitation_reissued and seat_replaced
    leaves: list[dict[str, Any]] = field(default_factory=list)  # every leave_declared and leave_ended, in order
    last_seq: int = -1
    last_hash: str = ""

    @property
    def kind(self) -> str:
        return str(self.format["kind"])

    @property
    def total_rounds(self) -> int:
        return int(self.format.get("rounds", 1))

    @property
    def current_round(self) -> int:
        return max(self.rounds, default=0)

    @property
    def status(self) -> str:
        if self.ended is not None:
            return "ended"
        return "running" if self.rounds else "registration"

    def active_entrants(self) -> list[str]:
        return [e.player_id for e in self.entrants.values() if not e.withdrawn]

    def games(self) -> list[tuple[int, Pairing]]:
        return [(r.number, p) for r in sorted(self.rounds.values(), key=lambda r: r.number) for p in r.pairings]

    def game_round(self, game_id: str) -> tuple[int, Pairing] | None:
        r = self.round_of.get(game_id)
        if r is None:
            return None
        return next(((r, p) for p in self.rounds[r].pairings if p.game_id == game_id), None)

    def round_complete(self, number: int) -> bool:
        r = self.rounds.get(number)
        return r is not None and all(p.game_id in self.results for p in r.pairings)

    def pending_rulings(self) -> list[dict[str, Any]]:
        """Rulings in a game that the game has not judged yet (as far as this stream knows)."""
        return [r for r in self.rulings if r["status"] == "pending"]

    def ruling_at(self, seq: int) -> dict[str, Any] | None:
        return next((r for r in self.rulings if r["ruling_seq"] == seq), None)

    def name_of(self, player_id: str) -> str:
        e = self.entrants.get(player_id)
        return e.display_name if e else self.co_directors.get(player_id, player_id)

    def directs(self, player_id: str) -> bool:
        """Whether the player is the tournament's director or one of its co-directors."""
        return player_id == self.director or player_id in self.co_directors


class ModelError(ValueError):
    """An event that does not fit the stream before it (its seq names it)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq, self.reason = seq, message


def pairings_from(doc: list[dict[str, Any]]) -> list[Pairing]:
    return [Pairing(int(p["table"]), dict(p["seats"]), p.get("game_id"), p.get("pool")) for p in doc]


def pairings_doc(pairings: list[Pairing], with_games: bool = True) -> list[dict[str, Any]]:
    out = []
    for p in pairings:
        d: dict[str, Any] = {"table": p.table, "seats": dict(p.seats)}
        if p.pool is not None:
            d["pool"] = p.pool
        if with_games:
            d["game_id"] = p.game_id
        out.append(d)
    return out


def apply(t: Tournament | None, ev: Event) -> Tournament:
    """The tournament after `ev` (raises ModelError if `ev` cannot follow)."""
    p = ev.payload
    if t is None:
        if ev.type != T.CREATED:
            raise ModelError(ev.seq, "the first event of a tournament must be tournament_created")
        return Tournament(ev.game_id, p["name"], p["game"], p["scenario"], dict(p["options"]), list(p["roles"]),
                          dict(p["format"]), dict(p["points"]), p["director"], p["seed_commitment"],
                          ev.recorded_at, dict(p.get("time_control") or {}), entry=dict(p.get("entry") or {}),
                          leave_policy=dict(p.get("leave") or {}),
                          last_seq=ev.seq, last_hash=ev.hash)
    if ev.type == T.REGISTERED:
        if p["player_id"] in t.entrants and not t.entrants[p["player_id"]].withdrawn:
            raise ModelError(ev.seq, f"{p['player_id']} is registered already")
        t.entrants[p["player_id"]] = Entrant(p["player_id"], p["display_name"], ev.seq)
    elif ev.type == T.WITHDRAWN:
        if p["player_id"] not in t.entrants:
            raise ModelError(ev.seq, f"{p['player_id']} is not an entrant")
        t.entrants[p["player_id"]].withdrawn = True
    elif ev.type in (T.ROUND_PAIRED, T.REPAIRED):
        number = int(p["round"])
        if ev.type == T.ROUND_PAIRED and number != t.current_round + 1:
            raise ModelError(ev.seq, f"round {number} paired after round {t.current_round}")
        if ev.type == T.REPAIRED and number not in t.rounds:
            raise ModelError(ev.seq, f"round {number} re-paired before it was paired")
        extra = {k: v for k, v in p.items() if k not in ("round", "pairings", "byes", "dice", "reason")}
        if ev.type == T.REPAIRED:
            extra = {**t.rounds[number].extra, "repaired": p.get("reason", "")}
            keep = {q.get("game_id") for q in p["pairings"]}
            for old in t.rounds[number].pairings:  # results of games the re-pairing replaced no longer count
                if old.game_id and old.game_id not in keep:
                    t.results.pop(old.game_id, None)
        if number in t.rounds:
            for old_pairing in t.rounds[number].pairings:
                t.round_of.pop(old_pairing.game_id or "", None)
        t.rounds[number] = Round(number, ev.seq, pairings_from(p["pairings"]), list(p.get("byes", [])),
                                 list(p.get("dice", [])), extra)
        for q in t.rounds[number].pairings:
            if q.game_id:
                t.round_of[q.game_id] = number
    elif ev.type == T.RESULT:
        if p["game_id"] in t.results:
            raise ModelError(ev.seq, f"game {p['game_id']} has a result already")
        if t.game_round(p["game_id"]) is None:
            raise ModelError(ev.seq, f"game {p['game_id']} is not paired in this tournament")
        t.results[p["game_id"]] = Result(int(p["round"]), p["game_id"], dict(p["points"]), p.get("winner"),
                                         p["how"], ev.seq, p.get("score"), final_seq=p.get("final_seq"))
    elif ev.type == T.RESULT_CORRECTED:
        standing = t.results.get(p["game_id"])
        if standing is None:
            raise ModelError(ev.seq, f"corrects the result of game {p['game_id']}, which has none")
        if p.get("corrects") != standing.seq:
            raise ModelError(ev.seq, f"corrects event {p.get('corrects')}, but game {p['game_id']}'s result is "
                                     f"event {standing.seq}")
        t.results[p["game_id"]] = Result(standing.round, p["game_id"], dict(p["points"]), p.get("winner"),
                                         p["how"], ev.seq, p.get("score"), corrects=standing.seq,
                                         reason=str(p.get("reason", "")), final_seq=p.get("final_seq"))
        t.corrections.append({**p, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.EXTENSION:
        t.extensions.append({**p, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.TIMEOUT:
        t.timeouts.append({**p, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.DISPUTE:
        # `seq` stays the disputed game event, as recorded; `dispute_seq` is this event's own place
        t.disputes[ev.seq] = {**p, "game_seq": p["seq"], "dispute_seq": ev.seq, "at": ev.recorded_at,
                              "answer": None, "status": "open", "refused": []}
    elif ev.type == T.RULING:
        judged_now = p.get("decision") != "rule" or p.get("game_ruling_seq") is None
        ruling = {**p, "seq": ev.seq, "ruling_seq": ev.seq, "at": ev.recorded_at,
                  "status": "made" if judged_now else "pending", "judgement_seq": None, "reasons": []}
        t.rulings.append(ruling)
        if p.get("dispute") is not None:  # the answer to a dispute (else a ruling of the director's own)
            target = t.disputes.get(int(p["dispute"]))
            if target is None:
                raise ModelError(ev.seq, f"answers dispute {p.get('dispute')}, which is not in the stream")
            target["answer"] = ruling
            target["status"] = ("dismissed" if p.get("decision") == "dismiss" else "ruled" if judged_now
                                else "pending")
        if p.get("notify") and p.get("decision") == "dismiss":
            t.notices.append({"seq": ev.seq, "player_id": p["notify"], "game_id": p.get("game_id"),
                              "subject": "your dispute was answered", "text": "Dismissed: %(text)s",
                              "text_values": {"text": p.get("text", "")}})
    elif ev.type == T.RULING_JUDGED:
        judged = t.ruling_at(int(p["ruling"]))
        if judged is None or judged["status"] != "pending":
            raise ModelError(ev.seq, f"judges ruling {p.get('ruling')}, which is not a pending ruling")
        ruling = judged
        ruling.update(status=p["outcome"], judgement_seq=p["judgement_seq"], reasons=list(p.get("reasons", [])))
        d = t.disputes.get(int(ruling["dispute"])) if ruling.get("dispute") is not None else None
        if d is not None:
            if p["outcome"] == "made":
                d["status"] = "ruled"
            else:  # refused: the dispute is open again, to be answered anew
                d["refused"].append(ruling)
                d["answer"], d["status"] = None, "open"
        if ruling.get("notify") and p["outcome"] == "made":
            t.notices.append({"seq": ev.seq, "player_id": ruling["notify"], "game_id": ruling.get("game_id"),
                              "subject": "your dispute was answered", "text": "Ruled: %(text)s",
                              "text_values": {"text": ruling.get("text", "")}})
    elif ev.type == T.DIRECTOR_ADDED:
        if t.directs(p["player_id"]):
            raise ModelError(ev.seq, f"{p['player_id']} directs this tournament already")
        t.co_directors[p["player_id"]] = str(p.get("display_name") or p["player_id"])
    elif ev.type == T.ANNOUNCED:
        t.announcements.append({**p, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.INVITATION_REISSUED:
        found = t.game_round(p["game_id"])
        if found is None or found[1].seats.get(p["seat"]) != p["player_id"]:
            raise ModelError(ev.seq, f"re-issues seat {p.get('seat')} of game {p.get('game_id')} to a player "
                                     "who does not hold it")
        t.seat_changes.append({**p, "type": ev.type, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.SEAT_REPLACED:
        # the substitute takes the seat (the game's result is theirs) and the tournament place:
        # the player who left is withdrawn, their earlier results stay theirs
        found = t.game_round(p["game_id"])
        if found is None or found[1].seats.get(p["seat"]) != p["player_id"]:
            raise ModelError(ev.seq, f"replaces seat {p.get('seat')} of game {p.get('game_id')}, which "
                                     f"{p.get('player_id')} does not hold")
        if p["substitute"] in found[1].players():
            raise ModelError(ev.seq, f"{p['substitute']} plays in game {p['game_id']} already")
        if p["game_id"] in t.results:
            raise ModelError(ev.seq, f"game {p['game_id']} has a result already")
        found[1].seats[p["seat"]] = p["substitute"]
        if p["player_id"] in t.entrants:
            t.entrants[p["player_id"]].withdrawn = True
        e = t.entrants.get(p["substitute"])
        if e is None:
            t.entrants[p["substitute"]] = Entrant(p["substitute"], str(p.get("display_name") or p["substitute"]),
                                                  ev.seq)
        else:
            e.withdrawn = False
        t.seat_changes.append({**p, "type": ev.type, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type in (T.LEAVE_DECLARED, T.LEAVE_ENDED):
        if p.get("player_id") not in t.entrants:
            raise ModelError(ev.seq, f"{p.get('player_id')} is not an entrant: no leave of theirs is recorded here")
        seen = {x["type"] for x in t.leaves if x["leave"] == p.get("leave")}
        if ev.type in seen:
            raise ModelError(ev.seq, f"leave {p.get('leave')} is recorded as {ev.type} already")
        if ev.type == T.LEAVE_ENDED and T.LEAVE_DECLARED not in seen:
            raise ModelError(ev.seq, f"leave {p.get('leave')} ends before it was declared")
        t.leaves.append({**p, "type": ev.type, "seq": ev.seq, "at": ev.recorded_at})
    elif ev.type == T.ENDED:
        t.ended = dict(p)
    elif ev.type == T.SEED_REVEALED:
        t.seed = p["seed"]
    elif ev.type == T.CREATED:
        raise ModelError(ev.seq, "a second tournament_created")
    t.last_seq, t.last_hash = ev.seq, ev.hash
    return t


def fold(events: Iterable[Event]) -> Tournament:
    t: Tournament | None = None
    for ev in events:
        t = apply(t, ev)
    if t is None:
        raise ModelError(0, "the stream is empty")
    return t
