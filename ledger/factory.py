"""Opening a ledger from its URL: the one place that knows every backend, so that the store
contract (ledger/store.py) never imports its own implementations."""

from __future__ import annotations

from ledger.store import EventStore, LedgerError


class StoreURLError(LedgerError, ValueError):
    """A ledger URL this build cannot open."""


def sqlite_path(url: str) -> str | None:
    """The file of a `sqlite:///path` URL or a bare path; None for a PostgreSQL URL."""
    if url.startswith(("postgresql://", "postgres://")):
        return None
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):]
    if "://" in url or not url.strip():
        from ledger.urls import mask_url

        raise StoreURLError(f"cannot open a ledger at {mask_url(url)!r}: use sqlite:///path/to/file.sqlite3 "
                            "or postgresql://user@host:5432/db")
    return url


def store_at(url: str) -> EventStore:
    """A store on `url` that has not looked at the schema yet (see open_store)."""
    path = sqlite_path(url)
    if path is None:
        from ledger.postgres import PostgresStore

        return PostgresStore(url)
    from ledger.sqlite import SqliteStore

    return SqliteStore(path)


def open_store(url: str, *, upgrade: bool | None = None) -> EventStore:
    """`sqlite:///path/to/file.db` (or a bare path) or `postgresql://...`.

    `upgrade`: apply missing migrations (the owner's job) or only check the schema version
    (SchemaOutOfDate if it is not this release's). Default: the embedded SQLite ledger
    upgrades itself; PostgreSQL is only checked (run `warlog db upgrade` as the owner)."""
    store = store_at(url)
    try:
        if upgrade if upgrade is not None else sqlite_path(url) is not None:
            store.create_schema()
        else:
            store.check_schema()
    except BaseException:
        store.close()
        raise
    return store
