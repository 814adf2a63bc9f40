"""parse_export is strict; summary_from_events rebuilds the games row. No database needed."""

from __future__ import annotations

import json

import pytest

from ledger.canonical import GENESIS_HASH, canonical_bytes
from ledger.events import Event, NewEvent, check_chain, seal
from ledger.export import ExportFormatError, parse_export, parse_export_hashed, summary_from_events

T = "2026-01-01T00:00:00.000000Z"


def chain(game_id: str, *news: NewEvent) -> list[Event]:
    out: list[Event] = []
    prev = GENESIS_HASH
    for seq, new in enumerate(news):
        out.append(seal(game_id, seq, new, T, prev))
        prev = out[-1].hash
    return out


def created(sandbox: object = None) -> NewEvent:
    return NewEvent("game_created", None, {"game": "ardennes", "scenario": "s1", "sandbox": sandbox})


def line(doc: dict) -> str:
    return canonical_bytes(doc).decode("utf-8") + "\n"


EVENTS = chain("g1", created(), NewEvent("submitted", "red", {"move": "é"}),
               NewEvent("resolved", None, {"submission_seq": 1}))
LINES = [line(e.to_json()) for e in EVENTS]


def refused(lines: list, at: int, match: str | None = None) -> ExportFormatError:
    with pytest.raises(ExportFormatError, match=match) as info:
        parse_export(lines)
    assert info.value.line_number == at
    return info.value


def test_accepts_its_own_lines_as_text_or_bytes_with_empty_lines_and_crlf():
    assert parse_export(LINES) == EVENTS
    assert parse_export([ln.encode("utf-8") for ln in LINES]) == EVENTS
    assert parse_export(["\n", LINES[0], "", LINES[1].replace("\n", "\r\n"), LINES[2].rstrip("\n")]) == EVENTS


@pytest.mark.parametrize("bad, match", [
    ("garbage\n", "not JSON"),
    ("{\"game_id\": \n", "not JSON"),
    ("[1, 2]\n", "JSON object"),
    ("\"text\"\n", "JSON object"),
    ("null\n", "JSON object"),
    ("[" * 100_000 + "\n", "not JSON|recursion"),
])
def test_rejects_garbage(bad, match):
    refused([LINES[0], bad, LINES[2]], 2, match)


def _doc(**changes: object) -> dict:
    doc = EVENTS[1].to_json()
    doc.update(changes)
    return doc


@pytest.mark.parametrize("doc, match", [
    (_doc(extra=1), "exactly the fields"),
    ({k: v for k, v in _doc().items() if k != "seat"}, "exactly the fields"),
    (_doc(seq="1"), "seq"),
    (_doc(seq=-1), "seq"),
    (_doc(seq=True), "seq"),
    (_doc(seat=7), "seat"),
    (_doc(payload=[1]), "payload"),
    (_doc(hash=None), "hash"),
    (_doc(recorded_at=20260101), "recorded_at"),
    (_doc(type="teleported"), "unknown event type"),
])
def test_rejects_wrong_fields_and_types(doc, match):
    refused([LINES[0], line(doc), LINES[2]], 2, match)


def test_rejects_non_canonical_encodings():
    text = LINES[1].rstrip("\n")
    for variant in (json.dumps(json.loads(text)),  # spaces
                    json.dumps(json.loads(text), separators=(",", ":")),  # keys unsorted, \u escapes
                    text.replace("é", "\\u00e9"),
                    text + " ",
                    text[:-1] + ',"seq":1}'):  # a duplicate key
        refused([LINES[0], variant + "\n"], 2, "canonical|not JSON")
    refused([LINES[0], '{"x":1.5}\n'], 2)


def test_rejects_invalid_utf8_and_floats():
    refused([LINES[0].encode(), LINES[1].encode().replace("é".encode(), b"\xe9")], 2, "UTF-8")
    refused([line(_doc(payload={"x": 1})).replace('"x":1', '"x":1.0')], 1)
    refused([line(_doc(payload={"x": 1})).replace('"x":1', '"x":NaN')], 1)


def test_rejects_mixed_games_and_empty_exports():
    other = chain("g2", created())[0]
    err = refused([LINES[0], LINES[1], "\n", line(other.to_json())], 4, "g2")
    assert "line 4" in str(err)
    refused([], 0, "no events")
    refused(["\n", ""], 0, "no events")


def test_parse_does_not_check_the_chain():
    events = parse_export([LINES[0], LINES[2]])  # a gap: parse_export accepts, check_chain refuses
    with pytest.raises(ValueError, match="event 2"):
        check_chain(events)


def test_summary_from_events():
    s = summary_from_events(EVENTS)
    assert (s.game_id, s.game, s.scenario, s.status, s.sandbox) == ("g1", "ardennes", "s1", "waiting", False)
    assert (s.created_at, s.last_seq, s.last_submitted_seq, s.last_handled_seq, s.active_seats) == (T, 2, 1, 1, [])
    played = chain("g1", created({"dice": [6, 6]}), NewEvent("game_started", None, {}),
                   NewEvent("submitted", "red", {}), NewEvent("submitted", "blue", {}),
                   NewEvent("rejected", None, {"submission_seq": 2}))
    s = summary_from_events(played)
    assert (s.status, s.sandbox, s.last_submitted_seq, s.last_handled_seq, s.pending) == ("active", True, 3, 2, True)
    ended = chain("g1", created(), NewEvent("game_started", None, {}), NewEvent("game_ended", None, {}))
    assert summary_from_events(ended).status == "ended"
    with pytest.raises(ValueError):
        summary_from_events([])
    with pytest.raises(ValueError, match="game_created"):
        summary_from_events(chain("g1", NewEvent("submitted", "red", {})))


def test_the_body_hash_taken_from_each_line_is_the_events_own() -> None:
    """parse_export_hashed hashes each event's body from its line: the same hash
    Event.computed_hash gives, with game ids and payloads that need escapes."""
    odd = chain('g"\\/é\u2028', created(), NewEvent("submitted", "red", {"move": 'a"b\\c', "hash": "x"}),
                NewEvent("resolved", None, {"submission_seq": 1, "n": [1, -2, True, None]}))
    for events in (EVENTS, odd):
        parsed, hashes = parse_export_hashed([line(e.to_json()) for e in events])
        assert hashes == [e.computed_hash() for e in events] == [e.hash for e in events]
        assert check_chain(parsed, hashes=hashes) == len(events)


def test_an_altered_event_fails_the_chain_check_with_the_hashes_from_its_line() -> None:
    doc = EVENTS[1].to_json()
    doc["payload"] = {"move": "e"}  # its stored hash kept
    parsed, hashes = parse_export_hashed([LINES[0], line(doc), LINES[2]])
    with pytest.raises(ValueError, match="event 1: hash does not match"):
        check_chain(parsed, hashes=hashes)


def test_a_float_anywhere_is_refused_by_name() -> None:
    refused([line(_doc(payload={"x": [{"y": 1}]})).replace('"y":1', '"y":1e3')], 1, "floats are not allowed")
    refused([line(_doc(payload={"x": 1})).replace('"x":1', '"x":-Infinity')], 1, "not allowed")
