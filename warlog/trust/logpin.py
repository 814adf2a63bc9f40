"""Trust on first use of a transparency log's key, for the tools (`warlog verify`, `warlog log monitor`).

The first time a log (by its checkpoint origin) is seen, its key is written to a pin file
(WARLOG_PIN_FILE, default `$XDG_CONFIG_HOME/warlog/log-keys.json`, i.e. ~/.config/warlog/); later
heads must be signed by that key. A new key is accepted only with a rotation statement signed by
the pinned key naming it (ledger.checkpoint.sign_rotation; GET /api/v1/log/key lists them), and the
pin then moves to the new key. Anything else is refused with a message saying what changed."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger import checkpoint as cpt
from ledger.transparency import ProofError


def default_path() -> Path:
    named = os.environ.get("WARLOG_PIN_FILE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "warlog" / "log-keys.json"


@dataclass(frozen=True)
class Pinned:
    public_key: str
    message: str  # what happened: pinned now, already pinned, rotated


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ProofError(f"the pinned keys file {path} cannot be read ({err}); fix or remove it") from None
    if not isinstance(doc, dict):
        raise ProofError(f"the pinned keys file {path} is not a JSON object")
    return doc


def _save(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def resolve(origin: str, offered: str | None, path: Path, rotations: list[Any] | None = None) -> Pinned:
    """The key to check the log `origin` with: the pinned one, or (first use) `offered`, which is then
    pinned; a key other than the pinned one only through rotation statements from it."""
    doc = _load(path)
    pinned = doc.get(origin)
    if not isinstance(pinned, str):
        if offered is None:
            raise ProofError(f"no key is pinned for the log {origin!r} in {path} and none was offered: "
                             "give --public-key (GET /api/v1/log/key)")
        doc[origin] = offered.lower()
        _save(path, doc)
        return Pinned(offered.lower(), f"pinned the key {offered[:16]}... of the log {origin} on first use in {path}")
    if offered is None or offered.lower() == pinned:
        return Pinned(pinned, f"the log's key is the one pinned in {path}")
    key = pinned
    for statement in rotations or []:
        try:
            key = cpt.verify_rotation(statement, key, origin)
        except ProofError:
            continue
        if key == offered.lower():
            doc[origin] = key
            _save(path, doc)
            return Pinned(key, f"the log {origin} rotated its key from {pinned[:16]}... to {key[:16]}... by a "
                               f"statement signed by the old key; the pin in {path} now names the new key")
    raise ProofError(f"THE LOG'S KEY CHANGED: the log {origin} is now signed by {offered[:16]}..., not by the key "
                     f"{pinned[:16]}... pinned on first use in {path}, and no rotation statement signed by the "
                     "pinned key names it. Do not trust this head; if the operator really changed keys, ask for "
                     "the rotation statement (--rotations) or remove the pin after checking it out of band")
