"""Behind the shipped nginx config, `/metrics` (the deployment's pending moves, queue depth and
deliveries) answers a scrape from the proxy's own host and refuses anyone else: the figures are
the operator's, not the public's."""

from __future__ import annotations

import http.client

from tests.live.stack import Stack


def _get_from(source: str, port: int, path: str) -> int:
    """The status of GET `path` on the proxy, sent from the local address `source`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_metrics_answer_the_proxys_host_and_refuse_any_other_address(stack: Stack) -> None:
    stack.web(workers=1)
    stack.live()  # the config proxies its notice streams too
    port = stack.nginx()
    assert _get_from("127.0.0.1", port, "/metrics") == 200
    assert _get_from("127.0.0.2", port, "/metrics") == 403  # another host, as nginx sees it
    assert _get_from("127.0.0.2", port, "/healthz") == 200  # the rest of the site is public
