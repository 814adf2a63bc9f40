"""WARLOG_NET_TIMEOUT (ledger/netopts.py): what every PostgreSQL and Redis connection is given so
that a partition fails within seconds, what a URL keeps of its own, and a bad value said in words.
The partitions themselves are in tests/deploy/test_partitions.py."""

from __future__ import annotations

import psycopg
import pytest

from ledger.netopts import NetTimeoutError, net_timeout, pg_params, redis_params
from tests.conftest import PG_URL


def test_a_bad_net_timeout_is_refused_in_words() -> None:
    assert net_timeout({}) == 5.0
    assert net_timeout({"WARLOG_NET_TIMEOUT": "2.5"}) == 2.5
    for bad in ("soon", "1", "-3", "nan"):
        with pytest.raises(NetTimeoutError, match="WARLOG_NET_TIMEOUT"):
            net_timeout({"WARLOG_NET_TIMEOUT": bad})


def test_a_url_keeps_its_own_parameters_and_its_options_come_first() -> None:
    ours = pg_params("postgresql://u@h/db?connect_timeout=10&keepalives_idle=30&options=-csearch_path%3Dgames",
                     timeout=5)
    assert "connect_timeout" not in ours and "keepalives_idle" not in ours
    assert ours["tcp_user_timeout"] == 5000 and ours["keepalives"] == 1
    assert ours["options"].startswith("-csearch_path=games -c tcp_keepalives_idle=")


def test_the_server_side_of_a_session_gives_up_a_silent_client_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set per session, with no server configuration: what PostgreSQL itself then applies."""
    monkeypatch.setenv("WARLOG_NET_TIMEOUT", "4")
    with psycopg.connect(PG_URL, **pg_params(PG_URL)) as conn:
        shown = {name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
                 for name in ("tcp_user_timeout", "tcp_keepalives_idle", "tcp_keepalives_count")}
    assert shown == {"tcp_user_timeout": "4s", "tcp_keepalives_idle": "2", "tcp_keepalives_count": "2"} or \
        shown == {"tcp_user_timeout": "4000", "tcp_keepalives_idle": "2", "tcp_keepalives_count": "2"}, shown


def test_redis_is_not_retried_after_a_timeout_and_rqs_wait_has_no_read_timeout() -> None:
    plain, blocking = redis_params(5), redis_params(5, blocking=True)
    assert plain["socket_timeout"] == 5 and "socket_timeout" not in blocking
    assert plain["retry"].get_retries() == 1 and blocking["retry"].get_retries() == 0
    assert plain["socket_keepalive"] and plain["socket_connect_timeout"] == 2
