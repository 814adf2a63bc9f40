"""What an auditor of the transparency log needs, on SQLite and PostgreSQL: `warlog verify` refuses
a proof that leaves out the game's latest entry, the entries are readable in ranges and a monitor
checks them all against the signed head (and the maximum merge delay), a head is stamped with the
time its size was reached, and the log's key is published and pinned on first use."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ledger import checkpoint as cpt
from ledger import logstore
from ledger import transparency as t
from ledger.export import parse_export
from tests.support.documented import Documented
from tests.transparency.helpers import app_on, key_file
from tests.transparency.test_log_api import export, start
from warlog.cli import main
from warlog.trust.logcheck import check_against_head
from warlog.trust.monitor import monitor, save_entries


def _json(client: Any) -> Any:
    def get(path: str) -> Any:
        r = client.get(path)
        assert r.status_code == 200, (path, r.get_data())
        return r.get_json()
    return get


def _verify(tmp_path: Path, export_path: Path, head: Any, proof: Any, *extra: str) -> Any:
    (tmp_path / "head.json").write_text(json.dumps(head) if isinstance(head, dict) else head)
    (tmp_path / "proof.json").write_text(json.dumps(proof))
    return CliRunner(env={"WARLOG_PIN_FILE": str(tmp_path / "pins.json")}).invoke(
        main, ["verify", str(export_path), "--tree-head", str(tmp_path / "head.json"),
               "--proof", str(tmp_path / "proof.json"), *extra])


def test_a_proof_without_the_games_latest_entry_fails_verify(db_url: str, tmp_path: Path) -> None:
    with app_on(db_url, WARLOG_LOG_KEY=str(key_file(tmp_path / "log.pem"))) as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        p = start(client, app)
        logstore.sync(store)  # created, and the head after the joins
        p.play("north", {"type": "roll"})
        logstore.sync(store)  # the head after the roll: the game's latest entry
        head = client.get("/api/v1/log/head").get_json()
        proof = client.get(f"/api/v1/log/proof/{p.id}").get_json()
        assert [e["entry"]["kind"] for e in proof["entries"]] == ["created", "head", "head"]
        honest = export(db_url, p.id, tmp_path / "game.jsonl")
        key = ["--public-key", head["public_key"]]
        r = _verify(tmp_path, honest, head, proof, *key)
        assert r.exit_code == 0 and "is the one the log's latest entry for the game commits to" in r.output, r.output

        # The operator serves the proof without the game's latest head entry: the export's last events
        # are then vouched for by nothing, even with the key pinned.
        partial = dict(proof, entries=proof["entries"][:-1])
        r = _verify(tmp_path, honest, head, partial, *key)
        assert r.exit_code == 1 and "FAIL transparency log: the export is newer than the log" in r.output, r.output
        r = _verify(tmp_path, honest, head, partial, *key, "--allow-newer-export")
        assert r.exit_code == 0 and "note: the export is newer than the log" in r.output, r.output

        # A game cut short at an event the log never committed to, with the proof trimmed to match.
        with open(honest, "rb") as fh:
            events = parse_export(fh)
        with pytest.raises(t.ProofError, match="newer than the log"):
            check_against_head(events[:-1], head, partial, head["public_key"])

        # Cut short at an event the log did commit to, the proof trimmed to match: the proof alone
        # cannot show the later entry; with every entry of the log (the monitor's) verify sees it.
        joined = proof["entries"][1]["entry"]["seq"]
        short = tmp_path / "short.jsonl"
        short.write_bytes(b"".join(honest.read_bytes().splitlines(keepends=True)[:joined + 1]))
        assert _verify(tmp_path, short, head, partial, *key).exit_code == 0
        rep = monitor(_json(client), tmp_path / "monitor-pins.json", None, games=False)
        assert not rep.problems, rep.problems
        save_entries(tmp_path / "entries.json", rep.entries, rep.head)
        every = ["--entries", str(tmp_path / "entries.json")]
        r = _verify(tmp_path, short, head, partial, *key, *every)
        assert r.exit_code == 1 and "the proof leaves out entry 2 (head, seq" in r.output, r.output
        r = _verify(tmp_path, honest, head, proof, *key, *every)
        assert r.exit_code == 0 and "the proof leaves out none of the game's 3" in r.output, r.output


def test_the_log_is_read_in_ranges_and_the_monitor_checks_every_entry(db_url: str, tmp_path: Path) -> None:
    with app_on(db_url, WARLOG_LOG_KEY=str(key_file(tmp_path / "log.pem")), WARLOG_LOG_MMD=60,
                WARLOG_LOG_ORIGIN="games.example.org/log") as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        games = [start(client, app) for _ in range(3)]
        games[0].play("north", {"type": "roll"})
        logstore.sync(store)
        n = logstore.size(store)
        assert n == 6  # created and the latest head of each game

        doc = Documented(client)  # every answer here as the OpenAPI document describes it
        for path in ("/api/v1/log/key", "/api/v1/log/head", "/api/v1/log/checkpoint?size=3",
                     f"/api/v1/log/proof/{games[0].id}", "/api/v1/log/consistency?from=2", "/api/v1/log/entries?start=0&end=0"):
            assert doc.call("get", path).status_code == 200, path
        got = doc.call("get", f"/api/v1/log/entries?start=2&end={n + 50}").get_json()
        assert got["tree_size"] == n and [e["index"] for e in got["entries"]] == list(range(2, n))
        assert got["entries"][0]["entry"] == logstore.entries(store)[2] and got["entries"][0]["logged_at"]
        for path in ("/api/v1/log/entries", "/api/v1/log/entries?start=3", "/api/v1/log/entries?start=3&end=1",
                     f"/api/v1/log/entries?start={n}&end={n}", "/api/v1/log/entries?start=-1&end=2",
                     "/api/v1/log/entries?start=x&end=2"):
            r = doc.call("get", path)
            assert r.status_code == 400 and "error" in r.get_json(), (path, r.get_data())

        pins, state = tmp_path / "pins.json", tmp_path / "monitor.json"
        rep = monitor(_json(client), pins, state)
        assert not rep.problems, rep.problems
        assert rep.lines[0].startswith("pinned the key") and f"all {n} entries read" in "\n".join(rep.lines)
        assert f"  game {games[0].id}: created at entry 0, heads at seq" in "\n".join(rep.lines)
        assert "logged within the maximum merge delay of 60 s" in rep.lines[-1]

        # Entries served other than those signed are caught (the root is recomputed).
        def lying(path: str) -> Any:
            doc = _json(client)(path)
            if path.startswith("/api/v1/log/entries"):
                for e in doc["entries"]:
                    if e["entry"]["game_id"] == games[1].id and e["entry"]["kind"] == "head":
                        e["entry"]["seq"] = 1
            return doc
        assert any("do not hash to the signed head's root" in p for p in monitor(lying, pins, None).problems)

        def backdated(path: str) -> Any:  # a time of logging that goes back, or is not the head's
            doc = _json(client)(path)
            if path.startswith("/api/v1/log/entries"):
                doc["entries"][-1]["logged_at"] = "2000-01-01T00:00:00.000000Z"
            return doc
        problems = monitor(backdated, pins, None, games=False).problems
        assert any(f"entry {n - 1} was logged at 2000-01-01" in p for p in problems), problems
        assert any("is not the time its last entry was logged" in p for p in problems), problems

        # A game the log has not logged within its maximum merge delay is reported.
        late = start(client, app)
        later = datetime.now(UTC) + timedelta(seconds=120)
        problems = monitor(_json(client), pins, state, now=later).problems
        assert problems == [p for p in problems if late.id in p] and "maximum merge delay is broken" in problems[0]
        logstore.sync(store)
        assert not monitor(_json(client), pins, state, now=later).problems


def test_the_monitor_command_reads_a_live_server(tmp_path: Path) -> None:
    import threading

    from werkzeug.serving import make_server

    with app_on(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_LOG_KEY=str(key_file(tmp_path / "log.pem"))) as app:
        p = start(app.test_client(), app)
        logstore.sync(app.extensions["warlog"].store)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_port}"
            args = ["log", "monitor", url, "--pin-file", str(tmp_path / "pins.json"), "--state", str(tmp_path / "s")]
            r = CliRunner().invoke(main, args)
            assert r.exit_code == 0 and f"game {p.id}: created at entry 0" in r.output, r.output
            assert "OK the log is consistent with its signed head" in r.output
            r = CliRunner().invoke(main, args)
            assert r.exit_code == 0 and "the log extends the head of size 2 seen before" in r.output, r.output
        finally:
            server.shutdown()


@pytest.mark.slow
def test_a_head_is_stamped_with_the_time_its_size_was_reached(db_url: str, tmp_path: Path) -> None:
    with app_on(db_url, WARLOG_LOG_KEY=str(key_file(tmp_path / "log.pem"))) as app:
        client = app.test_client()
        store = app.extensions["warlog"].store
        p = start(client, app)
        logstore.sync(store)
        small = logstore.size(store)
        time.sleep(0.05)
        start(client, app)
        logstore.sync(store)
        big = client.get("/api/v1/log/head").get_json()
        time.sleep(0.05)
        old = client.get(f"/api/v1/log/proof/{p.id}?size={small}").get_json()["tree_head"]
        assert old["tree_size"] == small < big["tree_size"]
        assert old["timestamp"] < big["timestamp"], (old["timestamp"], big["timestamp"])  # signed later, stamped earlier
        assert client.get(f"/api/v1/log/proof/{p.id}?size={small}").get_json()["tree_head"]["timestamp"] == \
            old["timestamp"]  # the same whenever it is asked for
        cons = client.get(f"/api/v1/log/consistency?from={small}").get_json()
        assert cons["first"]["timestamp"] == old["timestamp"] and cons["second"]["timestamp"] == big["timestamp"]


@pytest.mark.slow
def test_the_logs_key_is_published_and_pinned_on_first_use(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/w.sqlite3"
    old_key, new_key = key_file(tmp_path / "old.pem"), key_file(tmp_path / "new.pem")
    origin = "games.example.org/log"
    with app_on(db, WARLOG_LOG_KEY=str(old_key), WARLOG_LOG_ORIGIN=origin) as app:
        client = app.test_client()
        p = start(client, app)
        logstore.sync(app.extensions["warlog"].store)
        meta = client.get("/api/v1/log/key").get_json()
        head = client.get("/api/v1/log/head").get_json()
        proof = client.get(f"/api/v1/log/proof/{p.id}").get_json()
        note = client.get("/api/v1/log/checkpoint").get_data(as_text=True)
    assert meta["origin"] == origin and meta["public_key"] == head["public_key"] and meta["rotations"] == []
    assert meta["verifier_key"] == cpt.verifier_key(origin, bytes.fromhex(meta["public_key"]))
    assert note == head["checkpoint"] and cpt.verify(note, meta["public_key"], origin).size == head["tree_size"]
    game = export(db, p.id, tmp_path / "game.jsonl")

    r = _verify(tmp_path, game, head, proof)
    assert r.exit_code == 0 and f"pinned the key {meta['public_key'][:16]}... of the log {origin} on first use" \
        in r.output, r.output
    assert json.loads((tmp_path / "pins.json").read_text()) == {origin: meta["public_key"]}
    r = _verify(tmp_path, game, note, proof)  # the bare checkpoint, checked by the pinned key
    assert r.exit_code == 0 and "the log's key is the one pinned" in r.output, r.output

    # The same log served under another key (a head signed by whoever holds it) is refused loudly.
    with app_on(db, WARLOG_LOG_KEY=str(new_key), WARLOG_LOG_ORIGIN=origin) as app:
        client = app.test_client()
        forged, forged_proof = client.get("/api/v1/log/head").get_json(), client.get(f"/api/v1/log/proof/{p.id}").get_json()
    r = _verify(tmp_path, game, forged, forged_proof)
    assert r.exit_code == 1 and "THE LOG'S KEY CHANGED" in r.output, r.output

    # A rotation statement signed by the old key moves the pin to the new key.
    runner = CliRunner()
    rot = tmp_path / "rotations.json"
    r = runner.invoke(main, ["log", "rotate", str(old_key), str(new_key), "--origin", origin, "--out", str(rot)])
    assert r.exit_code == 0, r.output
    with app_on(db, WARLOG_LOG_KEY=str(new_key), WARLOG_LOG_ORIGIN=origin, WARLOG_LOG_ROTATIONS=str(rot)) as app:
        published = app.test_client().get("/api/v1/log/key").get_json()
    assert published["rotations"] == json.loads(rot.read_text())
    (tmp_path / "key.json").write_text(json.dumps(published))
    r = _verify(tmp_path, game, forged, forged_proof, "--rotations", str(tmp_path / "key.json"))
    assert r.exit_code == 0 and "rotated its key" in r.output, r.output
    assert json.loads((tmp_path / "pins.json").read_text()) == {origin: published["public_key"]}

    # An old-format head (no checkpoint) passes only when asked for, with a note.
    v1 = {k: v for k, v in forged.items() if k != "checkpoint"}
    r = _verify(tmp_path, game, v1, forged_proof, "--public-key", v1["public_key"])
    assert r.exit_code == 1 and "--accept-v1-head" in r.output, r.output
    r = _verify(tmp_path, game, v1, forged_proof, "--public-key", v1["public_key"], "--accept-v1-head")
    assert r.exit_code == 0 and "note: an old-format (v1) tree head" in r.output, r.output
