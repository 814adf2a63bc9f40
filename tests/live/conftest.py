from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.stack import Stack
from tests.support.services import RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of the test's own: the judgement channel is server-wide, shared by every database."""
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.kill()


@pytest.fixture
def stack(tmp_path: Path, pg_url: str, own_redis: RedisServer) -> Iterator[Stack]:
    s = Stack(tmp_path, pg_url, own_redis.url)
    yield s
    s.stop()
