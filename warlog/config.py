"""Explicit, loud configuration (issue 14, defect 6).

A deployment that hands judging to RQ workers (WARLOG_REDIS set) must name a shared ledger
(WARLOG_DB=postgresql://…): with the embedded SQLite default each process would write its
own file and no move would ever be judged. `check_deployment` refuses that unless
WARLOG_ALLOW_EMBEDDED_LEDGER is set (one machine, one web process and its workers sharing a
file). A WARLOG_* variable this build does not know is named in the error (or, otherwise, in a
warning), with the setting it probably meant. `describe` is the one line every process logs
at start, secrets masked.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from typing import Any

from ledger.factory import sqlite_path
from ledger.urls import mask_url

SETTINGS = {
    "WARLOG_DB": "the ledger: postgresql://user@host/db, or sqlite:///path (the embedded default)",
    "WARLOG_REDIS": "redis://host:6379/0 to hand judging to `warlog worker`s (unset: judged in-process)",
    "WARLOG_SWEEP_INTERVAL": "seconds between sweeps for submissions left without a judgement",
    "WARLOG_REFUSED_LIMIT": "refused moves allowed per seat, e.g. '30 per minute' (then 429)",
    "WARLOG_ALLOW_EMBEDDED_LEDGER": "1 to run a queue with a SQLite ledger anyway (one machine only)",
    "WARLOG_GAME_MODULES": "extra game modules to import, comma-separated",
    "WARLOG_ALLOW_SUPERUSER": "1 to let the app run as a PostgreSQL superuser (it can then disable the "
                              "append-only trigger: development only)",
    "WARLOG_MAIL_IN_ADDRESS": "play by mail: the inbound address (play@your.domain) replies go to as "
                              "play+<token>@your.domain (`warlog mail-in`)",
    "WARLOG_MAIL_BOARD": "0 to leave the board's picture out of turn mails",
    "WARLOG_MAIL_IN_AUTHSERV_ID": "`warlog mail-in`: the authserv-id of your MTA's Authentication-Results",
}
# read by the tests, benchmarks, scripts and fault injection rather than by the server
OTHER_KNOWN = {"WARLOG_FAULT_DELAY_BEFORE_APPEND", "WARLOG_FAULT_DELAY_BEFORE_SERVICES",
               "WARLOG_TEST_PG_URL", "WARLOG_TEST_REDIS_URL", "WARLOG_VENV",
               "WARLOG_CHROMIUM", "WARLOG_BENCH_PG_URL", "WARLOG_BENCH_REDIS_URL",
               "WARLOG_FAULT_MAIL_IN_HOLD", "WARLOG_FAULT_MAIL_IN_EXIT_AFTER_SUBMIT"}


class ConfigError(ValueError):
    """A deployment whose configuration would silently misbehave."""


def unknown_settings(environ: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """Each WARLOG_* variable this build does not know -> the known setting it most resembles."""
    env = os.environ if environ is None else environ
    out: dict[str, str | None] = {}
    for name in env:
        if name.startswith("WARLOG_") and name not in SETTINGS and name not in OTHER_KNOWN:
            close = difflib.get_close_matches(name, list(SETTINGS), n=1, cutoff=0.6)
            if not close and name.startswith(("WARLOG_DATA", "WARLOG_PG", "WARLOG_POSTGRES", "WARLOG_LEDGER")):
                close = ["WARLOG_DB"]
            out[name] = close[0] if close else None
    return out


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def check_deployment(db: str, redis_url: str | None, allow_embedded: Any = False,
                     environ: Mapping[str, str] | None = None) -> None:
    """Refuse a queue with an embedded ledger (unless allowed); raise ConfigError saying why."""
    if not redis_url or sqlite_path(db) is None or _truthy(allow_embedded):
        return
    hints = [f"{name} is not a setting (did you mean {meant}?)"
             for name, meant in unknown_settings(environ).items() if meant == "WARLOG_DB"]
    raise ConfigError(
        f"a queue (WARLOG_REDIS={mask_url(redis_url)}) with an embedded SQLite ledger ({db}): the workers "
        "would not see what this process records. Set WARLOG_DB=postgresql://user@host/db on every web "
        "process and worker, or WARLOG_ALLOW_EMBEDDED_LEDGER=1 if they really share this one file"
        + (". " + "; ".join(hints) if hints else ""))


def describe(role: str, db: str, redis_url: str | None, **extra: Any) -> str:
    """The running configuration in one line, secrets masked."""
    kind = "SQLite (embedded)" if sqlite_path(db) is not None else "PostgreSQL"
    queue = f"RQ via {mask_url(redis_url)}" if redis_url else "in-process worker"
    more = "".join(f", {k.replace('_', ' ')} {v}" for k, v in extra.items())
    return f"warlog {role}: ledger {mask_url(db)} [{kind}], judging: {queue}{more}"
