"""Exporting a creation period's ended games as a bundle of verifiable exports
(archiving: the export part). Each game is one JSON Lines file exactly as `GET …/export` and
`warlog export` write it (so `warlog verify` and `warlog import` take it as it is), and
`manifest.json` names each file with its event count, chain head and SHA-256, so a stored
bundle can be checked before any file is imported. Nothing in the ledger is changed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ledger.export import export_lines
from ledger.store import EventStore, GameSummary

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Archived:
    game_id: str
    file: str
    events: int
    head: str  # the last event's hash
    sha256: str


def ended_in_period(store: EventStore, start: str, end: str) -> Iterator[GameSummary]:
    """Ended games with start <= created_at < end (ISO dates or timestamps), newest first,
    walked a page at a time by the listing index."""
    before: tuple[str, str] | None = (end, "")
    while True:
        rows = store.list_games(status="ended", limit=200, before=before)
        for row in rows:
            if row.created_at < start:
                return
            yield row
        if len(rows) < 200:
            return
        before = (rows[-1].created_at, rows[-1].game_id)


def export_period(store: EventStore, start: str, end: str, out: Path) -> list[Archived]:
    """Write each ended game of the period to `out/<game_id>.jsonl` and the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    done: list[Archived] = []
    for row in ended_in_period(store, start, end):
        name = f"{row.game_id}.jsonl"
        digest, count, head = hashlib.sha256(), 0, ""
        with open(out / name, "w", encoding="utf-8", newline="") as fh:
            for line in export_lines(store, row.game_id):
                fh.write(line)
                digest.update(line.encode("utf-8"))
                count += 1
                head = json.loads(line)["hash"]
        done.append(Archived(row.game_id, name, count, head, digest.hexdigest()))
    manifest = {"period": {"from": start, "before": end}, "games": [a.__dict__ for a in done]}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return done


def check_bundle(out: Path) -> list[str]:
    """Every problem of a stored bundle against its manifest (empty when it is intact)."""
    problems = []
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    for entry in [*manifest["games"], *manifest.get("tournaments", [])]:  # tournaments: warlog.ops.archiving
        path = out / entry["file"]
        if not path.is_file():
            problems.append(f"{entry['file']}: missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"{entry['file']}: SHA-256 differs from the manifest")
    return problems
