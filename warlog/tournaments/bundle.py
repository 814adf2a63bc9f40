"""A tournament bundle: one file with the tournament's stream and every game's export, and its
offline verification (docs/tournaments.md).

Format: JSON Lines. Line 1 is the header {"warlog_bundle": 1, "tournament": id, "games": [ids],
"pace": {player id: pace record}} (warlog.clock.pace; absent from bundles written before it);
then the tournament's events and each game's events, one canonical event per line, exactly as
in a game's export (each stream's events in seq order).

`verify_bundle` checks every game as `warlog verify` does, checks the tournament's chain, and
replays the tournament: every round's pairing is re-derived (with the dice re-derived from the
revealed pairing seed, or replayed as recorded before the reveal) from the results recorded
before it, every result is re-read from its game's ledger (the game's event at `final_seq` must
have `final_hash`), the final standings are recomputed, and the entrants' pace record is
re-derived from the games' events and compared with the header's. It fails naming the first event
that does not reproduce.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from ledger.events import LEAVE_DECLARED, LEAVE_ENDED, SEED_REVEALED, ChainError, Event
from ledger.fold import fold as fold_game
from warlog.clock.pace import tournament_pace
from warlog.tournaments import events as T
from warlog.tournaments.model import ModelError, Tournament, apply, pairings_doc
from warlog.tournaments.pairing import DiceMismatch, PairingDice, PairingError, duplicate_seed, pair_next
from warlog.tournaments.standings import standings_doc
from warlog.trust.verify import VerifyFailure, verify_events

BUNDLE_VERSION = 1


def is_bundle(first_line: bytes | str) -> bool:
    try:
        doc = json.loads(first_line)
    except ValueError:
        return False
    return isinstance(doc, dict) and "warlog_bundle" in doc


def bundle_lines(ledger_store: Any, tournament_store: Any, tid: str) -> Iterator[str]:
    """The header (with the entrants' pace record, warlog.clock.pace), the tournament's events,
    then each game's. The pace record is computed from each game's events up to its last seq
    then, and exactly those events are written (a move made meanwhile is in the next bundle)."""
    events = tournament_store.read(tid)
    games = [p["game_id"] for ev in events if ev.type in (T.ROUND_PAIRED, T.REPAIRED)
             for p in ev.payload["pairings"] if p.get("game_id")]
    games = list(dict.fromkeys(games))
    upto: dict[str, int] = {}

    def read_once(gid: str) -> list[Event]:
        got: list[Event] = ledger_store.read(gid, upto=upto[gid]) if gid in upto else ledger_store.read(gid)
        upto[gid] = got[-1].seq if got else -1
        return got

    pace = tournament_pace(events, read_once)
    yield json.dumps({"warlog_bundle": BUNDLE_VERSION, "tournament": tid, "games": games, "pace": pace}) + "\n"
    for ev in events:
        yield canonical_bytes(ev.to_json()).decode("utf-8") + "\n"
    for gid in games:
        last = upto.get(gid)
        stream = ledger_store.iter_events(gid) if last is None else iter(ledger_store.read(gid, upto=last))
        for ev in stream:
            yield canonical_bytes(ev.to_json()).decode("utf-8") + "\n"


class BundleFailure(VerifyFailure):
    def __init__(self, stream: str, seq: int | None, reason: str) -> None:
        super().__init__(seq, reason)
        where = f"tournament {stream} event {seq}" if seq is not None else f"bundle ({stream})"
        self.args = (f"{where}: {reason}",)
        self.stream = stream


@dataclass
class BundleReport:
    tournament: str = ""
    name: str = ""
    events: int = 0
    games: list[Any] = field(default_factory=list)
    rounds: int = 0
    results: int = 0
    seed_revealed: bool = False
    leaves: int = 0  # entrants' leave_declared, each found in the games' own ledgers
    pace_players: int | None = None  # entrants whose pace record was re-derived (None: the bundle has none)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        pace = ("" if self.pace_players is None
                else f"pace record of {self.pace_players} player(s) re-derived from the games' times; ")
        leave = f"{self.leaves} leave(s) found in the games' ledgers; " if self.leaves else ""
        fair = ("pairing dice re-derived from the revealed seed" if self.seed_revealed
                else "pairing seed not revealed yet: pairing dice replayed as recorded")
        return (f"OK tournament {self.tournament} ({self.name}): {self.events} events, chain intact, "
                f"{self.rounds} round(s) re-paired, {self.results} result(s) re-read from their games and each "
                f"agreeing with its game's final outcome, "
                f"standings reproduced; {pace}{leave}{len(self.games)} game(s) verified; {fair}")


def _parse(lines: Iterable[bytes | str]) -> tuple[dict[str, Any], dict[str, list[Event]]]:
    streams: dict[str, list[Event]] = {}
    header: dict[str, Any] | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        text = text.rstrip("\r\n")
        if not text:
            continue
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise BundleFailure("file", None, f"line {number} is not JSON ({exc})") from None
        if header is None:
            if not isinstance(doc, dict) or doc.get("warlog_bundle") != BUNDLE_VERSION:
                raise BundleFailure("file", None, "line 1 is not a version 1 bundle header")
            header = doc
            continue
        try:
            ev = Event.from_json(doc)
            if canonical_bytes(doc) != text.encode("utf-8"):
                raise ValueError("not in canonical form")
        except ValueError as exc:
            raise BundleFailure("file", None, f"line {number}: {exc}") from None
        streams.setdefault(ev.game_id, []).append(ev)
    if header is None:
        raise BundleFailure("file", None, "the bundle is empty")
    return header, streams


def verify_bundle_bytes(data: bytes, jobs: int | None = 1) -> BundleReport:
    return verify_bundle(data.splitlines(keepends=True), jobs)


def verify_bundle(lines: Iterable[bytes | str], jobs: int | None = 1) -> BundleReport:
    """`jobs` > 1: the games are verified on that many processes (warlog.trust.verify_parallel); None:
    one process for a small bundle, every core for a large one."""
    header, streams = _parse(lines)
    tid = str(header.get("tournament"))
    events = streams.pop(tid, [])
    if not events:
        raise BundleFailure(tid, None, "the bundle holds no event of its tournament")
    try:
        T.check_stream(events)
    except ChainError as err:
        raise BundleFailure(tid, err.seq, err.reason) from None
    report = BundleReport(tournament=tid, events=len(events))
    gids = list(header.get("games", []))
    for gid in gids:
        if gid not in streams:
            raise BundleFailure(tid, None, f"game {gid} is missing from the bundle")
    if jobs is None or jobs > 1:
        from warlog.trust.verify_parallel import verify_games

        results: Iterable[Any] = verify_games([streams[g] for g in gids], jobs)
    else:
        results = (_serial(streams[g]) for g in gids)
    for gid, result in zip(gids, results):
        if isinstance(result, VerifyFailure):
            raise VerifyFailure(result.seq, f"game {gid}: {result.reason}") from None
        report.games.append(result)
    seed = _revealed(events, tid)
    report.seed_revealed = seed is not None
    t: Tournament | None = None
    for ev in events:
        try:
            if ev.type in (T.ROUND_PAIRED,) and t is not None:
                report.notes.extend(_check_pairing(t, ev, seed, streams))
                report.rounds += 1
            elif ev.type == T.REPAIRED and t is not None:
                report.notes.extend(_check_repairing(t, ev, seed, streams))
            elif ev.type in (T.RESULT, T.RESULT_CORRECTED) and t is not None:
                _check_result(t, ev, streams)
                report.results += ev.type == T.RESULT
            elif ev.type == T.RULING_JUDGED and t is not None:
                _check_judged(t, ev, streams)
            elif ev.type in (T.LEAVE_DECLARED, T.LEAVE_ENDED) and t is not None:
                _check_leave(t, ev, streams)
                report.leaves += ev.type == T.LEAVE_DECLARED
            elif ev.type == T.ENDED and t is not None:
                if ev.payload.get("standings") != standings_doc(t):
                    raise BundleFailure(tid, ev.seq, "the final standings do not reproduce from the results")
            t = apply(t, ev)
        except ModelError as err:
            raise BundleFailure(tid, err.seq, err.reason) from None
    assert t is not None
    for gid, res in t.results.items():
        _check_final(t, gid, res, streams)
    report.name = t.name
    _check_pace(header, events, streams, report)
    if not report.seed_revealed:
        report.notes.append("the pairing seed is not revealed: pairing dice were replayed, not re-derived")
    return report


def _check_pace(header: dict[str, Any], events: list[Event], streams: dict[str, list[Event]],
                report: BundleReport) -> None:
    """The pace record the header carries is the one the bundle's own events give (every
    response time, deadline, extension and leave re-derived: warlog.clock.pace)."""
    if "pace" not in header:
        report.notes.append("the bundle carries no pace record (written before there was one)")
        return
    recorded = header["pace"]
    again = tournament_pace(events, lambda gid: streams.get(gid, []))
    if recorded != again:
        if not isinstance(recorded, dict):
            raise BundleFailure("file", None, "the header's pace record is not an object")
        for pid in sorted(set(recorded) | set(again)):
            mine, theirs = recorded.get(pid), again.get(pid)
            if mine != theirs:
                raise BundleFailure("file", None, f"the pace record of player {pid} does not re-derive from the "
                                                  f"games' events: {_pace_diff(mine, theirs)}")
    report.pace_players = len(again)


def _pace_diff(recorded: Any, again: Any) -> str:
    """The first figure that differs, said plainly."""
    if not isinstance(recorded, dict) or not isinstance(again, dict):
        return f"recorded {_brief(recorded)}, the games give {_brief(again)}"
    for part in ("overall", "games"):
        a, b = recorded.get(part), again.get(part)
        if part == "games" and isinstance(a, dict) and isinstance(b, dict):
            for gid in sorted(set(a) | set(b)):
                if a.get(gid) != b.get(gid):
                    return f"game {gid}: " + _pace_diff({"overall": a.get(gid)}, {"overall": b.get(gid)})
        elif a != b and isinstance(a, dict) and isinstance(b, dict):
            key = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            return f"{key} recorded {_brief(a.get(key))}, the games give {_brief(b.get(key))}"
        elif a != b:
            return f"{part} recorded {_brief(a)}, the games give {_brief(b)}"
    return "it differs"


def _brief(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def _check_leave(t: Tournament, ev: Event, streams: dict[str, list[Event]]) -> None:
    """A tournament's record of an entrant's leave is the one each of its games holds: the game's
    own `leave_declared` (same times) or `leave_ended`, at the entrant's seat, for the same leave."""
    p = ev.payload
    game_type = LEAVE_DECLARED if ev.type == T.LEAVE_DECLARED else LEAVE_ENDED
    for g in p.get("games") or []:
        gid, seat = g.get("game_id"), g.get("seat")
        if gid not in streams:
            raise BundleFailure(t.id, ev.seq, f"the leave names game {gid}, which is not in the bundle")
        found = t.game_round(gid)
        if found is None or found[1].seats.get(seat) != p.get("player_id") or g.get("round") != found[0]:
            raise BundleFailure(t.id, ev.seq, f"seat {seat} of game {gid} (round {g.get('round')}) is not "
                                              f"{p.get('player_id')}'s in this tournament")
        if not any(e.type == game_type and e.seat == seat and e.payload.get("leave") == p.get("leave")
                   and (game_type == LEAVE_ENDED or (e.payload.get("from"), e.payload.get("to"))
                        == (p.get("from"), p.get("to"))) for e in streams[gid]):
            raise BundleFailure(t.id, ev.seq, f"game {gid}'s ledger holds no {game_type} of leave {p.get('leave')} "
                                              f"at seat {seat}" + ("" if game_type == LEAVE_ENDED else
                                                                   f" from {p.get('from')} to {p.get('to')}"))


