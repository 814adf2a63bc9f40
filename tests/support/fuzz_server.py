"""A live Warlog server on a fresh PostgreSQL schema for schemathesis (its command line talks
HTTP): the app served by a threaded werkzeug server on a free loopback port, one started game,
and the three roles the fuzzer sends requests as — anonymous, a seated player (seat token) and a
signed-in player who directs the game (personal API token of the creator, director token)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from werkzeug.serving import make_server

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SIGNIN = re.compile(r"/signin/([A-Za-z0-9_\-]+)")


@dataclass
class FuzzServer:
    base: str
    game: dict[str, Any]
    roles: dict[str, dict[str, str]] = field(default_factory=dict)  # role -> headers


def _schema_url(pg: str, schema: str) -> str:
    return f"{pg}{'&' if '?' in pg else '?'}options=-csearch_path%3D{schema}"


def _player_token(app: Any, client: Any, email: str) -> str:
    """A personal API token, through the API's own sign-in (the link read from the outbox)."""
    assert client.post("/api/v1/players/signin", json={"email": email}).status_code == 202
    app.extensions["warlog_notify_pool"].submit(lambda: None).result(timeout=30)
    mails = app.extensions["warlog_notifier"].outbox(to=email)
    secret = SIGNIN.search(mails[0]["body"])
    assert secret, mails[0]["body"]
    r = client.post(f"/api/v1/players/signin/{secret.group(1)}", json={"display_name": "Fuzz Director"})
    assert r.status_code == 200, r.get_data(as_text=True)
    return str(r.get_json()["token"])


@contextmanager
def fuzz_server(pg: str) -> Iterator[FuzzServer]:
    """The live server, its game and its roles; the schema is dropped afterwards."""
    from ledger.factory import open_store
    from tests.transparency.helpers import key_file
    from warlog.app import create_app

    schema = f"warlog_fuzz_{uuid.uuid4().hex}"
    url = _schema_url(pg, schema)
    open_store(url, upgrade=True).close()  # `warlog db upgrade` (the app only checks the version)
    key = key_file(Path(tempfile.mkdtemp()) / "log.pem")  # the transparency log's signing key
    app = create_app({"WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0, "WARLOG_ALLOW_SUPERUSER": True,
                      "WARLOG_REFUSED_LIMIT": "1000000 per minute", "RATELIMIT_ENABLED": False,
                      "WARLOG_LOG_KEY": str(key)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = app.test_client()
        token = _player_token(app, client, "director@fuzz.test")
        me = {"Authorization": f"Bearer {token}"}
        game = client.post("/api/v1/games", json={"game": "dice-duel"}, headers=me).get_json()
        for seat_token in game["seats"].values():
            client.post(f"/api/v1/games/{game['id']}/join", json={},
                        headers={"Authorization": f"Bearer {seat_token}"})
        seat = next(iter(game["seats"].values()))
        roles = {"anonymous": {}, "seat": {"Authorization": f"Bearer {seat}"}}
        roles["director"] = {"Authorization": f"Bearer {game.get('director_token') or token}"}
        roles["player"] = me
        yield FuzzServer(f"http://127.0.0.1:{server.server_port}", game, roles)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def run_schemathesis(server: FuzzServer, role: str, examples: int, report: Path, seed: int = 1,
                     phases: str = "examples,coverage,fuzzing,stateful", timeout: float = 3600) -> dict[str, Any]:
    """`st run` with every check against the live server as `role`; its JSON report, read back."""
    st = Path(sys.executable).parent / "st"
    args = [str(st), "--config-file", str(HERE / "schemathesis.toml"), "run", f"{server.base}/api/v1/openapi.json",
            "--checks", "all", "--phases", phases,
            "--max-examples", str(examples), "--seed", str(seed), "--no-color", "--report", "json",
            "--report-json-path", str(report), "--suppress-health-check", "all", "--workers", "1"]
    for name, value in server.roles[role].items():
        args += ["-H", f"{name}: {value}"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.schemathesis_hooks",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    # run beside the report: schemathesis keeps its cache (.schemathesis/) in the working directory
    run = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, cwd=report.parent)
    out: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    out["_stdout"] = run.stdout + run.stderr
    return out
