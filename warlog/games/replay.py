"""Reading a ledger for people: one row per event (what was asked, what the rules decided,
which dice, which rule sections), and what changed at a replay step, for the map to
highlight. Works on events as the viewer may see them (see `warlog.games.service.redact`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ledger.events import (
    DICE_ADDED,
    DIRECTOR,
    DISPUTE_ANSWERED,
    DISPUTE_RAISED,
    GAME_CREATED,
    GAME_ENDED,
    GAME_STARTED,
    HIDDEN_VIEWED,
    REJECTED,
    RESOLVED,
    SEAT_JOINED,
    SEED_COMMITTED,
    SEED_REVEALED,
    SUBMITTED,
    UMPIRE_INVITED,
)
from rules.core.game import Game
from warlog.render import Highlights, Renderer, renderer_for, seat_label
from warlog.render.words import action_text, fact_text, hidden_move, text_words

# Events a replay stops at when stepping with ←/→ (a submission is shown with its judgement).
POSITIONS = (GAME_CREATED, GAME_STARTED, RESOLVED, REJECTED, GAME_ENDED, SEED_REVEALED)


@dataclass
class EventRow:
    seq: int
    type: str
    seat: str | None
    title: str
    facts: list[dict[str, Any]] = field(default_factory=list)
    dice: list[dict[str, Any]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    reasons: list[dict[str, Any]] = field(default_factory=list)
    submission_seq: int | None = None
    recorded_at: str = ""

    @property
    def css(self) -> str:
        return f"ev ev-{self.type}" + (f" by-{self.seat}" if self.seat else "")

    @property
    def steps(self) -> tuple[int, ...]:
        """The replay steps this row stands for: a judgement stands for its submission too."""
        return (self.seq,) if self.submission_seq is None else (self.submission_seq, self.seq)


def seat_name(seat: str | None, game: Game | str | None = None) -> str:
    """A seat's display name in `game` ("US", "VC", "Germany"): the game's renderer names its
    seats (`seat_names`); without one, the seat id with its first letter capitalised."""
    if seat is None:
        return "Server"
    if seat == DIRECTOR:
        return "Director"
    name = game if isinstance(game, str) or game is None else game.name
    return seat_label(name, seat)


_JAPANESE = re.compile(r"\s*[(（][^()（）]*[\u3040-\u30ff\u3400-\u9fff][^()（）]*[)）]")


def titles(game: Game, scenario: str | None) -> tuple[str, str]:
    """The game's name for a page heading (its renderer's `title` when the game's own title
    names scenarios: "Vietnam Battles") and the scenario's title ("The Boys of '67 …"), in
    English: the pages translate them (warlog.web.pages), as judging imports this module too."""
    sc = game.scenarios().get(scenario or "")
    return str(getattr(renderer_for(game.name), "title", game.title)), sc.title if sc else str(scenario or "")


def result_text(result: Any, game: Game, winner: str | None = None) -> str:
    """An outcome's result for a heading, the seats by their display names ("VC victory",
    "Germany wins"), never `str.capitalize` of the ids ("Vc victory"). A bare result that does
    not name the side ("win", "decisive victory") gets the winner's name: "Germans win"."""
    words = _seat_words(str(result or "").replace("_", " "), game)  # "us_win" -> "US win"
    seats = {seat_name(r, game) for sc in game.scenarios().values() for r in sc.roles}
    if winner and not seats.intersection(words):
        who = seat_name(winner, game)
        plural = who.endswith("s") and not who.endswith("ss") and not who.isupper()  # "Americans win"
        words = [who, "win" if plural else "wins"] if words in ([], ["win"], ["wins"]) else words + [f"({who})"]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def _seat_words(text: str, game: Game) -> list[str]:
    seats = {r for sc in game.scenarios().values() for r in sc.roles}
    return [seat_name(w, game) if w in seats else w for w in text.split(" ")]


def seat_name_in(game: Game, seat: str | None) -> str:
    return seat_name(seat, game)


def english(text: Any) -> str:
    """A rules text for the interface: a parenthesised Japanese term from the rulebook (the
    engine records "Court-martial (軍法会議)") is left out; the seed is cited by section instead."""
    return _JAPANESE.sub("", str(text))


def describe_ruling(ruling: dict[str, Any]) -> str:
    kind = ruling.get("kind", "?")
    what = {"void": f"void event {ruling.get('target')}" + (" and re-resolve it" if ruling.get("re_resolve") else ""),
            "adjust": "adjust the state", "award": f"award the game to {ruling.get('winner') or 'nobody'}",
            "reveal_seed": "reveal the dice seed"}.get(kind, kind)
    reason = ruling.get("reason")
    return f"Ruling: {what}" + (f" — {reason}" if reason else "")