def _serial(events: list[Event]) -> Any:
    try:
        return verify_events(events)
    except VerifyFailure as err:
        return err


def _revealed(events: list[Event], tid: str) -> bytes | None:
    commit = events[0].payload.get("seed_commitment")
    for ev in events:
        if ev.type == T.SEED_REVEALED:
            try:
                seed = bytes.fromhex(ev.payload["seed"])
            except (KeyError, ValueError, TypeError):
                raise BundleFailure(tid, ev.seq, "the revealed seed is not hex") from None
            if hashlib.sha256(seed).hexdigest() != commit:
                raise BundleFailure(tid, ev.seq, "the revealed seed does not match the commitment in event 0")
            return seed
    return None


def _check_game(t: Tournament, ev: Event, gid: str | None, streams: dict[str, list[Event]]) -> None:
    if not gid or gid not in streams:
        raise BundleFailure(t.id, ev.seq, f"names game {gid}, which is not in the bundle")
    created = streams[gid][0].payload
    if (created.get("game"), created.get("scenario"), created.get("options")) != (t.game, t.scenario, t.options):
        raise BundleFailure(t.id, ev.seq, f"game {gid} is not of the tournament's game, scenario and options")


def _check_pairing(t: Tournament, ev: Event, seed: bytes | None, streams: dict[str, list[Event]]) -> list[str]:
    p = ev.payload
    dice = PairingDice(seed, t.id, ev.seq, p.get("dice"))
    try:
        proposal = pair_next(t, dice, p.get("seed_ratings"))  # seeded by rating: the ratings it recorded
    except (PairingError, DiceMismatch) as err:
        raise BundleFailure(t.id, ev.seq, f"this round cannot be re-paired: {err}") from None
    recorded = [{k: v for k, v in q.items() if k != "game_id"} for q in p["pairings"]]
    if recorded != pairings_doc(proposal.pairings, with_games=False):
        raise BundleFailure(t.id, ev.seq, f"round {p['round']}'s pairings do not reproduce from the results before it")
    if p.get("byes") != proposal.byes:
        raise BundleFailure(t.id, ev.seq, f"round {p['round']}'s byes do not reproduce")
    if p.get("dice") != proposal.dice:
        raise BundleFailure(t.id, ev.seq, "the pairing dice do not re-derive from the revealed seed")
    for key, value in proposal.extra.items():
        if p.get(key) != value:
            raise BundleFailure(t.id, ev.seq, f"{key} does not reproduce")
    for q in p["pairings"]:
        _check_game(t, ev, q.get("game_id"), streams)
    if t.kind != "duplicate":
        return []
    return _check_duplicate_round(t, ev, int(p["round"]), [q["game_id"] for q in p["pairings"]], seed, streams,
                                  p.get("game_seed_commitment"))


