"""Waiting pages and slow clients do not take the server down. Before `warlog live`, each page
waiting on `/games/{id}/live?wait=1` held a gunicorn thread for up to 8 s (polling the ledger
every 50 ms), so more waiting pages than threads left `/healthz` and every move unanswered; and
half-sent requests (slowloris) held gunicorn's threads for as long as the client liked."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import pytest
from flask import Flask

from tests.live.stack import Stack, get, open_socket, open_stream, read_until

THREADS = 16  # deploy/gunicorn.conf.py's threads per web process


def _pending_move(st: Stack, port: int) -> tuple[dict[str, Any], int]:
    game = st.new_game(port)
    status, body = st.move(port, game)
    assert status == 202, body
    return game, int(body["seq"])


@pytest.mark.slow
def test_more_waiting_pages_than_threads_leave_healthz_and_moves_answered(stack: Stack) -> None:
    """gunicorn as deploy/gunicorn.conf.py runs it (one process of 16 threads), no worker (so a
    move stays pending and its pages wait the whole 8 s), 2 x 16 pages looping on the long-poll:
    /healthz and a move are still answered (each waits in a bounded number of web threads; the
    others are told 503 with Retry-After at once)."""
    port = stack.web(workers=1)
    game, seq = _pending_move(stack, port)
    stop = threading.Event()
    answers: list[int] = []

    def waiting_page() -> None:
        while not stop.is_set():
            try:
                status, _ = get(port, f"/games/{game['id']}/live?panel=0&wait=1&last={seq}", timeout=30,
                                headers={"Accept": "application/json"})
                answers.append(status)
            except OSError:
                answers.append(0)
            if answers[-1] == 503:
                stop.wait(0.2)

    pages = [threading.Thread(target=waiting_page, daemon=True) for _ in range(2 * THREADS)]
    for t in pages:
        t.start()
    try:
        time.sleep(1.0)  # every page is waiting (or has been told to come back)
        for _ in range(3):
            status, body = get(port, "/healthz", timeout=4)
            assert status == 200 and json.loads(body)["ok"] is True
            status, body = stack.move(port, stack.new_game(port), timeout=4)
            assert status == 202, body
    finally:
        stop.set()
        for t in pages:
            t.join(15)
    assert 503 in answers  # beyond the process's waiter slots: refused at once...
    assert set(answers) <= {200, 503}  # ...and nobody got an error


def test_a_wait_beyond_the_processs_slots_is_503_with_retry_after(tmp_path, monkeypatch) -> None:
    from tests.support.dice_duel import install
    from warlog.app import create_app
    from warlog.web import pages

    install()
    app: Flask = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3"})
    try:
        client = app.test_client()
        created = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json()
        monkeypatch.setattr(pages, "LIVE_WAITERS", 0)
        r = client.get(f"/games/{created['id']}/live?panel=0&wait=1&last=0", headers={"Accept": "application/json"})
        assert r.status_code == 503 and r.headers["Retry-After"] == str(pages.BUSY_RETRY)
        assert "waiting" in r.get_json()["error"]
        page = client.get(f"/games/{created['id']}/live?wait=1&last=0")
        assert page.status_code == 503 and "Busy" in page.get_data(as_text=True)
        assert client.get(f"/games/{created['id']}/live?last=0").status_code == 200  # no wait: answered
    finally:
        app.extensions["warlog"].store.close()


def _slowloris(port: int, n: int) -> list[socket.socket]:
    """n requests whose headers are never finished."""
    held = []
    for i in range(n):
        s = open_socket(port)
        s.sendall(f"GET /games/x{i} HTTP/1.1\r\nHost: warlog\r\nX-Slow: ".encode())
        held.append(s)
    return held


def _dropped(s: socket.socket, timeout: float) -> bool:
    """The server closed (or reset) the connection within `timeout` s, answering nothing."""
    s.settimeout(timeout)
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.mark.slow
def test_behind_the_proxy_200_live_streams_and_64_slowloris_leave_healthz_and_a_move_answered(stack: Stack) -> None:
    """The production recipe as shipped: nginx (deploy/nginx.conf) in front of gunicorn
    (deploy/gunicorn.conf.py, one process) and `warlog live`, with a worker. 200 pages hold
    their notice streams open (from 13 client addresses, under the per-client cap) and 64
    clients hold half-sent requests; /healthz is answered, a move is answered and judged, and
    the game's streams are told of its judgement."""
    stack.web(workers=1)
    stack.live()
    stack.worker()
    port = stack.nginx()
    game = stack.new_game(port)
    streams = [open_stream(port, game["id"], source=f"127.0.0.{2 + i // 16}") for i in range(200)]
    slow = _slowloris(port, 64)
    try:
        for s in streams:
            assert b" 200 " in read_until(s, b"event: ready", timeout=30).split(b"\r\n")[0]
        assert json.loads(get(stack.live_port, "/healthz")[1])["streams"] == 200
        status, body = get(port, "/healthz", timeout=10)
        assert status == 200 and json.loads(body)["ok"] is True
        status, body = stack.move(port, game)
        assert status == 202, body
        seq = int(body["seq"])
        for s in (streams[0], streams[-1]):  # the pages are told, at once, by the stream
            assert b"event: judged" in read_until(s, b"event: judged", timeout=30)
        status, body = get(port, f"/games/{game['id']}/live?panel=0&last={seq}", headers={"Accept": "application/json"})
        assert status == 200 and json.loads(body)["status"] == "resolved"
        assert _dropped(slow[0], 30)  # nginx held the half-sent request, never gunicorn, and drops it in time
    finally:
        for s in streams + slow:
            s.close()


@pytest.mark.slow
def test_the_long_poll_holds_at_most_half_of_gunicorns_threads(stack: Stack) -> None:
    """deploy/gunicorn.conf.py sets the process's waiter slots to half its threads: with
    `--threads 4`, two pages wait and a third is told 503 with Retry-After at once."""
    port = stack.web(1, "--threads", "4")
    game, seq = _pending_move(stack, port)
    path = f"/games/{game['id']}/live?panel=0&wait=1&last={seq}"
    waiting = [threading.Thread(target=get, args=(port, path, 30, {"Accept": "application/json"}), daemon=True)
               for _ in range(2)]
    for t in waiting:
        t.start()
    time.sleep(1.0)
    status, _ = get(port, path, timeout=5, headers={"Accept": "application/json"})
    assert status == 503  # answered at once (within the timeout), not after a wait
    assert get(port, "/healthz", timeout=5)[0] == 200
    for t in waiting:
        t.join(15)
