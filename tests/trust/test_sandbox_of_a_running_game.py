"""A sandbox built from a running game's position keeps each seat's hidden information hidden
from the seats of that game: the desk sandbox of an UP FRONT dispute, opened by a co-director
(the director who plays is refused), shows each seat of it only its own hand, and even once the
sandbox has ended its full view, export and replay file stay closed until the game it was
forked from has ended. The look the co-director took is recorded in the game."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.pages.conftest import ORIGIN, csrf_of
from tests.trust.test_directors_who_play import API, _event_where_the_director_plays, _signed_in


def _cards(state: dict, seat: str) -> list[str]:
    return list(state["hands"][seat])


@pytest.mark.slow
def test_an_up_front_desk_sandbox_shows_no_seat_of_the_game_its_opponents_hand(tapp: Flask) -> None:
    desk, dana, tid, game = _event_where_the_director_plays(tapp)
    gid = game["game_id"]
    warlog = tapp.extensions["warlog"]
    dispute = desk.get(f"{API}/{tid}")["disputes"][0]["dispute_seq"]
    # Dana plays in the game: her desk cannot open its sandbox at all
    r = dana.post(f"/tournaments/{tid}/desk/sandbox/{dispute}", headers=ORIGIN,
                  data={"csrf": csrf_of(dana, f"/tournaments/{tid}/desk")})
    assert r.status_code == 403
    cole = _signed_in(tapp, desk, "Cole")
    desk.post(f"{API}/{tid}/directors", "Dana", {"player_id": desk.ids["Cole"]})
    r = cole.post(f"/tournaments/{tid}/desk/sandbox/{dispute}", headers=ORIGIN,
                  data={"csrf": csrf_of(cole, f"/tournaments/{tid}/desk")})
    assert r.status_code == 201, r.get_data(as_text=True)[:400]
    html = r.get_data(as_text=True)
    links = {seat.lower(): link.replace("http://localhost", "") for link, seat in re.findall(
        r'value="(http://localhost/games/[0-9a-f]+/seat/[^"]+)" aria-label="Invitation link for (\w+)"', html)}
    director_link = re.search(r'value="http://localhost(/games/[0-9a-f]+/seat/[^"]+)" aria-label="Director link"',
                              html).group(1)
    sid = next(iter(links.values())).split("/")[2]
    # the co-director's look at the position is in the game, under his name, for both seats to see
    looks = [e for e in warlog.store.read(gid) if e.type == "hidden_viewed"]
    assert len(looks) == 1 and "Cole" in looks[0].payload["by"]
    full = warlog.history(gid).state_at(looks[0].payload["step"])  # the position rebuilt (read without the service)
    seats = {role: s["player_id"] for role, s in game["seats"].items()}
    for role, other in (("americans", "germans"), ("germans", "americans")):
        player = tapp.test_client()
        assert player.get(links[role]).status_code == 303
        hidden = _cards(full, other)
        seen = player.get(f"/api/v1/games/{sid}/events").get_data(as_text=True)
        assert hidden and not [c for c in hidden if f'"{c}"' in seen], f"{role} sees {other}'s hand in the sandbox"
        assert not [c for c in hidden if c in player.get(f"/games/{sid}").get_data(as_text=True)]
        assert seats[role]  # each seat of the game plays its own seat of the sandbox
    # The sandbox ends (its director awards it); the game it was forked from still runs.
    umpire = tapp.test_client()
    assert umpire.get(director_link).status_code == 303
    r = umpire.post(f"/games/{sid}/rule", headers=ORIGIN, data={
        "csrf": csrf_of(umpire, f"/games/{sid}"), "kind": "award", "winner": "germans", "result": "done",
        "text": "the sandbox has shown what it had to"})
    assert r.status_code == 303
    desk.drain()
    assert warlog.info(sid)["status"] == "ended" and warlog.info(gid)["status"] == "active"
    anyone = tapp.test_client()
    assert anyone.get(f"/api/v1/games/{sid}/export").status_code == 403
    assert anyone.get(f"/games/{sid}/replay/1?view=full").status_code == 403
    every = _cards(full, "americans") + _cards(full, "germans")
    for page in (anyone.get(f"/api/v1/games/{sid}/events").get_data(as_text=True),
                 anyone.get(f"/games/{sid}/replay.html").get_data(as_text=True)):
        assert not [c for c in every if f'"{c}"' in page]
