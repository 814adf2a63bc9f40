"""`warlog db prune`: the snapshots and idempotency keys of ended games go, every event
stays, and games that have not ended keep theirs (housekeeping is not history)."""

from __future__ import annotations

from click.testing import CliRunner

from ledger.events import NewEvent
from ledger.housekeeping import prune_ended
from warlog.cli import main


def test_prune_deletes_only_the_housekeeping_of_ended_games(backend, store, make_game):
    for gid in ("a", "b", "c"):
        make_game(store, gid)
        store.append(gid, 0, [NewEvent("submitted", "red", {})], idempotency_key=f"k-{gid}")
        store.save_snapshot(gid, 1, {"n": gid})
    for gid in ("a", "c"):
        store.append(gid, 1, [NewEvent("game_ended", None, {"winner": "red"})])
    events = {gid: store.read(gid) for gid in ("a", "b", "c")}
    done = prune_ended(store, batch=1)  # one game per transaction: the walk crosses pages
    assert (done.games, done.snapshots, done.keys) == (2, 2, 2)
    assert store.latest_snapshot("a", 9) is None and store.idempotent_seq("a", "k-a", "red") is None
    assert store.latest_snapshot("b", 9) == (1, {"n": "b"}) and store.idempotent_seq("b", "k-b", "red") == 1
    assert {gid: store.read(gid) for gid in ("a", "b", "c")} == events
    r = CliRunner().invoke(main, ["db", "prune", "--db", store.url])
    assert r.exit_code == 0 and "2 ended games: 0 snapshots and 0 idempotency keys deleted" in r.output, r.output