def look_text(p: dict[str, Any]) -> str:
    """A recorded look at what the rules hide, in words ("the director viewed ... at step 57")."""
    by = p.get("by") or DIRECTOR
    who = f"The {by}" if by in (DIRECTOR, "umpire") else f"Director {by}"
    return f"{who} viewed {p.get('what', 'the full state')} at step {p.get('step')}: a look at what the rules hide"


def event_row(ev: dict[str, Any], game: Game, submissions: dict[int, dict[str, Any]] | None = None) -> EventRow:
    """A row for one event document (`Event.to_json()` or a redacted copy)."""
    t, p, seat = ev["type"], ev["payload"], ev.get("seat")
    row = EventRow(ev["seq"], t, seat, t, recorded_at=str(ev.get("recorded_at", ""))[:19].replace("T", " "))

    if t == GAME_CREATED:
        scenario = game.scenarios().get(str(p.get("scenario")))  # by its title, as the lobby names it
        row.title = f"{p.get('title', p.get('game'))} created: scenario {scenario.title if scenario else p.get('scenario')}, " \
                    f"seats {', '.join(seat_name_in(game, r) for r in p.get('roles', []))}"
        if p.get("sandbox"):
            row.title += " (dispute sandbox)"
    elif t == SEAT_JOINED:
        row.title = f"{seat_name_in(game, seat)} takes its seat" + (
            " and adds entropy to the dice" if p.get("entropy") else "")
    elif t == GAME_STARTED:
        row.title = f"Every seat has joined: the game starts ({p.get('phase', '')})"
        row.dice = list(p.get("dice", []))
    elif t == SUBMITTED:
        if "ruling" in p:
            row.title = f"Director: {describe_ruling(p['ruling'])}"
        elif "action" in p:
            row.title = f"{seat_name_in(game, seat)}: {action_text(game, p['action'])}"
        else:
            row.title = f"{seat_name_in(game, seat)} submits a move (hidden)"
    elif t in (RESOLVED, REJECTED):
        sub = (submissions or {}).get(p.get("submission_seq", -1))
        asked = _asked(sub, game) if sub else None
        row.submission_seq = p.get("submission_seq")
        row.seat = p.get("seat", seat)
        row.dice = list(p.get("dice", []))
        who = seat_name_in(game, p.get("seat", seat))
        if t == RESOLVED:
            row.facts = [{**f, "text": english(fact_text(game, f))} for f in p.get("facts", [])]
            if asked is not None:
                row.title = f"{who}: {asked}"
            elif row.facts:  # the action is hidden from the viewer: what happened, as far as it may know
                row.title = f"{who}: {row.facts[0]['text']}"
            else:
                row.title = hidden_move(game, p.get("seat", seat))
            row.rules = list(p.get("rules", []))
        elif p.get("withdrawn") is True and seat is not None and seat == p.get("seat"):  # ledger.events.withdrawn
            row.title = f"Taken back by its seat — {who}: {asked or 'a move'}"
        else:
            row.title = f"Refused — {who}: {asked or 'a move hidden from you'}"
            row.reasons = [{**r, "message": text_words(game, str(r.get("message", "")))} for r in p.get("reasons", [])]
            row.rules = sorted({r["rule"] for r in row.reasons if r.get("rule")})
    elif t == GAME_ENDED:
        o = p.get("outcome") or {}
        row.title = english(f"Game over: {result_text(o.get('result', ''), game, o.get('winner'))}"
                            + (f" — {o['reason']}" if o.get("reason") else ""))
        if o.get("rule"):
            row.rules = [o["rule"]]
    elif t == SEED_REVEALED:
        row.title = ("The dice seed is revealed: every roll can now be re-derived" if "seed" in p else
                     "The dice seed is revealed to the director for a dispute (public when the game ends)")
    elif t == DISPUTE_RAISED:
        row.title = f"{seat_name_in(game, seat)} disputes event {p.get('seq')}: {p.get('text', '')}"
    elif t == DISPUTE_ANSWERED:
        row.title = (f"Director: the dispute (event {p.get('dispute')}) is "
                     + ("dismissed" if p.get("decision") == "dismiss" else f"ruled (event {p.get('ruling_seq')})")
                     + f" — {p.get('text', '')}")
    elif t == DICE_ADDED:
        row.title = (f"Director adds forced dice {', '.join(str(d) for d in p.get('forced', []))}"
                     + (f" for the move waiting at event {p['for_submission']}" if "for_submission" in p else ""))
    elif t == HIDDEN_VIEWED:
        row.title = look_text(p)
    elif t == UMPIRE_INVITED:
        row.title = (f"{seat_name_in(game, seat)} had an umpire invitation made (the umpire sees everything; "
                     f"each look is recorded here) — {p.get('text', '')}")
    elif t == SEED_COMMITTED:
        row.title = (f"A fresh dice seed is committed (period {p.get('period')}): the rolls from here on do not "
                     "use the revealed one")
    return row


def _asked(sub: dict[str, Any], game: Game) -> str | None:
    p = sub["payload"]
    if "ruling" in p:
        return describe_ruling(p["ruling"])
    if "action" in p:
        return action_text(game, p["action"])
    return None


