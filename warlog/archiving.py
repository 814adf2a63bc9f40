"""Archiving a creation period on PostgreSQL (issue 16): what must hold before its partitions
are detached, and re-importing a period from its bundle when its dump is gone.

`warlog archive detach PERIOD --bundle DIR` refuses unless every game created in the period
has ended, none is pending, the bundle's files match its manifest and each verifies offline,
and the bundle holds exactly the period's streams with their event counts and chain heads as
the ledger has them. Only then does ledger.partitions.detach run."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.archive import MANIFEST, check_bundle
from ledger.export import parse_export, summary_from_events
from ledger.partitions import Head, add_periods, attached, bounds, check_period, heads
from ledger.postgres import PostgresStore
from ledger.store import GameExists
from warlog.verify import VerifyFailure, verify_bytes, verify_events


def manifest_heads(bundle: Path) -> dict[str, Head]:
    games = json.loads((bundle / MANIFEST).read_text(encoding="utf-8"))["games"]
    return {g["game_id"]: Head(int(g["events"]), g["head"]) for g in games}


def check_detachable(store: PostgresStore, period: str, bundle: Path) -> list[str]:
    """Every reason the period may not be detached yet (empty when it may)."""
    check_period(period)
    if period not in attached(store):
        return [f"period {period} has no attached partition"]
    start, end = bounds(period)
    problems = []
    with store._conn() as conn:
        open_games = conn.execute("SELECT game_id, status FROM games WHERE created_at >= %s AND created_at < %s "
                                  "AND status <> 'ended' ORDER BY created_at LIMIT 6", (start, end)).fetchall()
        waiting = conn.execute("SELECT count(*) FROM pending p JOIN games g ON g.game_id = p.game_id "
                               "WHERE g.created_at >= %s AND g.created_at < %s", (start, end)).fetchone()
    if open_games:
        problems.append(f"games of {period} have not ended: "
                        + ", ".join(f"{g} ({s})" for g, s in open_games[:5]) + (" ..." if len(open_games) > 5 else ""))
    if waiting and waiting[0]:
        problems.append(f"{waiting[0]} submissions of {period}'s games are pending")
    if not (bundle / MANIFEST).is_file():
        return problems + [f"no bundle at {bundle}: run warlog archive export {bundle} --period {period} first"]
    manifest = json.loads((bundle / MANIFEST).read_text(encoding="utf-8"))
    if manifest.get("period") != {"from": start, "before": end}:
        problems.append(f"the bundle is of {manifest.get('period')}, not of {period} [{start}, {end})")
    problems += check_bundle(bundle)
    for entry in manifest["games"]:
        path = bundle / entry["file"]
        if path.is_file():
            try:
                verify_bytes(path.read_bytes())
            except VerifyFailure as err:
                problems.append(f"{entry['file']}: {err}")
    stored, exported = heads(store, period), manifest_heads(bundle)
    missing = sorted(set(stored) - set(exported))
    if missing:
        problems.append(f"{len(missing)} streams of {period} are not in the bundle: {', '.join(missing[:5])}")
    differ = sorted(g for g in set(stored) & set(exported) if stored[g] != exported[g])
    if differ:
        problems.append(f"{len(differ)} games differ from the bundle (events or chain head): {', '.join(differ[:5])}")
    extra = sorted(set(exported) - set(stored))
    if extra:
        problems.append(f"{len(extra)} games of the bundle are not in the ledger's {period}: {', '.join(extra[:5])}")
    return problems


def import_bundle(store: PostgresStore, period: str, bundle: Path) -> tuple[int, list[str]]:
    """Load every game of a checked bundle into the ledger again (its partition is made
    first); returns the games imported and the problems (a game present, a head that differs)."""
    add_periods(store, [check_period(period)])
    expected = manifest_heads(bundle)
    problems, done = check_bundle(bundle), 0
    if problems:
        return 0, problems
    for game_id in sorted(expected):
        with open(bundle / f"{game_id}.jsonl", "rb") as fh:
            events = parse_export(fh)
        try:
            verify_events(events)
            store.import_events(events, None, summary_from_events(events))
        except (VerifyFailure, GameExists) as err:
            problems.append(f"{game_id}: {err}")
            continue
        done += 1
    after = heads(store, period)
    problems += [f"{g}: chain head after import differs from the manifest" for g, h in expected.items()
                 if g in after and after[g] != h]
    return done, problems
