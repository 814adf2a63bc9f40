"""`warlog live` (warlog/web/live.py): a page's notice stream for its game, fed by the Redis channel
the RQ jobs publish judgements on, with a per-client cap (429) and a global cap (503), both with
Retry-After, and a `resync` notice after a Redis outage."""

from __future__ import annotations

import json
import socket
import time

import pytest
import redis

from tests.live.stack import Stack, get, open_stream, read_until
from tests.support.services import RedisServer
from warlog.judging import wakeup


def _publish_until(url: str, game_id: str, s: socket.socket) -> bytes:
    """Publish the game's judgement (as warlog.judging.wakeup.publish does) until the stream tells it."""
    conn = redis.Redis.from_url(url)
    s.settimeout(0.2)
    seen = b""
    for _ in range(50):
        wakeup.publish(conn, game_id)
        try:
            seen += s.recv(65536)
        except TimeoutError:
            continue
        if b"event: judged" in seen:
            break
    return seen


def test_a_stream_opens_ready_and_tells_its_own_games_judgements_only(tmp_path, own_redis: RedisServer) -> None:
    st = Stack(tmp_path, "sqlite:///unused", own_redis.url)
    try:
        port = st.live()
        mine, other = open_stream(port, "game-a"), open_stream(port, "game-b")
        head = read_until(mine, b"event: ready")
        assert b" 200 " in head.split(b"\r\n")[0] and b"text/event-stream" in head
        read_until(other, b"event: ready")
        told = _publish_until(own_redis.url, "game-a", mine)
        assert b"event: judged\ndata: game-a\n\n" in told
        other.settimeout(0.5)
        try:
            assert b"judged" not in other.recv(65536)
        except TimeoutError:
            pass  # nothing for game-b: right
        assert json.loads(get(port, "/healthz")[1])["streams"] == 2
        mine.close()
        other.close()
        for _ in range(50):  # a closed page frees its slot at once
            if json.loads(get(port, "/healthz")[1])["streams"] == 0:
                break
            time.sleep(0.1)
        assert json.loads(get(port, "/healthz")[1])["streams"] == 0
    finally:
        st.stop()


@pytest.mark.slow
def test_per_client_cap_is_429_and_global_cap_is_503_with_retry_after(tmp_path, own_redis: RedisServer) -> None:
    st = Stack(tmp_path, "sqlite:///unused", own_redis.url)
    try:
        port = st.live("--per-client", "2", "--max-streams", "3")
        held = [open_stream(port, "g") for _ in range(2)]
        for s in held:
            read_until(s, b"event: ready")
        over = read_until(open_stream(port, "g"), b"\r\n\r\n")
        assert over.startswith(b"HTTP/1.1 429") and b"Retry-After: " in over
        # another client behind the proxy (X-Real-IP, trusted from loopback) still gets one...
        third = socket.create_connection(("127.0.0.1", port))
        third.sendall(b"GET /games/g/events HTTP/1.1\r\nHost: x\r\nX-Real-IP: 192.0.2.7\r\n\r\n")
        assert b"event: ready" in read_until(third, b"event: ready")
        # ...and then the endpoint is full for everyone: 503
        fourth = socket.create_connection(("127.0.0.1", port))
        fourth.sendall(b"GET /games/g/events HTTP/1.1\r\nHost: x\r\nX-Real-IP: 192.0.2.8\r\n\r\n")
        full = read_until(fourth, b"\r\n\r\n")
        assert full.startswith(b"HTTP/1.1 503") and b"Retry-After: " in full
        assert get(port, "/games/not.an.id/events")[0] == 404
    finally:
        st.stop()


@pytest.mark.slow
def test_streams_are_told_to_look_again_after_a_redis_outage(tmp_path, own_redis: RedisServer) -> None:
    st = Stack(tmp_path, "sqlite:///unused", own_redis.url)
    try:
        port = st.live()
        s = open_stream(port, "game-a")
        read_until(s, b"event: ready")
        own_redis.kill()
        own_redis.start()  # judgements published meanwhile were lost: the page must look again
        assert b"event: resync" in read_until(s, b"event: resync", timeout=20)
        assert b"event: judged" in _publish_until(own_redis.url, "game-a", s)
    finally:
        st.stop()


def test_without_a_live_endpoint_the_web_app_answers_404_so_the_page_long_polls(tmp_path) -> None:
    """The page's script falls back to `/live?wait=1` on a 404 from /games/ID/events: the
    embedded server (scripts/serve) must keep answering that path 404."""
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3"})
    try:
        r = app.test_client().get("/games/abcdef0123456789/events", headers={"Accept": "text/event-stream"})
        assert r.status_code == 404
    finally:
        app.extensions["warlog"].store.close()
