"""The verifier's edge cases from the RFC 6962 test vectors (transparency-dev/merkle): a leaf hash
is 32 bytes, and RFC 9162 §2.1.4.2 proves consistency only from a non-empty tree, the empty tree's
root being SHA-256 of nothing (RFC 6962 §2.1)."""

from __future__ import annotations

import hashlib

import pytest

from ledger import transparency as t


def test_a_zero_length_leaf_hash_is_refused_in_a_size_one_tree() -> None:
    with pytest.raises(t.ProofError, match="32 bytes"):
        t.verify_inclusion(b"", 0, 1, [], b"")
    leaf = t.leaf_hash(b"x")
    t.verify_inclusion(leaf, 0, 1, [], leaf)  # the honest size-1 proof still verifies
    with pytest.raises(t.ProofError, match="32 bytes"):
        t.verify_inclusion(leaf, 0, 2, [b"\x00" * 31], t.node_hash(leaf, b"\x00" * 31))


def test_consistency_from_size_zero_is_refused_unless_the_old_root_is_the_empty_trees() -> None:
    leaves = [t.leaf_hash(bytes([i])) for i in range(5)]
    new_root = t.root(leaves)
    for bogus in (b"\x01" * 32, new_root):
        with pytest.raises(t.ProofError, match="size 0"):
            t.verify_consistency(0, 5, bogus, new_root, [])
    assert t.EMPTY_ROOT == hashlib.sha256(b"").digest() == t.root([])
    t.verify_consistency(0, 5, t.EMPTY_ROOT, new_root, [])  # the empty tree is a prefix of every tree
    t.verify_consistency(0, 0, t.EMPTY_ROOT, t.EMPTY_ROOT, [])
    with pytest.raises(t.ProofError, match="size 0"):
        t.verify_consistency(0, 0, t.EMPTY_ROOT, b"\x02" * 32, [])
    with pytest.raises(t.ProofError, match="empty"):
        t.verify_consistency(0, 5, t.EMPTY_ROOT, new_root, [new_root])
    with pytest.raises(t.ProofError, match="32 bytes"):
        t.verify_consistency(2, 5, t.root(leaves[:2]), new_root, [b"short"])
