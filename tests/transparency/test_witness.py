"""A split view caught by a witness: two servers holding the operator's key serve forked logs (sizes
17 and 19, each consistent with their common size 15 but not with each other); the witness cosigns
the first it is shown and refuses the other, saying why; `warlog verify --witness-key` accepts a
head only with the witness's cosignature."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from flask import Flask
from werkzeug.serving import make_server

from ledger import checkpoint as cpt
from ledger import logstore
from ledger import transparency as t
from tests.support.ports import free_port
from tests.transparency.helpers import app_on, key_file
from tests.transparency.test_log_api import export
from warlog.cli import main
from warlog.trust.witness import Refused, Witness, create_app, request_body, submit

ORIGIN = "games.example.org/log"
REPO = Path(__file__).resolve().parents[2]


def grow(app: Flask, target: int) -> None:
    """Create games (logged one entry each) until the log holds `target` entries."""
    client, store = app.test_client(), app.extensions["warlog"].store
    while logstore.size(store) < target:
        r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
        assert r.status_code == 201, r.get_json()
        logstore.sync(store)
    assert logstore.size(store) == target


def _ask(client: Any) -> tuple[Any, Any]:
    def consistency(old: int, new: int) -> list[bytes]:
        r = client.get(f"/api/v1/log/consistency?from={old}&to={new}")
        assert r.status_code == 200, r.get_json()
        return [bytes.fromhex(p) for p in r.get_json()["proof"]]

    def checkpoint(size: int | None = None) -> str:
        return str(client.get("/api/v1/log/checkpoint" + (f"?size={size}" if size is not None else "")).get_data(
            as_text=True))
    return consistency, checkpoint


@contextmanager
def forked(tmp_path: Path) -> Iterator[tuple[Flask, Flask, Path]]:
    key = key_file(tmp_path / "operator.pem")
    a_db, b_db = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    with app_on(f"sqlite:///{a_db}", WARLOG_LOG_KEY=str(key), WARLOG_LOG_ORIGIN=ORIGIN) as a:
        grow(a, 15)
        with sqlite3.connect(a_db) as src, sqlite3.connect(b_db) as dst:
            src.backup(dst)  # the second server starts from a copy: the same first 15 entries
        with app_on(f"sqlite:///{b_db}", WARLOG_LOG_KEY=str(key), WARLOG_LOG_ORIGIN=ORIGIN) as b:
            grow(a, 17)
            grow(b, 19)
            yield a, b, key


def test_the_witness_cosigns_one_side_of_a_fork_and_refuses_the_other(tmp_path: Path) -> None:
    with forked(tmp_path) as (a, b, key):
        pub = t.public_key_hex(load_pem_private_key(key.read_bytes(), None))  # type: ignore[arg-type]
        a_cons, a_cp = _ask(a.test_client())
        b_cons, b_cp = _ask(b.test_client())
        base = cpt.verify(a_cp(15), pub, ORIGIN)
        assert base.text == cpt.verify(b_cp(15), pub, ORIGIN).text  # the common head
        a17, b19 = cpt.verify(a_cp(), pub, ORIGIN), cpt.verify(b_cp(), pub, ORIGIN)
        assert (a17.size, b19.size) == (17, 19)
        t.verify_consistency(15, 17, base.root_hash, a17.root_hash, a_cons(15, 17))  # each side extends 15 ...
        t.verify_consistency(15, 19, base.root_hash, b19.root_hash, b_cons(15, 19))
        with pytest.raises(t.ProofError):  # ... but not each other
            t.verify_consistency(17, 19, a17.root_hash, b19.root_hash, b_cons(17, 19))

        wkey = load_pem_private_key(key_file(tmp_path / "witness.pem").read_bytes(), None)
        witness = Witness(wkey, "witness.example.net", {ORIGIN: pub}, tmp_path / "witness" / "state.json")  # type: ignore[arg-type]
        http = create_app(witness).test_client()

        def post(body: str) -> tuple[int, str, dict[str, str]]:
            r = http.post("/add-checkpoint", data=body)
            return r.status_code, r.get_data(as_text=True), dict(r.headers)

        submit(a_cp(15), a_cons, post)
        cosigned = submit(a_cp(), a_cons, post)  # the witness was at 15: asked again from there (409, then 200)
        wpub = t.public_key_hex(wkey)  # type: ignore[arg-type]
        assert cpt.verify_cosignature(cpt.parse(cosigned), "witness.example.net", wpub) > 0
        with pytest.raises(Refused) as refused:
            submit(b_cp(), b_cons, post)
        assert refused.value.status == 422
        assert "not consistent with the checkpoint of size 17 this witness cosigned" in refused.value.message
        assert "split view" in refused.value.message
        # An old size the witness has moved past is a 409 with its size, even with a valid proof.
        r = http.post("/add-checkpoint", data=request_body(15, b_cons(15, 19), b_cp()))
        assert r.status_code == 409 and r.get_data(as_text=True) == "17\n"
        assert json.loads((tmp_path / "witness" / "state.json").read_text())[ORIGIN]["size"] == 17
        assert http.get(f"/checkpoint/{ORIGIN}").get_data(as_text=True) == cosigned
        assert http.get("/checkpoint/other.example/log").status_code == 404
        for bad, code in [("nonsense", 400), ("old 0\n\n" + a_cp().replace(ORIGIN, "other.example/log"), 403)]:
            assert http.post("/add-checkpoint", data=bad).status_code == code

        # verify --witness-key: the cosigned checkpoint passes, either side's own checkpoint does not.
        game_id = logstore.entries(a.extensions["warlog"].store)[16]["game_id"]
        game = export(f"sqlite:///{tmp_path}/a.sqlite3", game_id, tmp_path / "game.jsonl")
        proof = a.test_client().get(f"/api/v1/log/proof/{game_id}").get_json()
        (tmp_path / "proof.json").write_text(json.dumps(proof))
        runner = CliRunner()
        for head, ok, wk in [(cosigned, True, cpt.witness_key("witness.example.net", wpub)),
                             (cosigned, True, f"witness.example.net+{wpub}"), (a_cp(), False, f"witness.example.net+{wpub}")]:
            (tmp_path / "cp.txt").write_text(head)
            r = runner.invoke(main, ["verify", str(game), "--tree-head", str(tmp_path / "cp.txt"), "--proof",
                                     str(tmp_path / "proof.json"), "--public-key", pub,
                                     "--witness-key", wk])
            assert (r.exit_code == 0) == ok, r.output
            assert ("cosigned by witness witness.example.net" in r.output) if ok else \
                ("no cosignature of witness 'witness.example.net'" in r.output), r.output


@pytest.mark.slow
def test_the_witness_is_its_own_process_and_the_log_is_cosigned_over_http(tmp_path: Path) -> None:
    with forked(tmp_path) as (a, b, key):
        pub = t.public_key_hex(load_pem_private_key(key.read_bytes(), None))  # type: ignore[arg-type]
        servers = [make_server("127.0.0.1", 0, app, threaded=True) for app in (a, b)]
        for s in servers:
            threading.Thread(target=s.serve_forever, daemon=True).start()
        port = free_port()
        witness = subprocess.Popen(
            [sys.executable, "-c", "from warlog.cli import main; main()", "log", "witness", "--key",
             str(key_file(tmp_path / "w.pem")), "--name", "witness.example.net", "--state",
             str(tmp_path / "w-state.json"), "--log", f"{ORIGIN}={pub}", "--port", str(port)],
            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/add-checkpoint", data=b"x", timeout=2)
                except urllib.error.HTTPError:
                    break  # up: it answers (400 for that body)
                except OSError:
                    assert time.monotonic() < deadline and witness.poll() is None, "the witness did not start"
                    time.sleep(0.2)
            runner = CliRunner()
            urls = [f"http://127.0.0.1:{s.server_port}" for s in servers]
            wit = f"http://127.0.0.1:{port}"
            r = runner.invoke(main, ["log", "cosign", urls[0], "--witness", wit, "--out", str(tmp_path / "a.txt")])
            assert r.exit_code == 0, r.output
            assert cpt.parse((tmp_path / "a.txt").read_text()).size == 17
            r = runner.invoke(main, ["log", "cosign", urls[1], "--witness", wit, "--out", str(tmp_path / "b.txt")])
            assert r.exit_code == 1 and "FAIL the witness refused (422)" in r.output, r.output
            assert "not consistent with the checkpoint of size 17" in r.output and not (tmp_path / "b.txt").exists()
        finally:
            witness.terminate()
            out = witness.communicate(timeout=10)[0].decode()
            for s in servers:
                s.shutdown()
        assert "verifiers pass --witness-key witness.example.net+" in out, out
