"""A notification whose RQ job was lost (a Redis restarted empty, a connection broken between the
row's commit and the enqueue) is queued again by the next sweep once LOST_AFTER has passed, not
STUCK_AFTER later; one whose job waits in the queue, or runs, is left alone (sent once). Real
PostgreSQL, real Redis and RQ, a real SMTP server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from ledger.factory import open_store
from tests.notify.conftest import Smtp
from tests.players.conftest import FakeNow
from tests.support.services import RedisServer
from warlog.notify.jobs import enqueue_with, job_id, lost_with, notify_queue
from warlog.notify.notifier import LOST_AFTER, STUCK_AFTER, Notifier
from warlog.ops.sqldb import SqlDb
from warlog.players.store import PlayerStore


class _Rig:
    def __init__(self, pg_url: str, redis_url: str, smtp: Smtp) -> None:
        self.store = open_store(pg_url)
        db = SqlDb(self.store)
        self.clock = FakeNow()
        self.players = PlayerStore(db, now=self.clock)
        self.players.create_schema()
        self.redis = redis.Redis.from_url(redis_url)
        self.queue = notify_queue(self.redis)
        self.notifier = Notifier(db, lambda pid: p.email if (p := self.players.get(pid)) else None,
                                 smtp_url=smtp.url, now=self.clock, enqueue=enqueue_with(self.queue))
        self.notifier.lost = lost_with(self.queue)
        self.notifier.create_schema()

    def notice(self, name: str) -> str:
        player = self.players.register(name, f"{name.lower()}@example.org")
        [delivery] = self.notifier.notify(player.id, "your_turn", f"Your turn, {name}", "It is your turn.")
        return delivery

    def waiting(self) -> list[str]:
        return self.queue.job_ids


@pytest.fixture
def rig(pg_url: str, smtp: Smtp, tmp_path: Path) -> Iterator[_Rig]:
    """On a Redis of the test's own: the test says which jobs wait, and in the whole suite a job on
    the shared test database was once taken off the queue by a consumer not of this test."""
    server = RedisServer(tmp_path)
    server.start()
    r = _Rig(pg_url, server.url, smtp)
    yield r
    r.store.close()
    server.kill()


def test_a_lost_job_is_queued_again_after_lost_after_and_sent_once(rig: _Rig, smtp: Smtp, pg_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARLOG_DB", pg_url)  # the jobs' own services (warlog.notify.jobs), as in a worker
    monkeypatch.setenv("WARLOG_SMTP_URL", smtp.url)
    lost, kept = rig.notice("Ann"), rig.notice("Bob")
    assert rig.waiting() == [job_id(lost), job_id(kept)]
    rig.redis.lrem(rig.queue.key, 0, job_id(lost))  # Ann's job is gone from the queue; Bob's still waits
    rig.clock.advance(seconds=LOST_AFTER.total_seconds() - 1)
    assert rig.notifier.sweep() == 0  # too young to call lost: its enqueue may be on its way
    rig.clock.advance(seconds=2)
    assert rig.notifier.sweep() == 1 and rig.waiting() == [job_id(kept), job_id(lost)]
    assert rig.notifier.sweep() == 0  # now it waits again: not queued twice
    SimpleWorker([rig.queue], connection=rig.redis, serializer=JSONSerializer).work(burst=True)
    assert sorted(m["To"] for m in smtp.wait_for(2)) == ["ann@example.org", "bob@example.org"]
    assert [rig.notifier.get(d).status for d in (lost, kept)] == ["sent", "sent"]
    assert rig.notifier.sweep() == 0 and len(smtp.messages) == 2


def test_a_started_job_is_not_lost_and_an_unreachable_queue_leaves_it_to_stuck_after(rig: _Rig) -> None:
    running = rig.notice("Cy")
    rig.redis.lrem(rig.queue.key, 0, job_id(running))  # a worker took it ...
    rig.redis.hset(f"rq:job:{job_id(running)}", "status", "started")  # ... and runs it
    rig.clock.advance(seconds=LOST_AFTER.total_seconds() + 1)
    assert rig.notifier.sweep() == 0 and rig.waiting() == []
    rig.notifier.lost = lost_with(notify_queue(redis.Redis.from_url("redis://127.0.0.1:1/0")))
    rig.redis.hset(f"rq:job:{job_id(running)}", "status", "failed")  # its worker died
    assert rig.notifier.sweep() == 0  # the queue cannot be asked: logged, and nothing is sent twice
    rig.clock.advance(seconds=STUCK_AFTER.total_seconds())
    assert rig.notifier.sweep() == 1 and rig.waiting() == [job_id(running)]
