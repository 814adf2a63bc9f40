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

from ledger.canonical import canonical_bytes
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


def parse_line(line_number: int, raw: str | bytes) -> Event | None:
    """One export line as an Event, None for an empty line; ExportFormatError otherwise."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ExportFormatError(line_number, f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    text = _strip_newline(raw)
    if not text:
        return None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ExportFormatError(line_number, f"not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise ExportFormatError(line_number, f"an event is a JSON object, not {type(doc).__name__}")
    try:
        ev = Event.from_json(doc)
        canonical = canonical_bytes(doc)
    except (ValueError, RecursionError) as exc:  # NotCanonical is a ValueError
        raise ExportFormatError(line_number, str(exc)) from None
    if ev.type not in EVENT_TYPES:
        raise ExportFormatError(line_number, f"unknown event type {ev.type!r}")
    if canonical != text.encode("utf-8"):
        raise ExportFormatError(line_number, "not in canonical form (sorted keys, no spaces, minimal escapes)")
    return ev


def parse_export(lines: Iterable[str | bytes]) -> list[Event]:
    """Parse a whole export of one game. Does not check the hash chain: run check_chain."""
    events: list[Event] = []
    for number, raw in enumerate(lines, start=1):
        ev = parse_line(number, raw)
        if ev is None:
            continue
        if events and ev.game_id != events[0].game_id:
            raise ExportFormatError(number, f"event of game {ev.game_id!r} in an export of {events[0].game_id!r}")
        events.append(ev)
    if not events:
        raise ExportFormatError(0, "the export holds no events")
    return events
