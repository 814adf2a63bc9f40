"""How long a connection to PostgreSQL or Redis may go silent before it is given up.

A network partition (a cable pulled, a firewall dropping packets) neither refuses nor resets a
connection: without these settings a query sent into it waits for TCP's retransmissions to give
up (about 15 minutes on Linux), an idle connection waits for the kernel's keep-alive (two
hours), and after the network heals a stalled connection resumes only at TCP's next backed-off
retransmission, seconds to minutes later (found by bench/netsoak.py: every gunicorn worker hung
through a 58 s partition, and moves were judged 10-12 s after the heal).

One setting, `WARLOG_NET_TIMEOUT` (seconds, default NET_TIMEOUT), bounds them all:

- on every connection of this process (libpq's parameters, redis-py's socket options): a new
  connection is given up after `connect_timeout` (half the timeout, 2 s at least); data sent and not acknowledged for the timeout
  ends the connection (TCP_USER_TIMEOUT); an idle connection is probed with TCP keep-alives after
  half of it, once a second, and ended when the probes go unanswered; a Redis command is not
  retried after a timeout (redis-py's default retries ten times, with a back-off);
- on PostgreSQL's side of each session (set per session through the connection's `options`, so
  no server configuration is needed, `tcp_keepalives_*` and `tcp_user_timeout` being settings any
  role may set): the server ends the session of a client that went silent within the same time,
  and so releases what that session held (a game's advisory lock, a transaction's row locks)
  instead of holding them until the kernel's two-hour keep-alive.

A connection URL that sets any of these parameters itself keeps its own value.
"""

from __future__ import annotations

import math
import os
import socket
from typing import Any

from psycopg.conninfo import conninfo_to_dict

ENV = "WARLOG_NET_TIMEOUT"
NET_TIMEOUT = 5.0  # seconds; the default
MINIMUM = 2.0  # libpq's connect_timeout takes no less than 2 s


class NetTimeoutError(ValueError):
    """A WARLOG_NET_TIMEOUT that is not a number of seconds of at least MINIMUM."""


def net_timeout(environ: dict[str, str] | None = None) -> float:
    """The setting, in seconds (a bad one is an error in words, never a silent default)."""
    raw = (os.environ if environ is None else environ).get(ENV, "").strip()
    if not raw:
        return NET_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        raise NetTimeoutError(f"{ENV}={raw!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < MINIMUM:
        raise NetTimeoutError(f"{ENV}={raw!r}: at least {MINIMUM:g} seconds")
    return value


def _parts(timeout: float) -> tuple[int, int, int, int]:
    """(connect timeout s, keep-alive idle s, keep-alive probes, user timeout ms) for `timeout`."""
    whole = max(int(MINIMUM), int(timeout))
    idle = max(1, whole // 2)
    return max(int(MINIMUM), whole // 2), idle, max(1, whole - idle), int(timeout * 1000)


def pg_params(url: str, timeout: float | None = None) -> dict[str, Any]:
    """psycopg.connect keyword arguments that bound the connection's silences, for `url` (the
    parameters the URL sets itself are left out, and its `options` kept ahead of ours)."""
    t = net_timeout() if timeout is None else timeout
    connect, idle, count, user_ms = _parts(t)
    given = conninfo_to_dict(url)
    ours: dict[str, Any] = {"connect_timeout": connect, "keepalives": 1, "keepalives_idle": idle,
                            "keepalives_interval": 1, "keepalives_count": count, "tcp_user_timeout": user_ms}
    out = {k: v for k, v in ours.items() if k not in given}
    options = str(given.get("options") or "")
    server = {"tcp_keepalives_idle": idle, "tcp_keepalives_interval": 1, "tcp_keepalives_count": count,
              "tcp_user_timeout": user_ms}
    extra = " ".join(f"-c {k}={v}" for k, v in server.items() if k not in options)
    if extra:
        out["options"] = f"{options} {extra}".strip()
    return out


def redis_params(timeout: float | None = None, *, blocking: bool = False) -> dict[str, Any]:
    """redis-py keyword arguments that bound the connection's silences. `blocking`: a connection
    that waits on the server on purpose (RQ's BLPOP for a job, minutes long) gets no read timeout,
    only the keep-alives and the user timeout, which end it when the server's host goes silent."""
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.retry import Retry

    t = net_timeout() if timeout is None else timeout
    connect, idle, count, user_ms = _parts(t)
    options = {socket.TCP_KEEPIDLE: idle, socket.TCP_KEEPINTVL: 1, socket.TCP_KEEPCNT: count}
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        options[socket.TCP_USER_TIMEOUT] = user_ms
    # redis-py's default retries a command 10 times on a timeout as on a broken connection, with a
    # back-off: through a partition that is minutes, not the timeout. Here a connection found broken
    # (a pooled one the partition killed) is retried once, at once, on a fresh one; a timeout is not.
    # RQ's connection (`blocking`) is never retried: a Redis that restarted (empty) under its wait
    # for a job must surface, so that the worker sweeps (warlog.judging.queue), not be reconnected to
    # in silence.
    retry = Retry(NoBackoff(), 0 if blocking else 1, supported_errors=(RedisConnectionError,))
    out: dict[str, Any] = {"socket_connect_timeout": connect, "socket_keepalive": True,
                           "socket_keepalive_options": options, "retry": retry}
    if not blocking:
        out["socket_timeout"] = t
    return out
