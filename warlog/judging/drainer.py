"""A judging job drains; it does not carry one move.

After judging its own game, an RQ job stays a while as a *drainer*: it promises in Redis to
look at the list WAKE soon (the sorted set ALIVE, member its job id, score when the promise runs
out, renewed with each wait, in the wait's round trip) and waits on WAKE. A submission that finds a live promise pushes
its game id onto WAKE instead of queueing a job (`offer`); a drainer woken judges that game and
waits again. So RQ's per-job cost is paid once per burst of moves, not once per move. When
wake-ups pile up (a backlog), one *recruit* job is queued so that another worker starts a
drainer too, and each wake-up goes to one waiter (BLPOP).

Why nothing is lost: a drainer leaves ALIVE *before* its last look at the ledger's pending set,
and a submission is committed *before* it looks at ALIVE. So a submission that saw a promise is
committed before that drainer's last look, which finds it. Wake-ups are hints; the ledger's
pending set says what is to judge, and the per-game lock and the ledger's (game_id, seq) key
keep a second judgement out, as before.

A drainer killed (-9) leaves a promise that runs out by itself within WAIT + LEASE seconds; a move
offered to it in that window stays pending in the ledger until another drainer's last look or
the sweep finds it (nothing is lost, only that move waits). A judgement longer than LEASE lets
the promise lapse meanwhile, and submissions queue jobs as before. Nothing here replaces the
sweep.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ledger.store import LockTimeout

log = logging.getLogger("warlog.judging.drainer")

ALIVE = "warlog:drainers:alive"
WAKE = "warlog:drainers:wake"
RECRUIT = "warlog:drainers:recruit"  # held while a recruit job is queued
WAIT = 0.5  # seconds one wait for a wake-up lasts
LEASE = 2.0  # seconds a promise lasts after the wait it was renewed with (a woken judgement's time)
QUIET_ROUNDS = 2  # waits in a row without a wake-up before the drainer ends its job
LIFETIME = 20.0  # seconds a drainer keeps its job at most (the notification queue waits meanwhile)
WAKE_CAP = 10_000  # wake-ups kept at most (hints: the ledger's pending set is the truth)
LOCK_WAIT = 10.0  # seconds a drainer waits for a game another holder is finishing
# Waiters per draining job (`drain`'s `threads`). 1: on this 2-core machine, under load, 4 waiters
# judged no faster end to end (bench e2e A/B, 2026-11-24: 42 and 41 moves/s with 1, 40 and 34 with
# 4; more runs found nothing to judge, and RQ ran more jobs); more may pay where the worker has cores
# to spare and the ledger is farther away.
THREADS = 1
LAST_LOOK_THREADS = 4  # games a drainer's last look (and a worker's catch-up) judges at once
STOP = threading.Event()  # set by the worker on a stop request: drainers end at their next turn
END, LOOK = "end", "look"  # what `others_wait` may answer (`jobs_waiting`)
LOOK_EVERY = WAIT  # seconds between two looks at the queue while judging jobs wait (`drain`)


# offer's one round trip (KEYS: ALIVE, WAKE, RECRUIT; ARGV: now, the game id, WAKE_CAP): no live
# promise -> 0; else the game pushed onto WAKE, which is kept to WAKE_CAP entries, and {backlog,
# 1 if this offer took RECRUIT (a backlog: the caller queues the recruit job) else 0}.
_OFFER = """
if redis.call('ZCOUNT', KEYS[1], ARGV[1], '+inf') == 0 then return 0 end
local backlog = redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
local recruit = 0
if backlog > 1 and redis.call('SET', KEYS[3], '1', 'NX', 'EX', 60) then recruit = 1 end
return {backlog, recruit}
"""


def offer(redis: Any, game_id: str, recruit: Callable[[], object]) -> bool:
    """Hand the game to a live drainer, if there is one: True if so (then no job is needed).
    Call only after the submission is committed. With a backlog, `recruit()` queues one job
    that starts another drainer (at most one such job waits at a time). One round trip to
    Redis (a script: the look at ALIVE and the push are one step), the recruit's aside."""
    answer = redis.register_script(_OFFER)(keys=[ALIVE, WAKE, RECRUIT], args=[time.time(), game_id, WAKE_CAP])
    if not answer:
        return False
    if int(answer[1]):
        recruit()
    return True


