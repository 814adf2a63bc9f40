"""Property: any appended stream reads back as a valid chain, and any one-byte change to
its export is caught by parse_export or check_chain."""

from __future__ import annotations

import io
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.events import ChainError, NewEvent, check_chain
from ledger.export import ExportFormatError, export_lines, parse_export

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
new_events = st.builds(
    NewEvent,
    type=st.sampled_from(["seat_joined", "submitted", "game_started", "seed_revealed", "game_ended"]),
    seat=st.sampled_from([None, "red", "blue", "director"]),
    payload=payloads,
)
batches = st.lists(st.lists(new_events, min_size=1, max_size=3), min_size=1, max_size=4)
_game_ids = itertools.count()


def tamper_detected(blob: bytes) -> bool:
    """True if the (binary) export is refused by parse_export or by check_chain."""
    try:
        check_chain(parse_export(io.BytesIO(blob)))
    except (ExportFormatError, ChainError):
        return True
    return False


def _write(store, batches_: list[list[NewEvent]]) -> tuple[str, bytes]:
    game_id = f"prop-{next(_game_ids):08d}"  # fixed length: draws depend on len(blob)
    store.append(game_id, -1, [NewEvent("game_created", None, {"game": "g", "scenario": "s"})],
                 game_info=("g", "s", False))
    for batch in batches_:
        store.append(game_id, store.last_seq(game_id), batch)
    events = store.read(game_id)
    assert check_chain(events) == 1 + sum(map(len, batches_))
    blob = "".join(export_lines(store, game_id)).encode("utf-8")
    assert parse_export(io.BytesIO(blob)) == events
    return game_id, blob


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches_=batches, data=st.data())
@pytest.mark.slow
def test_any_one_byte_change_is_detected(store, batches_, data):
    _, blob = _write(store, batches_)
    for _ in range(25):
        at = data.draw(st.integers(0, len(blob) - 1), label="position")
        new = (blob[at] + data.draw(st.integers(1, 255), label="byte delta")) % 256  # never the same byte
        tampered = blob[:at] + bytes([new]) + blob[at + 1:]
        assert tamper_detected(tampered), (at, blob[max(0, at - 20):at + 20], new)


# Bytes that keep JSON well-formed most often: digits, hex, quotes, escapes, white space, case flips.
NEARBY = sorted(set(b"0123456789abcdefABCDEF \t\r\n\"\\/u:,{}[]ntfrl-+.eE") | {0x00, 0x7F, 0x80, 0xC3, 0xE2})


@pytest.mark.slow
def test_every_position_of_one_export_is_guarded(store):
    """Exhaustively: every byte of a tricky export, replaced by each of the likeliest bytes."""
    tricky = [[NewEvent("submitted", "red", {"s": "\u00e9\u2028\\\"/\n\x1f", "n": -10, "t": True, "z": None,
                                             "l": [[], {}], "u": "\U0001F3B2"})],
              [NewEvent("seat_joined", None, {})]]
    _, blob = _write(store, tricky)
    missed = []
    for at in range(len(blob)):
        for new in NEARBY + [blob[at] ^ 0x20, blob[at] ^ 0x01, (blob[at] + 1) % 256]:
            if new != blob[at] and not tamper_detected(blob[:at] + bytes([new]) + blob[at + 1:]):
                missed.append((at, new))
    assert not missed, missed[:10]


# -- canonical JSON: the fast path decides exactly as the path-naming check ----------------------
from hypothesis import given as _given  # noqa: E402
from hypothesis import strategies as _st  # noqa: E402

from ledger.canonical import NotCanonical, _check, canonical_bytes  # noqa: E402

_leaf = _st.one_of(_st.none(), _st.booleans(), _st.integers(), _st.text(max_size=5), _st.floats(allow_nan=False),
                   _st.sets(_st.integers(), max_size=2))
_json_like = _st.recursive(_leaf, lambda inner: _st.one_of(
    _st.lists(inner, max_size=4), _st.tuples(inner, inner),
    _st.dictionaries(_st.one_of(_st.text(max_size=3), _st.integers()), inner, max_size=4)), max_leaves=20)


@_given(_json_like)
def test_canonical_bytes_refuses_exactly_what_the_check_refuses(value: object) -> None:
    """DESIGN 'no floats in outcomes': a float, a set or a non-string key anywhere is refused,
    fast path or not, and what is accepted encodes the same either way."""
    try:
        _check(value)
        refused = False
    except NotCanonical:
        refused = True
    try:
        encoded = canonical_bytes(value)
    except NotCanonical:
        assert refused
        return
    assert not refused
    assert encoded == canonical_bytes({"v": value})[5:-1]
