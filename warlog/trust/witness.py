"""A witness of the transparency log: a separate process, with its own key and its own state file,
that cosigns a log's checkpoint only if it is consistent with the last one it cosigned for that log
(c2sp.org/tlog-witness add-checkpoint; cosignatures are c2sp.org/tlog-cosignature v1). A log shown
two ways (a split view) gets a cosignature for one side only: the other is refused, with the reason.

Request body (POST /add-checkpoint): `old <size>\\n`, the RFC 6962 consistency proof from that size
to the checkpoint's (one base64 hash a line), a blank line, then the checkpoint. Answers: 200 and the
cosignature line; 409 with the witness's size (text/x.tlog.size) when `old` is not the size it last
cosigned; 422 when the proof does not verify; 403 for a log it does not know or a bad signature;
400 for a malformed request. GET /checkpoint/<origin> gives the last checkpoint it cosigned for
that log. `warlog log cosign` is the client (docs/ledger.md)."""

from __future__ import annotations

import base64
import binascii
import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, Response, request

from ledger import checkpoint as cpt
from ledger import transparency as t


class Refused(Exception):
    """The witness will not cosign: `status` is the HTTP status of the answer."""

    def __init__(self, status: int, message: str, size: int | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.size = status, message, size


@dataclass
class Witness:
    key: Ed25519PrivateKey
    name: str
    logs: dict[str, str]  # origin -> the log's public key (hex)
    state: Path  # JSON: origin -> {"size", "root_hash" (hex), "checkpoint"}

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, Any]]:
        self.state.parent.mkdir(parents=True, exist_ok=True)
        with open(self.state.with_suffix(self.state.suffix + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            doc = json.loads(self.state.read_text(encoding="utf-8")) if self.state.exists() else {}
            before = json.dumps(doc, sort_keys=True)
            yield doc
            if json.dumps(doc, sort_keys=True) != before:
                tmp = self.state.with_suffix(self.state.suffix + ".tmp")
                tmp.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
                os.replace(tmp, self.state)

    def latest(self, origin: str) -> dict[str, Any] | None:
        with self._locked() as doc:
            got = doc.get(origin)
            return dict(got) if isinstance(got, dict) else None

    def add_checkpoint(self, body: str, now: Callable[[], float] = time.time) -> str:
        """The cosignature line for the checkpoint in `body`, or Refused with the reason."""
        old, proof, note = parse_request(body)
        cp = cpt.parse(note) if note else None
        if cp is None:
            raise Refused(400, "the request holds no checkpoint")
        key = self.logs.get(cp.origin)
        if key is None:
            raise Refused(403, f"this witness does not witness the log {cp.origin!r}")
        try:
            cpt.verify(note, key, cp.origin)
        except t.ProofError as err:
            raise Refused(403, str(err)) from None
        if old > cp.size:
            raise Refused(400, f"old size {old} is above the checkpoint's size {cp.size}")
        with self._locked() as doc:
            last = doc.get(cp.origin)
            last_size = int(last["size"]) if isinstance(last, dict) else 0
            if old != last_size:
                raise Refused(409, f"the last checkpoint cosigned for {cp.origin} has size {last_size}, not {old}",
                              last_size)
            if isinstance(last, dict):
                try:
                    t.verify_consistency(last_size, cp.size, bytes.fromhex(last["root_hash"]), cp.root_hash, proof)
                except t.ProofError as err:
                    raise Refused(422, f"checkpoint of size {cp.size} is not consistent with the checkpoint of size "
                                       f"{last_size} this witness cosigned ({err}): a split view or a rewritten log"
                                  ) from None
            elif proof:
                raise Refused(422, "a first checkpoint comes with an empty proof")
            line = cpt.cosign(self.key, self.name, cp, int(now()))
            doc[cp.origin] = {"size": cp.size, "root_hash": cp.root_hash.hex(), "checkpoint": note + line}
        return line


def parse_request(body: str) -> tuple[int, list[bytes], str]:
    head, sep, note = body.partition("\n\n")
    lines = head.split("\n")
    if not sep or not lines[0].startswith("old ") or not lines[0][4:].isdigit():
        raise Refused(400, "the request starts `old <size>`, then the proof lines, a blank line and the checkpoint")
    try:
        proof = [base64.b64decode(line, validate=True) for line in lines[1:]]
    except (binascii.Error, ValueError):
        raise Refused(400, "a consistency proof line is not base64") from None
    if len(proof) > 63:
        raise Refused(400, "a consistency proof has at most 63 hashes")
    return int(lines[0][4:]), proof, note


def request_body(old: int, proof: list[bytes], note: str) -> str:
    return f"old {old}\n" + "".join(base64.b64encode(p).decode() + "\n" for p in proof) + "\n" + note


def create_app(witness: Witness) -> Flask:
    app = Flask("warlog.trust.witness")

    @app.post("/add-checkpoint")
    def add_checkpoint() -> Response:
        if (request.content_length or 0) > cpt.MAX_NOTE * 2:
            return Response("request too large\n", 413, mimetype="text/plain")
        try:
            line = witness.add_checkpoint(request.get_data(as_text=True))
        except Refused as err:
            if err.status == 409:
                return Response(f"{err.size}\n", 409, mimetype="text/x.tlog.size",
                                headers={"X-Reason": err.message})
            return Response(err.message + "\n", err.status, mimetype="text/plain")
        except t.ProofError as err:
            return Response(f"{err}\n", 400, mimetype="text/plain")
        return Response(line, 200, mimetype="text/plain")

    @app.get("/checkpoint/<path:origin>")
    def latest(origin: str) -> Response:
        """The last checkpoint this witness cosigned for the log `origin`, with its cosignature."""
        got = witness.latest(origin)
        if got is None:
            return Response(f"no checkpoint of {origin} cosigned here\n", 404, mimetype="text/plain")
        return Response(str(got["checkpoint"]), 200, mimetype="text/plain")

    return app


# --- the client: a log's checkpoint to a witness ----------------------------------------------

def submit(note: str, consistency: Callable[[int, int], list[bytes]],
           post: Callable[[str], tuple[int, str, dict[str, str]]], old: int = 0) -> str:
    """Send `note` to a witness (`post` returns status, body, headers), fetching the consistency
    proof from the size it last cosigned (`consistency(old, new)`); returns the cosigned checkpoint
    or raises Refused with the witness's reason."""
    cp = cpt.parse(note)
    for _ in range(2):
        proof = consistency(old, cp.size) if 0 < old < cp.size else []
        status, text, headers = post(request_body(old, proof, note))
        if status == 200:
            return note + text
        if status == 409 and text.strip().isdigit() and int(text) != old:
            old = int(text)
            continue
        raise Refused(status, headers.get("X-Reason") or text.strip())
    raise Refused(409, "the witness's size keeps changing")
