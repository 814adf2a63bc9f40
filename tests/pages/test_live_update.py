"""The play page's in-place update (the mover sees the result within 200 ms of the
worker's judgement): `/games/{id}/live?wait=1` is woken by the in-process worker as it records
the judgement, and the board layers the page already holds are not sent again."""

from __future__ import annotations

import re
import threading
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REDIS_URL
from tests.pages.conftest import ORIGIN, csrf_of, drain
from warlog.judging import wakeup
from warlog.web import layerkeep, pages


def test_a_waiting_live_request_answers_with_the_new_step_when_the_worker_judges(page_game, monkeypatch) -> None:
    """The request is already waiting when the judgement lands; polling is switched off (its
    interval is the whole wait), so the wait ends by the worker's wake-up, and the answer is the
    judged step's panel."""
    pg = page_game()
    client = pg.seats["belgium"]
    monkeypatch.setattr(pages, "POLL_INLINE", pages.LIVE_WAIT)
    waiting, real_wait, woken = threading.Event(), wakeup.wait, []

    def wait_and_tell(game_id: str, since: int, timeout: float) -> bool:
        waiting.set()
        woken.append(real_wait(game_id, since, timeout))
        return woken[-1]

    monkeypatch.setattr(wakeup, "wait", wait_and_tell)
    queue = pg.app.extensions["warlog_queue"]
    gate = threading.Event()
    queue.pool.submit(gate.wait, 30)  # the in-process worker is busy until the gate opens
    expected = pg.expected_seq("belgium")
    r = client.post(f"/games/{pg.id}/act", headers={**ORIGIN, "Accept": "application/json"},
                    data={"csrf": csrf_of(client, f"/games/{pg.id}"), "expected_seq": str(expected),
                          "action": '{"type": "standard_setup"}'})
    assert r.status_code == 202, r.get_data(as_text=True)
    seq = r.get_json()["seq"]
    answer: dict[str, Any] = {}

    def live() -> None:
        resp = client.get(f"/games/{pg.id}/live?last={seq}&wait=1")
        answer["status"], answer["html"] = resp.status_code, resp.get_data(as_text=True)

    t = threading.Thread(target=live)
    t.start()
    try:
        assert waiting.wait(20), "the live request never waited"
        assert pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["pending"]  # not judged yet
    finally:
        gate.set()
    t.join(30)
    assert not t.is_alive()
    drain(pg.app)
    assert woken == [True]  # one wait, ended by the worker's judgement (not by its timeout)
    assert answer["status"] == 200
    root = re.search(r'<div[^>]*id="play-root"[^>]*>', answer["html"]).group(0)
    assert 'data-result="resolved"' in root and f'data-last="{seq}"' in root
    assert f'data-seq="{seq + 1}"' in root  # the judgement is the new step shown


def test_layers_the_page_holds_come_back_as_placeholders(page_game) -> None:
    pg = page_game()
    page = pg.page("belgium")
    keys = re.findall(r'<g data-k="([0-9a-f]{16})"', page)
    assert len(keys) >= 3  # the printed map's layers (terrain, borders, rivers, places)
    client = pg.seats["belgium"]
    whole = client.get(f"/games/{pg.id}/live").get_data(as_text=True)
    short = client.get(f"/games/{pg.id}/live", headers={layerkeep.HAVE_HEADER: " ".join(keys)}).get_data(as_text=True)
    assert 'data-keep=""' not in whole and all(f'data-k="{k}"' in whole for k in keys)
    assert all(f'<g data-k="{k}" data-keep=""></g>' in short for k in keys)
    assert len(short) < len(whole) / 2
    pg.act("belgium", '{"type": "standard_setup"}')  # units moved: the printed map did not
    after = client.get(f"/games/{pg.id}/live", headers={layerkeep.HAVE_HEADER: " ".join(keys)}).get_data(as_text=True)
    assert sum(f'<g data-k="{k}" data-keep=""></g>' in after for k in keys) >= 3
    junk = client.get(f"/games/{pg.id}/live", headers={layerkeep.HAVE_HEADER: "<script> zz, 12"})
    assert junk.status_code == 200 and 'data-keep=""' not in junk.get_data(as_text=True)


BIG = "x" * layerkeep.MIN_LAYER


