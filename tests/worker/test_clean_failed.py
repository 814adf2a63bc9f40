"""The worker's clean-up of failed jobs (RQQueue.clean_failed) drops the jobs of killed workers
quietly, whatever RQ has already let expire of them: a job whose execution record is gone (found
by bench/netsoak.py: RQ keeps an execution's id a minute longer than the record, and deleting
the job then raised "Execution … not found" in every sweep of that minute), or a job that is gone
itself. Real Redis, real RQ registries; the killed worker's leftovers are written with RQ's own
calls."""

from __future__ import annotations

import logging
import time

import pytest
from rq.executions import Execution, ExecutionRegistry
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry

from warlog.judging.queue import RQQueue


def _killed_in(rq: RQQueue, game_id: str) -> tuple[Job, Execution]:
    """A judging job that a worker took off the queue and started, the worker killed since."""
    job = rq.queue.enqueue_call("warlog.judging.jobs.resolve_game", args=(game_id,), result_ttl=60,
                                failure_ttl=86400)
    rq.redis.lrem(f"rq:queue:{rq.queue.name}", 0, job.id)
    with rq.redis.pipeline() as pipe:
        execution = Execution.create(job, ttl=60, pipeline=pipe, worker_name="killed")
        job.set_status(JobStatus.STARTED, pipeline=pipe)
        pipe.execute()
    return job, execution


def _gone(rq: RQQueue, job: Job, execution: Execution) -> bool:
    return not rq.redis.exists(job.key, execution.key, ExecutionRegistry(job.id, rq.redis).key)


@pytest.mark.parametrize("record", ["kept", "expired"])
def test_a_killed_workers_job_is_dropped_whether_or_not_its_execution_record_is_left(
        redis_url: str, caplog: pytest.LogCaptureFixture, record: str) -> None:
    rq = RQQueue(redis_url)
    job, execution = _killed_in(rq, "g1")
    if record == "expired":  # the record's TTL ran out; its id stays in the job's execution registry
        rq.redis.delete(execution.key)
    with caplog.at_level(logging.WARNING, logger="warlog"):
        assert rq.clean_failed(now=time.time() + 3600) == 1  # an hour on: RQ counts the job abandoned
    assert StartedJobRegistry(queue=rq.queue).count == 0 and FailedJobRegistry(queue=rq.queue).count == 0
    assert _gone(rq, job, execution)
    assert not [r for r in caplog.records if r.name.startswith("warlog")]
    assert rq.clean_failed(now=time.time() + 3600) == 0


def test_a_failed_job_that_is_gone_itself_leaves_the_registry_quietly(redis_url: str) -> None:
    rq = RQQueue(redis_url)
    job, execution = _killed_in(rq, "g1")
    StartedJobRegistry(queue=rq.queue).cleanup(timestamp=time.time() + 3600)  # another process moved it
    assert FailedJobRegistry(queue=rq.queue).get_job_ids() == [job.id]
    rq.redis.delete(job.key)  # and its hash expired (or someone deleted it)
    assert rq.clean_failed() == 1
    assert FailedJobRegistry(queue=rq.queue).count == 0 and _gone(rq, job, execution)


def test_a_job_that_failed_on_an_error_of_its_own_is_kept_to_be_read(redis_url: str) -> None:
    rq = RQQueue(redis_url)
    job = rq.queue.enqueue_call("warlog.judging.jobs.resolve_game", args=("g1",), failure_ttl=86400)
    with rq.redis.pipeline() as pipe:
        job.set_status(JobStatus.FAILED, pipeline=pipe)
        job._handle_failure("Traceback ...\nValueError: the rules refused", pipe)
        pipe.execute()
    assert rq.clean_failed() == 0
    assert FailedJobRegistry(queue=rq.queue).get_job_ids() == [job.id]
