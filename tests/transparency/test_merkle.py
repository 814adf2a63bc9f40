"""ledger.transparency: the RFC 6962 tree, RFC 9162 proofs, signed tree heads."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger import transparency as t

# The certificate-transparency project's reference vectors (RFC 6962 test data): these 8
# leaf inputs and the root of each prefix D[0:n].
VECTOR_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
VECTOR_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def leaves(n: int) -> list[bytes]:
    return [t.leaf_hash(f"entry {i}".encode()) for i in range(n)]


def test_rfc6962_vectors() -> None:
    hashed = [t.leaf_hash(bytes.fromhex(x)) for x in VECTOR_LEAVES]
    for n, want in enumerate(VECTOR_ROOTS, start=1):
        assert t.root(hashed[:n]).hex() == want, n
    assert t.root([]).hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.data())
def test_inclusion_proof_verifies_for_every_leaf(n: int, data: st.DataObject) -> None:
    ls = leaves(n)
    r = t.root(ls)
    for i, batch in zip(range(n), t.inclusion_paths(range(n), ls), strict=True):
        assert batch == t.inclusion_path(i, ls)  # the memoised batch gives the RFC's PATH
        t.verify_inclusion(ls[i], i, n, batch, r)
    i = data.draw(st.integers(0, n - 1))
    path = t.inclusion_path(i, ls)
    with pytest.raises(t.ProofError):  # a tampered entry
        t.verify_inclusion(t.leaf_hash(b"tampered"), i, n, path, r)
    if n > 1:
        with pytest.raises(t.ProofError):  # the right entry claimed at another place
            t.verify_inclusion(ls[i], (i + 1) % n, n, path, r)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.data())
def test_consistency_proof_verifies_for_every_size(n: int, data: st.DataObject) -> None:
    ls = leaves(n)
    r = t.root(ls)
    for m in range(1, n + 1):
        t.verify_consistency(m, n, t.root(ls[:m]), r, t.consistency_proof(m, ls))
    m = data.draw(st.integers(1, n))
    forked = ls[:m - 1] + [t.leaf_hash(b"rewritten")] + ls[m:]  # one entry of the old tree changed
    with pytest.raises(t.ProofError):
        t.verify_consistency(m, n, t.root(ls[:m]), t.root(forked), t.consistency_proof(m, forked))


def test_same_size_different_roots_is_a_fork() -> None:
    with pytest.raises(t.ProofError, match="fork"):
        t.verify_consistency(3, 3, t.root(leaves(3)), t.root(leaves(4)[1:]), [])


def test_signed_tree_head_verifies_and_a_changed_field_fails() -> None:
    key = Ed25519PrivateKey.generate()
    head = t.sign_head(key, 5, t.root(leaves(5)), "2026-11-24T08:00:00Z")
    assert t.verify_head(head) == (5, t.root(leaves(5)))
    assert t.verify_head(head, t.public_key_hex(key))[0] == 5
    with pytest.raises(t.ProofError, match="signature"):
        t.verify_head({**head, "tree_size": 6})
    with pytest.raises(t.ProofError, match="another key"):
        t.verify_head(head, t.public_key_hex(Ed25519PrivateKey.generate()))
    with pytest.raises(t.ProofError):
        t.verify_head({"tree_size": 1})
