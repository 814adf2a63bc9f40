"""Check a game's export against a signed tree head of the transparency log, offline
(`warlog verify FILE --tree-head HEAD.json --proof PROOF.json`; docs/ledger.md).

The head's signature is checked (against a pinned key if given), each entry of the proof is
shown to be in that tree (RFC 9162 inclusion), and each entry must name an event the export
holds with the same hash: a game rewritten after the head was published, or cut short, fails."""

from __future__ import annotations

from typing import Any

from ledger import transparency as t
from ledger.events import Event


def check_against_head(events: list[Event], head: Any, proof: Any, public_key: str | None = None) -> list[str]:
    """Lines describing what was checked; raises transparency.ProofError on any failure."""
    size, root_hash = t.verify_head(head, public_key)
    if not events:
        raise t.ProofError("the export holds no events")
    game_id = events[0].game_id
    if not isinstance(proof, dict) or not isinstance(proof.get("entries"), list) or not proof["entries"]:
        raise t.ProofError("the proof file has no entries (GET /api/v1/log/proof/<game_id>?size=<tree_size>)")
    by_seq = {ev.seq: ev.hash for ev in events}
    kinds = set()
    out = [f"tree head: {size} entries, root {root_hash.hex()[:16]}..., signed by {head['public_key'][:16]}..."]
    for item in proof["entries"]:
        try:
            doc = t.entry(item["entry"]["kind"], item["entry"]["game_id"], item["entry"]["seq"], item["entry"]["hash"])
            index, path = item["index"], [bytes.fromhex(p) for p in item["audit_path"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise t.ProofError(f"malformed proof entry ({exc})") from None
        if not isinstance(index, int) or not isinstance(doc["seq"], int):
            raise t.ProofError("malformed proof entry: index and seq must be whole numbers")
        if doc["game_id"] != game_id:
            raise t.ProofError(f"the proof is for game {doc['game_id']!r}, the export is game {game_id!r}")
        t.verify_inclusion(t.leaf_hash(t.entry_bytes(doc)), index, size, path, root_hash)
        held = by_seq.get(doc["seq"])
        if held is None:
            raise t.ProofError(f"the log recorded event {doc['seq']} of this game, which the export does not hold "
                               "(the export is cut short)")
        if held != doc["hash"]:
            raise t.ProofError(f"event {doc['seq']}: the export's hash {held[:16]}... is not the one the log "
                               f"recorded, {doc['hash'][:16]}...: the history was rewritten after it was logged")
        kinds.add(doc["kind"])
        out.append(f"  entry {index} ({doc['kind']}, seq {doc['seq']}) is in the tree and matches the export")
    if "created" not in kinds:
        raise t.ProofError("the proof holds no 'created' entry for the game")
    return out
