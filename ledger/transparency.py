"""The transparency log across games: an RFC 6962 / RFC 9162 Merkle tree, pure (no I/O).

Leaves are the canonical JSON of log entries (`entry_bytes`): one when a game is created
(kind "created": its id, seq 0 and the hash of event 0, which commits to the dice seed) and
one per chain head the log has seen (kind "head": id, last seq, that event's hash). Hashing
is SHA-256 with the RFC 6962 §2.1 domain prefixes: a leaf is H(0x00 || data), a node
H(0x01 || left || right). Proofs are RFC 9162 §2.1.3 (inclusion) and §2.1.4 (consistency),
and are verified by the RFC's iterative algorithms, not by recomputing the tree.

A signed tree head is `{"tree_size", "root_hash", "timestamp", "public_key", "signature"}`:
the Ed25519 signature (hex) over `HEAD_CONTEXT || canonical JSON of {tree_size, root_hash,
timestamp}`; `public_key` is the raw 32-byte key in hex (pin it with `--public-key`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ledger.canonical import canonical_bytes

HEAD_CONTEXT = b"warlog transparency log tree head v1\n"
ENTRY_KINDS = ("created", "head")


class ProofError(ValueError):
    """A proof, a tree head or an entry does not verify."""


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf_hash(data: bytes) -> bytes:
    return _h(b"\x00" + data)


def node_hash(left: bytes, right: bytes) -> bytes:
    return _h(b"\x01" + left + right)


def entry(kind: str, game_id: str, seq: int, event_hash: str) -> dict[str, Any]:
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown log entry kind {kind!r}")
    return {"kind": kind, "game_id": game_id, "seq": seq, "hash": event_hash}


def entry_bytes(doc: dict[str, Any]) -> bytes:
    return canonical_bytes(doc)


EMPTY_ROOT = hashlib.sha256(b"").digest()  # MTH of the empty tree (RFC 6962 §2.1)


def _hash_lengths(*hashes: bytes) -> None:
    """Every leaf hash, node hash and root is a SHA-256 digest: 32 bytes (RFC 9162 §2.1.1)."""
    for h in hashes:
        if not isinstance(h, bytes) or len(h) != 32:
            raise ProofError(f"a hash in a proof must be 32 bytes, not {len(h) if isinstance(h, bytes) else h!r}")


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) over leaf hashes (RFC 6962 §2.1); the empty tree is SHA-256 of nothing."""
    n = len(leaves)
    if n == 0:
        return _h(b"")
    if n == 1:
        return leaves[0]
    k = _split(n)
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def inclusion_path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) (RFC 6962 §2.1.1) over leaf hashes."""
    n = len(leaves)
    if not 0 <= index < n:
        raise ValueError(f"leaf {index} is not in a tree of size {n}")
    if n == 1:
        return []
    k = _split(n)
    if index < k:
        return inclusion_path(index, leaves[:k]) + [root(leaves[k:])]
    return inclusion_path(index - k, leaves[k:]) + [root(leaves[:k])]


def inclusion_paths(indices: Sequence[int], leaves: Sequence[bytes]) -> list[list[bytes]]:
    """PATH(m, D[n]) for several leaves at once, each subtree hashed once: O(n + k log n)."""
    memo: dict[tuple[int, int], bytes] = {}

    def mth(lo: int, hi: int) -> bytes:
        if hi - lo == 1:
            return leaves[lo]
        got = memo.get((lo, hi))
        if got is None:
            k = lo + _split(hi - lo)
            got = memo[(lo, hi)] = node_hash(mth(lo, k), mth(k, hi))
        return got

    def path(m: int, lo: int, hi: int) -> list[bytes]:
        if hi - lo == 1:
            return []
        k = lo + _split(hi - lo)
        return path(m, lo, k) + [mth(k, hi)] if m < k else path(m, k, hi) + [mth(lo, k)]

    n = len(leaves)
    for index in indices:
        if not 0 <= index < n:
            raise ValueError(f"leaf {index} is not in a tree of size {n}")
    return [path(index, 0, n) for index in indices]


def consistency_proof(first: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) (RFC 6962 §2.1.2) for 0 < m <= n; empty when m == n."""
    n = len(leaves)
    if not 0 < first <= n:
        raise ValueError(f"no consistency proof from size {first} to size {n}")

    def sub(m: int, d: Sequence[bytes], whole: bool) -> list[bytes]:
        if m == len(d):
            return [] if whole else [root(d)]
        k = _split(len(d))
        if m <= k:
            return sub(m, d[:k], whole) + [root(d[k:])]
        return sub(m - k, d[k:], False) + [root(d[:k])]

    return sub(first, leaves, True)


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root_hash: bytes) -> None:
    """RFC 9162 §2.1.3.2; raises ProofError unless `leaf` is at `index` of the tree `root_hash`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is outside a tree of size {size}")
    _hash_lengths(leaf, root_hash, *path)
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise ProofError("inclusion proof is too long")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("inclusion proof is too short")
    if r != root_hash:
        raise ProofError("inclusion proof does not lead to the tree head's root")


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes,
                       proof: Sequence[bytes]) -> None:
    """RFC 9162 §2.1.4.2; raises ProofError unless tree `second` extends tree `first`."""
    if not 0 <= first <= second:
        raise ProofError(f"no consistency between sizes {first} and {second}")
    _hash_lengths(first_root, second_root, *proof)
    if first == 0:  # RFC 9162 §2.1.4.2 proves 0 < first < second only; the empty tree's root is fixed
        if proof:
            raise ProofError("a proof from the empty tree must be empty")
        if first_root != EMPTY_ROOT:
            raise ProofError("a tree head of size 0 whose root is not the empty tree's, SHA-256 of nothing")
        if second == 0 and second_root != EMPTY_ROOT:
            raise ProofError("a tree head of size 0 whose root is not the empty tree's, SHA-256 of nothing")
        return
    if first == second:
        if proof:
            raise ProofError("a proof between equal sizes must be empty")
        if first_root != second_root:
            raise ProofError("two tree heads of the same size with different roots: a forked log")
        return
    if not proof:
        raise ProofError("empty consistency proof")
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("consistency proof is too short")
    if fr != first_root or sr != second_root:
        raise ProofError("the later tree does not extend the earlier one: a forked or rewritten log")


def _signed_part(head: dict[str, Any]) -> bytes:
    return HEAD_CONTEXT + canonical_bytes({k: head[k] for k in ("tree_size", "root_hash", "timestamp")})


def public_key_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign_head(key: Ed25519PrivateKey, size: int, root_hash: bytes, timestamp: str) -> dict[str, Any]:
    head: dict[str, Any] = {"tree_size": size, "root_hash": root_hash.hex(), "timestamp": timestamp}
    head["public_key"] = public_key_hex(key)
    head["signature"] = key.sign(_signed_part(head)).hex()
    return head


def verify_head(head: Any, public_key: str | None = None) -> tuple[int, bytes]:
    """Check a signed tree head's shape and signature (against `public_key` if pinned);
    returns (tree_size, root hash)."""
    if not isinstance(head, dict):
        raise ProofError("a tree head is a JSON object")
    try:
        size, root_hex, ts = head["tree_size"], head["root_hash"], head["timestamp"]
        key_hex, sig_hex = head["public_key"], head["signature"]
    except KeyError as exc:
        raise ProofError(f"tree head has no {exc.args[0]!r}") from None
    if not (isinstance(size, int) and not isinstance(size, bool) and size >= 0 and isinstance(ts, str)):
        raise ProofError("tree head: tree_size must be a whole number >= 0, timestamp a string")
    if public_key is not None and key_hex != public_key.lower():
        raise ProofError("tree head is signed by another key than the one pinned")
    try:
        root_hash, key_raw, sig = bytes.fromhex(root_hex), bytes.fromhex(key_hex), bytes.fromhex(sig_hex)
        Ed25519PublicKey.from_public_bytes(key_raw).verify(sig, _signed_part(head))
    except (TypeError, ValueError) as exc:
        raise ProofError(f"tree head: malformed hex or key ({exc})") from None
    except InvalidSignature:
        raise ProofError("tree head signature does not verify") from None
    if len(root_hash) != 32:
        raise ProofError("tree head: root_hash must be 32 bytes")
    return size, root_hash