def _check_duplicate_round(t: Tournament, ev: Event, number: int, gids: list[str], seed: bytes | None,
                           streams: dict[str, list[Event]], committed: Any) -> list[str]:
    """A duplicate round as a whole (ledger.dice step 9): every game committed to the round's seed
    (derived from the revealed pairing seed, else the commitment the pairing recorded, else the
    first game's) on the round's one dice stream; with the pairing seed revealed, each game's dice
    re-derive from that seed even where the game's own ledger does not reveal it. Fails naming
    the first game that differs. Returns notes on the games re-derived that way."""
    notes = []
    round_seed = duplicate_seed(seed, t.id, number) if seed is not None else None
    expected = hashlib.sha256(round_seed).hexdigest() if round_seed is not None else committed
    first = streams[gids[0]][0].payload if gids else {}
    expected = expected or first.get("seed_commitment")
    for gid in gids:
        created = streams[gid][0].payload
        if created.get("seed_commitment") != expected:
            raise BundleFailure(t.id, ev.seq, f"game {gid} is not committed to round {number}'s seed: a duplicate "
                                              f"round's games share one seed (its commitment {created.get('seed_commitment')},"
                                              f" the round's {expected})")
        if (created.get("dice_stream"), created.get("dice_key")) != (first.get("dice_stream"), first.get("dice_key")):
            raise BundleFailure(t.id, ev.seq, f"game {gid} does not roll round {number}'s dice stream "
                                              f"({created.get('dice_stream')!r}, not {first.get('dice_stream')!r})")
        if round_seed is not None and not any(e.type == SEED_REVEALED for e in streams[gid]):
            try:
                verify_events(streams[gid], round_seed=round_seed)
            except VerifyFailure as err:
                raise BundleFailure(t.id, ev.seq, f"game {gid}'s dice do not re-derive from round {number}'s seed: "
                                                  f"{err}") from None
            notes.append(f"game {gid} does not reveal its seed: its dice were re-derived from round {number}'s seed")
    return notes


