"""The live endpoint (`warlog live`): tells the play pages that their game has a new judgement,
from one event loop, so that a waiting page costs a socket and a few hundred bytes, never a web
thread, and nothing polls.

`GET /games/{id}/events` is a Server-Sent Events stream. It opens with `event: ready`, then sends
`event: judged` each time an RQ job publishes the game on the Redis channel `warlog:judged`
(`warlog.judging.wakeup.publish`; several judgements before the page reads coalesce into one notice),
`event: resync` after a Redis outage (notices may have been missed), and a comment line every
`heartbeat` seconds so that proxies and dead clients are noticed. A notice carries nothing but
the game id: the page then asks the web app for its fresh panel (`/games/{id}/live?last=N`),
which answers at once and applies the viewer's seat and rights as it always did. A stream is
closed after `lifetime` seconds (the page reconnects), so nothing is held for ever.

Caps: at most `per_client` streams per client address (429 beyond, with Retry-After) and
`total` streams in all (503 with Retry-After). Behind the proxy the client's address is the
`X-Real-IP` the proxy sets, trusted only from `trusted` peers (loopback by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from warlog.judging.wakeup import CHANNEL

log = logging.getLogger("warlog.web.live")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
READY = b"retry: 3000\nevent: ready\ndata: \n\n"  # retry: EventSource's reconnection delay, in ms
PING = b": ping\n\n"


@dataclass(frozen=True)
class Limits:
    total: int = 10_000  # streams in all; beyond: 503
    per_client: int = 16  # streams per client address; beyond: 429
    heartbeat: float = 15.0  # seconds between comment lines
    lifetime: float = 600.0  # seconds (less up to a quarter, at random) a stream is kept; the page reconnects
    retry_after: int = 10  # seconds, in a refusal's Retry-After
    write_timeout: float = 30.0  # a client that reads nothing for this long is dropped
    trusted: frozenset[str] = field(default_factory=lambda: frozenset({"127.0.0.1", "::1"}))


class Stream:
    """One page's stream: what it has yet to be told (coalesced) and the event that wakes it."""

    __slots__ = ("game_id", "client", "pending", "wake")

    def __init__(self, game_id: str, client: str) -> None:
        self.game_id, self.client = game_id, client
        self.pending: str | None = None
        self.wake = asyncio.Event()

    def tell(self, kind: str) -> None:
        self.pending = "resync" if kind == "resync" or self.pending == "resync" else kind
        self.wake.set()


class Hub:
    """The open streams by game and by client, and the caps."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_game: dict[str, set[Stream]] = {}
        self.by_client: Counter[str] = Counter()
        self.count = 0
        self.redis_up = False

    def refusal(self, client: str) -> tuple[int, str] | None:
        if self.count >= self.limits.total:
            return 503, "the live endpoint is full; the page polls meanwhile"
        if self.by_client[client] >= self.limits.per_client:
            return 429, f"at most {self.limits.per_client} live streams per client"
        return None

    def join(self, game_id: str, client: str) -> Stream:
        s = Stream(game_id, client)
        self.by_game.setdefault(game_id, set()).add(s)
        self.by_client[client] += 1
        self.count += 1
        return s

    def leave(self, s: Stream) -> None:
        streams = self.by_game.get(s.game_id)
        if streams is not None and s in streams:
            streams.discard(s)
            if not streams:
                del self.by_game[s.game_id]
            self.by_client[s.client] -= 1
            if self.by_client[s.client] <= 0:
                del self.by_client[s.client]
            self.count -= 1

    def judged(self, game_id: str) -> None:
        for s in self.by_game.get(game_id, ()):
            s.tell("judged")

    def resync(self) -> None:
        for streams in self.by_game.values():
            for s in streams:
                s.tell("resync")


HUB = web.AppKey("hub", Hub)


def client_of(request: web.Request, trusted: frozenset[str]) -> str:
    peer = request.remote or "?"
    real = request.headers.get("X-Real-IP", "").strip()
    return real[:64] if real and peer in trusted else peer


async def events(request: web.Request) -> web.StreamResponse:
    hub = request.app[HUB]
    lim = hub.limits
    game_id = request.match_info["game_id"]
    if not GAME_ID.fullmatch(game_id):
        raise web.HTTPNotFound(text="no such game\n")
    client = client_of(request, lim.trusted)
    refused = hub.refusal(client)
    if refused is not None:
        status, why = refused
        return web.Response(status=status, text=why + "\n",
                            headers={"Retry-After": str(lim.retry_after), "Cache-Control": "no-store"})
    stream = hub.join(game_id, client)
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                       "X-Accel-Buffering": "no"})
    try:
        await resp.prepare(request)
        await _send(resp, READY, lim)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + lim.lifetime * random.uniform(0.75, 1.0)  # spread: no herd of reconnections
        while (left := deadline - loop.time()) > 0:
            try:
                await asyncio.wait_for(stream.wake.wait(), min(lim.heartbeat, left))
            except TimeoutError:
                await _send(resp, PING, lim)
                continue
            stream.wake.clear()
            kind, stream.pending = stream.pending or "judged", None
            await _send(resp, f"event: {kind}\ndata: {game_id}\n\n".encode(), lim)
        return resp
    except (ConnectionError, TimeoutError):
        return resp  # the client went away (or read nothing for write_timeout): nothing more to send
    finally:
        hub.leave(stream)


async def _send(resp: web.StreamResponse, data: bytes, lim: Limits) -> None:
    await asyncio.wait_for(resp.write(data), lim.write_timeout)


async def healthz(request: web.Request) -> web.Response:
    hub = request.app[HUB]
    return web.json_response({"ok": True, "streams": hub.count, "redis": hub.redis_up})


async def listen(hub: Hub, redis_url: str) -> None:
    """Feed the hub from CHANNEL, resubscribing once a second after a Redis error; each
    (re)subscription tells every open stream to look again (`resync`)."""
    import redis.asyncio as aioredis

    from ledger.netopts import redis_params

    down = False
    while True:
        conn = aioredis.from_url(redis_url, **redis_params(blocking=True))  # a partition ends it (ledger.netopts)
        try:
            sub = conn.pubsub(ignore_subscribe_messages=True)
            await sub.subscribe(CHANNEL)
            hub.redis_up = True
            hub.resync()
            if down:
                log.info("judgement notices from Redis resumed")
                down = False
            async for msg in sub.listen():
                if msg.get("type") == "message":
                    data = msg["data"]
                    hub.judged(data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data))
        except asyncio.CancelledError:
            raise
        except Exception as err:
            hub.redis_up = False
            if not down:
                log.warning("judgement notices from Redis interrupted (%s); the pages poll meanwhile", err)
                down = True
        finally:
            with contextlib.suppress(Exception):
                await conn.aclose()
        await asyncio.sleep(1.0)


def make_app(redis_url: str, limits: Limits | None = None) -> web.Application:
    app = web.Application()
    app[HUB] = Hub(limits or Limits())
    app.router.add_get("/games/{game_id}/events", events)
    app.router.add_get("/healthz", healthz)

    async def feed(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(listen(app[HUB], redis_url))
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(feed)
    return app


def run(redis_url: str, host: str, port: int, limits: Limits, **kw: Any) -> None:
    """Serve until SIGTERM/SIGINT (open streams are then closed within 2 s: the pages
    reconnect). aiohttp cancels a stream's handler as soon as its client goes away
    (handler_cancellation), so a closed page frees its slot at once."""
    web.run_app(make_app(redis_url, limits), host=host, port=port, handler_cancellation=True,
                shutdown_timeout=2.0, access_log=None, print=None, **kw)
