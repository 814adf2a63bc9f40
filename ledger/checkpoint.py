"""Tree heads as C2SP checkpoints (pure, no I/O): signed notes a witness can cosign.

A checkpoint (c2sp.org/tlog-checkpoint) is a signed note (c2sp.org/signed-note) whose text is

    <origin>\\n<tree size, decimal>\\n<root hash, base64>\\n

followed by a blank line and signature lines `— <key name> <base64(key ID || signature)>`.
The log signs with Ed25519 (signature type 0x01) under the key name = its origin; the key ID
is the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key). A witness cosigns with
c2sp.org/tlog-cosignature v1 (type 0x04): Ed25519 over "cosignature/v1\\ntime <t>\\n" and the
note text, its line carrying key ID || t (8 bytes, big-endian seconds) || signature.

A key rotation statement, signed by the old key, names the new one (docs/ledger.md)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ledger.canonical import canonical_bytes
from ledger.transparency import ProofError, public_key_hex

ED25519, COSIGNATURE_V1 = 0x01, 0x04
DASH = "\u2014"
ROTATION_CONTEXT = b"warlog transparency log key rotation v1\n"
MAX_NOTE = 1 << 16


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: bytes
    blob: bytes  # what follows the key ID


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root_hash: bytes
    text: str  # the signed note text: origin, size, root (and any extension lines), each ending "\n"
    signatures: tuple[Signature, ...]


def key_id(name: str, public_key: bytes, sig_type: int = ED25519) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([sig_type]) + public_key).digest()[:4]


def verifier_key(name: str, public_key: bytes) -> str:
    """The signed-note verifier key `<name>+<hex key ID>+<base64(0x01 || key)>`."""
    return f"{name}+{key_id(name, public_key).hex()}+{base64.b64encode(bytes([ED25519]) + public_key).decode()}"


def _raw(key: Ed25519PrivateKey) -> bytes:
    return bytes.fromhex(public_key_hex(key))


def note_text(origin: str, size: int, root_hash: bytes) -> str:
    if not origin or "\n" in origin or origin != origin.strip():
        raise ValueError("a checkpoint origin is one non-empty line without surrounding spaces")
    return f"{origin}\n{size}\n{base64.b64encode(root_hash).decode()}\n"


def sign_note(key: Ed25519PrivateKey, name: str, text: str) -> str:
    """A signed note: `text` (ending in a newline), a blank line, its Ed25519 signature line by `name`."""
    blob = key_id(name, _raw(key)) + key.sign(text.encode())
    return f"{text}\n{DASH} {name} {base64.b64encode(blob).decode()}\n"


def sign(key: Ed25519PrivateKey, origin: str, size: int, root_hash: bytes) -> str:
    """A checkpoint of (size, root) signed by the log's key under its origin."""
    return sign_note(key, origin, note_text(origin, size, root_hash))


def parse_verifier_key(vkey: str) -> tuple[str, str, int]:
    """(name, public key hex, signature type) of a verifier key `<name>+<hex key ID>+<base64(type || key)>`
    (type 0x01 Ed25519, 0x04 a tlog-cosignature/v1 witness); ProofError if it is malformed."""
    parts = vkey.split("+", 2) if isinstance(vkey, str) else []
    try:
        name, id_hex, rest = parts
        blob = base64.b64decode(rest, validate=True)
    except (ValueError, binascii.Error):
        raise ProofError(f"a verifier key is <name>+<hex key ID>+<base64>, not {vkey!r}") from None
    if len(blob) != 33 or blob[0] not in (ED25519, COSIGNATURE_V1) or not name:
        raise ProofError("a verifier key holds an Ed25519 key (type 0x01, or 0x04 for a witness)")
    if key_id(name, blob[1:], blob[0]).hex() != id_hex.lower():
        raise ProofError(f"the verifier key's ID {id_hex} does not match its name and key")
    return name, blob[1:].hex(), blob[0]


def witness_key(name: str, public_key: str) -> str:
    """A witness's verifier key `<name>+<hex key ID>+<base64(0x04 || key)>`."""
    raw = _key(public_key)
    return f"{name}+{key_id(name, raw, COSIGNATURE_V1).hex()}+{base64.b64encode(bytes([COSIGNATURE_V1]) + raw).decode()}"


