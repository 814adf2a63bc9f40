"""PlayerStore on both backends: accounts, hashed tokens, single-use expiring links, sessions,
seat ownership (players)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from ledger.factory import open_store
from tests.players.conftest import FakeNow
from warlog.ops.sqldb import SqlDb
from warlog.players.store import (
    EmailTaken,
    InvalidPlayer,
    LinkInvalid,
    LinkThrottled,
    PlayerStore,
    SeatTaken,
    UnknownPlayer,
)


@pytest.fixture
def clock() -> FakeNow:
    return FakeNow()


@pytest.fixture
def players(db_url: str, clock: FakeNow) -> Iterator[PlayerStore]:
    store = open_store(db_url)
    ps = PlayerStore(SqlDb(store), now=clock)
    ps.create_schema()
    ps.create_schema()  # idempotent
    yield ps
    store.close()


def test_register_get_and_unique_email_ignoring_case(players: PlayerStore) -> None:
    ann = players.register("  Ann   Lee ", "Ann@Example.org")
    assert ann.display_name == "Ann Lee" and ann.email == "Ann@Example.org"
    assert players.get(ann.id) == ann
    assert players.by_email("ann@example.ORG") == ann
    with pytest.raises(EmailTaken):
        players.register("Impostor", "ANN@example.org")
    assert players.get("nobody") is None


@pytest.mark.parametrize("name,email", [("", "a@b.org"), ("x" * 61, "a@b.org"), ("Ann", "not-an-address"),
                                        ("Ann", "")])
def test_register_refuses_bad_names_and_addresses(players: PlayerStore, name: str, email: str) -> None:
    with pytest.raises(InvalidPlayer):
        players.register(name, email)


def test_api_token_is_stored_hashed_and_a_new_one_revokes_the_old(players: PlayerStore) -> None:
    ann = players.register("Ann", "ann@example.org")
    assert players.by_token(None) is None
    first = players.issue_token(ann.id)
    assert first.startswith("wp_") and players.by_token(first) == ann
    stored = players.db.rows("SELECT token_sha256 FROM players")
    assert first not in str(stored) and len(stored[0][0]) == 64
    second = players.issue_token(ann.id)
    assert players.by_token(first) is None and players.by_token(second) == ann
    assert players.by_token("wp_" + "x" * 32) is None
    with pytest.raises(UnknownPlayer):
        players.issue_token("nobody")


def test_signin_link_works_once(players: PlayerStore) -> None:
    ann = players.register("Ann", "ann@example.org")
    secret, found = players.signin_link("ANN@example.org")
    assert found == ann
    assert players.peek_link(secret).player == ann  # looking does not use it
    assert players.use_link(secret) == ann
    with pytest.raises(LinkInvalid):
        players.use_link(secret)
    with pytest.raises(LinkInvalid):
        players.peek_link(secret)
    assert secret not in str(players.db.rows("SELECT * FROM signin_links"))


def test_signin_link_expires_after_an_hour(players: PlayerStore, clock: FakeNow) -> None:
    players.register("Ann", "ann@example.org")
    secret, _ = players.signin_link("ann@example.org")
    clock.advance(minutes=59)
    players.peek_link(secret)
    clock.advance(minutes=1)
    with pytest.raises(LinkInvalid):
        players.use_link(secret)


def test_unknown_link_is_refused_like_a_used_one(players: PlayerStore) -> None:
    with pytest.raises(LinkInvalid) as unknown:
        players.use_link("never-issued")
    players.register("Ann", "ann@example.org")
    secret, _ = players.signin_link("ann@example.org")
    players.use_link(secret)
    with pytest.raises(LinkInvalid) as used:
        players.use_link(secret)
    assert str(unknown.value) == str(used.value)


def test_link_for_a_new_address_registers_it_on_use(players: PlayerStore) -> None:
    secret, found = players.signin_link("bob@example.org", "Bob")
    assert found is None and players.by_email("bob@example.org") is None  # nothing before the link is used
    bob = players.use_link(secret)
    assert bob.display_name == "Bob" and players.by_email("bob@example.org") == bob
    nameless, _ = players.signin_link("cy@example.org")
    with pytest.raises(InvalidPlayer):
        players.use_link(nameless)  # a name is needed to register; the link stays usable
    assert players.use_link(nameless, "Cy").display_name == "Cy"


def test_two_racing_uses_of_one_link_sign_in_once(players: PlayerStore) -> None:
    players.register("Ann", "ann@example.org")
    secret, _ = players.signin_link("ann@example.org")
    results: list[str] = []

    def use() -> None:
        try:
            players.use_link(secret)
            results.append("ok")
        except LinkInvalid:
            results.append("refused")

    threads = [threading.Thread(target=use) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "refused", "refused", "refused"]


def test_sessions_expire_and_end(players: PlayerStore, clock: FakeNow) -> None:
    ann = players.register("Ann", "ann@example.org")
    cookie = players.new_session(ann.id)
    assert players.by_session(cookie) == ann and players.by_session(None) is None
    players.end_session(cookie)
    assert players.by_session(cookie) is None
    cookie = players.new_session(ann.id)
    clock.advance(days=91)
    assert players.by_session(cookie) is None


def test_seat_ownership(players: PlayerStore) -> None:
    ann = players.register("Ann", "ann@example.org")
    bob = players.register("Bob", "bob@example.org")
    players.claim_seat("g1", "germany", ann.id)
    players.claim_seat("g1", "germany", ann.id)  # the same claim again: nothing changes
    with pytest.raises(SeatTaken):
        players.claim_seat("g1", "germany", bob.id)
    with pytest.raises(SeatTaken):
        players.claim_seat("g1", "belgium", ann.id)  # one seat of a game per player
    players.claim_seat("g1", "belgium", bob.id)
    players.claim_seat("g2", "us", ann.id)
    assert players.seats_of(ann.id) == [("g1", "germany"), ("g2", "us")]
    assert players.owners("g1") == {"germany": ann.id, "belgium": bob.id}
    with pytest.raises(UnknownPlayer):
        players.claim_seat("g3", "us", "nobody")
    token = players.issue_token(bob.id)
    assert players.seat_for_credential("g1", token) == "belgium"
    assert players.seat_for_credential("g2", token) is None
    assert players.seat_for_credential("g1", players.new_session(ann.id)) == "germany"


def test_at_most_one_link_every_five_minutes_per_address(players: PlayerStore, clock: FakeNow) -> None:
    """Nobody can flood an inbox with sign-in mail through us (counted for unknown addresses too),
    nor lock its owner out: the link sent stays valid, and a new one comes minutes later."""
    for email in ("ann@example.org", "nobody@example.org"):
        if email.startswith("ann"):
            players.register("Ann", email)
        secret, _ = players.signin_link(email.upper())
        for _ in range(6):
            with pytest.raises(LinkThrottled):
                players.signin_link(email)
        assert players.peek_link(secret).email.lower() == email
    clock.advance(minutes=5, seconds=1)
    players.signin_link("ann@example.org")


def test_expired_links_and_sessions_are_purged_after_a_week(players: PlayerStore, clock: FakeNow) -> None:
    ann = players.register("Ann", "ann@example.org")
    players.signin_link("ann@example.org")
    cookie = players.new_session(ann.id)
    assert players.purge() == 0
    clock.advance(days=8)
    assert players.purge() == 1  # the link (expired 8 days ago less an hour); the session lives 90 days
    clock.advance(days=90)
    assert players.purge() == 1 and players.by_session(cookie) is None
