"""A long legal game built in memory and imported once (the 100,000-event figures).

`long_game` in bench/bench.py goes through the service, the worker and the ledger for every move
(~60 events/s), so 100,000 events would take half an hour. Here the game is created and joined
through the service (its real `game_created`, `seat_joined` and `game_started` events and its
secret seed), then the same bot (Belgium selecting, placing and picking up units during set-up,
`chooser(7)`) plays on in memory: every move is a `submitted` event judged by the rules'
`judge_keyed` with the dice the worker would derive, sealed into the hash chain. The events are
then imported into each target store with one snapshot every SNAPSHOT_EVERY events (as the
worker leaves them), so reading the game back costs what it costs a game played live.
"""

from __future__ import annotations

import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_rules import chooser, started_game  # noqa: E402

from ledger.canonical import GENESIS_HASH  # noqa: E402
from ledger.dice import DerivedDice, dice_stream_of  # noqa: E402
from ledger.events import SUBMITTED, Event, NewEvent, seal, utc_now  # noqa: E402
from ledger.factory import open_store  # noqa: E402
from ledger.fold import fold, step  # noqa: E402
from ledger.jsondiff import diff  # noqa: E402
from ledger.projection import summary_from_events  # noqa: E402
from ledger.store import EventStore  # noqa: E402
from rules import get_game  # noqa: E402
from validators.actions import validate_action  # noqa: E402
from warlog.games.history import SNAPSHOT_EVERY, StoreHistory, entropy_of  # noqa: E402
from warlog.judging.judge import judge_keyed  # noqa: E402

GAME = "assault-on-belgium"


def build_events(events: int, seed: int = 7) -> tuple[list[Event], bytes]:
    """A legal Assault on Belgium game of about `events` events (set-up moves only), and its
    secret seed. Deterministic but for the game id, the seed and the times recorded."""
    from warlog.games.service import Warlog
    from warlog.judging.queue import InlineQueue

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/start.sqlite3")
        queue = InlineQueue(store)
        svc = Warlog(store, lambda gid: None)
        created = started_game(svc, GAME)
        gid = created["id"]
        out = list(store.iter_events(gid))
        secret = store.secret(gid)
        entropy = entropy_of(store, gid, len(out[0].payload["roles"]))
        queue.pool.shutdown()
        store.close()
    assert secret is not None
    created_ev = out[0]
    game = get_game(GAME, created_ev.payload.get("rules_version") or None)
    stream = dice_stream_of(created_ev)
    state = fold(out)
    pick = chooser(seed)
    history = StoreHistory.__new__(StoreHistory)  # never read: set-up moves are not rulings
    while out[-1].seq < events - 2:
        legal = [a for a in game.legal_actions(state, "belgium") if a["type"] in ("select", "place", "unplace")]
        action = validate_action(GAME, pick(legal))
        last = out[-1]
        sub = seal(gid, last.seq + 1, NewEvent(SUBMITTED, "belgium", {"action": action, "expected_seq": last.seq}),
                   utc_now(), last.hash)
        # the patch is the worker's own structural diff (ledger.jsondiff), added below
        j = judge_keyed(game, state, sub, lambda _r, s=sub: DerivedDice(secret, stream, s.seq, entropy),
                        history, False, patches=False)
        assert j.kind == "resolved", j.payload
        j.payload["patch"] = diff(state, j.state)
        judged = seal(gid, sub.seq + 1, NewEvent(j.kind, None, j.payload), utc_now(), sub.hash)
        out += [sub, judged]
        state = j.state
    return out, secret


def import_game(store: EventStore, events: list[Event], secret: bytes) -> str:
    """Import `events` into `store` with the snapshots the worker would have left; the game id."""
    store.import_events(events, secret, summary_from_events(events))
    gid = events[0].game_id
    state: Any = None
    for ev in events:
        state = step(state, ev)  # in place: the events keep their own copies
        if ev.seq % SNAPSHOT_EVERY == 0 and state is not None:
            store.save_snapshot(gid, ev.seq, state)
    return gid



def renamed(events: list[Event]) -> list[Event]:
    """The same events under a new game id, the chain sealed again (a second copy in one ledger)."""
    gid, out, prev = uuid.uuid4().hex[:16], [], GENESIS_HASH
    for ev in events:
        sealed = seal(gid, ev.seq, NewEvent(ev.type, ev.seat, ev.payload), ev.recorded_at, prev)
        out.append(sealed)
        prev = sealed.hash
    return out
