"""Explicit, loud configuration.

A deployment that hands judging to RQ workers (WARLOG_REDIS set) must name a shared ledger
(WARLOG_DB=postgresql://…): with the embedded SQLite default each process would write its
own file and no move would ever be judged. `check_deployment` refuses that unless
WARLOG_ALLOW_EMBEDDED_LEDGER is set (one machine, one web process and its workers sharing a
file). A WARLOG_* variable this build does not know is named in the error (or, otherwise, in a
warning), with the setting it probably meant. `ALL` is the one list of settings (docs/deployment.md's
table is made from it). `describe` is the one line every process logs
at start, secrets masked.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.factory import sqlite_path
from ledger.urls import mask_url


@dataclass(frozen=True)
class Setting:
    name: str
    default: str  # as docs/deployment.md's table shows it
    meaning: str


# Every setting the server reads, in the order of docs/deployment.md's table (generated from this list:
# `python -m warlog.config` prints it, and tests/deploy/test_settings.py checks the two agree).
ALL = (
    Setting("WARLOG_DB", "sqlite:///var/warlog.sqlite3",
            "the ledger: postgresql://user:password@host/db, or sqlite:///path (the embedded default)"),
    Setting("WARLOG_REDIS", "(unset)", "redis://host:6379/0 to hand judging to `warlog worker`s; unset: judged "
            "in-process"),
    Setting("WARLOG_NET_TIMEOUT", "5", "seconds (2 at least) a connection to PostgreSQL or Redis may go silent "
            "(a network partition) before it is given up: a request then answers 503 and a worker reconnects "
            "as soon as the network is back; PostgreSQL ends a silent process's session, releasing its locks, "
            "within the same time (docs/deployment.md, Partitions)"),
    Setting("WARLOG_SWEEP_INTERVAL", "30", "seconds between sweeps for submissions left without a judgement"),
    Setting("WARLOG_REFUSED_LIMIT", "30 per minute", "refused moves allowed per seat (then 429)"),
    Setting("WARLOG_CLIENT_LIMIT", "20 per minute; 200 per hour",
            "requests per client address to every route that mails or creates (sign-in links, "
            "registration, new games, forks, tournaments); then 429 with Retry-After"),
    Setting("WARLOG_SIGNIN_EVERY", "5", "minutes between two sign-in mails to one address: a request in between "
            "is answered as usual and sends nothing (the link already sent stays valid)"),
    Setting("WARLOG_PROXIES", "0", "how many reverse proxies (nginx) stand in front: their X-Forwarded-For / "
            "-Proto / -Host are then trusted, so limits and logs see the real client"),
    Setting("WARLOG_ALLOW_EMBEDDED_LEDGER", "0", "1 to run a queue with a SQLite ledger anyway (one machine only)"),
    Setting("WARLOG_ALLOW_SUPERUSER", "0", "1 to let the app run as a PostgreSQL superuser (it can then disable "
            "the append-only trigger: development only)"),
    Setting("WARLOG_GAME_MODULES", "(none)", "extra game modules, comma-separated, that every process loads (the web "
            "app, the worker, verify): docs/adding-a-game.md"),
    Setting("WARLOG_LEAVE_POLICY", "(the defaults)", "the server's leave allowance, JSON: days_per_year (42), "
            "min_block_days (7), notice_days (1), max_away_per_game (1), quiet_hours_per_week (48) "
            "(docs/players.md); a bad one stops the start"),
    Setting("WARLOG_SMTP_URL", "(unset: the outbox)", "smtp://[user:password@]host:port, smtps://…, "
            "`?starttls=1`; unset: mail goes to the outbox table"),
    Setting("WARLOG_MAIL_FROM", "Warlog <warlog@localhost>", "the sender of every mail"),
    Setting("WARLOG_PUBLIC_URL", "(the request's host)", "the site's address, for links in mails: set it in a "
            "deployment"),
    Setting("WARLOG_OUTBOX_LOCAL", "0", "1: the whole outbox (every mail, sign-in links included) is shown at "
            "/outbox to a client on this machine with no proxy header; development only (`scripts/serve` sets "
            "it). Otherwise a signed-in player sees only their own mail there"),
    Setting("WARLOG_WEBHOOK_ALLOW_PRIVATE", "0", "1 to let players' webhooks reach loopback, private and "
            "link-local addresses (tests, a LAN); otherwise only public addresses"),
    Setting("WARLOG_LOG_KEY", "(a key beside a SQLite ledger)", "the transparency log's Ed25519 PEM key file "
            "(`warlog log key`); required with PostgreSQL"),
    Setting("WARLOG_LOG_FORMAT", "json", "`json`: one JSON object a line (time, level, logger, message, "
            "request_id) on standard error; `text`: plain lines; `none`: leave logging to the host"),
    Setting("WARLOG_LOG_LEVEL", "INFO", "the lowest level logged"),
    Setting("WARLOG_LOG_ORIGIN", "(from the key)", "the transparency log's checkpoint origin, e.g. "
            "games.example.org/log (keep it across keys)"),
    Setting("WARLOG_LOG_MMD", "3600", "seconds within which a new game is logged (the maximum merge delay)"),
    Setting("WARLOG_LOG_ROTATIONS", "(none)", "a JSON file of key rotation statements (`warlog log rotate`), "
            "served at /api/v1/log/key"),
    Setting("WARLOG_PIN_FILE", "~/.config/warlog/log-keys.json", "the tools' file of log keys pinned on first use"),
    Setting("WARLOG_MAIL_IN_ADDRESS", "(unset: no play by mail)", "play by mail: the inbound address "
            "(play@your.domain) replies go to as play+<token>@your.domain (`warlog mail-in`)"),
    Setting("WARLOG_MAIL_BOARD", "1", "0 to leave the board's picture out of turn mails"),
    Setting("WARLOG_MAIL_IN_AUTHSERV_ID", "(unset)", "`warlog mail-in`: the authserv-id of your MTA's "
            "Authentication-Results"),
)
SETTINGS = {s.name: s.meaning for s in ALL}
# read by the tests, benchmarks, scripts and fault injection rather than by the server
OTHER_KNOWN = {"WARLOG_FAULT_DELAY_BEFORE_APPEND", "WARLOG_FAULT_DELAY_BEFORE_SERVICES",
               "WARLOG_TEST_PG_URL", "WARLOG_TEST_REDIS_URL", "WARLOG_VENV", "WARLOG_SKIP_LINT",
               "WARLOG_CHROMIUM", "WARLOG_BENCH_PG_URL", "WARLOG_BENCH_REDIS_URL", "WARLOG_BENCH_STAGES",
               "WARLOG_BENCH_PROFILE", "WARLOG_FUZZ_EXAMPLES", "WARLOG_PERIODIC",
               "WARLOG_FAULT_MAIL_IN_HOLD", "WARLOG_FAULT_MAIL_IN_EXIT_AFTER_SUBMIT", "WARLOG_TEST_CONNECT_WAIT",
               "WARLOG_TEST_WORKERS"}


def table() -> str:
    """docs/deployment.md's settings table (Markdown)."""
    rows = ["| setting | default | what |", "|---|---|---|"]
    rows += [f"| `{s.name}` | {s.default} | {s.meaning} |" for s in ALL]
    return "\n".join(rows) + "\n"


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


def env_example() -> str:
    """deploy/warlog.env.example: every setting, commented out, with its meaning."""
    out = ["# Warlog's settings (docs/deployment.md's table; generated by `python -m warlog.config env`).",
           "# The same file for every web process, worker and `warlog live` (EnvironmentFile=)."]
    for s in ALL:
        out += ["", f"# {s.meaning} (default: {s.default})", f"#{s.name}="]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import sys

    print(env_example() if sys.argv[1:] == ["env"] else table(), end="")
