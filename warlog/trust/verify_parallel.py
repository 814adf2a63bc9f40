"""Verifying many games, or one long game, on every core.

Games are independent, so files (and a bundle's games) go to a pool of processes, one at a
time each: the main process holds only the reports, so memory stays flat in the archive's size.
Within one long game the judgements are independent too once the state before each is known,
and the recorded patches give it: the game is cut into windows of events; each process folds
the events before its window from their patches, unchecked, and re-runs the judgements in it
(warlog.trust.verify.verify_events, `window`). The windows partition the game, so every event is
checked once, by the window that holds it, exactly as the serial run checks it; the first
window that fails names the same event the serial run would. A game with a director's ruling
(a ruling re-reads history) or more than one seed period is not cut.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger.events import DIRECTOR, Event
from ledger.export import ExportFormatError, parse_export_hashed
from warlog.trust.verify import PrefixBroken, Report, VerifyFailure, verify_bytes, verify_events

MIN_WINDOW = 400  # events: below this a window's unchecked prefix costs more than it saves
MIN_PARALLEL = 5_000  # events in all: below this, starting the processes costs more than it saves
PRELOAD = ["warlog.trust.verify", "warlog.trust.verify_parallel", "rules"]  # what a child needs, imported by the forkserver
NO_CUT = (b'"seat":"' + DIRECTOR.encode() + b'"', b'"type":"seed_committed"')


@dataclass(frozen=True)
class _Task:
    key: int  # which game
    path: str | None  # a file, or
    events: list[Event] | None  # a game's events (from a bundle)
    window: tuple[int, int] | None
    size: int  # events (for the progress bar)


def windows(data: bytes, jobs: int) -> list[tuple[int, int] | None]:
    """How to cut an export's events: [None] (whole) unless it is long and may be cut."""
    count = data.count(b"\n")
    parts = min(jobs * 2, count // MIN_WINDOW)
    if jobs < 2 or parts < 2 or any(marker in data for marker in NO_CUT):
        return [None]
    return [(count * i // parts, count * (i + 1) // parts if i + 1 < parts else 1 << 62) for i in range(parts)]


# The last file a process parsed for a window (its path and (size, mtime), its events and hashes):
# a process that runs several windows of one game parses it once (parsing is a tenth of a window's
# work, and every window needs the whole game). verify_events never changes the events it reads.
_PARSED: tuple[str, tuple[int, int], list[Event], list[str]] | None = None


def _parse(path: str, window: tuple[int, int] | None) -> tuple[list[Event], list[str]]:
    global _PARSED
    st = os.stat(path)
    stamp = (st.st_size, st.st_mtime_ns)
    if window is not None and _PARSED is not None and _PARSED[:2] == (path, stamp):
        return _PARSED[2], _PARSED[3]
    _PARSED = None
    with open(path, "rb") as fh:
        events, hashes = parse_export_hashed(fh)
    if window is not None:
        _PARSED = (path, stamp, events, hashes)
    return events, hashes


def _run(task: _Task) -> tuple[int, Report | VerifyFailure | PrefixBroken, int]:
    try:
        hashes = None
        if task.events is not None:
            events = task.events
        else:
            assert task.path is not None
            events, hashes = _parse(task.path, task.window)
        return task.key, verify_events(events, None, task.window, hashes), task.size
    except ExportFormatError as err:
        return task.key, VerifyFailure(None, str(err)), task.size
    except (VerifyFailure, PrefixBroken) as err:
        return task.key, err, task.size


def _merge(parts: list[Report | VerifyFailure | PrefixBroken], redo: Callable[[], Report]) -> Report | VerifyFailure:
    """The game's report from its windows' (in order): the first failure, or the counts summed."""
    for part in parts:
        if isinstance(part, VerifyFailure):
            return part
    if any(isinstance(p, PrefixBroken) for p in parts):  # cannot happen without a failure before it
        try:
            return redo()
        except VerifyFailure as err:
            return err
    reports = [p for p in parts if isinstance(p, Report)]
    out = reports[0]
    for r in reports[1:]:
        out.judgements += r.judgements
        out.dice_derived += r.dice_derived
        out.dice_replayed += r.dice_replayed
    out.ended = reports[-1].ended
    return out


def start_context() -> Any:
    """How the verifying processes start. A plain fork only from a single-threaded process
    (`warlog verify`): its children start at once with the rules imported and their tables built.
    Never from one with other threads (connection pools, the web process's wake-up listener): a
    child forked while one of them holds a lock waits on it forever. There a forkserver's
    children start from a clean single-threaded process, which imports the rules once for all."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def _pool_map(tasks: Iterable[_Task], jobs: int) -> Iterator[tuple[int, Any, int]]:
    if jobs < 2:
        yield from map(_run, tasks)
        return
    with start_context().Pool(jobs) as pool:
        yield from pool.imap(_run, tasks, chunksize=1)


def _gather(tasks: Iterable[_Task], jobs: int, progress: Callable[[int], None] | None,
            redo: Callable[[int], Report]) -> Iterator[tuple[int, Report | VerifyFailure]]:
    """Run the tasks; yield each game's merged result as soon as its last window is in."""
    parts: list[Any] = []
    key = None
    for k, result, size in _pool_map(tasks, jobs):
        if progress is not None:
            progress(size)
        if key is not None and k != key:
            yield key, _merge(parts, lambda key=key: redo(key))
            parts = []
        key = k
        parts.append(result)
    if key is not None:
        yield key, _merge(parts, lambda: redo(key))


def verify_paths(paths: list[Path], jobs: int | None = None, progress: Callable[[int], None] | None = None
                 ) -> Iterator[tuple[Path, Report | VerifyFailure]]:
    """Each export file's report (or its first failure), in the order given."""
    if jobs is None:  # by default, one process for a small archive; every core for a large one
        small = sum(p.stat().st_size for p in paths) < MIN_PARALLEL * 400  # ~400 bytes an event
        jobs = 1 if small else os.cpu_count() or 1

    def tasks() -> Iterator[_Task]:
        for i, path in enumerate(paths):
            data = path.read_bytes()
            cuts = windows(data, jobs) if len(paths) < jobs else [None]  # many files: one process per file
            count = data.count(b"\n")
            del data
            for w in cuts:
                size = count if w is None else min(w[1], count) - w[0]
                yield _Task(i, str(path), None, w, size)

    def redo(i: int) -> Report:
        return verify_bytes(paths[i].read_bytes())

    for i, result in _gather(tasks(), jobs, progress, redo):
        yield paths[i], result


def verify_games(games: list[list[Event]], jobs: int | None = None) -> Iterator[Report | VerifyFailure]:
    """Each game's report (or first failure), for games already parsed (a tournament bundle's)."""
    if jobs is None:
        jobs = 1 if sum(len(evs) for evs in games) < MIN_PARALLEL else os.cpu_count() or 1
    tasks = (_Task(i, None, evs, None, len(evs)) for i, evs in enumerate(games))
    for _, result in _gather(tasks, jobs, None, lambda i: verify_events(games[i])):
        yield result