def test_annotate_keys_top_level_layers_only() -> None:
    """Nested groups stay inside their layer; groups in <defs> and small layers are left alone."""
    html = (f'<svg><defs><g id="d">{BIG}</g></defs><g class="a"><g class="in">{BIG}</g></g>'
            f'<g class="small">s</g><g class="b"/><g class="c">{BIG}</g></svg>')
    out = layerkeep.annotate(html)
    ka, kc = layerkeep.key_of(f'<g class="a"><g class="in">{BIG}</g></g>'), layerkeep.key_of(f'<g class="c">{BIG}</g>')
    assert out.count("data-k=") == 2 and f'<g data-k="{ka}" class="a"><g class="in">' in out
    assert '<g id="d">' in out and '<g class="small">s</g>' in out
    kept = layerkeep.annotate(html, frozenset({kc}))
    assert f'<g data-k="{kc}" data-keep=""></g></svg>' in kept and f'<g data-k="{ka}" class="a">' in kept


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)  # a shared, loaded machine
@given(st.lists(st.sampled_from(["<g>", "</g>", "<g/>", "<defs>", "</defs>", "t", BIG]), max_size=12))
def test_annotate_only_adds_keys(parts: list[str]) -> None:
    """Whatever the markup (even unbalanced), annotating without a held key changes nothing but
    the added `data-k` attributes."""
    html = "".join(parts)
    assert re.sub(r' ?data-k="[0-9a-f]{16}"', "", layerkeep.annotate(html)) == html


def test_parse_have_takes_keys_only() -> None:
    assert layerkeep.parse_have("0123456789abcdef, fedcba9876543210 <x> 12") == {"0123456789abcdef",
                                                                                 "fedcba9876543210"}
    assert layerkeep.parse_have(None) == frozenset()


def test_a_judgement_published_on_redis_wakes_this_process() -> None:
    """A deployment: the RQ job publishes the judged game (warlog.judging.jobs.resolve_game) and each web
    process's listener wakes its own waiting pages (a real Redis)."""
    import uuid

    from redis import Redis

    r = Redis.from_url(REDIS_URL)
    stop = threading.Event()
    game_id = "wake-" + uuid.uuid4().hex
    thread = wakeup.listen(r, stop)
    try:
        mark = wakeup.generation(game_id)
        woken = False
        for _ in range(50):  # the subscription is made in the thread: publish until it hears
            wakeup.publish(r, game_id)
            if wakeup.wait(game_id, mark, 0.2):
                woken = True
                break
        assert woken and wakeup.generation(game_id) > mark
        assert wakeup.listening()  # so a waiting page polls the ledger only as a safety net
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()
    assert not wakeup.listening()
    wakeup.publish(Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2), game_id)  # logged, not raised


def test_a_judgement_wakes_only_the_requests_waiting_for_its_game(monkeypatch: Any) -> None:
    """Each waiter waits on its own game's condition: judgements of another game do not wake it
    (one condition for every game woke every waiting request of the process at each judgement),
    its own game's does, and nothing is left behind once no one waits."""
    waits: dict[str, int] = {}
    real_condition = threading.Condition

    class Counted(real_condition):  # type: ignore[valid-type,misc]
        def wait(self, timeout: float | None = None) -> bool:
            name = threading.current_thread().name
            waits[name] = waits.get(name, 0) + 1
            return super().wait(timeout)

    monkeypatch.setattr(threading, "Condition", Counted)
    woken: dict[str, bool] = {}

    def waiter(game_id: str) -> None:
        woken[game_id] = wakeup.wait(game_id, wakeup.generation(game_id), 10.0)

    quiet = threading.Thread(target=waiter, args=("quiet-game",), name="quiet", daemon=True)
    quiet.start()
    try:
        for _ in range(500):
            if "quiet" in waits:
                break
            threading.Event().wait(0.01)
        assert "quiet" in waits, "the waiter did not wait on a condition of its own"
        for _ in range(20):
            wakeup.judged("busy-game")
        threading.Event().wait(0.1)
        assert quiet.is_alive() and waits["quiet"] == 1, waits  # never woken by the other game's judgements
    finally:
        wakeup.judged("quiet-game")
        quiet.join(5)
    assert woken == {"quiet-game": True} and waits["quiet"] == 1
    assert not wakeup._waiting
