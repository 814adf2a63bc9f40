"""A move not yet judged can be taken back by its seat, through the API and the play page. The
ledger records it honestly: that move's judgement is a `rejected` event under the seat's own
name, `withdrawn: true`, with no dice; the umpire never judges the move, the state does not
change, and `warlog verify` accepts the export (and refuses a judgement after a take-back).
The umpire is held off by holding the game's resolution lock, as a busy worker would."""

from __future__ import annotations

from typing import Any

from ledger.events import RESOLVED, NewEvent
from ledger.export import export_lines
from tests.pages.conftest import ORIGIN, csrf_of, drain
from warlog.trust.verify import VerifyFailure, verify_events, verify_lines

SETUP = '{"type": "standard_setup"}'
DONE = '{"type": "done_setup"}'


def _setup_both(pg):
    for seat in ("belgium", "germany"):
        pg.act(seat, SETUP)
        pg.act(seat, DONE)


def _token(pg, seat: str) -> str:
    return pg.links[seat].rsplit("/", 1)[1]


def _api(pg, seat: str, method: str, path: str, body: Any = None) -> Any:
    client = pg.seats[seat] if seat in pg.seats else pg.spectator
    headers = {"Authorization": f"Bearer {_token(pg, seat)}"} if seat in pg.links else {}
    return client.open(f"/api/v1/games/{pg.id}{path}", method=method, headers=headers,
                       json=body if body is not None else None)


def _submit_held(app, pg, seat: str, action: dict[str, Any]) -> tuple[int, Any]:
    """Submit `action` through the API while the umpire is held off; (its seq, the held lock)."""
    store = app.extensions["warlog"].store
    lock = store.game_lock(pg.id)
    lock.__enter__()
    expected = _api(pg, seat, "GET", "/actions").get_json()["expected_seq"]
    r = _api(pg, seat, "POST", "/moves", {"action": action, "expected_seq": expected, "idempotency_key": "held-1"})
    assert r.status_code == 202, r.get_json()
    return r.get_json()["seq"], lock


def test_a_seat_takes_back_its_move_before_the_umpire_judges_it(app, page_game):
    pg = page_game()
    _setup_both(pg)
    before = _api(pg, "germany", "GET", "/actions").get_json()
    seq, lock = _submit_held(app, pg, "germany", {"type": "select", "unit": "de-pz-3"})
    try:
        assert _api(pg, "germany", "GET", f"/moves/{seq}").get_json()["status"] == "pending"
        assert _api(pg, "belgium", "POST", f"/moves/{seq}/take-back").status_code == 403  # not Belgium's move
        r = _api(pg, "germany", "POST", f"/moves/{seq}/take-back")
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["status"] == "withdrawn"
    finally:
        lock.__exit__(None, None, None)
    drain(app)
    move = _api(pg, "germany", "GET", f"/moves/{seq}").get_json()
    assert move["status"] == "withdrawn" and "taken back by germany" in move["reasons"][0]["message"]
    after = _api(pg, "germany", "GET", "/actions").get_json()
    assert after["actions"] == before["actions"] and not after.get("pending")  # nothing judged, nothing changed
    events = app.extensions["warlog"].store.read(pg.id)
    judgements = [e for e in events if e.payload.get("submission_seq") == seq]
    assert [(e.type, e.seat, e.payload.get("withdrawn"), e.payload.get("dice")) for e in judgements] == \
        [("rejected", "germany", True, None)]  # the umpire never judged it after the take-back
    assert verify_lines(export_lines(app.extensions["warlog"].store, pg.id)).judgements >= 1  # the export verifies
    html = pg.page("spectator", f"/replay/{events[-1].seq}")
    assert "Taken back by its seat — Germany" in html


def test_a_judged_move_stands_and_a_judgement_after_a_take_back_fails_verification(app, page_game):
    pg = page_game()
    _setup_both(pg)
    r = pg.act("germany", '{"type": "select", "unit": "de-pz-3"}')
    seq = int(r.headers["Location"].rsplit("last=", 1)[1])
    judged = _api(pg, "germany", "POST", f"/moves/{seq}/take-back")
    assert judged.status_code == 409 and "judged already" in judged.get_json()["error"]
    store = app.extensions["warlog"].store
    resolved = next(e for e in store.read(pg.id) if e.type == RESOLVED and e.payload["submission_seq"] == seq)
    seq2, lock = _submit_held(app, pg, "germany", {"type": "end_unit_move"})
    try:
        assert _api(pg, "germany", "POST", f"/moves/{seq2}/take-back").status_code == 200
        forged = {**resolved.payload, "submission_seq": seq2}  # an umpire that judges it anyway
        store.append(pg.id, store.last_seq(pg.id), [NewEvent(RESOLVED, None, forged)])
    finally:
        lock.__exit__(None, None, None)
    try:
        verify_events(store.read(pg.id))
    except VerifyFailure as err:
        assert "took back" in str(err)
    else:
        raise AssertionError("a judgement of a move taken back passed verification")


def test_the_play_page_offers_the_take_back_while_the_move_waits(app, page_game):
    pg = page_game()
    _setup_both(pg)
    seq, lock = _submit_held(app, pg, "germany", {"type": "select", "unit": "de-pz-3"})
    try:
        mine = pg.page("germany", f"?last={seq}")
        assert 'id="take-back"' in mine
        assert 'id="take-back"' not in pg.page("belgium", f"?last={seq}")
        c = pg.seats["germany"]
        r = c.post(f"/games/{pg.id}/moves/{seq}/take-back", headers=ORIGIN,
                   data={"csrf": csrf_of(c, f"/games/{pg.id}")})
        assert r.status_code == 303
    finally:
        lock.__exit__(None, None, None)
    drain(app)
    html = pg.page("germany", f"?last={seq}")
    assert "Taken back:" in html and "never judged" in html


def test_a_take_back_in_a_game_that_keeps_secrets_is_blinded_and_verifies(app, page_game):
    """Green Beret keeps face-down markers: every judgement carries a blind derived from the
    seed (ledger.dice step 5), the take-back's too, and the export still verifies."""
    pg = page_game("green-beret-vietnam/campaign")
    camp = next(a for a in _api(pg, "player", "GET", "/actions").get_json()["actions"] if a["type"] == "place_camp")
    seq, lock = _submit_held(app, pg, "player", camp)
    try:
        assert _api(pg, "player", "POST", f"/moves/{seq}/take-back").status_code == 200
    finally:
        lock.__exit__(None, None, None)
    drain(app)
    store = app.extensions["warlog"].store
    taken = next(e for e in store.read(pg.id) if e.payload.get("submission_seq") == seq)
    assert taken.payload["withdrawn"] is True and "blind" in taken.payload
    assert verify_lines(export_lines(store, pg.id)).judgements == 0
    assert _api(pg, "player", "GET", "/actions").get_json()["actions"][0]["type"] == "place_camp"
