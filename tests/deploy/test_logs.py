"""Logs under docs/deployment.md's gunicorn command: the app's INFO lines reach standard error as JSON
lines with a request id (they used to have no handler), and no output — the app's lines,
gunicorn's access log, the `warlog` command's hints — carries the ledger's password, a seat
token or a sign-in secret."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.notify.conftest import free_port
from warlog.cli import main
from warlog.ops.logs import mask, masked

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "pw-Zq81secret"


def with_password(url: str) -> str:
    assert url.startswith("postgresql://postgres@"), url
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@", 1)


def _call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as resp:
        text = resp.read().decode()
        return json.loads(text) if resp.headers.get_content_type() == "application/json" else text


@pytest.mark.slow
def test_gunicorn_logs_json_lines_with_request_ids_and_no_secrets(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "WARLOG_DB": with_password(pg_url), "WARLOG_OUTBOX_LOCAL": "1", "PYTHONPATH": str(REPO),
           "WARLOG_ALLOW_SUPERUSER": "1"}
    env.pop("WARLOG_LOG_FORMAT", None)
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    err = open(tmp_path / "stderr.log", "wb")
    proc = subprocess.Popen([gunicorn, "-w", "1", "-k", "gthread", "--threads", "4", "-b", f"127.0.0.1:{port}",
                             "--access-logfile", "-", "--logger-class", "warlog.ops.logs.GunicornLogger",
                             "warlog.app:create_app()"], cwd=REPO, env=env, stdout=err, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _call(base, "GET", "/healthz")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "stderr.log").read_text()
                time.sleep(0.2)
        created = _call(base, "POST", "/api/v1/games", {"game": "assault-on-belgium"})
        seat_token = next(iter(created["seats"].values()))
        _call(base, "GET", f"/games/{created['id']}/seat/{seat_token}?x=1")
        _call(base, "GET", f"/api/v1/games/{created['id']}/actions", headers={"Authorization": f"Bearer {seat_token}",
                                                                               "X-Request-Id": "trace-me-42"})
        _call(base, "POST", "/api/v1/players/signin", {"email": "ann@example.org"})
        time.sleep(0.5)
        secret = ""
        for _ in range(50):
            m = re.search(r"/signin/([A-Za-z0-9_\-]+)", _call(base, "GET", "/outbox"))
            if m:
                secret = m.group(1)
                break
            time.sleep(0.1)
        assert secret
        _call(base, "GET", f"/signin/{secret}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        err.close()
    out = (tmp_path / "stderr.log").read_text()
    for leak in (PASSWORD, seat_token, secret, created["director_token"]):
        assert leak not in out, f"{leak!r} printed in the logs"
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    started = [d for d in lines if d["logger"] == "warlog.app" and "warlog web: ledger" in d["message"]]
    assert started and started[0]["level"] == "INFO" and "***" in started[0]["message"]
    access = [d for d in lines if d["logger"] == "warlog.access"]
    assert {d["status"] for d in access} >= {200, 201, 202}
    assert all(re.fullmatch(r"[0-9a-f]{32}|trace-me-42", d["request_id"]) for d in access)
    assert any(d["request_id"] == "trace-me-42" for d in access)
    assert any("/seat/***" in d["path"] for d in access) and any("/signin/***" in d["path"] for d in access)
    gunicorn_access = [line for line in out.splitlines() if not line.startswith("{") and "HTTP/1" in line]
    assert any("/seat/***" in line for line in gunicorn_access), gunicorn_access


def test_mask_hides_every_kind_of_secret() -> None:
    line = ('postgresql://app:hunter2@db/warlog "GET /signin/AbC-123_x?next=1 HTTP/1.1" /games/g1/seat/TOK-en_1 '
            "Authorization: Bearer s3at-tok Cookie: warlog_player=sess1; warlog_seat_g1=seat2 wp_abcdefgh12345 "
            "redis://:rpass@r:6379/0")
    masked = mask(line)
    for secret in ("hunter2", "AbC-123_x", "TOK-en_1", "s3at-tok", "sess1", "seat2", "wp_abcdefgh12345", "rpass"):
        assert secret not in masked, (secret, masked)


SECRETS_ALONE = [  # each kind of secret by itself in a line, as any case of its words
    "postgresql://app:hunter2@db/warlog", "REDIS://:rpass@r:6379/0", "host=db password=hunter2", "PassWord = 'x y'",
    "GET /signin/AbC-123_x HTTP/1.1", "/games/g1/seat/TOK-en_1", "Authorization: Bearer s3at-tok",
    "authorization: BEARER s3at-tok", "Cookie: warlog_player=sess1", "warlog_seat_g1=seat2", "warlog_csrf=c1",
    "wp_abcdefgh12345", "GET /x?token=t1", "GET /x?a=1&Seat_Token=t2", "GET /x?KEY=k3", "GET /x?secret=s4",
    "GET /api/v1/games/abc/actions 200", "GET /games/abc/live?last=4&wait=1&panel=0 200", "",
]


@pytest.mark.parametrize("line", SECRETS_ALONE)
def test_mask_looks_for_every_kind_of_secret_it_masks(line: str) -> None:
    """`mask` skips a line in which none of the secrets' shapes can be (its first look): it gives
    what applying every pattern gives, for each kind of secret alone and for lines with none."""
    assert mask(line) == masked(line)
    assert mask(line + " tail") == masked(line + " tail")


@pytest.mark.slow
def test_the_games_listing_hint_masks_the_password(pg_url: str) -> None:
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        for _ in range(2):
            app.extensions["warlog"].create_game("assault-on-belgium", None, {})
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
    result = CliRunner().invoke(main, ["games", "--db", with_password(pg_url), "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert "older: warlog games --db postgresql://postgres:***@" in result.output
    assert PASSWORD not in result.output
    bad = CliRunner().invoke(main, ["games", "--db", with_password(pg_url).replace("5432", "1"), "--limit", "1"])
    assert bad.exit_code != 0 and PASSWORD not in bad.output


def test_the_development_servers_request_lines_are_masked(tmp_path: Path, caplog: Any) -> None:
    """`warlog serve` (werkzeug) logs each request line by the `werkzeug` logger: masked there,
    whichever handler shows it."""
    import logging

    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3"})
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            logging.getLogger("werkzeug").info('127.0.0.1 - - "%s %s HTTP/1.1" %s -', "GET", "/signin/Sekr3t-link", 200)
            logging.getLogger("werkzeug").info('127.0.0.1 - - "GET /games/g1/seat/T0ken-seat HTTP/1.1" 200 -')
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
    assert "Sekr3t-link" not in caplog.text and "T0ken-seat" not in caplog.text
    assert "/signin/***" in caplog.text and "/seat/***" in caplog.text
