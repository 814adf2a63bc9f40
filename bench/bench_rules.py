"""Bench figures that need no server: per-game rules step time and verify over a generated archive.

Imported by bench/bench.py; also runnable alone:

    python bench/bench_rules.py --games 20 --moves 30      # a small archive
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ledger.events import GAME_STARTED, RESOLVED, SUBMITTED  # noqa: E402
from ledger.export import export_lines, parse_export  # noqa: E402
from ledger.fold import step  # noqa: E402
from rules import all_games, get_game  # noqa: E402
from rules.core.dice import fixed_dice  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"


def say(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)


def rules_steps(path: Path) -> tuple[str, int, float, float]:
    """Replay a golden ledger's judged moves through the rules alone: (game, moves, legal-actions
    ms per move, apply ms per move), the apply fed the dice each move recorded."""
    import copy

    events = parse_export(path.open("rb"))
    created = events[0].payload
    game = get_game(created["game"], created.get("rules_version") or None)
    subs, state = {}, None
    t_legal = t_apply = 0.0
    moves = 0
    for ev in events:
        if ev.type == GAME_STARTED:
            state = copy.deepcopy(ev.payload["state"])
        elif ev.type == SUBMITTED:
            subs[ev.seq] = ev
        elif ev.type == RESOLVED:
            sub = subs[ev.payload["submission_seq"]]
            if sub.seat in game.active_seats(state) and "action" in sub.payload:
                t = time.perf_counter()
                game.legal_actions(state, sub.seat)
                t_legal += time.perf_counter() - t
                dice = fixed_dice([d["value"] for d in ev.payload.get("dice", [])])
                t = time.perf_counter()
                game.apply(state, sub.seat, sub.payload["action"], dice)
                t_apply += time.perf_counter() - t
                moves += 1
            state = step(state, ev)
    return game.name, moves, 1000 * t_legal / max(moves, 1), 1000 * t_apply / max(moves, 1)


def figure_rules_steps() -> dict[str, tuple[float, float]]:
    print("5. rules step time per game (golden ledgers replayed: legal actions listed + the move applied)")
    per_game: dict[str, list[tuple[int, float, float]]] = {}
    for path in sorted(GOLDEN.glob("*.jsonl")):
        name, moves, legal_ms, apply_ms = rules_steps(path)
        per_game.setdefault(name, []).append((moves, legal_ms, apply_ms))
    out = {}
    for name, rows in sorted(per_game.items()):
        n = sum(m for m, _, _ in rows)
        legal = sum(m * lg for m, lg, _ in rows) / n
        apply = sum(m * ap for m, _, ap in rows) / n
        out[name] = (legal, apply)
        say(f"{name} ({n} moves)", f"legal actions {legal:.2f} ms + apply {apply:.2f} ms per move")
    return out


def chooser(seed: int) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    """A deterministic pick among legal actions (no `random`): a linear congruential walk."""
    state = [seed]

    def pick(actions: list[dict[str, Any]]) -> dict[str, Any]:
        state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) % 2**64
        return actions[(state[0] >> 33) % len(actions)]

    return pick


def started_game(svc: Any, game: str) -> dict[str, Any]:
    """A new game of `game` (its first scenario) with every seat joined: the create answer."""
    created: dict[str, Any] = svc.create_game(game, None, {})
    for token in created["seats"].values():
        svc.join(created["id"], token)
    return created


def bot_game(svc: Any, resolver: Any, store: Any, game: str, moves: int, seed: int) -> str:
    """One game of `game` played by a deterministic bot for up to `moves` moves (or its end)."""
    created = started_game(svc, game)
    gid = created["id"]
    pick = chooser(seed)
    viewers = {seat: (token, svc.viewer(gid, token)) for seat, token in created["seats"].items()}
    for _ in range(moves):
        listing = None
        for token, viewer in viewers.values():
            got = svc.actions(gid, viewer)
            if got["actions"]:
                listing = (token, got)
                break
        if listing is None:
            break
        token, got = listing
        svc.submit_move(gid, token, pick(got["actions"]), got["expected_seq"], uuid.uuid4().hex)
        resolver.run(gid)
    return gid


def make_archive(where: Path, games: int, moves: int) -> list[Path]:
    """`games` bot games over every game module in turn, exported one file each into `where`
    (kept and reused: a second run with the same counts only lists the files)."""
    from ledger.factory import open_store
    from warlog.games.service import Warlog
    from warlog.judging.queue import InlineQueue
    from warlog.judging.resolver import Resolver

    where.mkdir(parents=True, exist_ok=True)
    have = sorted(where.glob("*.jsonl"))
    if len(have) >= games:
        return have[:games]
    names = [g.name for g in all_games() if type(g).__module__.startswith("rules.")]
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/archive.sqlite3")
        queue = InlineQueue(store)
        svc, resolver = Warlog(store, lambda gid: None), Resolver(store)
        for i in range(len(have), games):
            gid = bot_game(svc, resolver, store, names[i % len(names)], moves, i + 1)
            (where / f"{i:05d}-{gid}.jsonl").write_text("".join(export_lines(store, gid)), encoding="utf-8")
        queue.pool.shutdown()
        store.close()
    return sorted(where.glob("*.jsonl"))[:games]


def figure_archive(games: int, moves: int, where: Path | None, verify: Callable[[list[Path]], Any] | None = None
                   ) -> float:
    """Verify every file of a generated archive; `verify` defaults to one file after another."""
    from warlog.trust.verify import verify_bytes

    print(f"6. verify over a generated archive ({games} bot games of up to {moves} moves, every game module)")
    tmp = None
    if where is None:
        tmp = tempfile.TemporaryDirectory()
        where = Path(tmp.name)
    t = time.perf_counter()
    files = make_archive(where, games, moves)
    say("generating the archive (or reusing it)", f"{time.perf_counter() - t:.1f} s, {len(files)} files")
    events = sum(sum(1 for line in f.open("rb") if line.strip()) for f in files)
    try:  # `warlog verify` on every core, where this build has it
        from warlog.trust.verify_parallel import verify_paths
    except ImportError:
        verify_paths = None  # type: ignore[assignment]
    t = time.perf_counter()
    if verify is not None:
        verify(files)
    elif verify_paths is not None:
        for _path, result in verify_paths(files):
            assert not isinstance(result, Exception), result
    else:
        for f in files:
            verify_bytes(f.read_bytes())
    rate = events / (time.perf_counter() - t)
    say("verify, archive", f"{rate:,.0f} events/s  ({events:,} events, {os.cpu_count()} cores)")
    floor = parse_and_hash_floor(files)
    say("its floor: parse every line and chain its SHA-256, same processes", f"{floor:,.0f} events/s")
    say("verify / floor (goal >= 0.4)", f"{rate / floor:.2f}x  (load average {load()})")
    global LAST_FLOOR
    LAST_FLOOR = floor
    if tmp is not None:
        tmp.cleanup()
    return rate


LAST_FLOOR = 0.0  # the floor of the last verify figure (printed by --figure for bench.py)
LAST_ONE = 0.0  # the long game's rate on one process, beside its one-process floor


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _parse_and_hash(path: Path) -> int:
    """What any verifier must do at least: parse each event line and chain its hash."""
    import hashlib
    import json

    chain, n = b"", 0
    for line in path.read_bytes().splitlines():
        if line.strip():
            json.loads(line)
            chain = hashlib.sha256(chain + line).digest()
            n += 1
    return n


def parse_and_hash_floor(files: list[Path]) -> float:
    """events/s of `_parse_and_hash` over `files` on one process per core (as `warlog verify`)."""
    import multiprocessing

    t = time.perf_counter()
    with multiprocessing.get_context("forkserver").Pool(os.cpu_count() or 1) as pool:
        events = sum(pool.map(_parse_and_hash, files, chunksize=16))
    return events / (time.perf_counter() - t)


def figure_long_verify() -> float:
    """The longest golden ledger (a Vietnam Battles game) verified alone."""
    from warlog.trust.verify import verify_bytes

    path = max(GOLDEN.glob("vietnam-battles--*.jsonl"), key=lambda p: p.stat().st_size)
    data = path.read_bytes()
    times = []
    for _ in range(3):
        t = time.perf_counter()
        report = verify_bytes(data)
        times.append(time.perf_counter() - t)
    rate = report.events / statistics.median(times)
    say(f"verify, one long game ({path.name}, {report.events:,} events)", f"{rate:,.0f} events/s")
    floors = []
    for _ in range(3):
        t = time.perf_counter()
        _parse_and_hash(path)
        floors.append(time.perf_counter() - t)
    global LAST_FLOOR, LAST_ONE
    LAST_FLOOR, LAST_ONE = report.events / statistics.median(floors), rate
    say("its floor: parse every line and chain its SHA-256, one process", f"{LAST_FLOOR:,.0f} events/s")
    say("verify / floor (goal >= 0.3)", f"{rate / LAST_FLOOR:.2f}x  (load average {load()})")
    try:
        from warlog.trust.verify_parallel import verify_paths
    except ImportError:
        return rate
    t = time.perf_counter()
    [(_, result)] = list(verify_paths([path]))
    assert not isinstance(result, Exception), result
    par = report.events / (time.perf_counter() - t)
    say(f"verify, the same game on {os.cpu_count()} processes (windows)", f"{par:,.0f} events/s")
    return max(rate, par)


def in_fresh_process(figure: str, games: int = 20, moves: int = 30, archive: Path | None = None) -> float:
    """A verify figure ("long" or "archive") measured in a process of its own, as `warlog verify`
    runs: a process with other threads (the pools of bench.py's earlier figures) may not fork its
    verifying processes and starts a forkserver instead (warlog.trust.verify_parallel.start_context).
    Its lines are printed here; returns its rate."""
    import subprocess

    cmd = [sys.executable, str(Path(__file__)), "--figure", figure, "--games", str(games), "--moves", str(moves)]
    if archive is not None:
        cmd += ["--archive", str(archive)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout.splitlines()
    for line in out[:-3]:
        print(line, flush=True)
    global LAST_FLOOR, LAST_ONE
    LAST_ONE = float(out[-3].removeprefix("one="))
    LAST_FLOOR = float(out[-2].removeprefix("floor="))
    return float(out[-1].removeprefix("rate="))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--moves", type=int, default=30)
    p.add_argument("--archive", type=Path, default=None, help="keep the generated archive here and reuse it")
    p.add_argument("--figure", choices=["long", "archive"], default=None,
                   help="only this verify figure, its rate on a last line (bench.py runs it so)")
    a = p.parse_args()
    if a.figure is not None:
        rate = figure_long_verify() if a.figure == "long" else figure_archive(a.games, a.moves, a.archive)
        print(f"one={LAST_ONE}")
        print(f"floor={LAST_FLOOR}")
        print(f"rate={rate}")
        return
    figure_rules_steps()
    figure_long_verify()
    figure_archive(a.games, a.moves, a.archive)


if __name__ == "__main__":
    main()