def rows(events: list[dict[str, Any]], game: Game, before: list[dict[str, Any]] | None = None) -> list[EventRow]:
    """Rows for `events`; `before` are earlier events that may hold their submissions."""
    subs = {e["seq"]: e for e in (before or []) + events if e["type"] == SUBMITTED}
    return [event_row(e, game, subs) for e in events]


def move_rows(events: list[dict[str, Any]], game: Game, before: list[dict[str, Any]] | None = None) -> list[EventRow]:
    """One row per move: a submission that has its judgement among `events` is shown by the
    judgement's row (which names what was asked); one still waiting keeps its own row."""
    judged = {e["payload"].get("submission_seq") for e in events if e["type"] in (RESOLVED, REJECTED)}
    return [r for r in rows(events, game, before) if r.type != SUBMITTED or r.seq not in judged]


def step_highlights(renderer: Renderer, current: dict[str, Any] | None, before: Any, after: Any,
                    events: list[dict[str, Any]], step: int) -> Highlights:
    """What the board highlights at `step`: the renderer's own reading of its game's facts when
    it has one, else the generic one (with the whole path of a unit moving hex by hex)."""
    own = getattr(renderer, "highlights", None)
    if own is not None:
        return own(current, before, after)  # type: ignore[no-any-return]
    return highlights(current, before, after, move_trail(events, step))


# -- what changed at a step ------------------------------------------------------------------

def highlights(event: dict[str, Any] | None, before: Any, after: Any,
               trail: list[list[str]] | None = None) -> Highlights:
    """Hexes fought over, paths moved and units lost at this step, from the facts' data and
    from the difference between the states before and after it."""
    if event is None or event["type"] != RESOLVED:
        return Highlights()
    paths: list[tuple[str, ...]] = [tuple(t) for t in (trail or []) if len(t) > 1]
    hexes: list[str] = []
    units: list[str] = []
    lost: list[tuple[str, str]] = []
    for f in event["payload"].get("facts", []):
        data = f.get("data") or {}
        kind = f.get("kind")
        if kind == "move" and isinstance(data.get("hexes"), list) and not trail:
            paths.append(tuple(str(h) for h in data["hexes"]))
        elif kind == "retreat" and isinstance(data.get("hexes"), list):
            paths.append(tuple(str(h) for h in data["hexes"]))
        if kind in ("battle", "land_round", "aa", "air", "tank_battle", "hit", "eliminated") and \
                isinstance(data.get("hex"), str) and data["hex"] not in hexes:
            hexes.append(data["hex"])
        for key in ("unit", "attacker", "defender", "target", "firer"):
            if isinstance(data.get(key), str) and data[key] not in units:
                units.append(data[key])
        if kind == "eliminated" and isinstance(data.get("unit"), str) and isinstance(data.get("hex"), str):
            lost.append((data["unit"], data["hex"]))
    lost.extend(_lost_by_diff(before, after, {u for u, _ in lost}))
    return Highlights(tuple(paths), tuple(hexes), tuple(units), tuple(lost))


def _lost_by_diff(before: Any, after: Any, known: set[str]) -> list[tuple[str, str]]:
    """Units on the map before the step and gone after it (for states with `units`)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    b, a = before.get("units"), after.get("units")
    if not isinstance(b, dict) or not isinstance(a, dict):
        return []
    out = []
    for uid in sorted(b):
        was, now = b[uid], a.get(uid) or {}
        if uid in known or not isinstance(was, dict) or not isinstance(now, dict):
            continue
        if was.get("status") == "active" and now.get("status") in ("eliminated", "removed") and was.get("hex"):
            out.append((uid, str(was["hex"])))
    return out


def move_trail(events: list[dict[str, Any]], upto: int) -> list[list[str]]:
    """The whole path of the unit moving at step `upto`: its consecutive single-hex moves."""
    by_seq = {e["seq"]: e for e in events}
    ev = by_seq.get(upto)
    if ev is None or ev["type"] != RESOLVED:
        return []
    unit, hexes = _move_of(ev)
    if unit is None:
        return []
    path = list(hexes)
    seq = upto - 1
    while seq in by_seq:
        e = by_seq[seq]
        seq -= 1
        if e["type"] in (SUBMITTED, REJECTED):
            continue
        if e["type"] != RESOLVED:
            break
        u, h = _move_of(e)
        if u != unit or not h or h[-1] != path[0]:
            break
        path = list(h[:-1]) + path
    return [path]


def _move_of(ev: dict[str, Any]) -> tuple[str | None, list[str]]:
    for f in ev["payload"].get("facts", []):
        data = f.get("data") or {}
        if f.get("kind") == "move" and isinstance(data.get("hexes"), list) and isinstance(data.get("unit"), str):
            return data["unit"], [str(h) for h in data["hexes"]]
    return None, []
