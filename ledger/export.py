"""Game exports: one event per line, each line the event's canonical JSON plus "\\n".

The format is strict so that an export can be verified byte for byte: a line must be
exactly the canonical encoding of the event it holds (no extra white space, no other
escapes, no duplicate keys), so that changing any byte either breaks the parse or changes
an event, which `check_chain` then detects. Lines may end in "\\n" or "\\r\\n" and empty
lines are skipped. Feed the lines of a file (text or binary), not `str.splitlines()`,
which also splits at characters such as U+2028 that canonical JSON leaves unescaped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ledger.canonical import NotCanonical, canonical_bytes, plain_canonical_bytes, sha256_hex
from ledger.events import EVENT_TYPES, Event
from ledger.projection import summary_from_events
from ledger.store import EventStore, LedgerError

__all__ = ["ExportFormatError", "export_lines", "parse_export", "summary_from_events"]


class ExportFormatError(LedgerError, ValueError):
    """Line `line_number` (1-based; 0 for the export as a whole) is not a valid export line."""

    def __init__(self, line_number: int, message: str) -> None:
        super().__init__(f"line {line_number}: {message}" if line_number else message)
        self.line_number = line_number
        self.reason = message


def export_lines(store: EventStore, game_id: str) -> Iterator[str]:
    """Stream the game's events as export lines, in seq order."""
    for ev in store.iter_events(game_id):
        yield canonical_bytes(ev.to_json()).decode("utf-8") + "\n"


def _strip_newline(line: str) -> str:
    if line.endswith("\n"):
        line = line[:-1]
        if line.endswith("\r"):
            line = line[:-1]
    return line


def _no_float(text: str) -> Any:
    raise NotCanonical(f"floats are not allowed in canonical JSON ({text})")


def _no_constant(text: str) -> Any:
    raise NotCanonical(f"{text} is not allowed in canonical JSON")


# What `json.loads(text, parse_float=_no_float, parse_constant=_no_constant)` builds on every call
# (its scanner costs more than parsing a short line), made once: the same parse.
_DECODER = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant)


def parse_line(line_number: int, raw: str | bytes) -> Event | None:
    """One export line as an Event, None for an empty line; ExportFormatError otherwise."""
    parsed = _parse_line(line_number, raw)
    return parsed[0] if parsed is not None else None


def _parse_line(line_number: int, raw: str | bytes) -> tuple[Event, str] | None:
    """`parse_line`, and the event's body hash (what `Event.computed_hash` returns), taken from
    the line itself: a line is the canonical encoding of its event, and the body is the event
    without its `hash` member, which canonical order puts right after `game_id`."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ExportFormatError(line_number, f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    text = _strip_newline(raw)
    if not text:
        return None
    try:  # floats and NaN refused here, so what is parsed is plain JSON (ledger.canonical)
        doc = _DECODER.decode(text)
    except NotCanonical as exc:
        raise ExportFormatError(line_number, str(exc)) from None
    except (ValueError, RecursionError) as exc:
        raise ExportFormatError(line_number, f"not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise ExportFormatError(line_number, f"an event is a JSON object, not {type(doc).__name__}")
    try:
        ev = Event.from_json(doc)
        canonical = plain_canonical_bytes(doc)
    except (ValueError, RecursionError) as exc:
        raise ExportFormatError(line_number, str(exc)) from None
    if ev.type not in EVENT_TYPES:
        raise ExportFormatError(line_number, f"unknown event type {ev.type!r}")
    if canonical != text.encode("utf-8"):
        raise ExportFormatError(line_number, "not in canonical form (sorted keys, no spaces, minimal escapes)")
    game_id = plain_canonical_bytes(ev.game_id)
    head = b'{"game_id":' + game_id + b',"hash":' + plain_canonical_bytes(ev.hash) + b","
    if canonical.startswith(head):
        return ev, sha256_hex(b'{"game_id":' + game_id + b"," + canonical[len(head):])
    return ev, ev.computed_hash()  # pragma: no cover (canonical order puts `hash` there)


def parse_export(lines: Iterable[str | bytes]) -> list[Event]:
    """Parse a whole export of one game. Does not check the hash chain: run check_chain."""
    return parse_export_hashed(lines)[0]


def parse_export_hashed(lines: Iterable[str | bytes]) -> tuple[list[Event], list[str]]:
    """`parse_export`, and each event's body hash as its line encodes it, for
    `check_chain(events, hashes=...)` (one encoding of each event saved)."""
    events: list[Event] = []
    hashes: list[str] = []
    for number, raw in enumerate(lines, start=1):
        parsed = _parse_line(number, raw)
        if parsed is None:
            continue
        ev = parsed[0]
        hashes.append(parsed[1])
        if events and ev.game_id != events[0].game_id:
            raise ExportFormatError(number, f"event of game {ev.game_id!r} in an export of {events[0].game_id!r}")
        events.append(ev)
    if not events:
        raise ExportFormatError(0, "the export holds no events")
    return events, hashes
