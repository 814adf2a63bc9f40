"""The transparency log end to end: the sweeper's idempotent sync,
GET /api/v1/log/{head,proof,consistency} on SQLite and PostgreSQL, and `warlog verify
--tree-head` catching a game rewritten after a head was published."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ledger import logstore
from ledger import transparency as t
from ledger.canonical import canonical_bytes
from ledger.events import event_body
from ledger.export import parse_export
from tests.conftest import Player
from tests.transparency.helpers import app_on, key_file
from warlog.cli import main
from warlog.trust.logcheck import check_against_head


def start(client: Any, app: Any) -> Player:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    assert r.status_code == 201, r.get_json()
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def export(db: str, game_id: str, path: Path) -> Path:
    r = CliRunner().invoke(main, ["export", game_id, "--db", db, "--out", str(path)])
    assert r.exit_code == 0, r.output
    return path


def rehashed(events: list[Any], seq: int, **change: Any) -> list[Any]:
    """The same game with event `seq` changed and every hash after it recomputed: a consistent chain."""
    out, prev = [], None
    for ev in events:
        if ev.seq == seq:
            ev = dataclasses.replace(ev, **change)
        if prev is not None:
            ev = dataclasses.replace(ev, prev_hash=prev)
        body = event_body(ev.game_id, ev.seq, ev.type, ev.seat, ev.payload, ev.recorded_at, ev.prev_hash)
        ev = dataclasses.replace(ev, hash=hashlib.sha256(canonical_bytes(body)).hexdigest())
        out.append(ev)
        prev = ev.hash
    return out


def test_log_api_proofs_and_the_offline_check(db_url: str, tmp_path: Path) -> None:
    config = {} if db_url.startswith("sqlite") else {"WARLOG_LOG_KEY": str(key_file(tmp_path / "log.pem"))}
    with app_on(db_url, **config) as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        a, b = start(client, app), start(client, app)
        a.play("north", {"type": "roll"})
        logstore.sync(store)
        assert logstore.sync(store) == 0  # idempotent: nothing new, nothing logged twice
        docs = logstore.entries(store)
        assert [(d["kind"], d["game_id"]) for d in docs if d["game_id"] == b.id] == [("created", b.id), ("head", b.id)]
        assert {d["kind"] for d in docs if d["game_id"] == a.id} == {"created", "head"}

        r = client.get("/api/v1/log/head")
        assert r.status_code == 200, r.get_json()
        head = r.get_json()
        size, root_hash = t.verify_head(head)
        assert size == len(docs) and root_hash == t.root(logstore.leaf_hashes(docs))

        proof = client.get(f"/api/v1/log/proof/{a.id}").get_json()
        for item in proof["entries"]:
            t.verify_inclusion(t.leaf_hash(t.entry_bytes(item["entry"])), item["index"], size,
                               [bytes.fromhex(p) for p in item["audit_path"]], root_hash)
        (tmp_path / "head.json").write_text(json.dumps(head))
        (tmp_path / "proof.json").write_text(json.dumps(proof))
        honest = export(db_url, a.id, tmp_path / "a.jsonl")
        r = CliRunner().invoke(main, ["verify", str(honest), "--tree-head", str(tmp_path / "head.json"),
                                      "--proof", str(tmp_path / "proof.json"), "--public-key", head["public_key"]])
        assert r.exit_code == 0 and "OK the game is the one the transparency log recorded" in r.output, r.output

        # The game goes on; the log grows; the old head is a prefix of the new one.
        a.play(a.info()["active_seats"][0], {"type": "bank"})
        assert logstore.sync(store) == 1
        later = client.get("/api/v1/log/head").get_json()
        cons = client.get(f"/api/v1/log/consistency?from={size}").get_json()
        assert cons["first"]["root_hash"] == head["root_hash"]
        t.verify_consistency(size, later["tree_size"], root_hash, bytes.fromhex(later["root_hash"]),
                             [bytes.fromhex(p) for p in cons["proof"]])

        # A game rewritten after the head was published (a consistent, re-hashed chain) is caught
        # against that head, with the proofs for the head's size.
        old = client.get(f"/api/v1/log/proof/{a.id}?size={size}").get_json()
        assert old["tree_head"]["root_hash"] == head["root_hash"]
        with open(honest, "rb") as fh:
            events = parse_export(fh)
        check_against_head(events, head, old)
        forged = rehashed(events, 1, recorded_at="2020-01-01T00:00:00.000000Z")
        with pytest.raises(t.ProofError, match="rewritten"):
            check_against_head(forged, head, old)
        with pytest.raises(t.ProofError, match="cut short"):
            check_against_head(events[:1], head, old)
        with pytest.raises(t.ProofError, match="game"):
            check_against_head(events, head, client.get(f"/api/v1/log/proof/{b.id}").get_json())
        with pytest.raises(t.ProofError):  # a proof against another size than the head's
            check_against_head(events, head, client.get(f"/api/v1/log/proof/{a.id}").get_json())

        # Bad requests are clear JSON errors, never a 500.
        for path, code in [("/api/v1/log/proof/nope", 404), (f"/api/v1/log/proof/{a.id}?size=x", 400),
                           (f"/api/v1/log/proof/{a.id}?size=99999", 400), ("/api/v1/log/consistency", 400),
                           ("/api/v1/log/consistency?from=-1", 400), ("/api/v1/log/consistency?from=0", 400),
                           ("/api/v1/log/consistency?from=99999", 400), ("/api/v1/log/consistency?from=1&to=x", 400)]:
            r = client.get(path)
            assert r.status_code == code and "error" in r.get_json(), (path, r.status_code, r.get_data())


def test_the_embedded_default_makes_its_key_beside_the_database(tmp_path: Path) -> None:
    with app_on(f"sqlite:///{tmp_path}/var/warlog.sqlite3") as app:
        first = app.test_client().get("/api/v1/log/head").get_json()
        assert (tmp_path / "var" / "warlog-log-key.pem").exists()
        assert t.verify_head(first)[0] >= 0
    with app_on(f"sqlite:///{tmp_path}/var/warlog.sqlite3") as app:  # the same key on the next start
        assert app.test_client().get("/api/v1/log/head").get_json()["public_key"] == first["public_key"]


def test_a_named_key_that_is_missing_is_a_503_not_a_new_key(tmp_path: Path) -> None:
    with app_on(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_LOG_KEY=str(tmp_path / "absent.pem")) as app:
        r = app.test_client().get("/api/v1/log/head")
        assert r.status_code == 503 and "does not exist" in r.get_json()["error"]
        assert not (tmp_path / "absent.pem").exists()


def test_the_log_table_is_append_only(tmp_path: Path) -> None:
    with app_on(f"sqlite:///{tmp_path}/w.sqlite3") as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        start(client, app)
        logstore.sync(store)
        with pytest.raises(Exception, match="append-only"):
            with store._write() as conn:
                conn.execute("UPDATE transparency_log SET hash = 'x'")
        with pytest.raises(Exception, match="append-only"):
            with store._write() as conn:
                conn.execute("DELETE FROM transparency_log")


def test_the_sweeper_logs_new_games_by_itself(tmp_path: Path) -> None:
    import time

    with app_on(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_SWEEP_INTERVAL=0.2) as app:
        client = app.test_client()
        p = start(client, app)
        deadline = time.monotonic() + 20
        while True:
            r = client.get(f"/api/v1/log/proof/{p.id}")
            if r.status_code == 200 and {e["entry"]["kind"] for e in r.get_json()["entries"]} == {"created", "head"}:
                break
            assert time.monotonic() < deadline, "the sweeper did not log the game"
            time.sleep(0.1)


def test_log_cli_makes_a_key_once_and_syncs(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["log", "key", str(tmp_path / "k.pem")])
    assert r.exit_code == 0 and "public key" in r.output, r.output
    r = runner.invoke(main, ["log", "key", str(tmp_path / "k.pem")])
    assert r.exit_code == 1 and "never replaced" in r.output, r.output
    db = f"sqlite:///{tmp_path}/w.sqlite3"
    with app_on(db, WARLOG_LOG_KEY=str(tmp_path / "k.pem")) as app:
        start(app.test_client(), app)  # its sweeper may or may not have logged it already
    r = runner.invoke(main, ["log", "sync", "--db", db])
    assert r.exit_code == 0 and "the log holds 2" in r.output, r.output  # created, and the head after the joins
    r = runner.invoke(main, ["log", "sync", "--db", db])
    assert r.exit_code == 0 and "logged 0 new entries" in r.output, r.output
