"""Never a 500 on the pages either: arbitrary form values and URLs get a readable error page
(4xx) or the page itself. Hypothesis drives a seated browser of a live Assault on Belgium game."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pages.conftest import ORIGIN, csrf_of

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
text = st.text(max_size=30)


@pytest.fixture
def seated(page_game: Any) -> Any:
    pg = page_game()
    client = pg.seats["belgium"]
    return pg, client, csrf_of(client, f"/games/{pg.id}")


def _readable(r: Any, allowed: set[int]) -> None:
    assert r.status_code in allowed, (r.status_code, r.get_data(as_text=True)[:300])
    assert "Traceback" not in r.get_data(as_text=True)


@FUZZ
@given(action=text | st.sampled_from(['{"type": "standard_setup"}', '{"type": 1}', "[]", "null", '{"type": "move"}']),
       expected=text | st.sampled_from(["3", "-1", "99999999999999999999"]), key=text)
def test_act_with_any_form_answers_readably(seated, action, expected, key) -> None:
    pg, client, csrf = seated
    r = client.post(f"/games/{pg.id}/act", data={"csrf": csrf, "action": action, "expected_seq": expected,
                                                 "key": key}, headers=ORIGIN)
    _readable(r, {303, 400, 403, 404, 409, 422})


@FUZZ
@given(game=text | st.sampled_from(["assault-on-belgium/may-1940", "green-beret-vietnam/campaign", "/", "x/y"]),
       options=st.dictionaries(st.sampled_from(["opt_no_entry_nl_france", "sandbox_state", "sandbox_dice", "x"]),
                               text, max_size=3))
def test_create_with_any_form_answers_readably(seated, game, options) -> None:
    pg, client, csrf = seated
    r = client.post("/games", data={"csrf": csrf, "game": game, **options}, headers=ORIGIN)
    _readable(r, {201, 303, 400, 422})


@FUZZ
@given(step=st.integers(min_value=-10, max_value=10**9), unit=text, query=st.dictionaries(
    st.sampled_from(["game", "status", "view", "last", "at"]), text, max_size=3))
@pytest.mark.slow
def test_any_url_answers_readably(seated, step, unit, query) -> None:
    pg, client, _ = seated
    safe_unit = unit.replace("/", "_").replace("?", "_").replace("#", "_") or "u"
    for path in ("/", f"/games/{pg.id}", f"/games/{pg.id}/replay/{max(step, 0)}", f"/games/{pg.id}/reach/{safe_unit}",
                 f"/games/{pg.id}/audit", f"/games/{pg.id}/replay", "/games/no-such-game"):
        r = client.get(path, query_string=query)
        _readable(r, {200, 302, 303, 400, 403, 404})
