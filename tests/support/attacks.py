"""What an opponent or a spectator can do alone to learn hidden information: read every
API answer and page open to it, pick out any seed it can find, and hash candidate payloads
against the public event hashes with the blinds that seed gives.

`Reader` reads as one viewer (a seat's token, or nobody); `hash_and_guess` is the attack on
one redacted `submitted` event: with a seed, each candidate action (and each key the attacker
thinks likely) is put back into the payload with the blind the seed gives, and the event is
hashed; a hit is a recovered secret."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from ledger.dice import derive_blind
from ledger.events import Event

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


@dataclass
class Reading:
    """Everything one viewer read: every answer's text, and the event documents."""

    text: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def corpus(self) -> str:
        return "\n".join(self.text)

    def seeds(self, commitments: Iterable[str]) -> list[bytes]:
        """Every 64-hex string read anywhere that is the preimage of a seed commitment."""
        wanted = set(commitments)
        found = []
        for token in sorted(set(HEX64.findall(self.corpus))):
            seed = bytes.fromhex(token)
            if hashlib.sha256(seed).hexdigest() in wanted and seed not in found:
                found.append(seed)
        return found


class Reader:
    """One viewer: `token` None is a spectator. Pages are read with the seat's cookie."""

    def __init__(self, app: Flask, game_id: str, token: str | None) -> None:
        self.game_id, self.token = game_id, token
        self.api: FlaskClient = app.test_client()
        self.browser: FlaskClient = app.test_client()
        if token:
            self.browser.set_cookie(f"warlog_seat_{game_id}", token)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def _get(self, client: FlaskClient, path: str, reading: Reading, headers: dict[str, str] | None = None) -> Any:
        r = client.get(path, headers=headers or {})
        assert r.status_code < 500, (path, r.status_code)
        reading.text.append(r.get_data(as_text=True))
        return r

    def read(self, pages_from: int | None = None) -> Reading:
        """Every API answer and page; states and replay pages from step `pages_from` on (None:
        every state, no replay page)."""
        gid, out = self.game_id, Reading()
        api = f"/api/v1/games/{gid}"
        info = self._get(self.api, api, out, self.headers).get_json()
        last = info["seq"]
        out.events = self._get(self.api, f"{api}/events?after=-1&limit=10000", out, self.headers).get_json()["events"]
        for at in range(max(0, pages_from or 0), last + 1):  # earlier states: see tests/api/test_hidden_information.py
            self._get(self.api, f"{api}/state?at={at}", out, self.headers)
        for ev in out.events:
            if ev["type"] == "submitted":
                self._get(self.api, f"{api}/moves/{ev['seq']}", out, self.headers)
        self._get(self.api, f"{api}/actions", out, self.headers)
        self._get(self.api, f"{api}/export", out, self.headers)
        for path in ("", "/audit", "/export.jsonl"):
            self._get(self.browser, f"/games/{gid}{path}", out)
        if pages_from is not None:
            for step in range(max(0, pages_from), last + 1):
                self._get(self.browser, f"/games/{gid}/replay/{step}", out)
        return out


def commitments(events: list[dict[str, Any]]) -> list[str]:
    """The seed commitments a viewer can read: event 0's and any later one."""
    out = []
    for ev in events:
        c = ev["payload"].get("seed_commitment") if ev["type"] == "game_created" else \
            ev["payload"].get("commitment") if ev["type"] == "seed_committed" else None
        if isinstance(c, str):
            out.append(c)
    return out


def hash_and_guess(doc: dict[str, Any], seeds: list[bytes], candidates: Iterable[dict[str, Any]],
                   keys: Iterable[str | None]) -> list[dict[str, Any]]:
    """The candidate actions that, put back into this redacted `submitted` event with a blind
    from one of `seeds` (and one of the likely `keys`, None for a payload without a key),
    give the event's public hash."""
    hits = []
    base = {k: v for k, v in doc["payload"].items() if k not in ("action", "blind", "idempotency_key")}
    blinds = [derive_blind(seed, doc["game_id"], doc["seq"]) for seed in seeds]
    cands = list(candidates)
    for blind in blinds:
        for key in keys:
            for action in cands:
                payload = {**base, "action": action, "blind": blind}
                if key is not None:
                    payload["idempotency_key"] = key
                ev = Event(doc["game_id"], doc["seq"], doc["type"], doc["seat"], payload, doc["recorded_at"],
                           doc["prev_hash"], doc["hash"])
                if ev.computed_hash() == doc["hash"]:
                    hits.append(action)
    return hits
