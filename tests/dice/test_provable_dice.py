"""Provably fair dice (ledger/dice.py): commitment, re-derivation, unbiased rejection sampling."""

from __future__ import annotations

import hashlib
import hmac
import inspect
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ledger.dice as dice_module
from ledger.canonical import canonical_bytes
from ledger.dice import DerivedDice, ForcedDieMismatch, ForcedThenDerived, commitment, derive_die, entropy_digest

SEED = bytes(range(32))


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_derivation_follows_the_documented_scheme() -> None:
    """A third party re-implementing the docstring's recipe gets the same dice."""

    def independent(seed: bytes, game: str, seq: int, index: int, entropy: str, faces: int) -> int:
        bits = (faces - 1).bit_length()
        for attempt in range(1000):
            msg = canonical_bytes({"attempt": attempt, "entropy": entropy, "game": game, "roll": index, "seq": seq})
            v = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big") >> (64 - bits)
            if v < faces:
                return v + 1
        raise AssertionError

    e = entropy_digest({"north": "a", "south": "b"})
    for faces in (2, 6, 10, 12, 20, 100):
        for idx in range(20):
            assert derive_die(SEED, "g1", 7, idx, e, faces) == independent(SEED, "g1", 7, idx, e, faces)


@given(st.binary(min_size=32, max_size=32), st.text(max_size=8), st.integers(0, 10**6), st.integers(0, 50),
       st.integers(2, 1000))
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_every_die_is_in_range_and_reproducible(seed: bytes, game: str, seq: int, index: int, faces: int) -> None:
    a = derive_die(seed, game, seq, index, "e", faces)
    assert 1 <= a <= faces
    assert a == derive_die(seed, game, seq, index, "e", faces)


def test_inputs_change_the_dice() -> None:
    base = [derive_die(SEED, "g", 1, i, "e", 6) for i in range(64)]
    assert base != [derive_die(SEED, "g", 2, i, "e", 6) for i in range(64)]
    assert base != [derive_die(SEED, "h", 1, i, "e", 6) for i in range(64)]
    assert base != [derive_die(SEED, "g", 1, i, "f", 6) for i in range(64)]
    assert base != [derive_die(bytes(32), "g", 1, i, "e", 6) for i in range(64)]


@pytest.mark.slow
def test_rejection_sampling_is_unbiased_over_many_rolls() -> None:
    """Chi-square over 60,000 d6 and 60,000 d10 rolls: no face is favoured (p > 0.001)."""
    for faces in (6, 10):
        n = 60_000
        counts = [0] * faces
        for i in range(n):
            counts[derive_die(SEED, "bias", i // 16, i % 16, "e", faces) - 1] += 1
        expected = n / faces
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        # critical values at p = 0.001: 5 dof 20.52, 9 dof 27.88
        assert chi2 < {6: 20.52, 10: 27.88}[faces], (faces, counts, chi2)


def test_no_modulo_in_the_mapping() -> None:
    source = inspect.getsource(dice_module.derive_die)
    assert "%" not in source


def test_d3_uses_two_bits_and_rejects_the_fourth_value() -> None:
    """With faces=3 a 2-bit draw of 3 must be rejected, not folded onto a face."""
    seen = {derive_die(SEED, "r", s, 0, "e", 3) for s in range(200)}
    assert seen == {1, 2, 3}
    assert math.isclose(sum(derive_die(SEED, "r", s, 0, "e", 3) for s in range(3000)) / 3000, 2.0, abs_tol=0.08)


def test_sandbox_forced_dice_then_derived() -> None:
    derived = DerivedDice(SEED, "g", 5, "e")
    dice = ForcedThenDerived([6, 1], 0, derived)
    assert [dice(0, 6), dice(1, 6), dice(2, 6)] == [6, 1, derived(2, 6)]
    try:
        ForcedThenDerived([7], 0, derived)(0, 6)
    except ForcedDieMismatch as err:
        assert "d6" in str(err)
    else:
        raise AssertionError("a forced 7 on a d6 must be refused")
