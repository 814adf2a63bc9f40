"""For bench/bench.py: the ledger's append rate and its anchors (the performance table's append row).

On each backend, with the same payload and one event per transaction:

* the warlog ledger (`EventStore.append`: hash chain, idempotency-free submission, projection);
* `eventsourcing`'s aggregate recorder inserting the same number of same-sized events;
* a raw chained INSERT: one `INSERT` per transaction of (game, seq, payload, prev_hash, hash)
  with the hash chained in Python, on the same connection settings as the ledger (the commit
  limit: what any ledger with this durability can reach);
* 8 writers on 8 games at once (threads sharing one store), beside the one-writer rate, and
  the raw chained INSERT's own 8-writer rate (8 threads, 8 connections): on PostgreSQL the
  scaling this machine (its cores, its disk's syncs) allows any ledger; on SQLite what writers
  that do not share commits get (they queue on the file's one write lock).
"""

from __future__ import annotations

import hashlib
import os
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from ledger.canonical import GENESIS_HASH, canonical_bytes
from ledger.events import GAME_CREATED, SUBMITTED, NewEvent
from ledger.factory import open_store
from ledger.store import EventStore

PG = os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
GAME = "assault-on-belgium"
PAYLOAD = {"action": {"type": "move", "hex": "0917"}, "expected_seq": 0, "idempotency_key": "x" * 32}
WRITERS = 8


def say(label: str, value: str) -> None:
    print(f"  {label:<58} {value}", flush=True)


def new_game(store: EventStore) -> str:
    gid = uuid.uuid4().hex[:16]
    store.append(gid, -1, [NewEvent(GAME_CREATED, None, {"game": GAME})], game_info=(GAME, "bench", False))
    return gid


def append_run(store: EventStore, gid: str, n: int, first: int = 0) -> None:
    for seq in range(first, first + n):
        store.append(gid, seq, [NewEvent(SUBMITTED, "germany", PAYLOAD)])


def time_appends(store: EventStore, n: int) -> float:
    """One writer, one game: appends/s."""
    gid = new_game(store)
    start = time.perf_counter()
    append_run(store, gid, n)
    return n / (time.perf_counter() - start)


WARM = 5  # appends each writer makes before the clock starts: the store's pool grows to 8 connections


def time_writers(store: EventStore, n: int, writers: int = WRITERS) -> float:
    """`writers` threads, each appending n // writers events to its own game: appends/s overall.
    The clock starts once every writer has made WARM appends, as the raw anchor's 8 connections
    are open before its clock starts (a pool grows one connection at a time, when asked)."""
    per = max(1, n // writers)
    games = [new_game(store) for _ in range(writers)]
    errors: list[BaseException] = []
    ready = threading.Barrier(writers + 1)

    def run(gid: str) -> None:
        try:
            append_run(store, gid, WARM)
        except BaseException as exc:  # reported after the join
            errors.append(exc)
        ready.wait()
        try:
            append_run(store, gid, per, first=WARM)
        except BaseException as exc:  # reported after the join
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(g,)) for g in games]
    for t in threads:
        t.start()
    ready.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    return per * writers / elapsed


RAW_TABLE = ("CREATE TABLE raw_events (game_id TEXT NOT NULL, seq BIGINT NOT NULL, payload TEXT NOT NULL, "
             "prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game_id, seq))")


def _raw_connection(kind: str, where: str) -> tuple[Any, str]:
    """A connection on the ledger's own settings (SQLite: journal, sync) and the raw INSERT."""
    conn: Any
    if kind == "sqlite":
        from ledger.sqlite import SqliteStore

        return SqliteStore(where)._connect(), "INSERT INTO raw_events VALUES (?, ?, ?, ?, ?)"
    conn = psycopg.connect(PG, autocommit=True)
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {0}; SET search_path TO {0}").format(sql.Identifier(where)))
    return conn, "INSERT INTO raw_events VALUES (%s, %s, %s, %s, %s)"


def _raw_run(conn: Any, insert: str, n: int) -> None:
    """n chained INSERTs of one new game, one per transaction (autocommit)."""
    payload = canonical_bytes(PAYLOAD)
    text = payload.decode("utf-8")
    gid, prev = uuid.uuid4().hex[:16], GENESIS_HASH
    for seq in range(n):
        digest = hashlib.sha256(prev.encode() + payload).hexdigest()
        conn.execute(insert, (gid, seq, text, prev, digest))
        prev = digest


def time_raw(kind: str, n: int, where: str) -> float:
    """The commit limit: one chained INSERT per transaction (autocommit), nothing else."""
    conn, insert = _raw_connection(kind, where)
    try:
        conn.execute(RAW_TABLE)
        start = time.perf_counter()
        _raw_run(conn, insert, n)
        return n / (time.perf_counter() - start)
    finally:
        conn.close()


