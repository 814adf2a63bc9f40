#!/usr/bin/env python3
"""A link's latency, for bench/netsoak.py: a TCP relay that holds every chunk, in each direction,
for the one-way delay written in a file (milliseconds, re-read every half second), keeping order.

This machine's kernel has no netem (CONFIG_NET_SCH_NETEM is unset), so `tc qdisc ... netem delay`
is refused; the three-host soak runs this relay on the data host in front of PostgreSQL and
Redis, and the web and worker hosts reach both only through it. Packet loss and partitions are
the kernel's (nftables rules in each host's namespace), not this relay's. PostgreSQL's dead-peer
detection is the relay's too (`session_settings`): the sessions' own `tcp_keepalives_*` and
`tcp_user_timeout`, applied to the relay's socket to the client, where PostgreSQL would apply them.

    python bench/netlag.py --delay-file F LISTEN_HOST:PORT=TARGET_HOST:PORT[@PEER_TIMEOUT] [...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path


class Delay:
    """The current one-way delay in seconds, from the file (0 when it is missing or unreadable)."""

    def __init__(self, path: Path) -> None:
        self.path, self.seconds, self.read_at = path, 0.0, 0.0

    def now(self) -> float:
        if time.monotonic() - self.read_at > 0.5:
            self.read_at = time.monotonic()
            try:
                self.seconds = max(0.0, float(self.path.read_text().strip() or 0) / 1000)
            except (OSError, ValueError):
                self.seconds = 0.0
        return self.seconds


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: Delay,
               first: Callable[[bytes], None] | None = None) -> None:
    """Copy reader to writer, each chunk sent `delay` after it arrived and never before the one
    ahead of it (a shorter delay later does not reorder the stream); `first` sees the first few
    chunks (a PostgreSQL client's startup message)."""
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
    seen = 0

    async def send() -> None:
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                with contextlib.suppress(OSError):
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    sender = asyncio.create_task(send())
    try:
        while True:
            data = await reader.read(65536)
            if first is not None and seen < 4:
                seen += 1
                first(data)
            await queue.put((time.monotonic() + delay.now(), data))
            if not data:
                break
        await sender
    finally:
        sender.cancel()


def dead_peer_detection(sock: socket.socket, seconds: int) -> None:
    """What PostgreSQL's tcp_keepalives_* and tcp_user_timeout settings do to its client sockets:
    a peer gone silent (a partition) ends the connection after about `seconds`, and the relay
    then closes its own connection to the server, which so ends the session (and frees what it
    held) as the server would have on its own socket."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, max(1, seconds // 2))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, max(1, seconds // 2))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, seconds * 1000)


SESSION_SETTINGS = re.compile(rb"(tcp_keepalives_idle|tcp_keepalives_interval|tcp_keepalives_count|tcp_user_timeout)"
                              rb"=(\d+)")
SOCKET_OPTIONS = {b"tcp_keepalives_idle": socket.TCP_KEEPIDLE, b"tcp_keepalives_interval": socket.TCP_KEEPINTVL,
                  b"tcp_keepalives_count": socket.TCP_KEEPCNT, b"tcp_user_timeout": socket.TCP_USER_TIMEOUT}


def session_settings(sock: socket.socket) -> Callable[[bytes], None]:
    """What PostgreSQL does with a session's `tcp_keepalives_*` and `tcp_user_timeout` (set in the
    startup message's options, as the app does: ledger.netopts): it applies them to its socket to
    the client. The server's socket here faces the relay, never partitioned, so the relay applies
    them to its own socket to the client instead, and a session whose client went silent ends as
    PostgreSQL would end it (the relay closes its connection to the server)."""

    def apply(chunk: bytes) -> None:
        found = dict(SESSION_SETTINGS.findall(chunk))
        if found:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for name, value in found.items():
                sock.setsockopt(socket.IPPROTO_TCP, SOCKET_OPTIONS[name], int(value))

    return apply


async def relay(listen: tuple[str, int], target: tuple[str, int], delay: Delay, peer_timeout: int) -> asyncio.Server:
    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        if peer_timeout:
            dead_peer_detection(client_w.get_extra_info("socket"), peer_timeout)
        first = session_settings(client_w.get_extra_info("socket"))
        try:
            server_r, server_w = await asyncio.open_connection(*target)
        except OSError:
            client_w.close()
            return
        try:
            await asyncio.gather(pump(client_r, server_w, delay, first), pump(server_r, client_w, delay))
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            for w in (client_w, server_w):
                w.close()

    return await asyncio.start_server(handle, *listen, reuse_address=True)


def address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


async def serve(routes: list[str], delay: Delay, peer_timeout: int) -> None:
    servers = []
    for route in routes:
        listen, _, target = route.partition("=")
        target, _, own = target.partition("@")  # TARGET@SECONDS: this route's own peer timeout
        servers.append(await relay(address(listen), address(target), delay, int(own) if own else peer_timeout))
    print("relaying", ", ".join(routes), flush=True)
    await asyncio.gather(*(s.serve_forever() for s in servers))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delay-file", type=Path, required=True)
    ap.add_argument("--peer-timeout", type=int, default=0,
                    help="seconds after which a silent client is given up (0: never, the kernel's default)")
    ap.add_argument("routes", nargs="+", metavar="LISTEN=TARGET")
    args = ap.parse_args(argv)
    asyncio.run(serve(args.routes, Delay(args.delay_file), args.peer_timeout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
