"""The audit page's findings, computed on the server from the ledger itself: the seed
commitments (one per seed period, ledger.dice step 7) and, once revealed, whether each seed
matches its commitment, the hash chain, every die with what it decided (re-derived from its
period's seed when that is public), a fairness test per seat, and the director's rulings —
every payload as the viewer may see it (`shown`), so a ruling's private facts reach only the
seats they are addressed to."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache
from markupsafe import Markup

from ledger.dice import DiceKey, JudgementCount, derive_die, dice_key
from ledger.events import (
    DIRECTOR,
    GAME_CREATED,
    GAME_STARTED,
    REJECTED,
    RESOLVED,
    SEED_COMMITTED,
    SEED_REVEALED,
    SUBMITTED,
    ChainError,
    Event,
    check_chain,
)
from warlog.render.hexmap import el, num, text
from warlog.trust.stats import FaceTest, face_test

DICE_KINDS = ("aa", "air", "land_round")


@dataclass
class DieRow:
    seq: int  # the event that recorded it
    submission_seq: int
    seat: str | None  # whose die: the owner's reading, else the seat whose move rolled it
    index: int
    faces: int
    value: int | None  # None: a secret die (a blind draw from a hidden cup) before the end
    purpose: str
    rederived: bool | None = None  # None: the seed is not public (or a sandbox's forced die)
    secret: bool = False


@dataclass
class DiceGroup:
    """The dice of one judgement, with the facts they decided."""

    seq: int
    seat: str | None
    title: str
    dice: list[DieRow]
    decided: list[dict[str, Any]]


@dataclass
class SeedPeriod:
    """One seed period: its commitment (event 0's, or a `seed_committed` event's at `seq`) and,
    once the viewer may see it, the revealed seed and whether it matches."""

    period: int
    seq: int
    commitment: str
    seed: str | None = None
    matches: bool | None = None
    withheld: bool = False  # revealed to the director for a dispute; public at the end

    def key(self) -> bytes | None:
        return bytes.fromhex(self.seed) if self.seed and self.matches else None


@dataclass
class Audit:
    commitment: str
    seed: str | None = None
    seed_matches: bool | None = None
    periods: list[SeedPeriod] = field(default_factory=list)
    chain_ok: bool = False
    chain_error: str | None = None
    events: int = 0
    sandbox: bool = False
    groups: list[DiceGroup] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    fairness: list[tuple[str, FaceTest]] = field(default_factory=list)

    @property
    def dice(self) -> list[DieRow]:
        return [d for g in self.groups for d in g.dice]

    @property
    def mismatches(self) -> int:
        return sum(1 for d in self.dice if d.rederived is False)


class ChainWatermark:
    """How far each game's chain has been checked already: the seq and hash of the
    last event checked. The ledger is append-only (its triggers refuse an update or a delete), so
    a checked prefix stays checked: the audit page re-checks the watermark event's own hash and
    its link to what follows, then only the events after it. `warlog verify` checks everything."""

    def __init__(self, size: int = 1024) -> None:
        self._marks: LRUCache[str, tuple[int, str]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def check(self, key: str, evs: list[Event]) -> None:
        """check_chain(evs), skipping the prefix checked before under `key`; raises ChainError."""
        with self._lock:
            mark = self._marks.get(key)
        if mark is not None and mark[0] < len(evs) and evs[mark[0]].seq == mark[0] \
                and evs[mark[0]].hash == mark[1] == evs[mark[0]].computed_hash():
            check_chain(evs[mark[0] + 1:], after=evs[mark[0]])
        else:
            check_chain(evs)
        if evs:
            with self._lock:
                self._marks[key] = (evs[-1].seq, evs[-1].hash)


WATERMARKS = ChainWatermark()


def build(events: Iterable[Event], describe: Any, seat: str | None = None, full: bool = True,
          owner: Callable[[str], str | None] | None = None,
          shown: Callable[[Event], dict[str, Any]] | None = None, watermark: str | None = None) -> Audit:
    """Read every event once. `describe(submission event) -> str` words a submission;
    `shown(event)` is its payload as the viewer may see it (by default all of it); unless
    `full`, facts addressed to other seats (`visible_to`) are left out. `owner(purpose)` names
    the seat a die belongs to (by default: the seat whose move rolled it). `watermark`: a key
    (the ledger and the game) under which WATERMARKS keeps how far the chain is checked."""
    evs = list(events)
    builder = _Builder(evs, seat, full)
    try:
        if watermark is None:
            check_chain(evs)
        else:
            WATERMARKS.check(watermark, evs)
        builder.audit.chain_ok = True
    except ChainError as err:
        builder.audit.chain_error = str(err)
    return builder.feed(evs, describe, owner, shown)


class _Builder:
    """The audit of a game's events so far, fed in seq order (one `feed` per request of the page:
    AuditCache keeps it between them)."""

    def __init__(self, evs: list[Event], seat: str | None, full: bool) -> None:
        self.seat, self.full = seat, full
        self.created = evs[0].payload if evs and evs[0].type == GAME_CREATED else {}
        self.audit = Audit(commitment=str(self.created.get("seed_commitment", "")),
                           sandbox=bool(self.created.get("sandbox")))
        self.all_events = evs  # only until the first feed: the seed periods need every event
        self.stream = str(self.created.get("dice_stream") or (evs[0].game_id if evs else ""))
        self.entropy = ""
        self.subs: dict[int, Event] = {}
        self.count = JudgementCount()  # ledger.dice step 8
        self.last: Event | None = None

    def feed(self, evs: list[Event], describe: Any, owner: Callable[[str], str | None] | None,
             shown: Callable[[Event], dict[str, Any]] | None) -> Audit:
        """Add `evs` (the events after the last one fed) and return the audit so far (a copy)."""
        audit, created, full, seat = self.audit, self.created, self.full, self.seat
        view = shown or (lambda e: e.payload)
        if self.all_events is not None:
            audit.periods = _periods(self.all_events, view)
            audit.seed, audit.seed_matches = audit.periods[0].seed, audit.periods[0].matches
            self.all_events = None
        first_die = len(audit.groups)
        for ev in evs:
            seed = _period_of(audit.periods, ev.seq).key()
            if ev.type == GAME_STARTED:
                self.entropy = str(ev.payload.get("entropy", ""))
                if ev.payload.get("dice"):
                    audit.groups.append(_group(ev, view(ev), ev.seq, None, "the set-up", [], seed, self.entropy,
                                               audit.sandbox, full, self.stream, dice_key(created, ev.seq, 0)))
            elif ev.type == SUBMITTED:
                self.subs[ev.seq] = ev
                if ev.seat == DIRECTOR:
                    audit.rulings.append({"seq": ev.seq, "ruling": view(ev).get("ruling", {}), "judgement": None})
            elif ev.type in (RESOLVED, REJECTED):
                p = view(ev)
                sub_seq = int(ev.payload.get("submission_seq", -1))
                sub = self.subs.get(sub_seq)
                for r in audit.rulings:
                    if r["seq"] == sub_seq:
                        r["judgement"] = {"type": ev.type, "payload": p}
                if p.get("dice"):
                    title = describe(sub) if sub else f"the move submitted at event {sub_seq}"
                    decided = [f for f in p.get("facts", []) if _decides(f) and
                               (full or f.get("visible_to") is None or seat in f["visible_to"])]
                    key = dice_key(created, sub_seq, self.count.number,
                                   self.count.refusal if ev.type == REJECTED else 0)
                    audit.groups.append(_group(ev, p, sub_seq, p.get("seat"), title, decided,
                                               _period_of(audit.periods, sub_seq).key(), self.entropy, audit.sandbox,
                                               full, self.stream, key))
                self.count.see(ev.type)
        if evs:
            self.last = evs[-1]
            audit.events = evs[-1].seq + 1
        if owner is not None:
            for g in audit.groups[first_die:]:
                for d in g.dice:
                    d.seat = owner(d.purpose) or d.seat
        audit.fairness = fairness(audit.dice)
        return dataclasses.replace(audit, periods=list(audit.periods), groups=list(audit.groups),
                                   rulings=[dict(r) for r in audit.rulings], fairness=list(audit.fairness))


class AuditCache:
    """The audit page's findings kept between requests, per ledger and game and per
    view (the viewer's seat, whether everything is shown): the ledger is append-only, so a
    request reads and checks only the events after the last one it saw. That event is read back
    and its hash recomputed first; a different one (a restored or replaced ledger) or a new seed
    period or revealed seed (which changes how earlier dice read) builds the audit again from
    the start, as does a game whose chain is broken (never kept)."""

    def __init__(self, size: int = 256) -> None:
        self._entries: LRUCache[tuple[str, str | None, bool], _Builder] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def build(self, store: Any, game_id: str, key: str, describe: Any, seat: str | None = None, full: bool = True,
              owner: Callable[[str], str | None] | None = None,
              shown: Callable[[Event], dict[str, Any]] | None = None) -> Audit:
        """The audit of game `game_id` of `store` (an EventStore); `key` names the ledger and game."""
        ck = (key, seat, full)
        with self._lock:
            builder = self._entries.pop(ck, None)  # this request's alone until put back
        if builder is not None and builder.last is not None:
            mark = builder.last
            evs = store.read(game_id, after=mark.seq - 1)
            if evs and evs[0].seq == mark.seq and evs[0].hash == mark.hash == evs[0].computed_hash() \
                    and not any(e.type in (SEED_COMMITTED, SEED_REVEALED) for e in evs[1:]):
                try:
                    check_chain(evs[1:], after=evs[0])
                except ChainError:
                    pass  # built again from the start below, which names the event
                else:
                    report = builder.feed(evs[1:], describe, owner, shown)
                    self._keep(ck, builder)
                    return report
        evs = list(store.iter_events(game_id))
        builder = _Builder(evs, seat, full)
        try:
            check_chain(evs)
            builder.audit.chain_ok = True
        except ChainError as err:
            builder.audit.chain_error = str(err)
        report = builder.feed(evs, describe, owner, shown)
        if builder.audit.chain_ok and evs:
            self._keep(ck, builder)
        return report

    def _keep(self, ck: tuple[str, str | None, bool], builder: _Builder) -> None:
        with self._lock:
            self._entries[ck] = builder


AUDITS = AuditCache()


def _periods(evs: list[Event], view: Callable[[Event], dict[str, Any]]) -> list[SeedPeriod]:
    created = evs[0].payload if evs and evs[0].type == GAME_CREATED else {}
    periods = [SeedPeriod(0, 0, str(created.get("seed_commitment", "")))]
    for ev in evs:
        if ev.type == SEED_COMMITTED:
            periods.append(SeedPeriod(len(periods), ev.seq, str(ev.payload.get("commitment", ""))))
        elif ev.type == SEED_REVEALED:
            target = next((p for p in periods if p.commitment == ev.payload.get("commitment")), periods[0])
            if target.seed is not None:
                continue
            seed = view(ev).get("seed")
            if seed is None:
                target.withheld = True
                continue
            target.seed, target.withheld = str(seed), False
            try:
                target.matches = hashlib.sha256(bytes.fromhex(target.seed)).hexdigest() == target.commitment
            except ValueError:
                target.matches = False
    return periods


def _period_of(periods: list[SeedPeriod], seq: int) -> SeedPeriod:
    """The period whose seed drives position `seq` (ledger.dice step 7)."""
    return [p for p in periods if p.seq < seq or p.period == 0][-1]


def _decides(fact: dict[str, Any]) -> bool:
    data = fact.get("data") or {}
    return fact.get("kind") in DICE_KINDS or "die" in data or "dice" in data


def _group(ev: Event, payload: dict[str, Any], sub_seq: int, seat: str | None, title: str,
           decided: list[dict[str, Any]], seed: bytes | None, entropy: str, sandbox: bool, full: bool,
           stream: str, key: DiceKey) -> DiceGroup:
    rows = []
    for d in payload.get("dice", []):
        secret = bool(d.get("secret"))
        value = None if (secret and not full) or d.get("value") is None else int(d["value"])
        row = DieRow(ev.seq, sub_seq, seat, int(d["index"]), int(d["faces"]), value, str(d.get("purpose", "")),
                     secret=secret)
        if seed is not None and not sandbox and value is not None:
            row.rederived = derive_die(seed, stream, key, row.index, entropy, row.faces) == row.value
        rows.append(row)
    return DiceGroup(ev.seq, seat, title, rows, decided)


def fairness(dice: list[DieRow]) -> list[tuple[str, FaceTest]]:
    """One test per (seat the dice belong to, kind of die); the set-up's dice under "set-up"."""
    groups: dict[tuple[str, int], list[int]] = {}
    for d in dice:
        if d.value is not None:
            groups.setdefault((d.seat or "set-up", d.faces), []).append(d.value)
    return [(f"{seat} (d{faces})", face_test(values, faces)) for (seat, faces), values in sorted(groups.items())]


def histogram_svg(test: FaceTest, label: str) -> Markup:
    """Observed count of each face (bars) against the expected count (dashed line)."""
    w, h, pad, base = 300.0, 150.0, 28.0, 122.0
    top = max(max(test.counts, default=0), test.expected, 1.0)
    scale = (base - 16) / top
    bw = (w - 2 * pad) / test.faces
    parts = [el("rect", width=num(w), height=num(h), fill="#fbfaf5", stroke="#ccc")]
    for i, c in enumerate(test.counts):
        x = pad + i * bw
        bh = c * scale
        parts.append(el("rect", el("title", f"face {i + 1}: {c} (expected {test.expected:.1f})"), x=num(x + 3),
                        y=num(base - bh), width=num(bw - 6), height=num(bh), fill="#4477aa"))
        parts.append(text(x + bw / 2, base - bh - 3, str(c), font_size="10", text_anchor="middle"))
        parts.append(text(x + bw / 2, base + 13, str(i + 1), font_size="10", text_anchor="middle"))
    ey = base - test.expected * scale
    parts.append(el("line", x1=num(pad), y1=num(ey), x2=num(w - pad), y2=num(ey), stroke="#cc3311",
                    stroke_width="2", stroke_dasharray="6 4"))
    parts.append(text(w - pad, ey - 4, f"expected {test.expected:.1f}", font_size="9", fill="#cc3311",
                      text_anchor="end"))
    parts.append(el("line", x1=num(pad), y1=num(base), x2=num(w - pad), y2=num(base), stroke="#333"))
    parts.append(text(pad, h - 4, "face", font_size="9", fill="#555"))
    return Markup(el("svg", "".join(parts), xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {num(w)} {num(h)}",
                     width=num(w), height=num(h), role="img", aria_label=f"Faces rolled: {label}",
                     class_="histogram"))
