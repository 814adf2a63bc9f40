"""Ports for the servers a test starts.

A port the kernel hands out for `bind(0)` is free only until somebody else binds it, and with
the suite in several processes (pytest-xdist) that somebody may be another test process, or
the kernel giving the same number to an outgoing connection. So each test process takes its
ports from a range of its own below the kernel's ephemeral range (32768 and up on Linux, which
outgoing connections never take), and checks that nothing holds a port before handing it out.
"""

from __future__ import annotations

import itertools
import os
import socket

_FIRST = 10_000  # above the usual fixed services (PostgreSQL 5432, Redis 6379)
_SPAN = 2_500    # ports per test process: gw0 10000–12499, gw1 12500–14999, …


def _process_index() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw3", or "" in one process
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0


_index = _process_index() % ((32_768 - _FIRST) // _SPAN)
_next = itertools.cycle(range(_FIRST + _index * _SPAN, _FIRST + (_index + 1) * _SPAN))


def free_port() -> int:
    """A port on 127.0.0.1 that no other test process will be given and nothing holds now."""
    for _ in range(_SPAN):
        port = next(_next)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in this test process's range")
