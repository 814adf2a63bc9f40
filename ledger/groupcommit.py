"""Group commit for an embedded database: the appends that threads of one process make at the
same time share one transaction, so one commit (one WAL sync) serves them all.

A writer queues its work; if no transaction is under way it leads: it takes every queued work,
runs them in one transaction, commits, and hands each writer its own result or exception.
Writers queued meanwhile wait and the next of them leads. Nobody returns before the commit that
holds their rows has succeeded: durability is exactly that of one transaction per append.

One writer's failure undoes only its own statements. The works first run without savepoints
(two statements fewer per work): a work that fails having changed nothing (a conflict
found by its read; a refused statement, which SQLite undoes by itself) leaves the others' rows
intact. If a failed work had changed rows, the batch is rolled back and run again, each work
inside its own savepoint, as before: so a work must be safe to run twice (it only reads and
writes through `conn`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Connection = Any  # a DB-API connection in autocommit mode (sqlite3, isolation_level=None)


class _Work(Generic[T]):
    __slots__ = ("done", "error", "result", "run")

    def __init__(self, run: Callable[[Connection], T]) -> None:
        self.run = run
        self.done = False
        self.result: T | None = None
        self.error: BaseException | None = None


class GroupCommit:
    """Runs `work(conn)` callables in shared transactions opened by `begin(conn)`, on a
    connection lent by `connection()` (a context manager)."""

    def __init__(self, connection: Callable[[], Any], begin: str = "BEGIN IMMEDIATE") -> None:
        self._connection = connection
        self._begin = begin
        self._cond = threading.Condition()
        self._queue: list[_Work[Any]] = []
        self._leading = False

    def after_fork(self) -> None:
        """In a forked child no thread leads and nothing is queued."""
        self._cond, self._queue, self._leading = threading.Condition(), [], False

    def run(self, work: Callable[[Connection], T]) -> T:
        mine: _Work[T] = _Work(work)
        with self._cond:
            self._queue.append(mine)
            while self._leading and not mine.done:
                self._cond.wait()
            if not mine.done:
                self._leading = True
                batch, self._queue = self._queue, []
        if not mine.done:
            try:
                self._commit(batch)
            finally:
                with self._cond:
                    self._leading = False
                    self._cond.notify_all()
        if mine.error is not None:
            raise mine.error
        return mine.result  # type: ignore[return-value]  # set when no error was

    def _commit(self, batch: list[_Work[Any]]) -> None:
        try:
            with self._connection() as conn:
                conn.execute(self._begin)
                if not self._run_all(conn, batch, savepoint=False):  # a failed work left rows behind
                    conn.execute("ROLLBACK")
                    conn.execute(self._begin)
                    self._run_all(conn, batch, savepoint=True)
                if len(batch) == 1 and batch[0].error is not None:
                    conn.execute("ROLLBACK")
                else:
                    conn.execute("COMMIT")
        except BaseException as exc:  # the transaction is gone: nobody's rows were kept
            for work in batch:
                if work.error is None:
                    work.error, work.result = exc, None
        finally:
            for work in batch:
                work.done = True

    @classmethod
    def _run_all(cls, conn: Connection, batch: list[_Work[Any]], savepoint: bool) -> bool:
        """Run every work; False (and stop) when one of several failed without a savepoint after
        changing rows, or took the transaction with it (then only a rerun can undo it)."""
        for work in batch:
            work.error = work.result = None
            before = getattr(conn, "total_changes", None)  # rows changed by completed statements
            cls._one(conn, work, savepoint)
            if work.error is not None and not savepoint and len(batch) > 1 and (
                    before is None or conn.total_changes != before or not getattr(conn, "in_transaction", True)):
                return False
        return True

    @staticmethod
    def _one(conn: Connection, work: _Work[Any], savepoint: bool) -> None:
        if savepoint:
            conn.execute("SAVEPOINT one_append")
        try:
            work.result = work.run(conn)
        except Exception as exc:  # this writer's failure: undo its statements only
            work.error = exc
            if savepoint:
                conn.execute("ROLLBACK TO one_append")
        if savepoint:
            conn.execute("RELEASE one_append")
