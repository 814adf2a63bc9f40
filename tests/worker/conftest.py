"""Fixtures shared by the worker tests."""

from __future__ import annotations

import pytest
import redis

from tests.conftest import REDIS_URL


@pytest.fixture
def redis_url() -> str:
    """The test Redis, emptied (a worker test starts with no queued job and no key)."""
    try:
        conn = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        conn.ping()
    except redis.RedisError as exc:
        pytest.fail(f"Redis is required at {REDIS_URL}: {exc}", pytrace=False)
    conn.flushdb()
    return REDIS_URL
