"""Checkpoints and cosignatures interoperate: the signed-note reference vector of golang.org/x/mod's
sumdb/note, and a real checkpoint of a CT log cosigned by public witnesses (c2sp.org/tlog-checkpoint,
c2sp.org/tlog-cosignature)."""

from __future__ import annotations

import base64
import dataclasses

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger import checkpoint as cpt
from ledger import transparency as t

GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_SIG = "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM="

CT_CHECKPOINT = """arche2025h1.staging.ct.transparency.dev
1432088532
U7WM79jrzyhGZ5/GUBTpM7NzwdyfFx61t3RovgcC4Ro=

— arche2025h1.staging.ct.transparency.dev zTM8sQAAAZ5W0WdjBAMARjBEAiBjW5IQf9pvsYLfQFX6hoGREPMHbdQ3urbllzalApkptQIgIpwtEroeW2BXaHAI4kJXFbon5Ch9MNL5zRNZ55lvGt0=
— arche2025h1.staging.ct.transparency.dev ui8GwCF1+kWqZrxGdhj4aX3gcw7XUlXQQabg/27lefwhUkzbC3NygNI75MdhL1bfTW9g8Ei59RA23oHP7Ry1k3ZFWwQ=
— transparency.dev/DEV:witness-little-garden 2AQqhwAAAABqEiEgzgFIqqhbUoDwjMWE6UP8nd8/KYTzwZ2rhIgcqoXHAwVkjZr4AscylP3v7sEodkRAErumC2q44vdgJY096st5BQ==
— remora.n621.de 2net5wAAAABqEiEgPlfF3V06o0Y+fHM+J5J9s27wgxxcOVSpZ/2g/KSiXCg9DEZI+aVCIobWX9sXTynk5XeU/zZ0WBxtqB0DrAWfBw==
"""
CT_VKEY = "arche2025h1.staging.ct.transparency.dev+ba2f06c0+AU0vHmlGCS/PdN8b2OaGmKprLI8HKM+dJ472xgFYh15f"
WITNESS_VKEY = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"


def test_the_signed_note_reference_vector_is_reproduced_byte_for_byte() -> None:
    seed = base64.b64decode(GO_SKEY.split("+", 4)[4])[1:]
    key = Ed25519PrivateKey.from_private_bytes(seed)
    assert cpt.verifier_key("PeterNeumann", bytes.fromhex(t.public_key_hex(key))) == GO_VKEY
    assert cpt.sign_note(key, "PeterNeumann", GO_TEXT) == GO_TEXT + "\n— PeterNeumann " + GO_SIG + "\n"
    assert cpt.parse_verifier_key(GO_VKEY) == ("PeterNeumann", t.public_key_hex(key), cpt.ED25519)


def test_a_real_cosigned_checkpoint_verifies_and_a_changed_one_does_not() -> None:
    origin, log_key, kind = cpt.parse_verifier_key(CT_VKEY)
    cp = cpt.verify(CT_CHECKPOINT, log_key, origin)  # the Ed25519 line, among an RFC 6962 one and cosignatures
    assert (cp.size, len(cp.root_hash)) == (1432088532, 32)
    name, wkey, wkind = cpt.parse_verifier_key(WITNESS_VKEY)
    assert (kind, wkind) == (cpt.ED25519, cpt.COSIGNATURE_V1) and cpt.witness_key(name, wkey) == WITNESS_VKEY
    assert cpt.verify_cosignature(cp, name, wkey) > 1_700_000_000
    changed = CT_CHECKPOINT.replace("1432088532", "1432088533")
    with pytest.raises(t.ProofError, match="does not verify"):
        cpt.verify(changed, log_key, origin)
    with pytest.raises(t.ProofError, match="does not verify"):
        cpt.verify_cosignature(dataclasses.replace(cp, text=changed.partition("\n\n")[0] + "\n"), name, wkey)
    with pytest.raises(t.ProofError, match="no cosignature"):
        cpt.verify_cosignature(cp, "witness.example.net", wkey)
    with pytest.raises(t.ProofError, match="does not match"):
        cpt.parse_verifier_key(WITNESS_VKEY.replace("da77ade7", "da77ade8"))
