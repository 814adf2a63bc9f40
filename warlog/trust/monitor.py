"""A monitor of the transparency log (`warlog log monitor URL`): it reads every entry through
GET /api/v1/log/entries, recomputes the root and checks it against the latest checkpoint (signed by
the pinned key), checks that the log still extends the last head it saw (its state file), reports
each game's entries, and checks the log's promise (its maximum merge delay, GET /api/v1/log/key)
that every listed game is logged within that delay of its creation."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ledger import transparency as t
from warlog.trust import logcheck, logpin

Get = Callable[[str], Any]  # a path under the server -> its JSON answer (raises on a non-200)


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    entries: list[tuple[int, dict[str, Any], str]] = field(default_factory=list)
    head: Any = None


@dataclass
class GameEntries:
    created: int | None = None
    created_at: str | None = None
    heads: list[tuple[int, int]] = field(default_factory=list)  # (index, seq)


def _when(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def read_entries(get: Get, size: int, page: int = 1000) -> list[tuple[int, dict[str, Any], str]]:
    out: list[tuple[int, dict[str, Any], str]] = []
    while len(out) < size:
        got = get(f"/api/v1/log/entries?start={len(out)}&end={min(size, len(out) + page) - 1}")["entries"]
        if not got:
            raise t.ProofError(f"the log served no entries from {len(out)} although its head has {size}")
        for item in got:
            if item["index"] != len(out):
                raise t.ProofError(f"the log served entry {item['index']} where {len(out)} was asked for")
            doc = item["entry"]
            out.append((item["index"], t.entry(doc["kind"], doc["game_id"], doc["seq"], doc["hash"]),
                        str(item.get("logged_at", ""))))
            if len(out) == size:
                break
    return out


def monitor(get: Get, pin_file: Path, state_file: Path | None, public_key: str | None = None,
            now: datetime | None = None, games: bool = True) -> Report:
    rep = Report()
    meta = get("/api/v1/log/key")
    head = get("/api/v1/log/head")
    origin, offered = logcheck.head_key(head)
    if origin is None or origin != meta.get("origin"):
        raise t.ProofError(f"the head's origin {origin!r} is not the log's, {meta.get('origin')!r}")
    pin = logpin.resolve(origin, public_key or meta.get("public_key") or offered, pin_file, meta.get("rotations"))
    rep.lines.append(pin.message)
    checked = logcheck.read_head(head, pin.public_key)
    rep.lines += checked.lines
    entries = read_entries(get, checked.size)
    rep.entries, rep.head = entries, head
    leaves = [t.leaf_hash(t.entry_bytes(doc)) for _, doc, _ in entries]
    if t.root(leaves) != checked.root_hash:
        rep.problems.append("the entries served do not hash to the signed head's root: the log serves "
                            "different entries than it signed")
    else:
        rep.lines.append(f"all {len(entries)} entries read; their root is the signed head's")
    _times(entries, head, rep)
    _against_state(state_file, origin, leaves, checked, rep)
    per_game = _per_game(entries, rep)
    for game_id, g in per_game.items():
        seqs = ", ".join(str(seq) for _, seq in g.heads) or "none"
        rep.lines.append(f"  game {game_id}: created at entry {g.created}, heads at seq {seqs}")
    if games:
        _merge_delay(get, per_game, int(meta.get("max_merge_delay_seconds") or 0), now or datetime.now(UTC), rep)
    return rep


def _per_game(entries: list[tuple[int, dict[str, Any], str]], rep: Report) -> dict[str, GameEntries]:
    out: dict[str, GameEntries] = {}
    for index, doc, at in entries:
        g = out.setdefault(doc["game_id"], GameEntries())
        if doc["kind"] == "created":
            if g.created is not None:
                rep.problems.append(f"game {doc['game_id']}: a second 'created' entry at {index}")
            g.created, g.created_at = index, at
        else:
            if g.created is None:
                rep.problems.append(f"game {doc['game_id']}: a head entry at {index} before its 'created' entry")
            if g.heads and doc["seq"] <= g.heads[-1][1]:
                rep.problems.append(f"game {doc['game_id']}: head entry {index} (seq {doc['seq']}) does not grow "
                                    f"past the previous one (seq {g.heads[-1][1]})")
            g.heads.append((index, doc["seq"]))
    return out


def _times(entries: list[tuple[int, dict[str, Any], str]], head: Any, rep: Report) -> None:
    """The times entries were logged never go back, and the last is the signed head's time (a head is
    stamped when its size is reached), so every entry's time is bounded by a signature."""
    stamps = [at for _, _, at in entries]
    back = next((i for i in range(1, len(stamps)) if stamps[i] < stamps[i - 1]), None)
    if back is not None:
        rep.problems.append(f"entry {back} was logged at {stamps[back]}, before entry {back - 1} ({stamps[back - 1]})")
    signed = head.get("timestamp") if isinstance(head, dict) else None
    if stamps and signed is not None and signed != stamps[-1]:
        rep.problems.append(f"the signed head's time {signed} is not the time its last entry was logged, {stamps[-1]}")


def save_entries(path: Path, entries: list[tuple[int, dict[str, Any], str]], head: Any) -> None:
    """All the entries read, for `warlog verify --entries` (a proof's completeness)."""
    doc = {"tree_head": head, "entries": [{"index": i, "entry": d, "logged_at": at} for i, d, at in entries]}
    path.write_text(json.dumps(doc), encoding="utf-8")


def _against_state(state_file: Path | None, origin: str, leaves: list[bytes], head: logcheck.Head,
                   rep: Report) -> None:
    """The log must extend the last head this monitor saw (the entries it holds now recompute it)."""
    if state_file is None:
        return
    state = json.loads(state_file.read_text(encoding="utf-8")) if state_file.exists() else {}
    last = state.get(origin)
    if isinstance(last, dict):
        size, root_hex = int(last["size"]), str(last["root_hash"])
        if size > len(leaves) or t.root(leaves[:size]).hex() != root_hex:
            rep.problems.append(f"the log no longer extends the head of size {size} this monitor saw before: "
                                "it was forked or rewritten")
            return
        rep.lines.append(f"the log extends the head of size {size} seen before")
    state[origin] = {"size": head.size, "root_hash": head.root_hash.hex()}
    state_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = state_file.with_suffix(state_file.suffix + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, state_file)


def _merge_delay(get: Get, per_game: dict[str, GameEntries], mmd: int, now: datetime, rep: Report) -> None:
    """Every game the server lists must be logged within `mmd` seconds of its creation."""
    if mmd <= 0:
        rep.problems.append("the log states no maximum merge delay (max_merge_delay_seconds)")
        return
    query, late, checked = "/api/v1/games?limit=100", 0, 0
    while query:
        page = get(query)
        for game in page.get("games", []):
            checked += 1
            created = _when(game["created_at"])
            g = per_game.get(game["id"])
            if g is None or g.created is None:
                if (now - created).total_seconds() > mmd:
                    late += 1
                    rep.problems.append(f"game {game['id']} was created at {game['created_at']} and is not in the "
                                        f"log {mmd} s later: the maximum merge delay is broken")
            elif g.created_at and (_when(g.created_at) - created).total_seconds() > mmd:
                late += 1
                rep.problems.append(f"game {game['id']} was logged at {g.created_at}, more than {mmd} s after its "
                                    f"creation at {game['created_at']}")
        nxt = page.get("next")
        query = nxt if isinstance(nxt, str) and nxt else ""
    if not late:
        rep.lines.append(f"all {checked} listed games were logged within the maximum merge delay of {mmd} s")