def parse(note: str) -> Checkpoint:
    """A checkpoint's parts; ProofError for anything malformed (signatures are not checked here)."""
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise ProofError("a checkpoint is a signed note of at most 64 KiB")
    text, sep, sigs = note.partition("\n\n")
    if not sep or not sigs.endswith("\n"):
        raise ProofError("a checkpoint is the note text, a blank line, and signature lines each ending in a newline")
    lines = text.split("\n")
    if len(lines) < 3:
        raise ProofError("a checkpoint's text is origin, tree size and root hash, one a line")
    origin, size_s, root_b64 = lines[:3]
    if not size_s.isdigit() or (size_s != "0" and size_s.startswith("0")) or not size_s.isascii():
        raise ProofError(f"checkpoint tree size {size_s!r} is not a decimal number")
    try:
        root_hash = base64.b64decode(root_b64, validate=True)
    except (binascii.Error, ValueError):
        raise ProofError("checkpoint root hash is not base64") from None
    if len(root_hash) != 32 or not origin:
        raise ProofError("checkpoint: an origin line and a 32-byte root hash are needed")
    out = []
    for line in sigs[:-1].split("\n"):
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH:
            raise ProofError(f"checkpoint signature line {line[:40]!r} is not '— <name> <base64>'")
        try:
            blob = base64.b64decode(parts[2], validate=True)
        except (binascii.Error, ValueError):
            raise ProofError("checkpoint signature is not base64") from None
        if len(blob) < 5:
            raise ProofError("checkpoint signature is too short")
        out.append(Signature(parts[1], blob[:4], blob[4:]))
    return Checkpoint(origin, int(size_s), root_hash, text + "\n", tuple(out))


def verify(note: str, public_key: str, origin: str | None = None) -> Checkpoint:
    """The checkpoint, if the log's key (hex) signed it (under `origin` if given)."""
    cp = parse(note)
    if origin is not None and cp.origin != origin:
        raise ProofError(f"checkpoint is for the log {cp.origin!r}, not {origin!r}")
    raw = _key(public_key)
    want = key_id(cp.origin, raw)
    for s in cp.signatures:
        if s.name == cp.origin and s.key_id == want:
            try:
                Ed25519PublicKey.from_public_bytes(raw).verify(s.blob, cp.text.encode())
            except InvalidSignature:
                raise ProofError("checkpoint signature does not verify") from None
            return cp
    raise ProofError(f"checkpoint is not signed by the log key {public_key[:16]}... (key ID {want.hex()})")


def _key(public_key: str) -> bytes:
    try:
        raw = bytes.fromhex(public_key)
        Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise ProofError("a public key is 32 bytes in hex (Ed25519)") from None
    return raw


def cosign(key: Ed25519PrivateKey, name: str, cp: Checkpoint, timestamp: int) -> str:
    """A tlog-cosignature/v1 signature line over the checkpoint's text, at `timestamp` (seconds)."""
    message = f"cosignature/v1\ntime {timestamp}\n".encode() + cp.text.encode()
    blob = key_id(name, _raw(key), COSIGNATURE_V1) + struct.pack(">Q", timestamp) + key.sign(message)
    return f"{DASH} {name} {base64.b64encode(blob).decode()}\n"


def verify_cosignature(cp: Checkpoint, name: str, public_key: str) -> int:
    """The time at which the witness `name` (key hex) cosigned the checkpoint; ProofError if it did not."""
    raw = _key(public_key)
    want = key_id(name, raw, COSIGNATURE_V1)
    for s in cp.signatures:
        if s.name == name and s.key_id == want and len(s.blob) == 72:
            (ts,) = struct.unpack(">Q", s.blob[:8])
            message = f"cosignature/v1\ntime {ts}\n".encode() + cp.text.encode()
            try:
                Ed25519PublicKey.from_public_bytes(raw).verify(s.blob[8:], message)
            except InvalidSignature:
                raise ProofError(f"the cosignature of witness {name!r} does not verify") from None
            return int(ts)
    raise ProofError(f"the checkpoint carries no cosignature of witness {name!r} (key ID {want.hex()})")


# --- key rotation ---------------------------------------------------------------------------

def _rotation_part(doc: dict[str, Any]) -> bytes:
    return ROTATION_CONTEXT + canonical_bytes({k: doc[k] for k in ("origin", "old_public_key", "new_public_key",
                                                                    "timestamp")})


def sign_rotation(old: Ed25519PrivateKey, new_public_key: str, origin: str, timestamp: str) -> dict[str, Any]:
    """A statement, signed by the log's old key, that the log `origin` is signed by the new key from now on."""
    doc: dict[str, Any] = {"origin": origin, "old_public_key": public_key_hex(old),
                           "new_public_key": new_public_key.lower(), "timestamp": timestamp}
    doc["signature"] = old.sign(_rotation_part(doc)).hex()
    return doc


def verify_rotation(doc: Any, old_public_key: str, origin: str) -> str:
    """The new key (hex) a rotation statement signed by `old_public_key` names; ProofError otherwise."""
    try:
        if doc["old_public_key"] != old_public_key.lower() or doc["origin"] != origin:
            raise ProofError("the rotation statement is for another key or another log")
        _key(doc["new_public_key"])
        Ed25519PublicKey.from_public_bytes(_key(old_public_key)).verify(bytes.fromhex(doc["signature"]),
                                                                        _rotation_part(doc))
    except (KeyError, TypeError, ValueError):
        raise ProofError("malformed key rotation statement") from None
    except InvalidSignature:
        raise ProofError("the key rotation statement is not signed by the old key") from None
    return str(doc["new_public_key"])