def drain(redis: Any, member: str, judge: Callable[[str, float], int], pending: Callable[[], list[str]],
          on_judged: Callable[[str], None], lifetime: float = LIFETIME,
          others_wait: Callable[[], object] = lambda: None, threads: int = 1,
          take_queued: Callable[[], list[str]] = lambda: []) -> int:
    """Judge woken games until QUIET_ROUNDS waits pass without a wake-up (or `lifetime` is
    spent, or STOP is set, or `others_wait()` answers END or True: jobs queued behind this one,
    such as a notification, must not wait for a drainer's lifetime), then leave ALIVE and
    judge what the pending set still holds. While `others_wait()` answers LOOK (only judging
    jobs wait: a game's job queued when no promise was live, the sweep's, a recruit), the
    drainer judges those jobs' games itself, every LOOK_EVERY s, and stays: `take_queued()`
    takes the game jobs off the queue and answers their games (warlog.judging.onejob). What
    those jobs would judge is judged as soon, and its promise stays live. Ending for them instead made each burst of moves
    self-sustaining: while no drainer lived every submission queued a job, and while jobs were
    queued every drainer ended at once (bench/bench.py's 50-game run: 190 of 193 drainers, half
    of all judging runs finding nothing).
    `judge(game_id, lock_timeout)` judges one game and returns how many it judged;
    `on_judged(game_id)` is told after each game that had something judged.
    With `threads` > 1, that many waiters (members `member:i` of ALIVE) wait and judge at once:
    a judgement spends most of its time waiting on the ledger and Redis, so one worker process
    overlaps several (the per-game lock keeps two off one game). The last look starts when every
    waiter has left ALIVE, and is shared among them."""
    if threads <= 1:
        judged = _wait_and_judge(redis, member, judge, take_queued, on_judged, lifetime, others_wait)
        # The last look, after leaving ALIVE: whatever was offered to us is in the pending set now,
        # several games at a time (one game whose lock another worker holds held every game behind
        # it for up to LOCK_WAIT s, found by bench/netsoak.py).
        return judged + judge_all(pending(), judge, on_judged)
    counts: list[int] = []
    errors: list[BaseException] = []

    def run_all(work: Callable[[int], int]) -> None:
        def one(i: int) -> None:
            try:
                n = work(i)
            except BaseException as err:  # re-raised by drain, after every waiter has ended
                errors.append(err)
                return
            counts.append(n)

        waiters = [threading.Thread(target=one, args=(i,), name=f"warlog-drainer-{i}", daemon=True)
                   for i in range(threads)]
        for t in waiters:
            t.start()
        for t in waiters:
            t.join()
        if errors:
            raise errors[0]

    run_all(lambda i: _wait_and_judge(redis, f"{member}:{i}", judge, take_queued, on_judged, lifetime,
                                      others_wait))
    left = list(pending())  # the last look, once every waiter has left ALIVE, shared among them
    take = threading.Lock()

    def last_look(_i: int) -> int:
        n = 0
        while True:
            with take:
                if not left:
                    return n
                game_id = left.pop(0)
            n += _judge_one(game_id, judge, on_judged)

    run_all(last_look)
    return sum(counts)


def _wait_and_judge(redis: Any, member: str, judge: Callable[[str, float], int], take_queued: Callable[[], list[str]],
                    on_judged: Callable[[str], None], lifetime: float, others_wait: Callable[[], object]) -> int:
    """One waiter: promise, wait for a wake-up, judge, until it ends (see `drain`); it has left
    ALIVE when it returns or raises. A look judges the games whose jobs `take_queued()` took off
    the queue, each of them even if another holder keeps its lock a while (`judge_all`)."""
    judged = 0
    ends = time.monotonic() + lifetime
    quiet = 0
    looked = -LOOK_EVERY
    try:
        while time.monotonic() < ends and quiet < QUIET_ROUNDS and not STOP.is_set():
            waiting = others_wait()
            if waiting == LOOK:
                if time.monotonic() - looked >= LOOK_EVERY:
                    looked = time.monotonic()
                    judged += judge_all(take_queued(), judge, on_judged)
            elif waiting:
                break
            woken = _promise_and_wait(redis, member)
            if woken is None:
                quiet += 1
                continue
            quiet = 0
            judged += _judge_one(woken[1].decode(), judge, on_judged)
    finally:
        redis.zrem(ALIVE, member)
        redis.zremrangebyscore(ALIVE, "-inf", time.time())  # the promises of killed drainers
    return judged