def time_raw_writers(kind: str, n: int, where: str, writers: int = WRITERS) -> float:
    """The commit limit's own scaling: `writers` threads, each on its own connection, each
    INSERTing n // writers chained rows of its own game (to the table `time_raw` made):
    inserts/s overall. Its ratio to `time_raw` is what this machine allows 8 writers at all."""
    per = max(1, n // writers)
    conns = [_raw_connection(kind, where) for _ in range(writers)]
    errors: list[BaseException] = []

    def run(conn: Any, insert: str) -> None:
        try:
            _raw_run(conn, insert, per)
        except BaseException as exc:  # reported after the join
            errors.append(exc)

    threads = [threading.Thread(target=run, args=c) for c in conns]
    try:
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
    finally:
        for conn, _ in conns:
            conn.close()
    if errors:
        raise errors[0]
    return per * writers / elapsed


def time_eventsourcing(kind: str, n: int, where: str) -> float:
    from eventsourcing.persistence import StoredEvent

    state = canonical_bytes(PAYLOAD)
    if kind == "sqlite":
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

        recorder: Any = SQLiteAggregateRecorder(SQLiteDatastore(where))
    else:
        from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore
        from psycopg.conninfo import conninfo_to_dict

        dsn = conninfo_to_dict(PG)  # the same server and database as every other figure
        ds = PostgresDatastore(str(dsn.get("dbname", "postgres")), str(dsn.get("host", "127.0.0.1")),
                               int(dsn.get("port", 5432)), str(dsn.get("user", "postgres")),
                               str(dsn.get("password", "")), schema=where)
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(where)))
        recorder = PostgresAggregateRecorder(ds)
    recorder.create_table()
    oid = uuid.uuid4()
    start = time.perf_counter()
    for version in range(1, n + 1):
        recorder.insert_events([StoredEvent(oid, version, "warlog.bench:Submitted", state)])
    return n / (time.perf_counter() - start)


def drop_schemas(*names: str) -> None:
    with psycopg.connect(PG, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def one_round(label: str, n: int) -> dict[str, float]:
    """Each of the four figures once, on fresh tables."""
    out: dict[str, float] = {}
    if label == "SQLite":
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(f"sqlite:///{tmp}/w.sqlite3")
            out["ours"] = time_appends(store, n)
            out["es"] = time_eventsourcing("sqlite", n, f"{tmp}/es.sqlite3")
            out["raw"] = time_raw("sqlite", n, f"{tmp}/raw.sqlite3")
            out["writers"] = time_writers(store, n)
            out["raw writers"] = time_raw_writers("sqlite", n, f"{tmp}/raw.sqlite3")
            store.close()
        return out
    name = f"warlog_bench_{uuid.uuid4().hex[:10]}"
    try:
        store = open_store(f"{PG}?options=-csearch_path%3D{name}", upgrade=True)
        out["ours"] = time_appends(store, n)
        out["es"] = time_eventsourcing("postgres", n, name + "_es")
        out["raw"] = time_raw("postgres", n, name + "_raw")
        out["writers"] = time_writers(store, n)
        out["raw writers"] = time_raw_writers("postgres", n, name + "_raw")
        store.close()
    finally:
        drop_schemas(name, name + "_es", name + "_raw")
    return out


def figure_appends(n: int, fig: dict[str, float], rounds: int = 3,
                   backends: tuple[str, ...] = ("SQLite", "PostgreSQL")) -> None:
    """Ours and the anchors alternate `rounds` times on fresh tables; medians are printed, so
    that load from other processes on the machine hits every side alike."""
    print(f"1. ledger appends (one event per transaction, {n} events, median of {rounds} alternating runs)")
    for label in backends:
        runs = [one_round(label, n) for _ in range(rounds)]
        med: Callable[[str], float] = lambda k: statistics.median(r[k] for r in runs)
        a, es, raw, many, raw_many = med("ours"), med("es"), med("raw"), med("writers"), med("raw writers")
        recorder = "SQLiteAggregateRecorder" if label == "SQLite" else "PostgresAggregateRecorder"
        say(f"{label} warlog ledger (hash chain, projection, one writer)", f"{a:,.0f} appends/s")
        say(f"{label} eventsourcing {recorder}", f"{es:,.0f} inserts/s  (ratio ours/theirs {a / es:.2f})")
        say(f"{label} raw chained INSERT, autocommit (the commit limit)", f"{raw:,.0f} inserts/s  (ratio ours/raw "
            f"{a / raw:.2f})")
        say(f"{label} warlog ledger, {WRITERS} writers on {WRITERS} games", f"{many:,.0f} appends/s  (ratio to one "
            f"writer {many / a:.2f})")
        say(f"{label} raw chained INSERT, {WRITERS} writers on {WRITERS} games", f"{raw_many:,.0f} inserts/s  (ratio "
            f"to one writer {raw_many / raw:.2f}: the commit limit's own scaling)")
        fig[f"append {label}"], fig[f"es {label}"] = a, es
        fig[f"raw {label}"], fig[f"writers {label}"] = raw, many
        fig[f"raw writers {label}"] = raw_many
