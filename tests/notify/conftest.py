"""A real SMTP server (aiosmtpd) and a real HTTP receiver (http.server), each on a free port,
started by the test: the notification tests send to them, never to a mock."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.support.ports import free_port


class _Collect:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.arrived:
            self.messages.append(message_from_bytes(envelope.original_content or envelope.content))
            self.arrived.notify_all()
        return "250 Message accepted for delivery"


def subject_of(msg: Message) -> str:
    """A mail's subject as a reader sees it (an encoded word decoded, a folded line unfolded)."""
    return " ".join(str(make_header(decode_header(msg["Subject"]))).split())


@dataclass
class Smtp:
    url: str
    port: int
    handler: _Collect

    @property
    def messages(self) -> list[Message]:
        return self.handler.messages

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Message]:
        with self.handler.arrived:
            self.handler.arrived.wait_for(lambda: len(self.handler.messages) >= count, timeout)
        return list(self.handler.messages)

    def wait_until(self, found: Callable[[Message], bool], timeout: float = 30.0) -> list[Message]:
        """The mails that `found` picks, once there is one (none after `timeout`): a notice sent in
        the background may come after the move that caused it was answered."""
        with self.handler.arrived:
            self.handler.arrived.wait_for(lambda: any(found(m) for m in self.handler.messages), timeout)
            return [m for m in self.handler.messages if found(m)]


@pytest.fixture
def smtp() -> Iterator[Smtp]:
    handler = _Collect()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield Smtp(f"smtp://127.0.0.1:{port}", port, handler)
    controller.stop()


@dataclass
class Receiver:
    url: str
    status: list[int]  # the status it answers with (a list, so a test can change it)
    requests: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    got = Receiver("", [204])

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                 "json": json.loads(body)})
            self.send_response(got.status[0])
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    got.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    yield got
    server.shutdown()
    server.server_close()