def _promise_and_wait(redis: Any, member: str) -> Any:
    """Renew the promise and wait for a wake-up (BLPOP's answer), in one round trip (a pipeline).
    The promise lasts the wait and LEASE s after it, so a wake-up is judged at once, within it:
    a renewal of its own before each judgement cost every woken move a round trip more to the
    data host (found by bench/netsoak.py; bench/worker_round_trips.py counts them)."""
    pipe = redis.pipeline(transaction=False)
    pipe.zadd(ALIVE, {member: time.time() + WAIT + LEASE})
    pipe.blpop([WAKE], timeout=WAIT)
    return pipe.execute()[1]


def jobs_waiting(redis: Any, queue_keys: Sequence[str], judging_keys: Sequence[str] = ()) -> Callable[[], str | None]:
    """`others_wait` for `drain`: END when any of the RQ queues `queue_keys` (their Redis list
    keys) holds a job, else LOOK when one of `judging_keys` (queues of judging jobs only) does,
    else None; one pipelined LLEN of each a wait."""

    def check() -> str | None:
        pipe = redis.pipeline(transaction=False)
        for key in (*queue_keys, *judging_keys):
            pipe.llen(key)
        counts = pipe.execute()
        if any(counts[:len(queue_keys)]):
            return END
        return LOOK if any(counts[len(queue_keys):]) else None

    return check


def judge_all(games: list[str], judge: Callable[[str, float], int], on_judged: Callable[[str], None],
              threads: int = LAST_LOOK_THREADS, each: Callable[[str, float], int] | None = None) -> int:
    """`_judge_one` (or `each(game_id, lock_wait)`) for each game, `threads` games at a time (a
    judgement mostly waits on round trips, and on a game's lock while another worker finishes
    it); how many were judged. A game whose lock is held elsewhere is passed over at first,
    without waiting, and taken again after the others, waiting for its lock then: two workers
    going through one pending set (their last looks, their catch-ups after a heal) judge
    different games side by side, not one waiting on the other's lock game after game (found by
    bench/netsoak.py: each game of a backlog cost the second worker a wait and a look at nothing)."""
    one = each or (lambda game_id, wait: _judge_one(game_id, judge, on_judged, wait))
    held: list[str] = []

    def first(game_id: str) -> int:
        try:
            return one(game_id, 0.0)
        except LockTimeout:
            held.append(game_id)
            return 0

    judged = _each(first, games, threads)
    return judged + _each(lambda game_id: one(game_id, LOCK_WAIT), held, threads)


def _each(one: Callable[[str], int], games: list[str], threads: int) -> int:
    if len(games) <= 1 or threads <= 1:
        return sum(one(game_id) for game_id in games)
    with ThreadPoolExecutor(max_workers=min(threads, len(games)), thread_name_prefix="warlog-judge-all") as pool:
        return sum(pool.map(one, games))


def _judge_one(game_id: str, judge: Callable[[str, float], int], on_judged: Callable[[str], None],
               wait: float = LOCK_WAIT) -> int:
    """Judge one game, waiting up to `wait` s for a holder of its lock to finish (a holder does
    not look again for moves committed after its last read: warlog.judging.resolver); a lock
    held longer is left to the sweep. With no wait, a held lock raises LockTimeout (`judge_all`)."""
    try:
        n = judge(game_id, wait)
    except LockTimeout:
        if not wait:
            raise
        log.warning("game %s: its lock was held for %s s; the sweep will queue it again", game_id, wait)
        return 0
    if n > 0:
        on_judged(game_id)
    return n
