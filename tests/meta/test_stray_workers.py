"""The suite's look for RQ workers a test leaves running (tests/support/stray_workers.py, used
after every test by tests/conftest.py): a thread waiting inside RQ's worker is seen, and so is a
worker registered in Redis by this process or a live child of it; a dead one is not."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import redis
from rq import Queue, SimpleWorker

from tests.support.services import RedisServer
from tests.support.stray_workers import live_children, registered, rq_threads


def test_a_thread_waiting_for_a_job_inside_rq_is_seen(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        conn = redis.Redis.from_url(server.url)
        worker = SimpleWorker([Queue("warlog-notify", connection=conn)], connection=conn)
        before = rq_threads()
        waiting = threading.Thread(target=worker.dequeue_job_and_maintain_ttl, args=(5, 3), daemon=True)
        waiting.start()
        seen: dict[int, str] = {}
        for _ in range(100):
            seen = {k: v for k, v in rq_threads().items() if k not in before}
            if seen:
                break
            waiting.join(0.05)
        assert list(seen) == [waiting.ident] and "dequeue_job_and_maintain_ttl" in seen[waiting.ident]
        waiting.join(10)
        assert waiting.ident not in rq_threads()
    finally:
        server.kill()


def test_a_registered_worker_of_this_process_or_a_live_child_is_seen_a_dead_one_is_not(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    server.start()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])  # ended, not yet waited for
    while Path(f"/proc/{zombie.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        threading.Event().wait(0.02)
    try:
        conn = redis.Redis.from_url(server.url)
        before = registered(conn)
        for name, pid in (("mine", os.getpid()), ("child", child.pid), ("gone", dead.pid), ("zombie", zombie.pid),
                          ("other", 1)):
            conn.hset(f"rq:worker:{name}", mapping={"pid": pid, "queues": "warlog,warlog-notify"})
            conn.sadd("rq:workers", f"rq:worker:{name}")
        found = live_children(conn, registered(conn) - before)
        assert [f.split(" ")[0] for f in found] == ["rq:worker:child", "rq:worker:mine"], found
        assert "this process" in found[1] and "warlog,warlog-notify" in found[0]
    finally:
        child.kill()
        child.wait()
        zombie.wait()
        server.kill()
