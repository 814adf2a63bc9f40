"""The transparency log's web face: signed tree heads, inclusion
proofs of a game's entries and consistency proofs, under /api/v1/log. The tree and proofs are
ledger.transparency; the entries ledger.logstore (logged by the sweeper, warlog.judging.queue.sync_log).

The Ed25519 signing key never enters the database: it is a PEM file named by WARLOG_LOG_KEY.
The embedded default (a SQLite ledger and no WARLOG_LOG_KEY) makes one next to the database
file (var/) on first use; any other deployment must name an existing key file."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Blueprint, Flask, Response, current_app, jsonify, request
from marshmallow import Schema, ValidationError

from ledger import checkpoint as cpt
from ledger import logstore, logtree
from ledger import transparency as t
from validators.listing import MAX_ENTRIES, LogConsistencyQuerySchema, LogEntriesQuerySchema, LogProofQuerySchema
from warlog.judging.outage import is_outage
from warlog.trust.signing_key import LogError, key_path, load_key
from warlog.web.errors import install_api_errors

log_api = Blueprint("log_api", __name__, url_prefix="/api/v1/log")
install_api_errors(log_api, 'the transparency log')
def signing_key() -> Ed25519PrivateKey:
    cached = current_app.extensions.get("warlog_log_key")
    if isinstance(cached, Ed25519PrivateKey):
        return cached
    path, create = key_path(current_app.config)
    if path is None:
        raise LogError(503, "the transparency log has no signing key: set WARLOG_LOG_KEY to an Ed25519 PEM file")
    key = load_key(path, create)
    current_app.extensions["warlog_log_key"] = key
    return key


def _store() -> Any:
    return current_app.extensions["warlog"].store


def _query(schema: Schema) -> dict[str, Any]:
    """The query, loaded by its schema (validators.listing; the OpenAPI document shows the same limits)."""
    try:
        loaded: dict[str, Any] = schema.load(request.args.to_dict())
    except ValidationError as err:
        msgs = err.messages if isinstance(err.messages, dict) else {"query": err.messages}
        raise LogError(400, "; ".join(f"{k!r}: {' '.join(map(str, v))}" for k, v in msgs.items())) from None
    return loaded


def _at_most(name: str, value: int, current: int) -> int:
    if value > current:
        raise LogError(400, f"{name!r} is {value} but the log holds {current} entries")
    return value


def _head(leaves: list[bytes]) -> dict[str, Any]:
    return _signed(len(leaves), t.root(leaves))


def _signed(size: int, root_hash: bytes, tree: logtree.Tree | None = None) -> dict[str, Any]:
    """The v1 JSON head of `size`, stamped with the time the log reached that size (read on the
    tree's connection when there is one), and its checkpoint."""
    at = tree.reached_at(size) if tree is not None else logstore.reached_at(_store(), size)
    head = t.sign_head(signing_key(), size, root_hash, at)
    head["checkpoint"] = cpt.sign(signing_key(), log_origin(), size, root_hash)
    return head


@log_api.get("/head")
def head() -> Response:
    """The latest signed tree head (from the stored subtree hashes: O(log n) reads)."""
    with logstore.tree(_store()) as tree:
        if tree is not None:
            return jsonify(_signed(tree.size, tree.root(), tree))
    return jsonify(_head(logstore.leaf_hashes(logstore.entries(_store()))))


@log_api.get("/proof/<game_id>")
def proof(game_id: str) -> Response:
    """Inclusion proofs of the game's entries against the head of size `size` (default now)."""
    q = _query(LogProofQuerySchema())
    with logstore.tree(_store()) as tree:
        if tree is not None:
            size = _at_most("size", tree.size if q["size"] is None else q["size"], tree.size)
            mine = tree.game_entries(game_id, size)
            paths = tree.inclusion_paths([i for i, _ in mine], size)
            found = [{"index": i, "entry": doc, "audit_path": [p.hex() for p in path]}
                     for (i, doc), path in zip(mine, paths, strict=True)]
            tree_head = _signed(size, tree.root(size), tree) if found else {}
    if tree is None:  # no stored subtrees yet: rebuilt from the entries
        docs = logstore.entries(_store())
        size = _at_most("size", len(docs) if q["size"] is None else q["size"], len(docs))
        leaves = logstore.leaf_hashes(docs[:size])
        indices = [i for i, d in enumerate(docs[:size]) if d["game_id"] == game_id]
        found = [{"index": i, "entry": docs[i], "audit_path": [p.hex() for p in path]}
                 for i, path in zip(indices, t.inclusion_paths(indices, leaves), strict=True)]
        tree_head = _head(leaves) if found else {}
    if not found:
        raise LogError(404, f"game {game_id!r} has no entry in the first {size} entries of the transparency log")
    return jsonify({"tree_head": tree_head, "entries": found})


@log_api.get("/consistency")
def consistency() -> Response:
    """The consistency proof from tree size `from` to `to` (default: now), with both heads."""
    q = _query(LogConsistencyQuerySchema())
    with logstore.tree(_store()) as tree:
        if tree is not None:
            second = _at_most("to", tree.size if q["to"] is None else q["to"], tree.size)
            first = _at_most("from", q["from_"], second)
            return jsonify({"first": _signed(first, tree.root(first), tree),
                            "second": _signed(second, tree.root(second), tree),
                            "proof": [p.hex() for p in tree.consistency_proof(first, second)]})
    docs = logstore.entries(_store())
    leaves = logstore.leaf_hashes(docs)
    second = _at_most("to", len(leaves) if q["to"] is None else q["to"], len(leaves))
    first = _at_most("from", q["from_"], second)
    proof_ = t.consistency_proof(first, leaves[:second])
    return jsonify({"first": _head(leaves[:first]), "second": _head(leaves[:second]),
                    "proof": [p.hex() for p in proof_]})


DEFAULT_MMD_SECONDS = 3600


def log_origin() -> str:
    """The log's checkpoint origin (WARLOG_LOG_ORIGIN; default: warlog/ and the first 16 hex digits of
    the SHA-256 of its public key). Keep it when rotating the key: clients pin the key per origin."""
    named = current_app.config.get("WARLOG_LOG_ORIGIN") or os.environ.get("WARLOG_LOG_ORIGIN")
    if named:
        return str(named).strip()
    return "warlog/" + hashlib.sha256(bytes.fromhex(t.public_key_hex(signing_key()))).hexdigest()[:16]


def max_merge_delay() -> int:
    """Seconds within which a new game, or a grown chain, is logged (WARLOG_LOG_MMD; the monitor checks it)."""
    raw = current_app.config.get("WARLOG_LOG_MMD") or os.environ.get("WARLOG_LOG_MMD") or DEFAULT_MMD_SECONDS
    try:
        return max(1, int(raw))
    except (TypeError, ValueError):
        raise LogError(503, f"WARLOG_LOG_MMD must be whole seconds, not {raw!r}") from None


def rotations() -> list[Any]:
    """The key rotation statements (JSON list) in the file named by WARLOG_LOG_ROTATIONS, oldest first."""
    named = current_app.config.get("WARLOG_LOG_ROTATIONS") or os.environ.get("WARLOG_LOG_ROTATIONS")
    if not named:
        return []
    try:
        docs = json.loads(Path(str(named)).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise LogError(503, f"the key rotation statements (WARLOG_LOG_ROTATIONS) cannot be read: {err}") from None
    return docs if isinstance(docs, list) else [docs]


@log_api.get("/key")
def key() -> Response:
    """The log's public key at its stable place, with its origin, checkpoint verifier key, maximum merge
    delay and the rotation statements that lead to it."""
    pub = t.public_key_hex(signing_key())
    return jsonify({"origin": log_origin(), "public_key": pub,
                    "verifier_key": cpt.verifier_key(log_origin(), bytes.fromhex(pub)),
                    "max_merge_delay_seconds": max_merge_delay(), "rotations": rotations()})


@log_api.get("/checkpoint")
def checkpoint() -> Response:
    """The C2SP checkpoint of size `size` (default: now), as text/plain."""
    q = _query(LogProofQuerySchema())
    with logstore.tree(_store()) as tree:
        if tree is not None:
            size = _at_most("size", tree.size if q["size"] is None else q["size"], tree.size)
            root_hash = tree.root(size)
    if tree is None:
        leaves = logstore.leaf_hashes(logstore.entries(_store()))
        size = _at_most("size", len(leaves) if q["size"] is None else q["size"], len(leaves))
        root_hash = t.root(leaves[:size])
    return Response(cpt.sign(signing_key(), log_origin(), size, root_hash), mimetype="text/plain")


@log_api.get("/entries")
def entries() -> Response:
    """Entries `start`..`end` (included; at most MAX_ENTRIES), with the time each was logged: anyone can
    read the whole log and check it against a signed head (`warlog log monitor`)."""
    q = _query(LogEntriesQuerySchema())
    n = logstore.size(_store())
    if q["start"] >= n:
        raise LogError(400, f"'start' is {q['start']} but the log holds {n} entries")
    end = min(q["end"], q["start"] + MAX_ENTRIES - 1, n - 1)
    rows = logstore.entries_range(_store(), q["start"], end)
    return jsonify({"tree_size": n, "entries": [{"index": i, "entry": doc, "logged_at": at} for i, doc, at in rows]})


@log_api.errorhandler(LogError)
def _log_error(err: LogError) -> tuple[Response, int]:
    return jsonify({"error": err.message}), err.status


@log_api.errorhandler(logstore.LogUnavailable)
def _no_log(err: logstore.LogUnavailable) -> tuple[Response, int]:
    return jsonify({"error": str(err)}), 501


# -- the server against its own log ----------------------------------------------------------
CHECK_EVERY = 60.0  # seconds between two checks of the ledger against the log (and one at start)
REFUSED = "warlog_log_refused"  # app.extensions: game id (or EVERY_GAME) -> why it is not served
SEEN = "warlog_log_seen"  # app.extensions: (size, root hex) of the log at this process's last check
EVERY_GAME = "*"


def check_heads(app: Flask) -> dict[str, str]:
    """Check every game's chain against the last entry the transparency log recorded of it;
    the games that no longer extend it are refused from now on (logged loudly once each), the
    others served again. Returns the refused games and why."""
    store = app.extensions["warlog"].store
    refused: dict[str, str] = {}
    log_broken = _log_no_longer_extends(app, store)
    if log_broken:
        refused[EVERY_GAME] = log_broken
    for game_id, seq, logged, found in logstore.not_extended(store):
        what = "no longer has that event" if found is None else f"holds another event there ({found[:16]}…)"
        refused[game_id] = (f"the ledger of game {game_id} no longer extends what the transparency log recorded "
                            f"of it (event {seq}, hash {logged[:16]}…): it {what}. Its events were cut short or "
                            "rewritten after they were logged; this server will not serve the game until its "
                            "events are restored (docs/deployment.md, \"Backups and restores\")")
    before = app.extensions.get(REFUSED, {})
    for game_id, why in refused.items():
        if game_id not in before:
            app.logger.critical("REFUSING TO SERVE %s: %s", "EVERY GAME" if game_id == EVERY_GAME else "A GAME", why)
    for game_id in before.keys() - refused.keys():
        app.logger.warning("%s extends the transparency log again: served",
                           "the log" if game_id == EVERY_GAME else f"game {game_id}")
    app.extensions[REFUSED] = refused
    return refused


def _log_no_longer_extends(app: Flask, store: Any) -> str | None:
    """Why the log no longer extends the tree this process saw at its previous check (fewer
    entries, or another root at that size: its tail was deleted or rewritten), or None. While
    it does not, every game is refused: which of them lost their entries cannot be told."""
    seen = app.extensions.get(SEEN)
    with logstore.tree(store) as tree:
        if tree is None:
            return None
        try:
            if seen is not None and tree.size < seen[0]:
                return (f"the transparency log holds {tree.size} entries, fewer than the {seen[0]} this server "
                        "saw: entries were deleted from it")
            if seen is not None and tree.root(seen[0]).hex() != seen[1]:
                return (f"the transparency log's first {seen[0]} entries no longer hash to the root this server "
                        "saw: they were rewritten")
            if tree.size:
                app.extensions[SEEN] = (tree.size, tree.root().hex())
        except LookupError as err:  # stored subtree hashes gone
            return f"the transparency log's stored subtrees were deleted ({err})"
    return None


def _check_quietly(app: Flask) -> None:
    try:
        check_heads(app)
    except logstore.LogUnavailable:
        pass
    except Exception as err:
        if is_outage(err):
            app.logger.warning("could not check the ledger against the transparency log (%s); trying again later",
                               " ".join(str(err).split())[:200])
        else:
            app.logger.exception("checking the ledger against the transparency log failed")


def _closed(store: Any) -> bool:
    return bool(getattr(store, "_closed", False) or getattr(getattr(store, "_pool", None), "closed", False))


def watch(app: Flask, every: float = CHECK_EVERY) -> threading.Event:
    """Check at once, then every `every` seconds until the returned event is set or the store closes."""
    stop = threading.Event()
    _check_quietly(app)

    def loop() -> None:
        store = app.extensions["warlog"].store
        while not stop.wait(every) and not _closed(store):
            _check_quietly(app)

    threading.Thread(target=loop, name="warlog-log-watch", daemon=True).start()
    return stop


def _refuse_cut_games() -> Any:
    """Before any request for a game the check refused (but the log's own proofs): a 503 that says why."""
    refused = current_app.extensions.get(REFUSED)
    game_id = (request.view_args or {}).get("game_id") if refused else None
    if not game_id or request.blueprint == log_api.name:
        return None
    message = refused.get(game_id) or refused.get(EVERY_GAME)
    if message is None:
        return None
    from warlog.web.pageutil import error_page, wants_json

    if request.path.startswith("/api/") or wants_json():
        return jsonify({"error": message}), 503
    return error_page(503, "This game is not served", message)


def init_app(app: Flask) -> None:
    app.register_blueprint(log_api)
    app.before_request(_refuse_cut_games)
    app.extensions["warlog_log_watch_stop"] = watch(app)