def _check_repairing(t: Tournament, ev: Event, seed: bytes | None, streams: dict[str, list[Event]]) -> list[str]:
    p = ev.payload
    if not str(p.get("reason", "")).strip():
        raise BundleFailure(t.id, ev.seq, "a manual re-pairing without a reason")
    placed = [pid for q in p["pairings"] for pid in q["seats"].values()] + list(p.get("byes", []))
    if sorted(placed) != sorted(t.active_entrants()):
        raise BundleFailure(t.id, ev.seq, "the re-pairing does not place every active entrant exactly once")
    for q in p["pairings"]:
        _check_game(t, ev, q.get("game_id"), streams)
    if t.kind == "duplicate":  # a re-paired table's game shares the round's seed (those made since step 9)
        number = int(p["round"])
        made = [q["game_id"] for q in p["pairings"] if "duplicate_round" in streams[q["game_id"]][0].payload]
        paired = t.rounds[number].extra.get("game_seed_commitment") if number in t.rounds else None
        if made:
            return _check_duplicate_round(t, ev, number, made, seed, streams, paired)
    return []


def _check_result(t: Tournament, ev: Event, streams: dict[str, list[Event]]) -> None:
    from warlog.tournaments.service import result_from_game

    p = ev.payload
    found = t.game_round(p.get("game_id", ""))
    if found is None:
        raise BundleFailure(t.id, ev.seq, f"a result for game {p.get('game_id')}, which no round pairs")
    events = streams.get(p["game_id"]) or []
    final_seq = p.get("final_seq")
    if (not isinstance(final_seq, int) or not 0 <= final_seq < len(events)
            or events[final_seq].hash != p.get("final_hash")):
        raise BundleFailure(t.id, ev.seq, f"the final event it names is not in game {p['game_id']}'s ledger")
    prefix = events[: final_seq + 1]
    try:
        state = fold_game(prefix)
        again = result_from_game(t, found[0], found[1], prefix, state)
    except ValueError as err:
        raise BundleFailure(t.id, ev.seq, str(err)) from None
    for key in ("round", "winner", "points", "how", "outcome", "score"):
        if p.get(key) != again.get(key):
            raise BundleFailure(t.id, ev.seq, f"the result's {key} is not what game {p['game_id']}'s ledger gives "
                                              f"(recorded {p.get(key)!r}, the game gives {again.get(key)!r})")


