"""Standing answers by mail (ours; Assault on Belgium from rules version 2): the turn mail lists
the seat's own standing answers and a code for each it may set; a reply with such a code records
it (the same move the API and the play page make) and the answer mail says what now stands. The
other seat's mails never show it."""

from __future__ import annotations

from flask import Flask

from tests.mailin.conftest import Table, codes_of, reply, standing_codes_of, text_of
from tests.notify.conftest import Smtp
from warlog.games.service import Viewer


def test_a_standing_answer_is_set_by_reply_and_the_answer_mail_says_it_stands(mail_app: Flask, smtp: Smtp,
                                                                              mail_in) -> None:
    table = Table(mail_app, smtp, mail_in, "assault-on-belgium", "may-1940")
    first = table.next_turn()
    assert first is not None and table.seat_of(str(first["To"])) == "belgium"
    offered = standing_codes_of(first)
    stay = next(c for c, words in offered.items() if words.startswith("Air missions (AoB 8, 21): fly no missions"))
    setup = next(c for c, words in codes_of(first).items() if words == "use the standard set-up")
    assert stay not in codes_of(first)  # listed apart from the legal actions
    html = next(p for p in first.walk() if p.get_content_type() == "text/html").get_payload(decode=True).decode()
    assert "Standing answers you may set now" in html and "fly no missions" in html
    # the standing answer, then a move of the set-up: one reply, played in order
    table.replied.add(str(first["Reply-To"]))
    table.mail_in.send(reply(first, table.address["belgium"], f"{stay} {setup}"))
    answer = table.wait_answers(1)[0]
    said = text_of(answer).replace("\r\n", "\n")
    assert "2 of 2 move(s) played" in said, said
    assert f"{stay} (Air missions (AoB 8, 21): fly no missions" in said and ": played" in said
    head, _, rest = said.partition("Your standing answers (secret; the game answers these for you):")
    standing_now = " ".join(rest.split("\n\n")[0].split())
    assert standing_now == "- Air missions (AoB 8, 21): fly no missions: the aircraft stay at base, always", rest
    # no longer offered (it stands), its taking back is
    again = standing_codes_of(answer)
    assert not any(w.startswith("Air missions (AoB 8, 21): fly no missions") for w in again.values())
    assert any(w.startswith("Air missions (AoB 8, 21): ask me") for w in again.values())
    svc = mail_app.extensions["warlog"]
    state = svc.state(table.game.id, None, Viewer("belgium"))["state"]
    assert state["standing"]["belgium"] == {"air": {"answer": "stay", "when": []}}
    assert svc.state(table.game.id, None, Viewer("germany"))["state"]["standing"]["belgium"]["air"]["answer"] == "hidden"
    for m in table.answers_to("germany"):
        assert "fly no missions: the aircraft stay at base, always" not in text_of(m)
