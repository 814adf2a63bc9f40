"""A test must not leave an RQ worker waiting for jobs on the test Redis database: it would take
the jobs of the tests that follow in the same pytest process and run them against its own
ledger (a "your turn" notice then never reaches the later test's mail server). Looked for after
every test (tests/conftest.py): a thread of this process inside RQ's worker loop, or a worker
registered in Redis during the test whose process is this one or a child of it and still runs.
What is found is reported as a warning naming the test, with where the thread stands."""

from __future__ import annotations

import os
import sys
import threading
import traceback
from typing import Any

RQ_LOOP = os.sep + os.path.join("rq", "worker")


def rq_threads() -> dict[int, str]:
    """This process's threads (not the main one) whose stack is inside RQ's worker, with their stacks."""
    frames = sys._current_frames()
    found = {}
    for t in threading.enumerate():
        if t is threading.main_thread() or t.ident is None or t.ident not in frames:
            continue
        stack = traceback.extract_stack(frames[t.ident])
        if any(RQ_LOOP in f.filename for f in stack):
            found[t.ident] = f"thread {t.name!r}:\n" + "".join(traceback.format_list(stack[-8:]))
    return found


def registered(conn: Any) -> set[bytes]:
    try:
        return set(conn.smembers("rq:workers"))
    except Exception:  # noqa: BLE001  (no Redis here: nothing to look at)
        return set()


def _parent_of(pid: int) -> int | None:
    """The parent of a running process (None if it is gone, or a zombie not yet waited for)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            state, parent = f.read().rsplit(")", 1)[1].split()[:2]
    except (OSError, ValueError, IndexError):
        return None
    return None if state in ("Z", "X") else int(parent)


def live_children(conn: Any, keys: set[bytes]) -> list[str]:
    """The workers of `keys` whose process is this one, or a child of this one, and is alive."""
    out = []
    me = os.getpid()
    for key in sorted(keys):
        try:
            pid = int(conn.hget(key, "pid") or 0)
            queues = (conn.hget(key, "queues") or b"").decode()
        except Exception:  # noqa: BLE001
            continue
        if pid and (pid == me or _parent_of(pid) == me):
            out.append(f"{key.decode()} (pid {pid}{', this process' if pid == me else ''}; queues {queues})")
    return out