def _check_judged(t: Tournament, ev: Event, streams: dict[str, list[Event]]) -> None:
    """A `ruling_judged` says what the game's ledger says: its `judgement_seq` is the game's
    `resolved` (made) or `rejected` (refused) of the ruling's submission."""
    p = ev.payload
    events = streams.get(p.get("game_id", "")) or []
    seq = p.get("judgement_seq")
    judged = events[seq] if isinstance(seq, int) and 0 <= seq < len(events) else None
    want = {"made": "resolved", "refused": "rejected"}.get(str(p.get("outcome")))
    if (judged is None or judged.type != want
            or judged.payload.get("submission_seq") != p.get("game_ruling_seq")):
        raise BundleFailure(t.id, ev.seq, f"says game {p.get('game_id')} {p.get('outcome')} ruling "
                                          f"{p.get('game_ruling_seq')} at its event {seq}, which its ledger does not")


def _check_final(t: Tournament, gid: str, res: Any, streams: dict[str, list[Event]]) -> None:
    """The tournament's standing result for `gid` is the one its whole ledger gives, rulings
    after its end included; else fail naming the game's event and the tournament's."""
    from warlog.games.history import ended as game_is_over
    from warlog.tournaments.service import result_from_game

    events = streams.get(gid) or []
    found = t.game_round(gid)
    if not events or found is None:
        return
    ended = [e for e in events if e.type == "game_ended"]
    if not ended or not game_is_over(events):
        last = next((e for e in reversed(events) if e.type == "resolved" and e.payload.get("reopened")), events[-1])
        raise BundleFailure(t.id, res.seq, f"records a result for game {gid}, but game {gid} event {last.seq} "
                                           f"reopened it and it has not ended since")
    try:
        again = result_from_game(t, found[0], found[1], events, fold_game(events))
    except ValueError as err:
        raise BundleFailure(t.id, res.seq, str(err)) from None
    recorded = {"winner": res.winner, "points": res.points, "how": res.how, "score": res.score}
    differ = [k for k, v in recorded.items() if again.get(k) != v]
    if differ:
        end = ended[-1]
        raise BundleFailure(t.id, res.seq, (
            f"records game {gid}'s result as {_said(t, recorded)}, but game {gid} event {end.seq} "
            f"(game_ended, after its event {end.payload.get('submission_seq')}) gives {_said(t, again)}"))


def _said(t: Tournament, r: dict[str, Any]) -> str:
    who = f"{t.name_of(r['winner'])} wins" if r.get("winner") else "no winner"
    return f"{who} ({r.get('how')}, points {r.get('points')}" + (f", score {r['score']}" if r.get("score") else "") + ")"
