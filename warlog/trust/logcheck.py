"""Check a game's export against a signed tree head of the transparency log, offline
(`warlog verify FILE --tree-head HEAD.json --proof PROOF.json`; docs/ledger.md).

The head is a C2SP checkpoint signed by the log's key (pinned: warlog.trust.logpin), cosigned by a
witness when asked; each entry of the proof is shown to be in that tree (RFC 9162 inclusion) and
must name an event the export holds with the same hash, and the export's last event must be the
one the game's latest proven entry commits to: a game rewritten after the head was published, cut
short, or served with a proof that leaves its latest entry out, fails."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger import checkpoint as cpt
from ledger import transparency as t
from ledger.events import Event


@dataclass
class Head:
    size: int
    root_hash: bytes
    origin: str | None  # None for an old-format (v1) head
    public_key: str
    lines: list[str]
    notes: list[str]


def head_key(head: Any) -> tuple[str | None, str | None]:
    """(origin, public key) a head names for itself, before any signature is checked: what a client
    pins on first use (the checkpoint's origin; the key the JSON head carries)."""
    note = head if isinstance(head, str) else head.get("checkpoint") if isinstance(head, dict) else None
    origin = cpt.parse(note).origin if isinstance(note, str) else None
    key = head.get("public_key") if isinstance(head, dict) else None
    return origin, key if isinstance(key, str) else None


def read_head(head: Any, public_key: str | None, *, allow_v1: bool = False,
              witness: tuple[str, str] | None = None) -> Head:
    """A tree head checked: a C2SP checkpoint (the text, or the API's JSON head carrying one) signed by
    `public_key`, cosigned by `witness` (name, key hex) if given; an old JSON head only with `allow_v1`."""
    note = head if isinstance(head, str) else head.get("checkpoint") if isinstance(head, dict) else None
    if isinstance(note, str):
        key = public_key or (head.get("public_key") if isinstance(head, dict) else None)
        if not isinstance(key, str):
            raise t.ProofError("a checkpoint names no key: pin the log's key (--public-key, or GET /api/v1/log/key)")
        cp = cpt.verify(note, key)
        if isinstance(head, dict) and "signature" in head:  # the JSON head beside it must say the same
            size, root_hash = t.verify_head(head, key)
            if (size, root_hash) != (cp.size, cp.root_hash):
                raise t.ProofError("the JSON tree head and its checkpoint differ")
        lines = [f"checkpoint {cp.origin}: {cp.size} entries, root {cp.root_hash.hex()[:16]}..., "
                 f"signed by {key[:16]}..."]
        if witness is not None:
            at = cpt.verify_cosignature(cp, *witness)
            lines.append(f"  cosigned by witness {witness[0]} at {at} (it saw no other view of the log)")
        return Head(cp.size, cp.root_hash, cp.origin, key.lower(), lines, [])
    if not allow_v1:
        raise t.ProofError("an old-format (v1) tree head: it carries its own key and no checkpoint; "
                           "check it with --accept-v1-head and the log's key pinned")
    if witness is not None:
        raise t.ProofError("an old-format (v1) tree head cannot carry a witness's cosignature")
    size, root_hash = t.verify_head(head, public_key)
    key = str(head["public_key"]).lower()
    return Head(size, root_hash, None, key,
                [f"tree head (v1): {size} entries, root {root_hash.hex()[:16]}..., signed by {key[:16]}..."],
                ["an old-format (v1) tree head, accepted as asked: no checkpoint, no witness can have cosigned it"])


def check_against_head(events: list[Event], head: Any, proof: Any, public_key: str | None = None, *,
                       allow_v1: bool = False, allow_newer: bool = False,
                       witness: tuple[str, str] | None = None, log_entries: Any = None) -> list[str]:
    """Lines describing what was checked (notes start "note: "); raises transparency.ProofError on any
    failure. The entry for the export's last event must be among the proven ones: a proof that leaves
    out the game's latest entries fails (unless `allow_newer`: the export is then newer than the log)."""
    checked = read_head(head, public_key, allow_v1=allow_v1, witness=witness)
    size, root_hash = checked.size, checked.root_hash
    if not events:
        raise t.ProofError("the export holds no events")
    game_id = events[0].game_id
    if not isinstance(proof, dict) or not isinstance(proof.get("entries"), list) or not proof["entries"]:
        raise t.ProofError("the proof file has no entries (GET /api/v1/log/proof/<game_id>?size=<tree_size>)")
    by_seq = {ev.seq: ev.hash for ev in events}
    kinds = set()
    seqs: list[int] = []
    out = list(checked.lines)
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
        seqs.append(doc["seq"])
        out.append(f"  entry {index} ({doc['kind']}, seq {doc['seq']}) is in the tree and matches the export")
    if "created" not in kinds:
        raise t.ProofError("the proof holds no 'created' entry for the game")
    if log_entries is not None:
        out.append(check_complete(log_entries, checked, game_id, {int(i["index"]) for i in proof["entries"]}))
    out += [f"note: {n}" for n in checked.notes]
    return out + _last_event(events[-1].seq, max(seqs), size, allow_newer)


def check_complete(log_entries: Any, head: Head, game_id: str, proven: set[int]) -> str:
    """With every entry of the log (`warlog log monitor --save-entries`): they hash to the head's root,
    and the proof leaves out none of the game's entries (a game cut short at a logged point, served
    with a proof trimmed to match, fails here)."""
    items = log_entries.get("entries") if isinstance(log_entries, dict) else log_entries
    if not isinstance(items, list) or len(items) < head.size:
        raise t.ProofError(f"the entries file does not hold the {head.size} entries of the head")
    try:
        docs = [t.entry(i["entry"]["kind"], i["entry"]["game_id"], i["entry"]["seq"], i["entry"]["hash"])
                for i in items[:head.size]]
    except (KeyError, TypeError, ValueError) as exc:
        raise t.ProofError(f"malformed entry in the entries file ({exc})") from None
    if t.root([t.leaf_hash(t.entry_bytes(d)) for d in docs]) != head.root_hash:
        raise t.ProofError("the entries file does not hash to the head's root")
    mine = [(i, d) for i, d in enumerate(docs) if d["game_id"] == game_id]
    left_out = [(i, d) for i, d in mine if i not in proven]
    if left_out:
        i, d = left_out[-1]
        raise t.ProofError(f"the proof leaves out entry {i} ({d['kind']}, seq {d['seq']}) of this game, which "
                           "the log holds under this head: the export is cut short or rewritten")
    return f"  all {head.size} entries of the log read: the proof leaves out none of the game's {len(mine)}"


def _last_event(last: int, logged: int, size: int, allow_newer: bool) -> list[str]:
    """The export's last event must be the one the log's latest entry (in this tree) commits to."""
    if last == logged:
        return [f"  the export's last event, {last}, is the one the log's latest entry for the game commits to"]
    message = (f"the export is newer than the log under this head: its events {logged + 1}..{last} are not in "
               f"the {size} entries proven (a proof without the game's latest entry, or a head older than the export)")
    if not allow_newer:
        raise t.ProofError(message + "; ask for a newer head, or accept it with --allow-newer-export")
    return [f"note: {message}"]
