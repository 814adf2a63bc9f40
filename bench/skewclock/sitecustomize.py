"""A host whose clock is off, for bench/netsoak.py: put this directory first on PYTHONPATH and
set NETSOAK_CLOCK_SKEW (seconds), and every Python process there reads a wall clock that far
ahead (`time.time`, `time.time_ns`, `datetime.now`/`utcnow`/`today`), as on a host whose clock
is wrong. Its monotonic clock, the time since boot, is left alone: it has no right value to be
off from. (libfaketime, preloaded, fakes both or breaks Python: with the monotonic clock faked,
`Lock.acquire(timeout=...)` never returns; without, `time.sleep` fails with EINVAL.)
PostgreSQL's clock is the data host's and is not touched."""

from __future__ import annotations

import datetime as _dt
import os
import time as _time
from typing import Any

SKEW = float(os.environ.get("NETSOAK_CLOCK_SKEW") or 0)

if SKEW:
    _real_time, _real_time_ns, _real = _time.time, _time.time_ns, _dt.datetime
    _delta = _dt.timedelta(seconds=SKEW)

    def _time_skewed() -> float:
        return _real_time() + SKEW

    def _time_ns_skewed() -> int:
        return _real_time_ns() + int(SKEW * 1e9)

    _time.time, _time.time_ns = _time_skewed, _time_ns_skewed

    class _Any(type):
        def __instancecheck__(cls, obj: Any) -> bool:  # a datetime made by C code is one too
            return isinstance(obj, _real)

        def __subclasscheck__(cls, sub: Any) -> bool:
            return issubclass(sub, _real)

    class datetime(_real, metaclass=_Any):  # noqa: N801  (it stands in for datetime.datetime)
        __slots__ = ()  # the same size as datetime's: C extensions that check it import it as is

        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return _real.now(tz) + _delta

        @classmethod
        def utcnow(cls) -> Any:
            return _real.utcnow() + _delta

        @classmethod
        def today(cls) -> Any:
            return _real.today() + _delta

    _dt.datetime = datetime  # type: ignore[misc]
