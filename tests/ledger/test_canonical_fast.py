"""Property: canonical JSON by orjson (ledger.canonical's fast path) is byte for byte the
standard library's encoding (sort_keys, compact separators, ensure_ascii=False, UTF-8), over
arbitrary JSON: any unicode (astral planes, U+2028, DEL), every control character, big ints
beyond 64 bits (which fall back), tuples, deep nesting; and a lone surrogate is still refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.canonical import NotCanonical, canonical_bytes, plain_canonical_bytes, state_hash


def reference(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


# Surrogate-free text of any code point, with the control characters and the escapes made likely.
texts = st.text(st.characters(exclude_categories=["Cs"])) | st.text(st.sampled_from(
    [chr(c) for c in range(0x20)] + ['"', "\\", "/", "\x7f", "\u2028", "\u2029", "\ufeff", "\uffff", "é", "\U0001d11e"]))
ints = st.integers() | st.integers(min_value=-(2**70), max_value=2**70) | st.sampled_from(
    [2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(2**63) - 1, 0, -1])
scalars = st.none() | st.booleans() | ints | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(texts, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=600, deadline=None)
@given(json_values)
@pytest.mark.slow
def test_canonical_bytes_are_the_standard_library_bytes(value: object) -> None:
    assert canonical_bytes(value) == reference(value)
    assert plain_canonical_bytes(value) == reference(value)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(texts, json_values, max_size=6))
@pytest.mark.slow
def test_state_hash_is_unchanged_by_the_fast_path(state: dict[str, object]) -> None:
    import hashlib

    assert state_hash(state) == hashlib.sha256(reference(state)).hexdigest()
    assert state_hash(state, plain=True) == state_hash(state)


def test_nesting_deeper_than_orjson_allows_falls_back_to_the_same_bytes() -> None:
    deep: object = 1
    for i in range(300):
        deep = [deep] if i % 2 else {"k": deep}
    assert canonical_bytes(deep) == reference(deep)


def test_a_lone_surrogate_is_refused_as_before() -> None:
    with pytest.raises(UnicodeEncodeError):
        canonical_bytes({"a": "\ud800"})


def test_floats_and_non_string_keys_are_still_refused() -> None:
    with pytest.raises(NotCanonical):
        canonical_bytes({"a": 1.5})
    with pytest.raises(NotCanonical):
        canonical_bytes({1: "a"})
