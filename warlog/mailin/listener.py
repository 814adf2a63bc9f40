"""The inbound listener: SMTP or LMTP (aiosmtpd) that a mail server forwards replies to.

A recipient that is not a reply address (`<local>+<token>@…`) is refused at RCPT (550). A
message is stored (`mail_inbound`) before the listener answers 250, so a crash loses nothing:
the mail server resends what was not acknowledged, and what was acknowledged is processed on the
next start. Messages over `max_bytes` are kept as their headers only (and refused, with an
answer); over `hard_limit` the listener refuses them at DATA (552) and the sending server bounces
them. One processing thread judges the stored mails in order (warlog.mailin.processor).
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP

from warlog.mailin.processor import Processor
from warlog.mailin.store import MailStore
from warlog.mailin.tokens import split_address

log = logging.getLogger("warlog.mailin")
HARD_LIMIT = 32 * 1024 * 1024
SWEEP_EVERY = 30.0
# Fault injection for the crash test: seconds the processing thread waits before each stored mail
# (so the process can be killed between its 250 and the mail's processing).
FAULT_HOLD_ENV = "WARLOG_FAULT_MAIL_IN_HOLD"


def headers_of(raw: bytes) -> bytes:
    """A message's header block (what is kept of one too big to keep whole)."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = raw.find(sep)
        if at >= 0:
            return raw[:at + len(sep)]
    return raw[:64 * 1024]


class Handler:
    """`lmtp`: answer DATA once per recipient, as LMTP requires (RFC 2033 4.2)."""

    def __init__(self, mail: MailStore, local: str, max_bytes: int, on_stored: Callable[[str], None],
                 lmtp: bool = False) -> None:
        self.mail, self.local, self.max_bytes, self.on_stored = mail, local, max_bytes, on_stored
        self.lmtp = lmtp

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if split_address(address, self.local) is None:
            return "550 5.1.1 not a Warlog reply address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        kept = raw if len(raw) <= self.max_bytes else headers_of(raw)
        loop = asyncio.get_running_loop()
        statuses = []
        for rcpt in envelope.rcpt_tos:
            try:
                found = await loop.run_in_executor(None, self._store, envelope.mail_from or "", rcpt, raw, kept)
            except Exception:
                log.exception("could not store an inbound mail; the sending server will try again")
                statuses.append("451 4.3.0 Warlog cannot store mail just now; try again later")
                continue
            if found is not None:
                self.on_stored(found)
            statuses.append("250 2.0.0 stored")
        if self.lmtp:
            return "\r\n".join(statuses)  # one reply line per recipient
        failed = [s for s in statuses if not s.startswith("250")]
        return failed[0] if failed else "250 2.0.0 stored"

    def _store(self, mail_from: str, rcpt: str, raw: bytes, kept: bytes) -> str | None:
        return self.mail.receive(mail_from, rcpt, raw, kept)


class _LmtpController(Controller):
    def factory(self) -> Any:
        return LMTP(self.handler, **self.SMTP_kwargs)


class Listener:
    """The listener and its processing thread; `start()`, then `stop()`."""

    def __init__(self, processor: Processor, host: str, port: int, *, lmtp: bool = False,
                 sweep_every: float = SWEEP_EVERY) -> None:
        self.processor = processor
        self.work: queue.Queue[str | None] = queue.Queue()
        self.handler = Handler(processor.mail, processor.play.local, processor.max_bytes, self.work.put, lmtp)
        cls = _LmtpController if lmtp else Controller
        self.controller = cls(self.handler, hostname=host, port=port, data_size_limit=HARD_LIMIT,
                              server_hostname=processor.play.domain)
        self.sweep_every = sweep_every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="warlog-mail-in", daemon=True)

    def start(self) -> None:
        self._thread.start()  # first the mails stored before a restart
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
        self._stop.set()
        self.work.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        self._sweep()
        while not self._stop.is_set():
            try:
                item = self.work.get(timeout=self.sweep_every)
            except queue.Empty:
                self._sweep()
                continue
            if item is None:
                return
            if self._stop.wait(float(os.environ.get(FAULT_HOLD_ENV) or 0)):
                return
            try:
                if not self.processor.process(item):
                    continue  # left for the sweep (the worker is slow)
            except Exception:
                log.exception("inbound mail %s: processing failed; the next sweep tries again", item)

    def _sweep(self) -> None:
        try:
            self.processor.process_all()
        except Exception:
            log.exception("the inbound mail sweep failed")
