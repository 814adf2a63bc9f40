"""Archiving a creation period on PostgreSQL: what must hold before its partitions
are detached, and re-importing a period from its bundle when its dump is gone.

`warlog archive detach PERIOD --bundle DIR` refuses unless every game created in the period
has ended, none is pending, the bundle's files match its manifest and each verifies offline,
and the bundle holds exactly the period's streams with their event counts and chain heads as
the ledger has them. Only then does ledger.partitions.detach run.

Tournament streams live in `events` too, in the month the tournament was created: the period's
ended tournaments go into the bundle as tournament bundles (warlog.tournaments.bundle: the
stream and every game's export, verified offline as `warlog verify` does), listed under
"tournaments" in the manifest; a tournament still running keeps its month attached. The
`tournaments` and `tournament_games` rows are a projection outside the partitions and stay."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ledger.archive import MANIFEST, check_bundle
from ledger.events import Event
from ledger.export import parse_export, summary_from_events
from ledger.partitions import Head, add_periods, attached, bounds, check_period, heads
from ledger.postgres import PostgresStore, period_of
from ledger.sqlstore import EVENT_COLUMNS, event_row
from ledger.store import EventStore, GameExists
from warlog.ops.sqldb import SqlDb
from warlog.tournaments.bundle import BundleFailure, bundle_lines, verify_bundle_bytes
from warlog.trust.verify import VerifyFailure, verify_bytes, verify_events

TOURNAMENTS = "tournaments"  # the manifest's list of tournament bundles


def _tournaments(store: EventStore, start: str, end: str, *, ended: bool) -> list[tuple[str, str]]:
    """(id, status) of the tournaments created in [start, end): the ended ones, or the others."""
    return [(r[0], r[1]) for r in SqlDb(store).rows(
        "SELECT id, status FROM tournaments WHERE created_at >= ? AND created_at < ? AND "
        + ("status = 'ended'" if ended else "status <> 'ended'") + " ORDER BY created_at, id", (start, end))]


def export_tournaments(store: EventStore, start: str, end: str, out: Path) -> list[dict[str, Any]]:
    """Write each ended tournament created in [start, end) to `out/tournament-<id>.jsonl` (its
    bundle) and list it in the manifest (written by ledger.archive.export_period first) with
    its stream's event count and chain head and the file's SHA-256."""
    from warlog.tournaments.store import TournamentStore

    tstore = TournamentStore(SqlDb(store))
    done = []
    for tid, _ in _tournaments(store, start, end, ended=True):
        name = f"tournament-{tid}.jsonl"
        digest = hashlib.sha256()
        with open(out / name, "w", encoding="utf-8", newline="") as fh:
            for line in bundle_lines(store, tstore, tid):
                fh.write(line)
                digest.update(line.encode("utf-8"))
        stream = tstore.read(tid)
        done.append({"tournament_id": tid, "file": name, "events": len(stream), "head": stream[-1].hash,
                     "sha256": digest.hexdigest()})
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest[TOURNAMENTS] = done
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return done


def verify_tournaments(bundle: Path) -> list[str]:
    """Each tournament bundle of a period's bundle verified offline (its stream, pairings,
    results and standings, and every game's chain)."""
    problems = []
    for entry in json.loads((bundle / MANIFEST).read_text(encoding="utf-8")).get(TOURNAMENTS, []):
        path = bundle / entry["file"]
        if path.is_file():
            try:
                verify_bundle_bytes(path.read_bytes())
            except (BundleFailure, VerifyFailure) as err:
                problems.append(f"{entry['file']}: {err}")
    return problems


def _stream(path: Path, tid: str) -> list[Event]:
    """The tournament's own events from its bundle file (the games' events follow them)."""
    events = []
    with open(path, encoding="utf-8") as fh:
        next(fh)  # the header
        for line in fh:
            doc = json.loads(line)
            if doc.get("game_id") != tid:
                break
            events.append(Event.from_json(doc))
    return events


def manifest_heads(bundle: Path) -> dict[str, Head]:
    manifest = json.loads((bundle / MANIFEST).read_text(encoding="utf-8"))
    streams = [(g["game_id"], g) for g in manifest["games"]]
    streams += [(t["tournament_id"], t) for t in manifest.get(TOURNAMENTS, [])]
    return {sid: Head(int(e["events"]), e["head"]) for sid, e in streams}


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
    running = _tournaments(store, start, end, ended=False)
    if running:
        problems.append(f"tournaments of {period} have not ended: "
                        + ", ".join(f"{t} ({s})" for t, s in running[:5]) + (" ..." if len(running) > 5 else ""))
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
    problems += verify_tournaments(bundle)
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
    problems, done = check_bundle(bundle) + verify_tournaments(bundle), 0
    if problems:
        return 0, problems
    manifest = json.loads((bundle / MANIFEST).read_text(encoding="utf-8"))
    tournaments = {t["tournament_id"]: t["file"] for t in manifest.get(TOURNAMENTS, [])}
    for tid, name in sorted(tournaments.items()):
        problem = _import_stream(store, period, _stream(bundle / name, tid))
        if problem:
            problems.append(f"{tid}: {problem}")
    for game_id in sorted(set(expected) - set(tournaments)):
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


def _import_stream(store: PostgresStore, period: str, events: list[Event]) -> str | None:
    """A tournament's stream inserted into the period's partition again (its bundle verified
    first; inserting is what the append-only trigger permits). A problem, or None."""
    if not events or period_of(events[0].recorded_at) != period:
        return f"its stream does not start in {period}"
    try:
        with store._write() as conn:
            for ev in events:
                conn.execute(f"INSERT INTO events ({EVENT_COLUMNS}, period) VALUES "
                             "(%s, %s, %s, %s, %s, %s, %s, %s, %s)", (*event_row(ev), period))
    except Exception as err:  # a stream already there (primary key), a period not attached
        return f"not imported: {str(err).splitlines()[0]}"
    return None
